// 401 for every protected operation without valid credentials; public routes stay public.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listOperations } from '../../src/lib/openapi-document.ts';
import { ENGINES, postgresAvailable } from '../support/black-box/databases.ts';
import { HOSTED_ENV, TEST_LOCAL_KEY, startTestApp, type TestApp } from '../support/harness.ts';

const fill = (path: string) =>
  path
    .replace('{slug}', 'mesh-gradient')
    .replace('{recipeHash}', 'a'.repeat(64))
    .replace(/\{[^}]+\}/g, 'x_1');

const operations = listOperations();
const protectedOps = operations.filter((o) => o.secured);
const publicOps = operations.filter((o) => !o.secured);

test('the contract protects everything but the public discovery routes and the signed webhook', () => {
  assert.deepEqual(publicOps.map((o) => o.operationId).sort(), [
    'getApiReference',
    'getAuthConfig',
    'getGenerator',
    'getHealth',
    'getOpenApiDocument',
    'getPricing',
    'getReady',
    'handlePaymentWebhook',
    'listGenerators',
  ]);
});

for (const engine of ENGINES) {
  describe(`authentication on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
    });
    after(async () => t?.close());

    for (const op of protectedOps) {
      test(`${op.operationId} 401 without credentials`, async () => {
        const res = await t.request(op.method.toLowerCase() as 'get', fill(op.path), {
          auth: false,
          body: op.method === 'GET' ? undefined : {},
        });
        assert.equal(res.status, 401);
        assert.equal(res.body.code, 'unauthorized');
        // An operation only a signed URL calls (renderSigningBase) is refused as a signed URL is.
        const signedOnly = op.operationId === 'renderSigningBase';
        assert.match(res.headers['www-authenticate'], signedOnly ? /^Signature realm=/ : /^Bearer realm=/);
      });
    }

    for (const [name, header] of [
      ['a wrong key', `Bearer ${TEST_LOCAL_KEY}x`],
      ['a malformed header', `Basic ${Buffer.from('a:b').toString('base64')}`],
      ['an empty bearer', 'Bearer '],
    ] as const) {
      test(`401 with ${name}`, async () => {
        const res = await t.request('get', '/v1/me', { auth: false, headers: { Authorization: header } });
        assert.equal(res.status, 401);
        assert.equal(res.body.code, 'unauthorized');
        assert.match(res.headers['www-authenticate'], /invalid_token/);
      });
    }

    test('API_KEYS authenticate the local workspace', async () => {
      const res = await t.request('get', '/v1/me');
      assert.equal(res.status, 200);
      assert.equal(res.body.workspace.kind, 'local');
      assert.equal(res.body.authMethod, 'api_key');
    });

    test('a key generated at first start authenticates too', async () => {
      const generated = 'svc_local_generated_key_for_this_test_only';
      const other = await startTestApp(engine, { env: { API_KEYS: '' }, compose: { localKey: () => generated } });
      try {
        const ok = await other.request('get', '/v1/me', { auth: false, headers: { Authorization: `Bearer ${generated}` } });
        assert.equal(ok.status, 200);
        const no = await other.request('get', '/v1/me', { auth: false, headers: { Authorization: `Bearer ${TEST_LOCAL_KEY}` } });
        assert.equal(no.status, 401);
      } finally {
        await other.close();
      }
    });

    test('public routes answer without credentials', async () => {
      for (const url of ['/v1/health', '/v1/ready', '/v1/generators', '/v1/openapi.json', '/v1/reference', '/v1/auth-config']) {
        const res = await t.request('get', url, { auth: false });
        assert.equal(res.status, 200, url);
      }
    });
  });
}

describe('hosted mode', { skip: !postgresAvailable() }, () => {
  test('API_KEYS never authenticate in hosted mode', async () => {
    const t = await startTestApp('postgres', { env: HOSTED_ENV });
    try {
      const res = await t.request('get', '/v1/me');
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'unauthorized');
    } finally {
      await t.close();
    }
  });
});
