// The account area's budget form rules (web/js/budget-form.js, plain JS run here in Node): thresholds
// as typed become the sorted list the API takes, and the form's body removes a budget when the amount
// is empty.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { budgetBody, parseThresholds, spentPercent } from '../../web/js/budget-form.js';

test('thresholds: commas, spaces and % signs; sorted, without repeats; refused when not whole percentages', () => {
  assert.deepEqual(parseThresholds('80, 50 100%'), { ok: true, value: [50, 80, 100] });
  assert.deepEqual(parseThresholds('50,50'), { ok: true, value: [50] });
  assert.equal(parseThresholds('').ok, false);
  assert.equal(parseThresholds('12.5').ok, false);
  assert.equal(parseThresholds('0').ok, false);
  assert.equal(parseThresholds('1001').ok, false);
  assert.equal(parseThresholds('1 2 3 4 5 6 7 8 9 10 11').ok, false);
});

test('the body: an empty amount removes the budget; an empty URL sends null', () => {
  assert.deepEqual(budgetBody({ monthlyCredits: '', thresholds: 'x', webhookUrl: '' }), { ok: true, value: { monthlyCredits: null } });
  assert.deepEqual(budgetBody({ monthlyCredits: '5000', thresholds: '100 50', webhookUrl: ' ' }), {
    ok: true,
    value: { monthlyCredits: 5000, alertThresholds: [50, 100], webhookUrl: null },
  });
  assert.equal(budgetBody({ monthlyCredits: '0', thresholds: '50', webhookUrl: '' }).ok, false);
  const bad = budgetBody({ monthlyCredits: '10', thresholds: 'half', webhookUrl: '' });
  assert.equal(bad.ok, false);
  assert.equal(!bad.ok && bad.field, 'alertThresholds');
  assert.equal(spentPercent(2710, 5000), 54);
  assert.equal(spentPercent(5, null), 0);
});
