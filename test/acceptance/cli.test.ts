// The command line writes exactly the bytes the API returns for the same recipe.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ROOT, runService, type ServerProcess } from '../support/black-box/server-process.ts';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), 'render-service-cli-'));
const KEY = 'svc_local_cli_test_key_0123456789';
let server: ServerProcess;
/** The catalogue as the API lists it (GET /v1/generators). */
let ALL_GENERATORS: { slug: string; animated: boolean; formats: string[] }[];

before(async () => {
  server = await runService({ DATA_DIR: path.join(dir, 'data'), API_KEYS: KEY });
  const listed = await fetch(`${server.url}/v1/generators`, { headers: { Authorization: `Bearer ${KEY}` } });
  assert.equal(listed.status, 200);
  ALL_GENERATORS = (await listed.json()) as typeof ALL_GENERATORS;
  assert.ok(ALL_GENERATORS.length > 0);
});
after(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function api(slug: string, body: unknown): Promise<{ bytes: Buffer; recipe: string }> {
  const res = await fetch(`${server.url}/v1/generate/${slug}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200);
  return { bytes: Buffer.from(await res.arrayBuffer()), recipe: res.headers.get('x-service-recipe')! };
}

test('render <slug> --seed --size --format -o writes the API bytes', async () => {
  const still = ALL_GENERATORS.find((g) => !g.animated && g.formats.includes('webp'))!;
  const { bytes } = await api(still.slug, { seed: 7, size: { width: 200, height: 120 }, format: 'webp' });
  const out = path.join(dir, 'out.webp');
  await run(
    process.execPath,
    ['bin/render-service.mjs', 'render', still.slug, '--seed', '7', '--size', '200x120', '--format', 'webp', '-o', out],
    { cwd: ROOT },
  );
  assert.ok(readFileSync(out).equals(bytes));
});

test('render --recipe <base64url> writes the API bytes, animated formats included', async () => {
  const gen = ALL_GENERATORS.find((g) => g.formats.includes('mp4')) ?? ALL_GENERATORS[0];
  const format = gen.formats.includes('mp4') ? 'mp4' : gen.formats[0];
  const { bytes, recipe } = await api(gen.slug, {
    seed: 3,
    size: { width: 96, height: 64 },
    format,
    params: gen.animated ? { duration: 1, fps: 10 } : {},
  });
  const out = path.join(dir, `out.${format}`);
  await run(process.execPath, ['bin/render-service.mjs', 'render', '--recipe', recipe, '-o', out], { cwd: ROOT });
  assert.ok(readFileSync(out).equals(bytes));
});

test('a recipe pinning a superseded version renders with that version, the same bytes from the CLI and from its recipe URL', async () => {
  // plasma 1.0.0 (superseded on 2026-11-23) as a gif: its own frozen code and its engine profile (1.1.0).
  // Keys in code-point order and no spaces: this JSON is the canonical form the hash is taken of.
  const json = JSON.stringify({
    format: 'gif',
    generator: 'plasma',
    params: { duration: 1, fps: 10 },
    seed: 42,
    size: { height: 64, pixelRatio: 1, width: 96 },
    v: 1,
    version: '1.0.0',
  });
  const recipe = Buffer.from(json).toString('base64url');
  const hash = createHash('sha256').update(json).digest('hex');
  const res = await fetch(`${server.url}/v1/render/${hash}?r=${recipe}`, { headers: { Authorization: `Bearer ${KEY}` } });
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal(res.headers.get('x-service-engine'), '1.1.0');
  const bytes = Buffer.from(await res.arrayBuffer());
  const goldens = JSON.parse(readFileSync(path.join(ROOT, 'test/golden/goldens.json'), 'utf8')) as Record<string, { sha256: string }>;
  assert.equal(createHash('sha256').update(bytes).digest('hex'), goldens['plasma@1.0.0.gif'].sha256, 'the bytes it was released with');
  const out = path.join(dir, 'old.gif');
  await run(process.execPath, ['bin/render-service.mjs', 'render', '--recipe', recipe, '-o', out], { cwd: ROOT });
  assert.ok(readFileSync(out).equals(bytes));
  const versions = (
    (await (await fetch(`${server.url}/v1/generators/plasma`)).json()) as { versions: { version: string; status: string }[] }
  ).versions;
  assert.deepEqual(versions[0], { ...versions[0], version: '1.0.0', status: 'deprecated' });
});

test('render --template FILE --assets DIR: a version downloaded from the API renders its bytes; a layer may name a file', async () => {
  const auth = { Authorization: `Bearer ${KEY}` };
  const brand = path.join(dir, 'brand');
  mkdirSync(brand);
  // A logo the service draws, and a font: uploaded as assets, and kept in the folder as files.
  const logo = await api('identicon', { params: { name: 'acme' }, size: { width: 64, height: 64 }, format: 'png' });
  writeFileSync(path.join(brand, 'logo.png'), logo.bytes);
  const fontFile = createRequire(import.meta.url).resolve('@fontsource/space-grotesk/files/space-grotesk-latin-700-normal.woff2');
  writeFileSync(path.join(brand, 'title.woff2'), readFileSync(fontFile));
  const upload = async (file: string, type: string) => {
    const res = await fetch(`${server.url}/v1/assets`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': type },
      body: readFileSync(path.join(brand, file)),
    });
    assert.ok(res.ok, await res.clone().text());
    return ((await res.json()) as { id: string }).id;
  };
  const logoId = await upload('logo.png', 'image/png');
  const fontId = await upload('title.woff2', 'font/woff2');
  const layers = (logoAsset: string, fontAsset: string) => [
    {
      id: 'bg',
      kind: 'fill',
      gradient: {
        type: 'linear',
        angle: 135,
        stops: [
          { offset: 0, color: '#1e3a8a' },
          { offset: 1, color: '#9333ea' },
        ],
      },
    },
    { id: 'logo', kind: 'image', asset: logoAsset, box: { x: 8, y: 8, width: 32, height: 32 }, radius: 6 },
    {
      id: 'title',
      kind: 'text',
      text: '{{title}}',
      box: { x: 8, y: 48, width: 144, height: 28 },
      font: { asset: fontAsset },
      color: '#ffffff',
      fit: { max: 24 },
    },
  ];
  const body = {
    name: 'card',
    size: { width: 160, height: 84 },
    variables: { type: 'object', properties: { title: { type: 'string', default: 'Hi' } } },
  };
  const created = await fetch(`${server.url}/v1/templates`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...body, layers: layers(logoId, fontId) }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const { id } = (await created.json()) as { id: string };
  const { bytes } = await api(id, { params: { title: 'Launch day' }, format: 'png' });
  const version = await (await fetch(`${server.url}/v1/templates/${id}/versions/1`, { headers: auth })).text();
  writeFileSync(path.join(dir, 'card.json'), version);
  const cli = (...args: string[]) => run(process.execPath, ['bin/render-service.mjs', 'render', ...args], { cwd: ROOT });
  const out = path.join(dir, 'card.png');
  await cli('--template', path.join(dir, 'card.json'), '--assets', brand, '--params', '{"title":"Launch day"}', '-o', out);
  assert.ok(readFileSync(out).equals(bytes), "the API's bytes");
  // A design kept in a repository names its files; it renders as tpl_local@1, the same picture.
  writeFileSync(path.join(dir, 'local.json'), JSON.stringify({ ...body, layers: layers('logo.png', 'title.woff2') }));
  const local = path.join(dir, 'local.png');
  await cli('--template', path.join(dir, 'local.json'), '--assets', brand, '--params', '{"title":"Launch day"}', '-o', local);
  const inspected = JSON.parse((await run(process.execPath, ['bin/render-service.mjs', 'inspect', local], { cwd: ROOT })).stdout);
  assert.equal(inspected.generator, 'tpl_local');
  assert.deepEqual(Object.keys(inspected.assets).sort(), [fontId, logoId].sort());
  // A template that names a file the folder lacks is a usage error (exit 2), named.
  await assert.rejects(
    cli('--template', path.join(dir, 'local.json'), '-o', local),
    (err: { code: number; stderr: string }) => err.code === 2 || /asset/.test(err.stderr),
  );
});

test("admin works on the running server's own database: a workspace and key it makes work at once", async () => {
  const env = { ...process.env, DATA_DIR: path.join(dir, 'data') };
  const admin = (...args: string[]) => run(process.execPath, ['bin/render-service.mjs', 'admin', ...args], { cwd: ROOT, env });
  assert.equal((await admin('workspace', 'create', '--name', 'Ops', '--id', 'ws_ops')).stdout, 'ws_ops\n');
  const secret = (await admin('key', 'create', 'ws_ops')).stdout.trim();
  const me = await fetch(`${server.url}/v1/me`, { headers: { Authorization: `Bearer ${secret}` } });
  assert.equal(me.status, 200);
  assert.equal(((await me.json()) as { workspace: { id: string } }).workspace.id, 'ws_ops');
  await assert.rejects(
    admin(),
    (err: { code: number; stderr: string }) => err.code === 2 && /render-service admin workspaces/.test(err.stderr),
  );
});

test('sign builds a signed URL offline that the running server renders with no credentials; no secret in the environment exits 2', async () => {
  const created = await fetch(`${server.url}/v1/url-signing-keys`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ label: 'cli', maxAgeSeconds: 3600 }),
  });
  assert.equal(created.status, 201);
  const key = (await created.json()) as { id: string; secret: string };
  const still = ALL_GENERATORS.find((g) => !g.animated && g.formats.includes('png'))!;
  const args = [
    'bin/render-service.mjs',
    'sign',
    still.slug,
    '--key-id',
    key.id,
    '--base-url',
    server.url,
    '--size',
    '64x64',
    '--seed',
    '5',
  ];
  const env = { ...process.env, RENDER_SERVICE_SIGNING_SECRET: key.secret };
  const { stdout } = await run(process.execPath, [...args, '--expires-in', '600', '--extension'], { cwd: ROOT, env });
  const url = stdout.trim();
  assert.match(url, /\/v1\/render\/[0-9a-f]{64}\.png\?r=[^&]+&kid=usk_[^&]+&exp=\d+&sig=[A-Za-z0-9_-]{43}$/);
  const res = await fetch(url);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('cache-control')?.startsWith('public, max-age='), true);
  const recipe = /[?&]r=([^&]+)/.exec(url)![1]!;
  const { stdout: fromRecipe } = await run(
    process.execPath,
    ['bin/render-service.mjs', 'sign', '--recipe', recipe, '--key-id', key.id, '--base-url', server.url],
    { cwd: ROOT, env },
  );
  assert.equal((await fetch(fromRecipe.trim())).status, 200);
  const { RENDER_SERVICE_SIGNING_SECRET: _unset, ...withoutSecret } = env;
  await assert.rejects(
    run(process.execPath, args, { cwd: ROOT, env: withoutSecret }),
    (err: { code: number; stderr: string }) => err.code === 2 && /RENDER_SERVICE_SIGNING_SECRET/.test(err.stderr),
  );
});

test('list names every generator; bad input exits non-zero with a message', async () => {
  const { stdout } = await run(process.execPath, ['bin/render-service.mjs', 'list'], { cwd: ROOT });
  for (const g of ALL_GENERATORS) assert.match(stdout, new RegExp(`^${g.slug}\\s`, 'm'));
  await assert.rejects(
    run(process.execPath, ['bin/render-service.mjs', 'render', ALL_GENERATORS[0].slug, '--size', '5x5'], { cwd: ROOT }),
    (err: { code: number; stderr: string }) => {
      assert.equal(err.code, 2);
      assert.match(err.stderr, /--size\.width must be an integer from 16/);
      return true;
    },
  );
});

const cli = (args: string[]) => run(process.execPath, ['bin/render-service.mjs', ...args], { cwd: ROOT });
/** The CLI's refusal: exit 2 and its message on standard error, before anything was written. */
async function refused(args: string[], message: RegExp) {
  await assert.rejects(cli(args), (err: { code: number; stderr: string; stdout: string }) => {
    assert.equal(err.code, 2, err.stderr);
    assert.match(err.stderr, message);
    assert.equal(err.stdout, '');
    return true;
  });
}

test('-o picks the format from its extension; a --format that contradicts it is refused', async () => {
  const still = ALL_GENERATORS.find((g) => !g.animated && g.formats.includes('webp'))!;
  const { bytes } = await api(still.slug, { seed: 5, size: { width: 80, height: 48 }, format: 'webp' });
  const out = path.join(dir, 'inferred.webp');
  const { stderr } = await cli(['render', still.slug, '--seed', '5', '--size', '80x48', '-o', out]);
  assert.ok(readFileSync(out).equals(bytes));
  assert.match(stderr, new RegExp(`${still.slug} webp 80×48, ${bytes.length} bytes`));
  await refused(['render', still.slug, '--format', 'png', '-o', path.join(dir, 'x.webp')], /names a webp file, but the recipe renders png/);
  assert.ok(!existsSync(path.join(dir, 'x.webp')));
  // An extension no format has is refused too, rather than PNG bytes in a .tiff.
  await refused(['render', still.slug, '-o', path.join(dir, 'x.tiff')], /\.tiff is not a format this service renders/);
  assert.ok(!existsSync(path.join(dir, 'x.tiff')));
});

/** A well-formed encoded recipe naming `generator` (which need not exist). */
const recipeNaming = (generator: string) =>
  Buffer.from(
    JSON.stringify({
      format: 'png',
      generator,
      params: {},
      seed: 1,
      size: { height: 64, pixelRatio: 1, width: 64 },
      v: 1,
      version: '1.0.0',
    }),
  ).toString('base64url');

test('mistakes are named by their option before anything renders', async () => {
  const slug = ALL_GENERATORS[0].slug;
  const cases: [string[], RegExp][] = [
    [['render', slug.slice(0, -1)], new RegExp(`no generator "${slug.slice(0, -1)}". Did you mean "${slug}"\\? render-service list`)],
    [['rendr', slug], /unknown command "rendr". Did you mean "render"\?/],
    [['render', slug, '--params', '{points:3}'], /--params must be a JSON object, e\.g\. '\{"cells":6\}'/],
    [['render', slug, '--params', '{"nope":1}'], /--params\.nope is not a known field/],
    [['render', slug, '--seed', 'abc'], /--seed must be a whole number/],
    [
      ['render', slug, '--format', 'jpg'],
      /--format must be one of png, webp, jpeg, gif, mp4, svg, css \(got "jpg"\)\. Did you mean "jpeg"\?/,
    ],
    [['render', slug, '--colour', 'red'], /Unknown option '--colour'/],
    [['render', slug, '-o', path.join(dir, 'missing', 'x.png')], /-o .*: the directory .*missing does not exist/],
    [['render', slug, '-o', dir], /is a directory/],
    [
      ['render', '--recipe', recipeNaming(`${slug}x`)],
      new RegExp(`--recipe names generator "${slug}x", which this version does not have. Did you mean "${slug}"\\? render-service list`),
    ],
  ];
  // Independent processes: run side by side.
  await Promise.all(cases.map(([args, message]) => refused(args, message)));
});

test(
  'a binary format is not written to a terminal; text formats are',
  { skip: !hasScript() && 'util-linux script is not installed' },
  async () => {
    const still = ALL_GENERATORS.find((g) => !g.animated && g.formats.includes('png'))!;
    const inTerminal = (args: string[]) =>
      run('script', ['-qec', [process.execPath, 'bin/render-service.mjs', ...args].join(' '), '/dev/null'], { cwd: ROOT }).then(
        (r) => ({ code: 0, out: r.stdout }),
        (err: { code: number; stdout: string }) => ({ code: err.code, out: err.stdout }),
      );
    const binary = await inTerminal(['render', still.slug, '--size', '64x64']);
    assert.equal(binary.code, 2);
    assert.match(binary.out, /a png file is binary: give -o FILE, or redirect standard output/);
    assert.ok(!binary.out.includes('PNG'));
    const text = ALL_GENERATORS.find((g) => g.formats.includes('svg'));
    if (text) {
      const svg = await inTerminal(['render', text.slug, '--size', '64x64', '--format', 'svg']);
      assert.equal(svg.code, 0);
      assert.match(svg.out, /<svg/);
    }
  },
);

test('an animated render reports its progress on standard error', async () => {
  const gen = ALL_GENERATORS.find((g) => g.animated && g.formats.includes('gif'))!;
  const out = path.join(dir, 'progress.gif');
  const { stderr } = await cli(['render', gen.slug, '--size', '64x64', '--params', '{"duration":1,"fps":10}', '-o', out]);
  const frames = [...stderr.matchAll(/frame (\d+)\/10/g)].map((m) => Number(m[1]));
  assert.ok(frames.length >= 2, stderr);
  assert.equal(frames.at(-1), 10);
  assert.match(stderr, new RegExp(`${gen.slug} gif 64×64, \\d+ bytes in [\\d.]+ s; recipe [0-9a-f]{64}`));
});

test('help, --version and describe <slug>', async () => {
  assert.match((await cli(['help'])).stdout, /render-service describe <slug>/);
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  assert.match(
    (await cli(['--version'])).stdout,
    new RegExp(`^render-service ${pkg.version.replaceAll('.', '\\.')} \\(engine \\d+\\.\\d+\\.\\d+`),
  );
  const listed = await fetch(`${server.url}/v1/generators/${ALL_GENERATORS[0].slug}`, { headers: { Authorization: `Bearer ${KEY}` } });
  const described = (await listed.json()) as { paramSchema: { properties: Record<string, unknown> }; formats: string[] };
  const { stdout } = await cli(['describe', ALL_GENERATORS[0].slug]);
  for (const name of Object.keys(described.paramSchema.properties)) assert.match(stdout, new RegExp(`^  ${name}\\s.*default`, 'm'));
  assert.match(stdout, new RegExp(`Formats: ${described.formats.join(', ')}`));
  await refused(['describe', 'nope-nope'], /no generator "nope-nope"/);
});

test('mcp: the SDK client spawns the MCP server, whose render (the third call) answers the API bytes with their recipe; a sweep its sheet', async () => {
  // RENDER_SERVICE_URL and RENDER_SERVICE_KEY, as a desktop agent's configuration sets them (docs/mcp.md).
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['bin/render-service.mjs', 'mcp'],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), RENDER_SERVICE_URL: server.url, RENDER_SERVICE_KEY: KEY },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'cli-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    for (const name of ['list_generators', 'describe_generator', 'render', 'sweep', 'sign_url', 'quote', 'export', 'job_status'])
      assert.ok(
        tools.some((tool) => tool.name === name),
        name,
      );
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;
    const listed = (await call('list_generators', {})).structuredContent as { generators: { slug: string; formats: string[] }[] };
    const still = listed.generators.find((g) => g.formats.includes('png'))!;
    const described = (await call('describe_generator', { slug: still.slug })).structuredContent as { slug: string };
    assert.equal(described.slug, still.slug);
    const recipe = { seed: 3, size: { width: 48, height: 32 }, format: 'png' };
    const rendered = await call('render', { slug: still.slug, ...recipe });
    const image = rendered.content.find((c) => c.type === 'image');
    assert.ok(image?.type === 'image', JSON.stringify(rendered.content).slice(0, 300));
    const { bytes, recipe: encoded } = await api(still.slug, recipe);
    assert.ok(Buffer.from(image.data, 'base64').equals(bytes));
    assert.equal((rendered.structuredContent as { encodedRecipe: string }).encodedRecipe, encoded);
    // A sweep composes its sheet in this process too (the compiled CLI loads sharp for it): one image, three cells.
    const swept = await call('sweep', { slug: still.slug, seeds: 3, size: recipe.size, format: 'png' });
    assert.deepEqual(
      swept.content.map((c) => c.type),
      ['image', 'text'],
      JSON.stringify(swept.content).slice(0, 300),
    );
    const sheet = swept.structuredContent as { sheet: { rows: number; columns: number }; cells: { hash: string }[] };
    assert.deepEqual([sheet.sheet.rows, sheet.sheet.columns, sheet.cells.length], [1, 3, 3]);
  } finally {
    await client.close();
  }
});

function hasScript(): boolean {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test('inspect prints the recipe a rendered file carries, for every format; a file without one exits 2', async () => {
  const formats = ['png', 'webp', 'gif', 'mp4', 'svg', 'css'];
  for (const format of formats) {
    const gen = ALL_GENERATORS.find((g) => g.formats.includes(format) && (g.animated || (format !== 'gif' && format !== 'mp4')))!;
    const params = gen.animated ? { duration: 1, fps: 10 } : {};
    const res = await fetch(`${server.url}/v1/generate/${gen.slug}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ seed: 5, size: { width: 80, height: 48 }, format, params }),
    });
    assert.equal(res.status, 200);
    const file = path.join(dir, `inspect.${format}`);
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const { stdout } = await run(process.execPath, ['bin/render-service.mjs', 'inspect', file], { cwd: ROOT });
    const shown = JSON.parse(stdout) as Record<string, unknown>;
    const recipe = JSON.parse(Buffer.from(res.headers.get('x-service-recipe')!, 'base64url').toString('utf8')) as Record<string, unknown>;
    assert.equal(shown.generator, gen.slug, format);
    assert.equal(shown.format, format);
    assert.equal(shown.seed, 5);
    assert.deepEqual(shown.size, { width: 80, height: 48, pixelRatio: 1 });
    assert.deepEqual(shown.params, recipe.params);
    assert.equal(shown.version, recipe.version);
    assert.equal(shown.hash, res.headers.get('x-service-recipe-hash'));
    assert.equal(shown.recipe, res.headers.get('x-service-recipe'));
    assert.match(String(shown.engineVersion), /^\d+\.\d+\.\d+$/);
  }
  const plain = path.join(dir, 'plain.css');
  writeFileSync(plain, 'body { color: red }\n');
  await assert.rejects(
    run(process.execPath, ['bin/render-service.mjs', 'inspect', plain], { cwd: ROOT }),
    (err: { code: number; stderr: string }) => err.code === 2 && /carries no render-service recipe/.test(err.stderr),
  );
  await assert.rejects(
    run(process.execPath, ['bin/render-service.mjs', 'inspect', path.join(dir, 'missing.png')], { cwd: ROOT }),
    (err: { code: number; stderr: string }) => err.code === 2 && /cannot read/.test(err.stderr),
  );
});
