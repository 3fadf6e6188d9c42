// The app refuses to start when handlers and the contract disagree, in either direction.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { handlers } from '../../handlers/index.ts';
import { createOperationsRouter } from '../../src/http/operations.router.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

describe('handler table vs contract', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp('sqlite');
  });
  after(async () => t?.close());

  test('a missing handler fails the start-up', async () => {
    const { getHealth: _omitted, ...rest } = handlers;
    await assert.rejects(createOperationsRouter(t.runtime.deps, rest as never), /Missing: getHealth/);
  });

  test('a handler for an operation the contract does not have fails the start-up', async () => {
    await assert.rejects(createOperationsRouter(t.runtime.deps, { ...handlers, deleteEverything: () => {} } as never), /Not in the contract: deleteEverything/);
  });

  test('secrets in request headers never reach the log', async () => {
    const secrets = ['Bearer svc_local_not_a_real_key_but_secret_1', 'session=cookie-secret-2', 't=1,v1=signature-secret-3'];
    await t.request('get', '/v1/me', { auth: false, headers: { Authorization: secrets[0], Cookie: secrets[1], 'Payment-Signature': secrets[2] } });
    await t.request('post', '/v1/billing/webhook', { auth: false, headers: { 'Stripe-Signature': secrets[2] }, body: { id: 'evt' } });
    const log = t.logs.join('\n');
    assert.ok(log.includes('/v1/me'), 'the request itself is logged');
    for (const s of ['svc_local_not_a_real_key_but_secret_1', 'cookie-secret-2', 'signature-secret-3']) assert.ok(!log.includes(s), s);
    for (const line of t.logs) assert.doesNotThrow(() => JSON.parse(line), 'log lines are JSON');
  });
});
