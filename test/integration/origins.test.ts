// Origin rules and the local gateway over HTTP, on SQLite (local mode). Cookie-specific
// rules (mutations need Origin, renders need same-origin evidence) are covered with real sessions
// in sign-in.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import supertest from 'supertest';
import { openApiDocument } from '../../src/lib/openapi-document.ts';
import { openPublicPaths } from '../../src/http/public-answer.ts';
import { ONE_ENGINE } from '../support/black-box/databases.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

const LISTED = 'https://app.example.test';
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
const PATH_VALUES: Record<string, string> = { slug: 'blob', recipeHash: 'a'.repeat(64), id: 'x1' };
const doc = openApiDocument() as { paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>> };
/** Every operation, from openapi.yaml: the origin rule applies before any of them runs. */
const operations = Object.entries(doc.paths).flatMap(([template, item]) =>
  (['get', 'post', 'put', 'patch', 'delete'] as Method[])
    .filter((m) => item[m])
    .map((m) => ({
      method: m,
      operationId: item[m]!.operationId,
      url: template.replace(/\{(\w+)\}/g, (_, name: string) => PATH_VALUES[name] ?? 'x1'),
    })),
);

for (const engine of ONE_ENGINE) {
  describe(`origins on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine, { env: { ALLOWED_ORIGINS: `${LISTED},https://admin.example.test` } });
    });
    after(async () => t?.close());

    test("403 origin_denied for an origin that is not listed, on public and protected routes; a public answer's refusal is readable by the page that asked", async () => {
      for (const [method, url, publicAnswer] of [
        ['get', '/v1/health', false],
        ['get', '/v1/generators', true],
        ['get', '/v1/keys', false],
        ['post', '/v1/keys', false],
      ] as const) {
        const res = await t.request(method, url, {
          headers: { Origin: 'https://evil.example' },
          body: method === 'post' ? { label: 'x' } : undefined,
        });
        assert.equal(res.status, 403, url);
        assert.equal(res.body.code, 'origin_denied');
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.equal(res.headers['access-control-allow-origin'], publicAnswer ? '*' : undefined, url);
        assert.equal(res.headers['access-control-allow-credentials'], undefined, url);
      }
    });

    test('the public answers a shared cache may keep are the ones openapi.yaml declares `Cache-Control: PublicCache` on a public operation', () => {
      assert.deepEqual(
        openPublicPaths()
          .map((p) => p.operationId)
          .sort(),
        ['getApiReference', 'getGenerator', 'getOpenApiDocument', 'getPricing', 'listGenerators'],
      );
    });

    test('a public answer is the same with no Origin and a listed one: `*` without credentials, Vary: Origin, nothing of the request', async () => {
      for (const url of ['/v1/generators', '/v1/generators/blob', '/v1/pricing', '/v1/openapi.json', '/v1/reference']) {
        const answers: Record<string, string>[] = [];
        const asked: Record<string, string>[] = [
          {},
          { Origin: LISTED },
          { Origin: 'https://admin.example.test', 'X-Request-Id': 'client-chosen-id-1' },
        ];
        for (const headers of asked) {
          const res = await t.request('get', url, { auth: false, headers });
          assert.equal(res.status, 200, url);
          assert.match(res.headers['cache-control'], /^public, max-age=\d+$/);
          const { date: _date, ...kept } = res.headers as Record<string, string>;
          answers.push(kept);
        }
        for (const answer of answers) {
          assert.equal(answer['access-control-allow-origin'], '*', url);
          assert.equal(answer['access-control-allow-credentials'], undefined, url);
          assert.equal(answer.vary, 'Origin', url);
          assert.match(answer['access-control-expose-headers'], /ETag/);
          assert.equal(answer['x-request-id'], undefined, `${url}: a shared cache would hand one client's request id to all`);
        }
        assert.deepEqual(answers[1], answers[0], url);
        assert.deepEqual(answers[2], answers[0], url);
        // Revalidated: the 304 says the same.
        const again = await t.request('get', url, { auth: false, headers: { Origin: LISTED, 'If-None-Match': answers[0]!.etag! } });
        assert.equal(again.status, 304, url);
        assert.equal(again.headers['access-control-allow-origin'], '*');
        assert.equal(again.headers.vary, 'Origin');
        assert.equal(again.headers['x-request-id'], undefined);
      }
      // A public operation that no shared cache keeps (no-store) and every protected one: as before.
      const health = await t.request('get', '/v1/health', { auth: false });
      assert.equal(health.headers['access-control-allow-origin'], undefined);
      assert.equal(health.headers.vary, undefined);
      assert.match(health.headers['x-request-id'], /^[0-9a-f-]{36}$/);
    });

    test('403 origin_denied on every operation for an origin that is not listed, with or without credentials', async () => {
      assert.ok(operations.length >= 30, `${operations.length} operations`);
      for (const { method, operationId, url } of operations) {
        for (const auth of [true, false]) {
          const res = await t.request(method, url, {
            auth,
            headers: { Origin: 'https://evil.example' },
            body: method === 'get' || method === 'delete' ? undefined : {},
          });
          assert.equal(res.status, 403, `${operationId}: ${res.text}`);
          assert.equal(res.body.code, 'origin_denied', operationId);
        }
      }
    });

    test('403 for Origin: null (sandboxed frames, file: pages)', async () => {
      const res = await t.request('get', '/v1/me', { headers: { Origin: 'null' } });
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 'origin_denied');
    });

    test('a listed origin gets CORS with credentials for exactly itself', async () => {
      const res = await t.request('get', '/v1/me', { headers: { Origin: LISTED } });
      assert.equal(res.status, 200);
      assert.equal(res.headers['access-control-allow-origin'], LISTED);
      assert.equal(res.headers['access-control-allow-credentials'], 'true');
      assert.match(res.headers.vary, /Origin/);
      assert.match(res.headers['access-control-expose-headers'], /X-Service-Recipe-Hash/);
      // A render keeps the CORS layer's Vary: Origin beside its own Authorization and Cookie.
      const render = await t.request('post', '/v1/generate/mesh-gradient', {
        headers: { Origin: LISTED },
        body: { seed: 1, size: { width: 32, height: 32 } },
      });
      assert.equal(render.status, 200);
      assert.deepEqual(render.headers.vary.split(/,\s*/).sort(), ['Authorization', 'Cookie', 'Origin']);
    });

    test('preflight: 204 for a listed origin, 403 for another', async () => {
      const ok = await supertest(t.app)
        .options('/v1/keys')
        .set({ Origin: LISTED, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' });
      assert.equal(ok.status, 204);
      assert.equal(ok.headers['access-control-allow-origin'], LISTED);
      assert.match(ok.headers['access-control-allow-headers'], /Authorization/);
      assert.match(ok.headers['access-control-allow-methods'], /POST/);
      const denied = await supertest(t.app)
        .options('/v1/keys')
        .set({ Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' });
      assert.equal(denied.status, 403);
      assert.equal(denied.headers['access-control-allow-origin'], undefined);
    });

    test('no Origin (server-to-server, curl) passes the origin rule', async () => {
      assert.equal((await t.request('get', '/v1/health', { auth: false })).status, 200);
    });
  });

  describe(`local gateway on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
    });
    after(async () => t?.close());
    // supertest sends Host: 127.0.0.1:<port>, a loopback name.

    test('a same-origin browser request on a loopback host is authenticated as the local workspace', async () => {
      const viaFetchMetadata = await t.request('get', '/v1/me', { auth: false, headers: { 'Sec-Fetch-Site': 'same-origin' } });
      assert.equal(viaFetchMetadata.status, 200);
      assert.equal(viaFetchMetadata.body.authMethod, 'local');
      assert.equal(viaFetchMetadata.body.workspace.id, 'ws_local');
      const viaOrigin = await t.request('post', '/v1/keys', {
        auth: false,
        headers: { Host: 'localhost:8080', Origin: 'http://localhost:8080' },
        body: { label: 'from the web app' },
      });
      assert.equal(viaOrigin.status, 201);
    });

    test('never for a foreign Host (DNS rebinding)', async () => {
      const res = await t.request('get', '/v1/me', {
        auth: false,
        headers: { Host: 'attacker.example:8080', 'Sec-Fetch-Site': 'same-origin' },
      });
      assert.equal(res.status, 401);
    });

    test('never for a foreign or cross-site Origin', async () => {
      const foreign = await t.request('get', '/v1/me', {
        auth: false,
        headers: { Host: '127.0.0.1:8080', Origin: 'http://127.0.0.1:9999' },
      });
      assert.equal(foreign.status, 403);
      assert.equal(foreign.body.code, 'origin_denied');
      const crossSite = await t.request('get', '/v1/me', { auth: false, headers: { 'Sec-Fetch-Site': 'cross-site' } });
      assert.equal(crossSite.status, 401);
    });

    test('a render on a loopback host without same-origin evidence is 401: no metadata, a foreign Referer, same-site or cross-site pages', async () => {
      const { hash, encoded } = t.runtime.deps.services.render.resolve('mesh-gradient', {
        seed: 3,
        size: { width: 32, height: 32 },
        format: 'png',
      });
      const url = `/v1/render/${hash}?r=${encoded}`;
      for (const headers of [
        {} as Record<string, string>,
        { Referer: 'https://evil.example/' },
        { 'Sec-Fetch-Site': 'same-site' },
        { 'Sec-Fetch-Site': 'cross-site', Referer: 'http://127.0.0.1:9999/' },
      ]) {
        const res = await t.request('get', url, { auth: false, headers });
        assert.equal(res.status, 401, JSON.stringify(headers));
      }
      assert.equal((await t.request('get', url, { auth: false, headers: { 'Sec-Fetch-Site': 'same-origin' } })).status, 200);
    });

    test('not without browser same-origin evidence (plain curl needs a key)', async () => {
      assert.equal((await t.request('get', '/v1/me', { auth: false })).status, 401);
    });

    test('explicit credentials win: a bad bearer is 401 even on a gateway-eligible request', async () => {
      const res = await t.request('get', '/v1/me', {
        auth: false,
        headers: { Authorization: 'Bearer svc_local_wrongwrongwrongwrongwrong', 'Sec-Fetch-Site': 'same-origin' },
      });
      assert.equal(res.status, 401);
    });

    test('auth-config reports the gateway', async () => {
      const res = await t.request('get', '/v1/auth-config', { auth: false });
      assert.equal(res.body.localGateway, true);
      assert.equal(res.body.mode, 'local');
      assert.deepEqual(res.body.providers, []);
      assert.equal(res.body.session, null);
      assert.equal(res.headers['cache-control'], 'no-store');
    });
  });

  describe(`local mode on a non-loopback interface (${engine})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine, { env: { HOST: '0.0.0.0' } });
    });
    after(async () => t?.close());

    test('the gateway is off: same-origin requests need a key', async () => {
      const res = await t.request('get', '/v1/me', { auth: false, headers: { 'Sec-Fetch-Site': 'same-origin' } });
      assert.equal(res.status, 401);
      assert.equal((await t.request('get', '/v1/auth-config', { auth: false })).body.localGateway, false);
    });
  });
}
