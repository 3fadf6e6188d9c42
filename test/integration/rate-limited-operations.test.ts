// Every operation that authenticates is rate-limited before it does any work: past the key's limit
// each of them answers 429 rate_limited with Retry-After, whatever its parameters or body. The list
// comes from openapi.yaml (every operation declaring 429), so a new operation is covered at once and
// the status-coverage table sees each declared 429 produced.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { openApiDocument } from '../../src/lib/openapi-document.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { startTestApp, TEST_LOCAL_KEY, type TestApp } from '../support/harness.ts';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
const PATH_VALUES: Record<string, string> = { slug: 'blob', recipeHash: 'a'.repeat(64), id: 'x1' };
const doc = openApiDocument() as {
  paths: Record<
    string,
    Record<string, { operationId: string; responses: Record<string, unknown>; security?: Array<Record<string, unknown>> }>
  >;
};
/** Only a signed URL calls it (renderSigningBase): limited per client address and signing key, as signing-bases.test.ts shows. */
const signedOnly = (op: { security?: Array<Record<string, unknown>> }) =>
  op.security !== undefined && op.security.length > 0 && op.security.every((s) => Object.keys(s).join() === 'signedUrl');
const limited = Object.entries(doc.paths).flatMap(([template, item]) =>
  (['get', 'post', 'put', 'patch', 'delete'] as Method[])
    .filter((m) => item[m]?.responses['429'] && !signedOnly(item[m]!))
    .map((m) => ({
      method: m,
      operationId: item[m]!.operationId,
      url: template.replace(/\{(\w+)\}/g, (_, name: string) => PATH_VALUES[name] ?? 'x1'),
    })),
);

for (const engine of ENGINES) {
  describe(`rate limit on every authenticated operation on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine, { env: { RATE_LIMIT_KEY_PER_MINUTE: '1' } });
      assert.equal((await t.request('get', '/v1/jobs')).status, 200, 'the one request the key may make');
    });
    after(async () => t?.close());

    test('the list covers the authenticated operations', () => assert.ok(limited.length >= 20, `${limited.length} operations declare 429`));
    for (const { method, operationId, url } of limited) {
      test(`${operationId}: 429 rate_limited past the key's limit`, async () => {
        const res = await t.request(method, url, method === 'get' || method === 'delete' ? {} : { body: {} });
        assert.equal(res.status, 429, res.text);
        assert.equal(res.body.code, 'rate_limited');
        assert.ok(Number(res.headers['retry-after']) >= 1);
      });
    }

    test('createAsset: an upload past the limit is refused before its body is read, and the connection closes', async () => {
      const { port } = await t.listen();
      // 5 MB announced, 1 KB sent: the 429 must come while the rest has not (the body would wait for it).
      const req = http.request({
        port,
        method: 'POST',
        path: '/v1/assets',
        headers: { authorization: `Bearer ${TEST_LOCAL_KEY}`, 'content-type': 'image/png', 'content-length': String(5_000_000) },
      });
      req.on('error', () => undefined); // the server may close while the client still writes
      const answered = new Promise<http.IncomingMessage>((resolve) => req.once('response', resolve));
      req.write(Buffer.alloc(1024));
      const res = await answered;
      req.destroy();
      res.resume();
      assert.equal(res.statusCode, 429);
      assert.equal(res.headers.connection, 'close');
    });
  });
}
