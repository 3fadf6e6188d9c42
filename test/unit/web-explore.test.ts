// The designer's ways around a recipe (web/js/explore.js, plain JS run here in Node): variations are
// the recipe with other seeds, or one seed with its numbers nudged; a sweep sheet is a function of its
// link alone, each cell the recipe with one value changed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generator, propertiesOf } from '../support/web-generators.ts';
import { nearVariations, seedVariations, sweepParams, sweepPlan, sweepRange, sweepValues } from '../../web/js/explore.js';
import { initialRecipe, playgroundHref, sweepHref } from '../../web/js/recipe.js';
import type { Recipe } from '../../web/js/types.js';

const blob = generator('blob');
const base: Recipe = { ...initialRecipe(blob), seed: 42 };

/** The sheet of a route that has one. */
function sheet(slug: string, hash: string) {
  const plan = sweepPlan(generator(slug), slug, hash);
  if (plan.error !== undefined) throw new Error(plan.error);
  return plan;
}

test('"Other seeds": six variations that are the recipe itself (same size, params and format) with other seeds', () => {
  let next = 1000;
  const variations = seedVariations(base, 6, () => next++);
  assert.equal(variations.length, 6);
  for (const [i, v] of variations.entries()) {
    assert.deepEqual({ ...v, seed: base.seed }, base);
    assert.equal(v.seed, 1000 + i);
  }
});

test('"More like this": that seed, each unlocked ranged number nudged by up to ±8 % of its range, kept within it', () => {
  const props = propertiesOf('blob');
  const ranges = (['points', 'size', 'irregularity'] as const).map(
    (name) =>
      [name, { min: props[name].minimum!, max: props[name].maximum!, integer: props[name].type === 'integer' }] as [
        string,
        { min: number; max: number; integer: boolean },
      ],
  );
  for (const random of [Math.random, () => 0, () => 0.9999]) {
    for (const v of nearVariations(base, ranges, 6, random)) {
      assert.equal(v.seed, base.seed);
      assert.deepEqual(v.size, base.size);
      for (const [name, r] of ranges) {
        const value = v.params[name] as number;
        assert.ok(value >= r.min && value <= r.max, `${name} ${value}`);
        assert.ok(Math.abs(value - (base.params[name] as number)) <= 0.08 * (r.max - r.min) + (r.integer ? 0.5 : 1e-9), `${name} ${value}`);
      }
      // Locked ones (not in ranges) and everything else stay.
      assert.equal(v.params.layers, base.params.layers);
      assert.deepEqual(v.params.palette, base.params.palette);
    }
  }
  const [up] = nearVariations(base, ranges, 1, () => 1);
  assert.equal(up.params.points, Math.round((base.params.points as number) + 0.08 * (props.points.maximum! - props.points.minimum!)));
  assert.equal(nearVariations({ ...base, params: { points: 'x' } }, ranges, 1)[0].params.points, 'x', 'only numbers are nudged');
});

test('"Sweep…" offers the seed and every numeric param, prefilled with the schema’s range (or the value ± itself)', () => {
  const props = propertiesOf('blob');
  assert.deepEqual(sweepParams(props), ['seed', 'size', 'points', 'irregularity', 'layers', 'spread', 'shadow', 'glow']);
  assert.deepEqual(sweepRange('points', props.points, 7), [3, 16]);
  assert.deepEqual(sweepRange('seed', undefined, 42), [42, '']);
  assert.deepEqual(sweepRange('x', {}, 5), [0, 10]);
  assert.deepEqual(sweepRange('x', {}, 0), [-1, 1]);
  assert.deepEqual(sweepRange('x', {}, undefined), [-1, 1]);
  assert.deepEqual(sweepParams(propertiesOf('waves')).includes('shape'), false, 'an enum is not swept');
});

test('a sweep of one param: n values from..to, each cell the recipe with only that value changed; the link alone reproduces it', () => {
  const href = sweepHref('blob', base, { param: 'points', from: '3', to: '10', n: '8' });
  const plan = sheet('blob', href);
  assert.deepEqual(plan.values, [3, 4, 5, 6, 7, 8, 9, 10]);
  assert.equal(plan.log, false);
  for (const [i, cell] of plan.cells.entries()) assert.deepEqual(cell, { ...base, params: { ...base.params, points: plan.values[i] } });
  // Nothing but the link: the same link, the same sheet, cell links and all.
  const again = sheet('blob', href);
  assert.deepEqual(again, plan);
  assert.deepEqual(
    again.cells.map((c) => playgroundHref('blob', c)),
    plan.cells.map((c) => playgroundHref('blob', c)),
  );
  // Without from/to the schema's range; without n, 8 cells; without r, the generator's defaults.
  const defaults = sheet('blob', '#/sweep/blob?param=points');
  assert.deepEqual([defaults.n, defaults.values[0], defaults.values.at(-1)], [8, 3, 16]);
  assert.deepEqual(defaults.base, initialRecipe(blob));
  assert.equal(sheet('blob', '#/sweep/blob?param=points&n=100').values.length, 48);
  assert.equal(sheet('blob', '#/sweep/blob?param=points&n=1').values.length, 2);
  // Numbers that are not integers go to 4 significant digits.
  assert.deepEqual(sheet('blob', '#/sweep/blob?param=size&from=0.1&to=0.2&n=4').values, [0.1, 0.1333, 0.1667, 0.2]);
});

test('a seed grid: seeds from, from+1, …; the cells differ only in seed', () => {
  const href = sweepHref('blob', base, { param: 'seed', from: 100, n: 6 });
  const plan = sheet('blob', href);
  assert.deepEqual(plan.values, [100, 101, 102, 103, 104, 105]);
  for (const [i, cell] of plan.cells.entries()) assert.deepEqual(cell, { ...base, seed: 100 + i });
  // From the recipe's own seed by default.
  assert.deepEqual(sheet('blob', sweepHref('blob', base, { param: 'seed', n: 3 })).values, [42, 43, 44]);
  assert.deepEqual(sheet('blob', '#/sweep/blob').values.slice(0, 2), [0, 1], 'the seed is the default param');
});

test('a range over orders of magnitude (voronoi’s cells 3–2000) is swept on a log scale', () => {
  const plan = sheet('voronoi', '#/sweep/voronoi?param=cells&n=3');
  assert.deepEqual(plan.values, [3, 77, 2000]);
  assert.equal(plan.log, true);
  assert.deepEqual(sweepValues(1, 100, 3, false, true), [1, 10, 100]);
  assert.deepEqual(sweepValues(0, 10, 3, false, false), [0, 5, 10]);
});

test('a sweep of something that is not a number says so', () => {
  assert.deepEqual(sweepPlan(blob, 'blob', '#/sweep/blob?param=palette'), { error: 'blob has no numeric param "palette".' });
  assert.deepEqual(sweepPlan(undefined, 'nope', '#/sweep/nope'), { error: 'No generator "nope".' });
  assert.deepEqual(sweepPlan(undefined, 'nope', '#/sweep/nope?param=cells'), { error: 'No generator "nope".' });
});
