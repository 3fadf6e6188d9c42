// The web app's pure modules (web/js, plain JS run in Node) see what the page sees: the service's
// format facts (GET /v1/health `formats`) and its generators as GET /v1/generators lists them.
import { ALL_GENERATORS } from '../../src/generators/index.ts';
import { toGeneratorView } from '../../src/generators/generator.view.ts';
import { formatFacts } from '../../src/lib/formats.ts';
import { setFormats } from '../../web/js/formats.js';
import type { ParamSchema } from '../../web/js/types.js';

setFormats(formatFacts());

export const generators = ALL_GENERATORS.map(toGeneratorView);

export function generator(slug: string) {
  const gen = generators.find((g) => g.slug === slug);
  if (!gen) throw new Error(`no generator ${slug}`);
  return gen;
}

/** A generator's paramSchema properties. */
export const propertiesOf = (slug: string) =>
  (generator(slug).paramSchema as { properties: Record<string, ParamSchema & Record<string, unknown>> }).properties;

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
