// JSON GETs are validated like renders (src/http/conditional-request.ts): a 200 carries a strong ETag
// of its exact body bytes, and an If-None-Match that matches it (weak comparison, a list, `*`) gets
// 304 with the ETag and the Cache-Control the 200 carries (RFC 9110 §13.1.2, §15.4.5) — also when the
// request says `Cache-Control: no-cache`, which fetch (Node's undici, browsers) adds to every request
// that sets If-None-Match: that directive addresses caches (RFC 9111 §5.2.1.4), not the origin. A
// changed answer is 200 with a new ETag. Renders answer fetch's conditional requests the same way.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { openApiDocument } from '../../src/lib/openapi-document.ts';
import { assertMatchesContract } from '../support/contract.ts';
import { ONE_ENGINE } from '../support/black-box/databases.ts';
import { startTestApp, TEST_LOCAL_KEY, type TestApp } from '../support/harness.ts';
import { pngWith } from '../support/asset-files.ts';
import { deflateSync } from 'node:zlib';

interface Operation {
  operationId: string;
  security?: unknown[];
  responses: Record<string, { content?: Record<string, unknown> }>;
}

/** Every GET whose 200 is JSON and that declares 304, from openapi.yaml, with whether it needs credentials. */
const JSON_GETS = Object.entries(openApiDocument().paths).flatMap(([path, item]) => {
  const op = (item as { get?: Operation }).get;
  if (!op?.responses['304'] || !op.responses['200']?.content?.['application/json']) return [];
  return [{ path, operationId: op.operationId, authenticated: !(Array.isArray(op.security) && op.security.length === 0) }];
});

const etagOf = (text: string) => `"${createHash('sha256').update(text, 'utf8').digest('hex')}"`;
const bearer = { Authorization: `Bearer ${TEST_LOCAL_KEY}` };

