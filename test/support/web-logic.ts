// The web app's pure modules (web/js, plain JS run in Node) see what the page sees: the service's
// format facts (GET /v1/health `formats`), set here; its generators: web-generators.ts.
import { formatFacts } from '../../src/lib/formats.ts';
import { setFormats } from '../../web/js/formats.js';

setFormats(formatFacts());

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
