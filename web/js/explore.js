// The designer's ways around a recipe: variations (other seeds, or one seed with its numbers nudged)
// and the sweep sheet's cells. No DOM (unit-tested in Node: test/unit/web-explore.test.ts).
import { isLogRange } from './param-values.js';
import { initialRecipe, recipeOfHash } from './recipe.js';
import { queryOf } from './route.js';

/** `count` variations: the recipe itself (same size, params and format) with seeds from `nextSeed`. */
export const seedVariations = (base, count, nextSeed) => Array.from({ length: count }, () => ({ ...base, seed: nextSeed() }));

/**
 * `count` variations near one: its seed, each number of `ranges` ([param, {min, max, integer}] of the
 * unlocked ranged ones) nudged by up to ±8 % of its range, kept within it (integers rounded, others to 4 digits).
 */
export const nearVariations = (base, ranges, count, random = Math.random) =>
  Array.from({ length: count }, () => {
    const params = { ...base.params };
    for (const [name, r] of ranges) {
      if (typeof params[name] !== 'number') continue;
      const n = Math.min(r.max, Math.max(r.min, params[name] + (random() * 2 - 1) * 0.08 * (r.max - r.min)));
      params[name] = r.integer ? Math.round(n) : Number(n.toPrecision(4));
    }
    return { ...base, params };
  });

const numeric = (schema) => !schema.enum && /number|integer/.test(schema.type);

/** What "Sweep…" offers: the seed, then every numeric param of a paramSchema's properties. */
export const sweepParams = (properties) => ['seed', ...Object.keys(properties).filter((k) => numeric(properties[k]))];

/** "Sweep…"'s default range for a param now at `value`: its schema's range, or the value ± itself; seeds from this one on ('' to: n of them). */
export function sweepRange(param, schema = {}, value = 0) {
  const d = Math.abs(value) || 1;
  return param === 'seed' ? [value, ''] : [schema.minimum ?? value - d, schema.maximum ?? value + d];
}

/** n values from `from` to `to`: evenly spaced (geometrically on a log scale), integers rounded, others to 4 digits. */
export function sweepValues(from, to, n, integer, log) {
  return Array.from({ length: n }, (_, i) => {
    const t = n > 1 ? i / (n - 1) : 0;
    const v = log ? from * (to / from) ** t : from + (to - from) * t;
    return integer ? Math.round(v) : Number(v.toPrecision(4));
  });
}

/**
 * The sweep sheet of a route, #/sweep/<slug>?r=<recipe>&param=<name or seed>&from=<a>&to=<b>&n=<cells>,
 * from the route alone: { param, n, log, values, cells } (each cell the recipe with that one value
 * changed), or { error } for a param that is not a number (or no generator). Without from/to, the schema's range
 * (seeds: the recipe's and the next n−1); without r, the generator's defaults; n is 2–48, 8 by default.
 */
export function sweepPlan(gen, slug, hash) {
  if (!gen) return { error: `No generator "${slug}".` };
  const q = queryOf(hash);
  const param = q.get('param') || 'seed';
  const seeds = param === 'seed';
  const schema = seeds ? { type: 'integer', minimum: 0 } : gen.paramSchema?.properties?.[param];
  const types = [schema?.type].flat();
  if (!types.includes('number') && !types.includes('integer')) return { error: `${slug} has no numeric param "${param}".` };
  const base = recipeOfHash(gen, hash) ?? initialRecipe(gen);
  const num = (key, fallback) => (q.get(key) && Number.isFinite(Number(q.get(key))) ? Number(q.get(key)) : fallback);
  const n = Math.min(48, Math.max(2, Math.round(num('n', 8))));
  const from = num('from', seeds ? base.seed : (schema.minimum ?? base.params[param] ?? 0));
  const to = num('to', seeds ? from + n - 1 : (schema.maximum ?? from + 1));
  const log = isLogRange(schema.minimum, schema.maximum) && from > 0 && to > 0;
  const values = sweepValues(from, to, n, types.includes('integer'), log);
  const cells = values.map((v) => (seeds ? { ...base, seed: v } : { ...base, params: { ...base.params, [param]: v } }));
  return { param, base, n, log, values, cells };
}