for (const engine of ONE_ENGINE) {
  describe(`JSON ETags on ${engine}`, () => {
    let t: TestApp;
    let base: string;
    /** The headers of every request the listening server received (what fetch really sent). */
    const received: IncomingHttpHeaders[] = [];
    const urls = new Map<string, string>();

    before(async () => {
      // No runner: a queued job stays as it is, so its answers keep their ETags.
      t = await startTestApp(engine, { env: { RUN_JOBS: '0' } });
      const { server, port } = await t.listen();
      server.on('request', (req: { headers: IncomingHttpHeaders }) => received.push(req.headers));
      base = `http://127.0.0.1:${port}`;
      const job = await t.request('post', '/v1/jobs', { body: { slug: 'blob', seed: 1, size: { width: 32, height: 32 } } });
      assert.equal(job.status, 202, job.text);
      const preset = await t.request('post', '/v1/presets', { body: { name: 'etags', recipe: { slug: 'blob', seed: 1 } } });
      assert.equal(preset.status, 201, preset.text);
      const template = await t.request('post', '/v1/templates', {
        body: { name: 'etags', size: { width: 32, height: 32 }, layers: [{ id: 'bg', kind: 'fill', color: '#123456' }] },
      });
      assert.equal(template.status, 201, template.text);
      const asset = await t.request('post', '/v1/assets', {
        raw: pngWith(2, 2, deflateSync(Buffer.from([0, 10, 20, 0, 30, 40]))),
        headers: { 'Content-Type': 'image/png' },
      });
      assert.equal(asset.status, 201, asset.text);
      const signingKey = await t.request('post', '/v1/url-signing-keys', { body: { label: 'etags' } });
      assert.equal(signingKey.status, 201, signingKey.text);
      const ids: Record<string, string> = {
        '/v1/url-signing-keys/': signingKey.body.id,
        '/v1/jobs/': job.body.id,
        '/v1/presets/': preset.body.id,
        '/v1/assets/': asset.body.id,
        '/v1/templates/': template.body.id,
      };
      for (const { path } of JSON_GETS) {
        const id = Object.entries(ids).find(([prefix]) => path.startsWith(prefix))?.[1];
        urls.set(
          path,
          path
            .replace('{id}', id ?? '{id}')
            .replace('{slug}', 'blob')
            .replace('{version}', '1'),
        );
      }
    });
    after(async () => t?.close());

    /** A request with node's global fetch on a real socket, checked against the contract like the harness's. */
    async function fetched(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Headers; text: string }> {
      const res = await fetch(base + url, { headers });
      const text = await res.text();
      const type = res.headers.get('content-type') ?? '';
      assertMatchesContract('GET', url, {
        status: res.status,
        headers: Object.fromEntries(res.headers),
        body: type.startsWith('application/') && text ? JSON.parse(text) : undefined,
        text,
      });
      return { status: res.status, headers: res.headers, text };
    }

    test('the contract lists the authenticated JSON GETs this covers', () => {
      const authenticated = JSON_GETS.filter((g) => g.authenticated).map((g) => g.operationId);
      for (const op of [
        'listJobs',
        'getJob',
        'listKeys',
        'listUrlSigningKeys',
        'getMe',
        'getWebhookSecret',
        'listPresets',
        'getPreset',
        'getUsage',
        'getBilling',
      ])
        assert.ok(authenticated.includes(op), `${op} is not an authenticated JSON GET declaring 304: ${authenticated.join(', ')}`);
    });

    for (const { path, authenticated } of JSON_GETS) {
      test(`${path}: a strong ETag of the body; a matching If-None-Match gets 304, also with Cache-Control: no-cache`, async () => {
        const url = urls.get(path)!;
        const first = await t.request('get', url);
        assert.equal(first.status, 200, first.text);
        const etag = first.headers.etag as string;
        assert.equal(etag, etagOf(first.text), 'the ETag is the SHA-256 of the exact body bytes');

        for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, `W/"a,b", W/${etag}`, '*']) {
          const again = await t.request('get', url, { headers: { 'If-None-Match': ifNoneMatch, 'Cache-Control': 'no-cache' } });
          assert.equal(again.status, 304, `If-None-Match: ${ifNoneMatch}`);
          assert.equal(again.headers.etag, etag);
          assert.equal(again.headers['cache-control'], first.headers['cache-control']);
          assert.equal(again.headers['content-type'], undefined);
          assert.equal(again.text ?? '', '');
          if (authenticated) assert.ok(again.headers.ratelimit, 'a 304 of an authenticated operation carries RateLimit');
        }
        for (const ifNoneMatch of ['"other"', 'W/"other", "also-not"', etag.slice(1, -1), 'garbage']) {
          const changed = await t.request('get', url, { headers: { 'If-None-Match': ifNoneMatch } });
          assert.equal(changed.status, 200, `If-None-Match: ${ifNoneMatch}`);
          assert.equal(changed.headers.etag, etag);
        }
      });
    }

    test("Node's fetch with If-None-Match (it adds Cache-Control: no-cache) gets 304 on every authenticated JSON GET", async () => {
      for (const { path } of JSON_GETS.filter((g) => g.authenticated)) {
        const url = urls.get(path)!;
        const first = await fetched(url, bearer);
        assert.equal(first.status, 200, first.text);
        const etag = first.headers.get('etag')!;
        assert.equal(etag, etagOf(first.text));
        const sent = received.length;
        const again = await fetched(url, { ...bearer, 'If-None-Match': etag });
        assert.equal(received[sent]?.['cache-control'], 'no-cache', 'fetch sent Cache-Control: no-cache with If-None-Match');
        assert.equal(again.status, 304, path);
        assert.equal(again.headers.get('etag'), etag);
        assert.equal(again.text, '');
      }
    });

    test('a changed resource answers 200 with a new ETag, which then gets 304', async () => {
      const created = await t.request('post', '/v1/presets', { body: { name: 'before', recipe: { slug: 'blob', seed: 2 } } });
      assert.equal(created.status, 201, created.text);
      for (const url of [`/v1/presets/${created.body.id}`, '/v1/presets']) {
        const before = await fetched(url, bearer);
        const etag = before.headers.get('etag')!;
        assert.equal((await fetched(url, { ...bearer, 'If-None-Match': etag })).status, 304);
        const renamed = await t.request('patch', `/v1/presets/${created.body.id}`, { body: { name: `after ${url.length}` } });
        assert.equal(renamed.status, 200, renamed.text);
        const after = await fetched(url, { ...bearer, 'If-None-Match': etag });
        assert.equal(after.status, 200, url);
        const newEtag = after.headers.get('etag')!;
        assert.notEqual(newEtag, etag);
        assert.equal(newEtag, etagOf(after.text));
        assert.equal((await fetched(url, { ...bearer, 'If-None-Match': `${etag}, ${newEtag}` })).status, 304);
      }
    });

    test('If-None-Match does not turn an error into 304', async () => {
      const missing = await t.request('get', '/v1/presets/pre_missing', { headers: { 'If-None-Match': '*' } });
      assert.equal(missing.status, 404);
      const unauthenticated = await t.request('get', '/v1/me', { auth: false, headers: { 'If-None-Match': '*' } });
      assert.equal(unauthenticated.status, 401);
    });

    test("a render answers Node's fetch with If-None-Match (and its Cache-Control: no-cache) with 304 too", async () => {
      const rendered = await t.request('post', '/v1/generate/blob', { body: { seed: 5, size: { width: 32, height: 32 } } });
      assert.equal(rendered.status, 200);
      const hash = rendered.headers['x-service-recipe-hash'] as string;
      const url = `/v1/render/${hash}?r=${rendered.headers['x-service-recipe']}`;
      const first = await fetched(url, bearer);
      assert.equal(first.status, 200);
      const again = await fetched(url, { ...bearer, 'If-None-Match': first.headers.get('etag')! });
      assert.equal(again.status, 304);
      assert.equal(again.headers.get('etag'), `"${hash}"`);
      assert.equal(again.headers.get('x-service-recipe-hash'), hash);
    });
  });
}
