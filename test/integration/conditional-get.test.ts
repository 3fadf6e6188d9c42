// `If-None-Match: *` matches any current representation (RFC 9110 §13.1.2): every GET answered with
// JSON or HTML (express's send) then answers 304 Not Modified. openapi.yaml declares that 304 on each
// of them (NotModified); this suite produces it for the status-coverage table.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ONE_ENGINE } from '../support/black-box/databases.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

const CONDITIONAL_GETS = [
  '/v1/health',
  '/v1/ready',
  '/v1/openapi.json',
  '/v1/reference',
  '/v1/auth-config',
  '/v1/pricing',
  '/v1/generators',
  '/v1/generators/blob',
  '/v1/me',
  '/v1/usage',
  '/v1/billing',
  '/v1/workspace/webhook-secret',
  '/v1/jobs',
  '/v1/keys',
  '/v1/url-signing-keys',
  '/v1/presets',
];

for (const engine of ONE_ENGINE) {
  describe(`conditional GET on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
    });
    after(async () => t?.close());

    for (const url of CONDITIONAL_GETS) {
      test(`${url}: 200, and 304 to If-None-Match: *`, async () => {
        const first = await t.request('get', url);
        assert.equal(first.status, 200, first.text);
        const again = await t.request('get', url, { headers: { 'If-None-Match': '*' } });
        assert.equal(again.status, 304);
      });
    }

    test('/v1/jobs/{id}: 200, and 304 to If-None-Match: *', async () => {
      const job = await t.request('post', '/v1/jobs', { body: { slug: 'blob', seed: 1 } });
      assert.equal(job.status, 202, job.text);
      const url = `/v1/jobs/${job.body.id}`;
      assert.equal((await t.request('get', url)).status, 200);
      assert.equal((await t.request('get', url, { headers: { 'If-None-Match': '*' } })).status, 304);
    });

    test('/v1/presets/{id}: 200, and 304 to If-None-Match: *', async () => {
      const preset = await t.request('post', '/v1/presets', { body: { name: 'conditional', recipe: { slug: 'blob', seed: 1 } } });
      assert.equal(preset.status, 201, preset.text);
      const url = `/v1/presets/${preset.body.id}`;
      assert.equal((await t.request('get', url)).status, 200);
      assert.equal((await t.request('get', url, { headers: { 'If-None-Match': '*' } })).status, 304);
    });
  });
}
