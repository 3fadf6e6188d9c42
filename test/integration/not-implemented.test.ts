// The operations still answering 501 from the one not-implemented handler. This list may only
// shrink: building an operation means removing it here.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { handlers } from '../../handlers/index.ts';
import { listOperations } from '../../src/lib/openapi-document.ts';
import { NOT_IMPLEMENTED_MARK } from '../../src/http/not-implemented.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

const STILL_NOT_IMPLEMENTED: string[] = [
];

test('exactly these operations are not implemented yet', () => {
  const marked = Object.entries(handlers)
    .filter(([, h]) => NOT_IMPLEMENTED_MARK in h)
    .map(([id]) => id)
    .sort();
  assert.deepEqual(marked, STILL_NOT_IMPLEMENTED);
});

describe('501 not_implemented', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp('sqlite');
  });
  after(async () => t?.close());

  const valid: Record<string, unknown> = {
    createCheckout: { packId: 'starter' },
    createJob: { slug: 'mesh-gradient' },
    createKey: { label: 'ci' },
    renderBatch: { items: [{ slug: 'mesh-gradient' }] },
    handlePaymentWebhook: { id: 'evt_1' },
  };
  for (const op of listOperations().filter((o) => STILL_NOT_IMPLEMENTED.includes(o.operationId))) {
    test(`${op.operationId} answers 501 problem+json`, async () => {
      const url = op.path
        .replace('{recipeHash}', 'a'.repeat(64))
        .replace(/\{[^}]+\}/g, 'x1')
        .concat(op.operationId === 'renderRecipe' ? '?r=abc' : '');
      const res = await t.request(op.method.toLowerCase() as 'get', url, { body: valid[op.operationId] });
      assert.equal(res.status, 501);
      assert.equal(res.body.code, 'not_implemented');
    });
  }
});
