// Framework-level errors: every one is problem+json, never an HTML page, and the process stays up.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ENGINES } from '../support/databases.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

for (const engine of ENGINES) {
  describe(`HTTP errors on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine, {
        env: { BODY_LIMIT_BYTES: '2048' },
        mutateDeps: (deps) => {
          deps.services.health.health = () => {
            throw new Error('boom: secret internals /srv/app.ts:42');
          };
        },
      });
    });
    after(async () => t?.close());

    test('404 route_not_found for an unknown route', async () => {
      const res = await t.request('get', '/v1/nothing-here');
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'route_not_found');
      const outside = await t.request('get', '/favicon.ico');
      assert.equal(outside.status, 404);
      assert.match(outside.headers['content-type'], /^application\/problem\+json/);
    });

    test('405 method_not_allowed with Allow', async () => {
      const res = await t.request('delete', '/v1/generators');
      assert.equal(res.status, 405);
      assert.equal(res.body.code, 'method_not_allowed');
      assert.equal(res.headers.allow, 'GET');
    });

    test('400 malformed_json for a broken body', async () => {
      const res = await t.request('post', '/v1/keys', { headers: { 'Content-Type': 'application/json' }, raw: '{"label": ' });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'malformed_json');
    });

    test('400 validation_failed for JSON that is not an object', async () => {
      for (const raw of ['[1,2]', '"text"', '42', 'null']) {
        const res = await t.request('post', '/v1/keys', { headers: { 'Content-Type': 'application/json' }, raw });
        assert.equal(res.status, 400, raw);
        assert.equal(res.body.code, 'validation_failed', raw);
        assert.equal(res.body.issues[0].path, 'body');
      }
    });

    test('413 payload_too_large over the documented body limit', async () => {
      const res = await t.request('post', '/v1/keys', { body: { label: 'x'.repeat(4096) } });
      assert.equal(res.status, 413);
      assert.equal(res.body.code, 'payload_too_large');
    });

    test('415 unsupported_media_type for a non-JSON body', async () => {
      const res = await t.request('post', '/v1/keys', { headers: { 'Content-Type': 'text/plain' }, raw: 'label=x' });
      assert.equal(res.status, 415);
      assert.equal(res.body.code, 'unsupported_media_type');
    });

    test('500 internal_error hides the stack and keeps serving', async () => {
      const res = await t.request('get', '/v1/health', { auth: false });
      assert.equal(res.status, 500);
      assert.equal(res.body.code, 'internal_error');
      assert.doesNotMatch(res.text, /boom|secret internals|\.ts:\d+|at /);
      assert.ok(res.body.instance, 'carries the request id');
      const after = await t.request('get', '/v1/generators', { auth: false });
      assert.equal(after.status, 200);
      assert.ok(t.logs.some((l) => l.includes('boom')), 'the error itself is logged');
    });
  });
}
