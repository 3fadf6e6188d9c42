// The MCP endpoint (POST /v1/mcp), driven by the official SDK's own client over Streamable HTTP on a
// real socket: the tools it lists, a render whose bytes are POST /v1/generate/{slug}'s for the same
// recipe, a fresh client's first correct render in three calls, a refusal told as the tool's error,
// a sweep answered as one contact sheet holding the API's renders, and a client without a key
// refused with 401 before any tool runs.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type Sharp from 'sharp';
import { ONE_ENGINE } from '../support/black-box/databases.ts';
import { sendRaw } from '../support/raw-http-client.ts';
import { openApiDocument } from '../../src/lib/openapi-document.ts';
import { startTestApp, TEST_LOCAL_KEY, type TestApp } from '../support/harness.ts';

const sharp = createRequire(import.meta.url)('sharp') as typeof Sharp;

const TOOLS = [
  'list_generators',
  'describe_generator',
  'list_templates',
  'render',
  'sweep',
  'sign_url',
  'quote',
  'export',
  'job_status',
].sort();

for (const engine of ONE_ENGINE) {
  describe(`the MCP endpoint on ${engine}`, () => {
    let t: TestApp;
    let url: URL;
    const clients: Client[] = [];

    /** A fresh SDK client connected to the endpoint, with the given key (none: no Authorization). */
    async function connect(key: string | undefined = TEST_LOCAL_KEY): Promise<Client> {
      const client = new Client({ name: 'mcp-test', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(url, key ? { requestInit: { headers: { Authorization: `Bearer ${key}` } } } : {});
      await client.connect(transport);
      clients.push(client);
      return client;
    }
    const call = async (client: Client, name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;

    before(async () => {
      t = await startTestApp(engine);
      const { port } = await t.listen();
      url = new URL(`http://127.0.0.1:${port}/v1/mcp`);
    });
    after(async () => {
      for (const client of clients) await client.close();
      await t?.close();
    });

    test('lists every tool, each input schema an object schema; render takes the contract’s BatchItem', async () => {
      const client = await connect();
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), TOOLS);
      for (const tool of tools) assert.equal(tool.inputSchema.type, 'object', tool.name);
      const render = tools.find((tool) => tool.name === 'render')!;
      const batchItem = (openApiDocument().components as { schemas: Record<string, { properties: object; required: string[] }> }).schemas
        .BatchItem;
      assert.deepEqual(Object.keys(render.inputSchema.properties ?? {}).sort(), Object.keys(batchItem.properties).sort());
      assert.deepEqual(render.inputSchema.required, batchItem.required);
      // The slugs are in the description, so an agent can render at once.
      assert.match(render.description ?? '', /mesh-gradient/);
    });

    test('render answers a png whose bytes are POST /v1/generate/{slug}’s, with its recipe, hash and recipe URL', async () => {
      const recipe = { seed: 7, size: { width: 64, height: 48 }, format: 'png' };
      const api = await t.request('post', '/v1/generate/mesh-gradient', { body: recipe });
      assert.equal(api.status, 200);
      const client = await connect();
      const result = await call(client, 'render', { slug: 'mesh-gradient', ...recipe });
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      const image = result.content.find((c) => c.type === 'image');
      assert.ok(image && image.type === 'image');
      assert.equal(image.mimeType, 'image/png');
      assert.ok(Buffer.from(image.data, 'base64').equals(api.body as Buffer));
      const facts = result.structuredContent as { hash: string; encodedRecipe: string; recipeUrl: string; recipe: { generator: string } };
      assert.equal(facts.hash, api.headers['x-service-recipe-hash']);
      assert.equal(facts.encodedRecipe, api.headers['x-service-recipe']);
      assert.equal(facts.recipe.generator, 'mesh-gradient');
      // The recipe URL renders the same bytes.
      const byUrl = await t.request('get', new URL(facts.recipeUrl).pathname + new URL(facts.recipeUrl).search);
      assert.equal(byUrl.status, 200);
      assert.ok((byUrl.body as Buffer).equals(api.body as Buffer));
    });

    test('a fresh client renders correctly in three calls: list_generators → describe_generator → render', async () => {
      const client = await connect();
      const listed = await call(client, 'list_generators', {});
      const generators = (listed.structuredContent as { generators: { slug: string; formats: string[] }[] }).generators;
      const still = generators.find((g) => g.slug === 'identicon') ?? generators.find((g) => g.formats.includes('webp'))!;
      const described = await call(client, 'describe_generator', { slug: still.slug });
      const detail = described.structuredContent as { slug: string; suggestedSize: { width: number; height: number }; formats: string[] };
      assert.equal(detail.slug, still.slug);
      const format = detail.formats.includes('webp') ? 'webp' : 'png';
      const size = { width: Math.round(detail.suggestedSize.width / 8), height: Math.round(detail.suggestedSize.height / 8) };
      const rendered = await call(client, 'render', { slug: still.slug, size, format });
      const image = rendered.content.find((c) => c.type === 'image');
      assert.ok(image && image.type === 'image', JSON.stringify(rendered.content).slice(0, 300));
      const api = await t.request('post', `/v1/generate/${still.slug}`, { body: { size, format } });
      assert.ok(Buffer.from(image.data, 'base64').equals(api.body as Buffer));
    });

    test('a refusal of the API is the tool’s error, naming its code; quote answers the API’s quote', async () => {
      const client = await connect();
      const missing = await call(client, 'render', { slug: 'plasm' });
      assert.equal(missing.isError, true);
      assert.match(JSON.stringify(missing.content), /404 generator_not_found/);
      const quoted = await call(client, 'quote', { render: { slug: 'mesh-gradient', size: { width: 64, height: 48 } } });
      const api = await t.request('post', '/v1/quote', { body: { render: { slug: 'mesh-gradient', size: { width: 64, height: 48 } } } });
      assert.deepEqual(quoted.structuredContent, api.body);
    });

    test('sweep answers one contact sheet of its cells, each the API’s render with its recipe; sign_url signs with the workspace’s key', async () => {
      const client = await connect();
      const size = { width: 40, height: 30 };
      const seeds = [5, 6, 7, 8];
      const swept = await call(client, 'sweep', { slug: 'mesh-gradient', seeds, size, format: 'png' });
      assert.notEqual(swept.isError, true, JSON.stringify(swept.content).slice(0, 300));
      // One image, the sheet, then the list: the cells' own images stay out unless asked for.
      assert.deepEqual(
        swept.content.map((c) => c.type),
        ['image', 'text'],
      );
      const sheetImage = swept.content[0]!;
      assert.ok(sheetImage.type === 'image');
      assert.equal(sheetImage.mimeType, 'image/png');
      const png = Buffer.from(sheetImage.data, 'base64');
      const facts = swept.structuredContent as {
        varies: string;
        credits: number;
        sheet: { width: number; height: number; rows: number; columns: number };
        cells: {
          index: number;
          label: string;
          value: number;
          hash: string;
          credits: number;
          recipe: { seed: number };
          onSheet: { left: number; top: number; width: number; height: number };
        }[];
      };
      const meta = await sharp(png).metadata();
      assert.equal(meta.format, 'png');
      // 4 cells: 2 × 2, each at its own size (40×30, none scaled), with small gutters and a number above it.
      assert.deepEqual([facts.sheet.rows, facts.sheet.columns], [2, 2]);
      assert.deepEqual([meta.width, meta.height], [facts.sheet.width, facts.sheet.height]);
      assert.ok(meta.width! > 2 * size.width && meta.width! <= 2 * size.width + 3 * 12, `${meta.width} wide`);
      assert.ok(meta.height! > 2 * size.height && meta.height! <= 2 * size.height + 3 * 12 + 2 * 24, `${meta.height} high`);
      assert.equal(facts.varies, 'seed');
      assert.deepEqual(
        facts.cells.map((c) => [c.index, c.label, c.value, c.recipe.seed]),
        seeds.map((seed, i) => [i + 1, `seed=${seed}`, seed, seed]),
      );
      assert.equal(new Set(facts.cells.map((c) => c.hash)).size, 4);
      assert.equal(
        facts.credits,
        facts.cells.reduce((sum, c) => sum + c.credits, 0),
      );
      const sheetPixels = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      for (const [i, seed] of seeds.entries()) {
        const api = await t.request('post', '/v1/generate/mesh-gradient', { body: { seed, size, format: 'png' } });
        const cell = facts.cells[i]!;
        assert.equal(cell.hash, api.headers['x-service-recipe-hash']);
        assert.match(
          swept.content[1]!.type === 'text' ? swept.content[1]!.text : '',
          new RegExp(`${i + 1}\\. seed=${seed}: hash ${cell.hash}`),
        );
        // The sheet holds the API's picture where the list says, pixel for pixel (not scaled at this size).
        const box = cell.onSheet;
        assert.deepEqual([box.width, box.height], [size.width, size.height]);
        const own = await sharp(api.body as Buffer)
          .removeAlpha()
          .raw()
          .toBuffer();
        const region = await sharp(sheetPixels.data, { raw: sheetPixels.info }).extract(box).raw().toBuffer();
        assert.ok(region.equals(own), `cell ${i + 1} is the API's render of seed ${seed}`);
      }
      // cells: true adds each cell's own file after the list.
      const withCells = await call(client, 'sweep', { slug: 'mesh-gradient', seeds: [5, 6], size, format: 'png', cells: true });
      assert.deepEqual(
        withCells.content.map((c) => c.type),
        ['image', 'text', 'image', 'image'],
      );
      const cells = (withCells.structuredContent as { cells: { hash: string }[] }).cells;
      const firstCell = withCells.content[2]!;
      const seed5 = await t.request('post', '/v1/generate/mesh-gradient', { body: { seed: 5, size, format: 'png' } });
      assert.ok(firstCell.type === 'image' && Buffer.from(firstCell.data, 'base64').equals(seed5.body as Buffer));

      const key = await t.request('post', '/v1/url-signing-keys', { body: { label: 'mcp' } });
      assert.equal(key.status, 201);
      const signed = await call(client, 'sign_url', { slug: 'mesh-gradient', seed: 5, size, format: 'png' });
      const { url: signedUrl } = signed.structuredContent as { url: string };
      assert.match(signedUrl, new RegExp(`kid=${key.body.id}`));
      const target = new URL(signedUrl);
      const publicAnswer = await t.request('get', target.pathname + target.search, { auth: false });
      assert.equal(publicAnswer.status, 200);
      assert.equal(publicAnswer.headers['x-service-recipe-hash'], cells[0]!.hash);
    });

    test('export and job_status follow a job to its result', async () => {
      const client = await connect();
      const exported = await call(client, 'export', { slug: 'mesh-gradient', size: { width: 32, height: 32 }, format: 'webp' });
      const job = exported.structuredContent as { id: string };
      assert.match(job.id, /^job_/);
      const followed = await call(client, 'job_status', { id: job.id, waitSeconds: 60 });
      const done = followed.structuredContent as { status: string; resultUrl: string };
      assert.equal(done.status, 'completed');
      assert.match(done.resultUrl, new RegExp(`/v1/jobs/${job.id}/result$`));
    });

    test('a body the contract admits but the protocol does not is 400 validation_failed, a problem like every refusal', async () => {
      const res = await t.request('post', '/v1/mcp', { body: { jsonrpc: '2.0', id: 1 } });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'validation_failed');
      assert.match(res.body.detail, /JSON-RPC message/);
      // A notification is accepted with no body.
      const notified = await t.request('post', '/v1/mcp', { body: { jsonrpc: '2.0', method: 'notifications/initialized' } });
      assert.equal(notified.status, 202);
    });

    test('a Host that names no host is answered, not a 500: the URLs shown then come from the service’s public URL', async () => {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'render', arguments: { slug: 'mesh-gradient', seed: 7, size: { width: 64, height: 48 }, format: 'png' } },
      });
      const res = await sendRaw(
        Number(url.port),
        Buffer.from(
          `POST /v1/mcp HTTP/1.1\r\nHost: [not-a-host\r\nAuthorization: Bearer ${TEST_LOCAL_KEY}\r\n` +
            `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        ),
        60_000,
      );
      assert.equal(res.status, 200, res.body.toString());
      const { result } = JSON.parse(res.body.toString()) as { result: CallToolResult };
      const { recipeUrl } = result.structuredContent as { recipeUrl: string };
      assert.equal(new URL(recipeUrl).origin, new URL(t.runtime.deps.config.signIn.publicUrl).origin);
    });

    test('a client without a key is refused with 401, and so are a wrong key and the local gateway; GET and DELETE are 405', async () => {
      for (const key of [undefined, 'svc_local_not_a_key_0123456789abcdef']) {
        const client = new Client({ name: 'mcp-test', version: '1.0.0' });
        const transport = new StreamableHTTPClientTransport(
          url,
          key ? { requestInit: { headers: { Authorization: `Bearer ${key}` } } } : {},
        );
        await assert.rejects(client.connect(transport), /401/);
      }
      const raw = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      assert.equal(raw.status, 401);
      assert.equal((await raw.json()).code, 'unauthorized');
      // The local gateway vouches for a same-origin browser request, but the tools would call the API
      // without credentials: only a key opens the endpoint.
      const gateway = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      assert.equal(gateway.status, 401);
      assert.match((await gateway.json()).detail, /API key/);
      // Stateless: no stream to open with GET, no session to end with DELETE.
      for (const method of ['GET', 'DELETE']) {
        const refused = await fetch(url, { method, headers: { Authorization: `Bearer ${TEST_LOCAL_KEY}` } });
        assert.equal(refused.status, 405, method);
        assert.equal(refused.headers.get('allow'), 'POST');
      }
    });
  });
}
