// HTTP basics (on SQLite: nothing here reaches below the repositories): the Bearer scheme is case-insensitive (RFC 9110 §11.1), HEAD
// answers every GET operation with the GET's headers and no body, and CORS exposes every response
// header a browser client reads.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import supertest from 'supertest';
import { openApiDocument } from '../../src/lib/openapi-document.ts';
import { ONE_ENGINE } from '../support/black-box/databases.ts';
import { TEST_LOCAL_KEY, startTestApp, type TestApp } from '../support/harness.ts';

const LISTED = 'https://app.example.test';
/** Headers a browser script reads without being told (the Fetch standard's CORS-safelisted response headers). */
const SAFELISTED = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma']);

/** Every response header the contract declares, on any operation. */
function contractResponseHeaders(): string[] {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'responses' && value && typeof value === 'object') {
        for (const response of Object.values(value) as { headers?: Record<string, unknown> }[])
          for (const h of Object.keys(response?.headers ?? {})) found.add(h);
      }
      walk(value);
    }
  };
  walk(openApiDocument());
  return [...found];
}

for (const engine of ONE_ENGINE) {
  describe(`HTTP basics on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine, { env: { ALLOWED_ORIGINS: LISTED } });
    });
    after(async () => t?.close());

    for (const scheme of ['bearer', 'BEARER', 'bEaReR']) {
      test(`Authorization: ${scheme} <key> authenticates`, async () => {
        const res = await t.request('get', '/v1/me', { auth: false, headers: { Authorization: `${scheme} ${TEST_LOCAL_KEY}` } });
        assert.equal(res.status, 200);
        assert.equal(res.body.workspace.id, 'ws_local');
      });
    }

    test('CORS exposes every non-safelisted response header of the contract, X-Request-Id and Idempotent-Replayed', async () => {
      const res = await t.request('get', '/v1/me', { headers: { Origin: LISTED } });
      assert.equal(res.status, 200);
      const exposed = new Set(
        String(res.headers['access-control-expose-headers'])
          .split(/,\s*/)
          .map((h) => h.toLowerCase()),
      );
      const needed = [...contractResponseHeaders(), 'X-Request-Id', 'Idempotent-Replayed', 'Link', 'X-Service-Credits'].filter(
        (h) => !SAFELISTED.has(h.toLowerCase()),
      );
      for (const h of needed) assert.ok(exposed.has(h.toLowerCase()), `${h} is not exposed: ${[...exposed].join(', ')}`);
    });

    for (const url of ['/v1/health', '/v1/generators', '/v1/generators/blob', '/v1/me', '/v1/keys', '/v1/openapi.json']) {
      test(`HEAD ${url} answers as GET, without a body`, async () => {
        const auth = { Authorization: `Bearer ${TEST_LOCAL_KEY}` };
        const get = await supertest(t.app).get(url).set(auth);
        const head = await supertest(t.app).head(url).set(auth);
        assert.equal(get.status, 200);
        assert.equal(head.status, 200);
        for (const h of ['content-type', 'etag', 'cache-control', 'ratelimit-policy']) assert.equal(head.headers[h], get.headers[h], h);
        assert.equal(head.text ?? '', '');
      });
    }

    test('405 lists HEAD beside GET in Allow', async () => {
      const res = await supertest(t.app)
        .delete('/v1/generators')
        .set({ Authorization: `Bearer ${TEST_LOCAL_KEY}` });
      assert.equal(res.status, 405);
      assert.deepEqual(res.headers.allow.split(/,\s*/).sort(), ['GET', 'HEAD']);
    });
  });
}
