// The account area's scoped keys, as plain rules (unit-tested in Node: test/unit/web-key-scopes.test.ts):
// the scopes offered, the POST /v1/keys body a form state makes, and how a key's scopes and limit read.
// The scope names are the service's (src/services/key-scopes.ts; the unit test keeps them equal).

/** Every scope, in the service's order, with what it allows. */
export const SCOPES = [
  ['render', 'Render (spends credits)'],
  ['jobs', 'Export jobs'],
  ['presets', 'Presets'],
  ['templates', 'Templates'],
  ['assets', 'Assets'],
  ['usage:read', 'Read usage'],
  ['account:read', 'Read account and balance'],
  ['billing', 'Billing and buying credits'],
  ['keys:manage', 'Manage API keys'],
  ['signing-keys:manage', 'Manage URL signing keys'],
  ['webhooks:manage', 'Webhook secret'],
  ['mcp', 'AI agents (MCP)'],
];

/**
 * The body of POST /v1/keys for a form state, or `{ error }` saying what to fix: `fullAccess` sends no
 * scopes (every scope); otherwise at least one must be chosen. `limit` is the limit field's text
 * (empty: no limit), a whole number of credits.
 */
export function keyRequestBody({ label, fullAccess, scopes, limit }) {
  const body = { label: label.trim() };
  if (!fullAccess) {
    const chosen = SCOPES.map(([name]) => name).filter((name) => scopes.includes(name));
    if (chosen.length === 0) return { error: 'Choose at least one scope, or full access.' };
    body.scopes = chosen;
  }
  const text = limit.trim();
  if (text !== '') {
    if (!/^\d+$/.test(text) || Number(text) > 1_000_000_000)
      return { error: 'The monthly limit is a whole number of credits (up to 1,000,000,000).' };
    body.monthlyCreditLimit = Number(text);
  }
  return { body };
}

/** A key's scopes as listed: "Full access" for null (every scope), else the names. */
export function scopesText(scopes) {
  return scopes === null || scopes === undefined ? 'Full access' : scopes.join(', ');
}

/** A key's month: "12 credits" spent, and "of 5,000" when it has a limit. */
export function spendingText({ monthlyCreditLimit, creditsSpentThisMonth }, locale) {
  const n = (v) => v.toLocaleString(locale ?? 'en-US');
  return monthlyCreditLimit === null || monthlyCreditLimit === undefined
    ? `${n(creditsSpentThisMonth)} (no limit)`
    : `${n(creditsSpentThisMonth)} of ${n(monthlyCreditLimit)}`;
}
