// The service's generators as GET /v1/generators lists them, for the web app's pure modules (and the
// format facts they read: web-logic.ts).
import './web-logic.ts';
import { ALL_GENERATORS } from '../../src/generators/index.ts';
import { toGeneratorView } from '../../src/generators/generator.view.ts';
import type { ParamSchema } from '../../web/js/types.js';

export const generators = ALL_GENERATORS.map(toGeneratorView);

export function generator(slug: string) {
  const gen = generators.find((g) => g.slug === slug);
  if (!gen) throw new Error(`no generator ${slug}`);
  return gen;
}

/** A generator's paramSchema properties. */
export const propertiesOf = (slug: string) =>
  (generator(slug).paramSchema as { properties: Record<string, ParamSchema & Record<string, unknown>> }).properties;
