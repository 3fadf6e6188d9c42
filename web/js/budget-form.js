// The budget form's pure rules (tested in Node: test/unit/web-budget.test.ts): the thresholds as typed
// ("50, 80, 100") to the list PUT /v1/workspace/budget takes, and the body the form sends.

/** "50, 80 100" → [50, 80, 100] (sorted, no repeats); an error message for anything else. */
export function parseThresholds(text) {
  const parts = String(text ?? '')
    .split(/[\s,;%]+/)
    .filter(Boolean);
  if (parts.length === 0) return { ok: false, error: 'Give at least one threshold, e.g. 50, 80, 100.' };
  const values = [];
  for (const part of parts) {
    if (!/^\d+$/.test(part)) return { ok: false, error: `“${part}” is not a whole percentage.` };
    const n = Number(part);
    if (n < 1 || n > 1000) return { ok: false, error: 'Each threshold is a percentage from 1 to 1000.' };
    values.push(n);
  }
  const unique = [...new Set(values)].sort((a, b) => a - b);
  if (unique.length > 10) return { ok: false, error: 'At most 10 thresholds.' };
  return { ok: true, value: unique };
}

/** The PUT body from the form's fields; an empty amount removes the budget. */
export function budgetBody({ monthlyCredits, thresholds, webhookUrl }) {
  const amount = String(monthlyCredits ?? '').trim();
  if (amount === '') return { ok: true, value: { monthlyCredits: null } };
  if (!/^\d+$/.test(amount) || Number(amount) < 1)
    return { ok: false, field: 'monthlyCredits', error: 'The budget is a whole number of credits, at least 1.' };
  const parsed = parseThresholds(thresholds);
  if (!parsed.ok) return { ok: false, field: 'alertThresholds', error: parsed.error };
  const url = String(webhookUrl ?? '').trim();
  return { ok: true, value: { monthlyCredits: Number(amount), alertThresholds: parsed.value, webhookUrl: url === '' ? null : url } };
}

/** How much of the budget this month's spending is, in whole percent (0 without a budget). */
export function spentPercent(spent, budget) {
  return budget ? Math.floor((spent * 100) / budget) : 0;
}
