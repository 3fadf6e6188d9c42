// The account area's scoped-key rules (web/js/key-scope-rules.js, plain JS run here in Node): the
// scopes offered are exactly the service's, the create request a form state makes, and how a key's
// scopes and month read. The panel itself, through the service: test/acceptance/web-app.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keyRequestBody, SCOPES, scopesText, spendingText } from '../../web/js/key-scope-rules.js';
import { SCOPE_NAMES } from '../../src/services/key-scopes.ts';

test("the scopes offered are the service's, in its order", () => {
  assert.deepEqual(
    SCOPES.map(([name]) => name),
    SCOPE_NAMES,
  );
});

test('full access sends no scopes; chosen scopes go in the service order; none chosen is refused', () => {
  assert.deepEqual(keyRequestBody({ label: ' ci ', fullAccess: true, scopes: ['render'], limit: '' }), { body: { label: 'ci' } });
  assert.deepEqual(keyRequestBody({ label: 'ci', fullAccess: false, scopes: ['jobs', 'render'], limit: '' }), {
    body: { label: 'ci', scopes: ['render', 'jobs'] },
  });
  assert.match(keyRequestBody({ label: 'ci', fullAccess: false, scopes: [], limit: '' }).error!, /at least one scope/);
});

test('the monthly limit: empty for none, a whole number of credits, else refused', () => {
  assert.deepEqual(keyRequestBody({ label: 'x', fullAccess: true, scopes: [], limit: ' 5000 ' }).body, {
    label: 'x',
    monthlyCreditLimit: 5000,
  });
  assert.deepEqual(keyRequestBody({ label: 'x', fullAccess: true, scopes: [], limit: '0' }).body, { label: 'x', monthlyCreditLimit: 0 });
  for (const bad of ['-1', '1.5', 'ten', '1000000001'])
    assert.ok(keyRequestBody({ label: 'x', fullAccess: true, scopes: [], limit: bad }).error, bad);
});

test("a key's scopes and month as listed", () => {
  assert.equal(scopesText(null), 'Full access');
  assert.equal(scopesText(['render', 'jobs']), 'render, jobs');
  assert.equal(spendingText({ monthlyCreditLimit: null, creditsSpentThisMonth: 12 }), '12 (no limit)');
  assert.equal(spendingText({ monthlyCreditLimit: 5000, creditsSpentThisMonth: 1274 }), '1,274 of 5,000');
});
