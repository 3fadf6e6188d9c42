// The web app's pure modules (web/js, plain JS run in Node) see what the page sees: the service's
// format facts and limits (GET /v1/health `formats`, `limits` and `animationBudgetMs`), set here; its
// generators: web-generators.ts.
import { serviceLimits } from '../../src/config/limits.ts';
import { formatFacts } from '../../src/lib/formats.ts';
import { setFormats } from '../../web/js/formats.js';
import { setLimits } from '../../web/js/limits.js';

/** What GET /v1/health serves of them, with the default ANIMATION_BUDGET_MS (20 s). */
export const health = { formats: formatFacts(), limits: serviceLimits(), animationBudgetMs: 20_000 };
setFormats(health.formats);
setLimits(health);

/** A deterministic stand-in for Math.random: the values given, in turn, again and again. */
export function randoms(...values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length];
}

/** The recipe the playground's URL carries (`#/playground/<slug>?r=<base64url JSON>`), decoded as a test reads it. */
export function recipeInHash(hash: string): unknown {
  const r = new URLSearchParams(hash.split('?')[1] ?? '').get('r') ?? '';
  return JSON.parse(Buffer.from(r, 'base64url').toString('utf8'));
}
