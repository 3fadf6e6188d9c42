// Assets through HTTP on both databases (the rows and their transactions, and the blob store that
// holds the files: a directory on SQLite, the database on Postgres): uploads of every accepted kind,
// the id derived from the bytes (the same bytes → 200 the second time), the soft delete (out of the
// list and GET, still loaded for a render, restored by the same bytes), workspace isolation,
// pagination, the limits (size while the body streams in, pixels, count), a corpus of hostile files
// (each a 4xx naming the field, the process still answering, nothing stored), and the files in an S3
// bucket in hosted mode.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import http from 'node:http';
import type { Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type Sharp from 'sharp';
import { createRequire } from 'node:module';
import { decodeNormalizedImage, sha256Of } from '../../src/assets/asset-files.ts';
import { ProblemError } from '../../src/errors/problem.ts';
import { LOCAL_WORKSPACE_ID } from '../../src/services/auth.service.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { fonts, hostileCorpus, images } from '../support/asset-files.ts';
import { strictlyIncreasingClock } from '../support/clocks.ts';
import { assertMatchesContract } from '../support/contract.ts';
import { HOSTED_ENV, TEST_LOCAL_KEY, startTestApp, type TestApp, workspaceKey } from '../support/harness.ts';
import { startS3Server, type S3TestServer } from '../support/black-box/s3-server.ts';
import { createS3Client } from '../../src/blob/s3.blob-store.ts';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';

const sharp = createRequire(import.meta.url)('sharp') as typeof Sharp;
const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

/** Uploads `body` as `contentType` (as the local workspace unless `secret` is given). */
function upload(t: TestApp, contentType: string | undefined, body: Buffer, secret?: string, headers: Record<string, string> = {}) {
  return t.request('post', '/v1/assets', {
    raw: body,
    headers: { ...(contentType ? { 'Content-Type': contentType } : {}), ...(secret ? bearer(secret) : {}), ...headers },
    auth: secret === undefined,
  });
}

/** A distinct small PNG per n. */
const pngNumber = (n: number) =>
  sharp({ create: { width: 4, height: 4, channels: 4, background: { r: n & 255, g: (n >> 8) & 255, b: 7, alpha: 1 } } })
    .png()
    .toBuffer();

/** The asset files the blob store holds (under `assets/`), whichever store the app uses. */
async function storedAssetFiles(t: TestApp): Promise<string[]> {
  const blobStore = t.runtime.deps.config.blobStore;
  if (blobStore.kind === 'database')
    return (await t.runtime.db('blobs').where('key', 'like', 'assets/%').select('key')).map((r: { key: string }) => r.key);
  if (blobStore.kind === 'fs') {
    try {
      return readdirSync(`${blobStore.root}/assets`, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name);
    } catch {
      return [];
    }
  }
  throw new Error(`unexpected blob store ${blobStore.kind}`);
}

for (const engine of ENGINES) {
  describe(`assets on ${engine}`, () => {
    let t: TestApp;
    let otherSecret: string;

    before(async () => {
      t = await startTestApp(engine, { compose: { clock: strictlyIncreasingClock() } });
      otherSecret = await workspaceKey(t, { id: 'ws_assets_other', name: 'Other' }, 'theirs');
    });
    after(async () => t?.close());

    describe('createAsset: every accepted kind', () => {
      test('a PNG: 201 with its id from its bytes, its size and Location; stored as 8-bit sRGB RGBA', async () => {
        const png = await images.png();
        const res = await upload(t, 'image/png', png);
        assert.equal(res.status, 201, res.text);
        const sha = sha256Of(png);
        assert.deepEqual(res.body, {
          id: `ast_${sha.slice(0, 32)}`,
          kind: 'image',
          contentType: 'image/png',
          bytes: png.length,
          sha256: sha,
          width: 64,
          height: 48,
          createdAt: res.body.createdAt,
        });
        assert.equal(res.headers.location, `/v1/assets/${res.body.id}`);
        assert.equal(res.headers['cache-control'], 'no-store');
        const loaded = (await t.runtime.deps.services.assets.loadForRender(LOCAL_WORKSPACE_ID, [res.body.id])).get(res.body.id)!;
        assert.deepEqual([loaded.kind, loaded.sha256, loaded.contentType], ['image', sha, 'image/png']);
        const { width, height, rgba } = await decodeNormalizedImage(loaded.data);
        assert.deepEqual([width, height, rgba.length], [64, 48, 64 * 48 * 4]);
        assert.deepEqual([...rgba.subarray(0, 8)], [0, 0, 0, 0, 255, 0, 0, 255]);
      });

      test('a JPEG with EXIF orientation 6 is stored turned: 40×20 becomes 20×40, green on top', async () => {
        const res = await upload(t, 'image/jpeg', await images.jpegOrientation6());
        assert.equal(res.status, 201, res.text);
        assert.deepEqual([res.body.kind, res.body.contentType, res.body.width, res.body.height], ['image', 'image/jpeg', 20, 40]);
        const { rgba } = await decodeNormalizedImage(
          (await t.runtime.deps.services.assets.loadForRender(LOCAL_WORKSPACE_ID, [res.body.id])).get(res.body.id)!.data,
        );
        const at = (x: number, y: number) => [...rgba.subarray((y * 20 + x) * 4, (y * 20 + x) * 4 + 3)];
        assert.ok(at(10, 5)[1] > 200 && at(10, 5)[2] < 40, `top is green: ${at(10, 5)}`);
        assert.ok(at(10, 35)[2] > 200 && at(10, 35)[1] < 40, `bottom is blue: ${at(10, 35)}`);
      });

      test('a WebP, a 16-bit PNG and a CMYK JPEG are accepted and converted', async () => {
        for (const [type, bytes, size] of [
          ['image/webp', await images.webp(), [30, 10]],
          ['image/png', await images.png16(), [8, 8]],
          ['image/jpeg', await images.cmykJpeg(), [12, 12]],
        ] as const) {
          const res = await upload(t, type, bytes);
          assert.equal(res.status, 201, `${type}: ${res.text}`);
          assert.deepEqual([res.body.width, res.body.height], size);
          const stored = (await t.runtime.deps.services.assets.loadForRender(LOCAL_WORKSPACE_ID, [res.body.id])).get(res.body.id)!.data;
          const meta = await sharp(stored).metadata();
          assert.deepEqual([meta.format, meta.channels, meta.depth, meta.space], ['png', 4, 'uchar', 'srgb'], type);
        }
      });

      test('a PNG with a ZIP appended (a polyglot) is accepted as the image it decodes to; the ZIP is not kept', async () => {
        const png = await images.png();
        const polyglot = Buffer.concat([png, Buffer.from('PK\x03\x04'), Buffer.alloc(200, 1)]);
        const res = await upload(t, 'image/png', polyglot);
        assert.equal(res.status, 201, res.text);
        assert.equal(res.body.sha256, sha256Of(polyglot));
        const stored = (await t.runtime.deps.services.assets.loadForRender(LOCAL_WORKSPACE_ID, [res.body.id])).get(res.body.id)!.data;
        assert.equal(stored.indexOf('PK\x03\x04'), -1);
      });

      test('TTF, OTF (CFF) and WOFF2 fonts: 201 with the family and the weight, stored as uploaded', async () => {
        for (const [type, bytes, family, weight] of [
          ['font/ttf', await fonts.ttf(), /^Space Grotesk/, 400],
          ['font/otf', fonts.otf(), /^Source Code Pro$/, 400],
          ['font/woff2', fonts.woff2Bold(), /^Space Grotesk/, 700],
        ] as const) {
          const res = await upload(t, type, bytes);
          assert.equal(res.status, 201, `${type}: ${res.text}`);
          assert.equal(res.body.kind, 'font');
          assert.equal(res.body.contentType, type);
          assert.match(res.body.family, family);
          assert.deepEqual(res.body.weights, [weight]);
          assert.equal(res.body.width, undefined);
          const loaded = (await t.runtime.deps.services.assets.loadForRender(LOCAL_WORKSPACE_ID, [res.body.id])).get(res.body.id)!;
          assert.deepEqual([loaded.kind, loaded.contentType], ['font', type]);
          assert.ok(loaded.data.equals(bytes), `${type} is stored as uploaded`);
        }
      });

      test('the same bytes again are the same asset: 200 with the same body, nothing decoded or stored twice', async () => {
        const bytes = await pngNumber(1001);
        const first = await upload(t, 'image/png', bytes);
        assert.equal(first.status, 201, first.text);
        const files = await storedAssetFiles(t);
        const again = await upload(t, 'image/png; charset=binary', bytes);
        assert.equal(again.status, 200, again.text);
        assert.deepEqual(again.body, first.body);
        assert.equal(again.headers.location, `/v1/assets/${first.body.id}`);
        assert.deepEqual(await storedAssetFiles(t), files);
      });
    });

    describe('delete, restore and workspaces', () => {
      test('a deleted asset leaves the list and GET, still loads for a render, and the same bytes restore it', async () => {
        const bytes = await pngNumber(2001);
        const created = await upload(t, 'image/png', bytes);
        assert.equal(created.status, 201, created.text);
        const { id } = created.body;
        assert.equal((await t.request('get', `/v1/assets/${id}`)).status, 200);

        const deleted = await t.request('delete', `/v1/assets/${id}`);
        assert.equal(deleted.status, 204, deleted.text);
        const gone = await t.request('get', `/v1/assets/${id}`);
        assert.equal(gone.status, 404);
        assert.equal(gone.body.code, 'asset_not_found');
        const again = await t.request('delete', `/v1/assets/${id}`);
        assert.equal(again.status, 404);
        assert.equal(again.body.code, 'asset_not_found');
        const list = await t.request('get', '/v1/assets?limit=100');
        assert.ok(!list.body.some((a: { id: string }) => a.id === id), 'not listed');

        // Template validation sees it deleted; a version that already uses it still renders it.
        const { assets } = t.runtime.deps.services;
        assert.equal((await assets.describe(LOCAL_WORKSPACE_ID, id)).deleted, true);
        const loaded = (await assets.loadForRender(LOCAL_WORKSPACE_ID, [id])).get(id)!;
        assert.equal((await decodeNormalizedImage(loaded.data)).width, 4);

        const restored = await upload(t, 'image/png', bytes);
        assert.equal(restored.status, 200, restored.text);
        assert.deepEqual(restored.body, created.body, 'the same asset, with its first createdAt');
        assert.equal((await t.request('get', `/v1/assets/${id}`)).status, 200);
        assert.equal((await assets.describe(LOCAL_WORKSPACE_ID, id)).deleted, false);
      });

      test("another workspace's asset is 404 asset_not_found, and the same bytes are an asset of its own there", async () => {
        const bytes = await pngNumber(3001);
        const mine = await upload(t, 'image/png', bytes);
        assert.equal(mine.status, 201, mine.text);
        for (const method of ['get', 'delete'] as const) {
          const res = await t.request(method, `/v1/assets/${mine.body.id}`, { headers: bearer(otherSecret), auth: false });
          assert.equal(res.status, 404, `${method}: ${res.text}`);
          assert.equal(res.body.code, 'asset_not_found');
        }
        await assert.rejects(
          t.runtime.deps.services.assets.loadForRender('ws_assets_other', [mine.body.id]),
          (err: unknown) =>
            err instanceof ProblemError && err.code === 'asset_not_found' && err.status === 404 && err.detail!.includes(mine.body.id),
        );
        await assert.rejects(t.runtime.deps.services.assets.describe('ws_assets_other', mine.body.id), /No asset/);
        const theirs = await upload(t, 'image/png', bytes, otherSecret);
        assert.equal(theirs.status, 201, 'a new asset in their workspace');
        assert.equal(theirs.body.id, mine.body.id);
        // Deleting theirs leaves mine.
        assert.equal(
          (await t.request('delete', `/v1/assets/${theirs.body.id}`, { headers: bearer(otherSecret), auth: false })).status,
          204,
        );
        assert.equal((await t.request('get', `/v1/assets/${mine.body.id}`)).status, 200);
      });

      test('loadForRender names the first missing id and returns the others in the order asked', async () => {
        const a = (await upload(t, 'image/png', await pngNumber(4001))).body.id;
        const b = (await upload(t, 'font/woff2', fonts.woff2())).body.id;
        const loaded = await t.runtime.deps.services.assets.loadForRender(LOCAL_WORKSPACE_ID, [b, a, b]);
        assert.deepEqual([...loaded.keys()], [b, a]);
        await assert.rejects(
          t.runtime.deps.services.assets.loadForRender(LOCAL_WORKSPACE_ID, [a, 'ast_00000000000000000000000000000000']),
          (err: unknown) => err instanceof ProblemError && err.code === 'asset_not_found' && /ast_0{32}/.test(err.detail ?? ''),
        );
        const unknown = await t.request('get', '/v1/assets/not-an-asset-id');
        assert.equal(unknown.status, 404);
        assert.equal(unknown.body.code, 'asset_not_found');
      });
    });

    describe('listAssets', () => {
      test('pages newest first through Link rel="next", each asset once; a bad cursor is 400', async () => {
        const secret = await workspaceKey(t, { id: 'ws_assets_pages', name: 'Pages' }, 'pages');
        const ids: string[] = [];
        for (let n = 0; n < 5; n++) ids.push((await upload(t, 'image/png', await pngNumber(5000 + n), secret)).body.id);
        const seen: string[] = [];
        let url: string | undefined = '/v1/assets?limit=2';
        let pages = 0;
        while (url) {
          const res = await t.request('get', url, { headers: bearer(secret), auth: false });
          assert.equal(res.status, 200, res.text);
          assert.ok(res.body.length <= 2);
          seen.push(...res.body.map((a: { id: string }) => a.id));
          url = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
          pages++;
        }
        assert.equal(pages, 3);
        assert.deepEqual(seen, [...ids].reverse());
        const bad = await t.request('get', '/v1/assets?cursor=bm9wZQ', { headers: bearer(secret), auth: false });
        assert.equal(bad.status, 400);
        assert.deepEqual(
          bad.body.issues.map((i: { path: string }) => i.path),
          ['query.cursor'],
        );
      });
    });

    describe('hostile files', () => {
      test('each gets its 4xx naming the field, the service keeps answering, and nothing is stored', { timeout: 300_000 }, async () => {
        const secret = await workspaceKey(t, { id: 'ws_assets_hostile', name: 'Hostile' }, 'hostile');
        const before = await storedAssetFiles(t);
        const corpus = await hostileCorpus();
        assert.ok(corpus.length >= 20, `${corpus.length} files`);
        const wrong: string[] = [];
        for (const file of corpus) {
          const res = await upload(t, file.contentType, file.body, secret);
          const paths = (res.body.issues ?? []).map((i: { path: string }) => i.path);
          if (res.status !== file.status || res.body.code !== file.code)
            wrong.push(`${file.name}: ${res.status} ${res.body.code} (expected ${file.status} ${file.code}) ${res.body.detail}`);
          else if (!paths.some((p: string) => p === 'body' || p === 'header.Content-Type'))
            wrong.push(`${file.name}: no issue names the field (${res.text})`);
          // The process is alive and the workspace still holds nothing.
          const list = await t.request('get', '/v1/assets', { headers: bearer(secret), auth: false });
          assert.equal(list.status, 200, `after ${file.name}`);
          assert.deepEqual(list.body, [], `after ${file.name}`);
        }
        assert.deepEqual(wrong, []);
        assert.deepEqual(await storedAssetFiles(t), before, 'no file was stored');
        assert.ok(!t.logs.some((l) => /"statusCode":5\d\d/.test(l)), 'no 5xx');
      });
    });
  });
}

for (const engine of ENGINES) {
  describe(`asset limits on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine, { env: { ASSETS_PER_WORKSPACE: '2', ASSET_IMAGE_MAX_BYTES: '65536', ASSET_FONT_MAX_BYTES: '1024' } });
    });
    after(async () => t?.close());

    test('a workspace holds ASSETS_PER_WORKSPACE live assets: 409 past it; a delete makes room, a re-upload still answers', async () => {
      const secret = await workspaceKey(t, { id: 'ws_assets_count', name: 'Count' }, 'count');
      const first = await upload(t, 'image/png', await pngNumber(1), secret);
      const second = await upload(t, 'image/png', await pngNumber(2), secret);
      assert.deepEqual([first.status, second.status], [201, 201]);
      const third = await upload(t, 'image/png', await pngNumber(3), secret);
      assert.equal(third.status, 409, third.text);
      assert.equal(third.body.code, 'asset_limit_reached');
      assert.equal(third.body.limit, 2);
      assert.equal((await upload(t, 'image/png', await pngNumber(2), secret)).status, 200, 'the same bytes are not a new asset');
      assert.equal((await t.request('delete', `/v1/assets/${first.body.id}`, { headers: bearer(secret), auth: false })).status, 204);
      assert.equal((await upload(t, 'image/png', await pngNumber(3), secret)).status, 201);
      // Restoring the deleted one would make three.
      const restore = await upload(t, 'image/png', await pngNumber(1), secret);
      assert.equal(restore.status, 409, restore.text);
      assert.equal(restore.body.code, 'asset_limit_reached');
    });

    test('a body over its kind’s limit is refused with 413 while it streams in, naming the limit', async () => {
      const { server, port } = await t.listen();
      // What the service read of the body is judged on its side: the client's writes land in kernel
      // buffers (up to tcp_wmem's 4 MB here, the whole body) whether or not the service reads them.
      let served: Socket | undefined;
      server.once('connection', (socket) => (served = socket));
      const limit = 65_536;
      // Chunked, so no Content-Length announces the size: the refusal comes while the bytes arrive.
      const { status, body, sent, headers } = await new Promise<{
        status: number;
        body: string;
        sent: number;
        headers: http.IncomingHttpHeaders;
      }>((resolve, reject) => {
        let sent = 0;
        let answered = false;
        const req = http.request(
          {
            port,
            host: '127.0.0.1',
            method: 'POST',
            path: '/v1/assets',
            headers: { Authorization: `Bearer ${TEST_LOCAL_KEY}`, 'Content-Type': 'image/png' },
          },
          (res) => {
            answered = true;
            let text = '';
            res.on('data', (c) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode!, body: text, sent, headers: res.headers }));
          },
        );
        req.on('error', (err) => (answered ? undefined : reject(err)));
        const chunk = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16 * 1024 - 8)]);
        const pump = () => {
          // Up to 64 times the limit; the answer must come long before.
          while (!answered && sent < limit * 64) {
            sent += chunk.length;
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
          if (!answered) req.end();
        };
        pump();
      });
      assert.equal(status, 413, body);
      const problem = JSON.parse(body);
      assert.equal(problem.code, 'asset_too_large');
      assert.equal(problem.limit, limit);
      assert.match(problem.detail, /65536 bytes/);
      assert.deepEqual(
        problem.issues.map((i: { path: string }) => i.path),
        ['body'],
      );
      // The limit and a few socket reads past it (about 115 kB here); reading the whole body would be 4 MB.
      assert.ok(served!.bytesRead < limit * 8, `the service read ${served!.bytesRead} of the ${sent} bytes sent`);
      assertMatchesContract('POST', '/v1/assets', { status, headers, body: problem, text: body });
      // A Content-Length over the limit is refused before the body is read; fonts have their own limit.
      const declared = await upload(t, 'font/woff2', fonts.woff2());
      assert.equal(declared.status, 413, declared.text);
      assert.equal(declared.body.code, 'asset_too_large');
      assert.equal(declared.body.limit, 1024);
      assert.equal((await t.request('get', '/v1/assets')).status, 200, 'the service still answers');
    });
  });
}

describe('assets in hosted mode with BLOB_STORE=s3 (Postgres)', () => {
  let t: TestApp;
  let s3: S3TestServer;
  before(async () => {
    s3 = await startS3Server();
    t = await startTestApp('postgres', { env: { ...HOSTED_ENV, ...s3.env } });
  });
  after(async () => {
    await t?.close();
    await s3?.close();
  });

  test('the files are objects under assets/ in the bucket, named by the SHA-256 of the upload; a workspace reads its own', async () => {
    const secret = await workspaceKey(t, { id: 'ws_assets_s3', name: 'S3' }, 's3');
    const png = await images.png();
    const woff2 = fonts.woff2();
    const image = await upload(t, 'image/png', png, secret);
    const font = await upload(t, 'font/woff2', woff2, secret);
    assert.deepEqual([image.status, font.status], [201, 201], `${image.text} ${font.text}`);
    const client = createS3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
    });
    try {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'assets/' }));
      assert.deepEqual(
        (listed.Contents ?? []).map((o) => o.Key).sort(),
        [`assets/${sha256Of(png)}.png`, `assets/${sha256Of(woff2)}.woff2`].sort(),
      );
    } finally {
      client.destroy();
    }
    const loaded = await t.runtime.deps.services.assets.loadForRender('ws_assets_s3', [image.body.id, font.body.id]);
    assert.equal((await decodeNormalizedImage(loaded.get(image.body.id)!.data)).width, 64);
    assert.ok(loaded.get(font.body.id)!.data.equals(woff2));
  });
});
