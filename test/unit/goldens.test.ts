// Every generator × format against its committed output hash (test/golden/goldens.json).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { goldenCases } from '../golden/golden-recipes.ts';
import { renderGoldens } from '../golden/render-golden.ts';

const committed = JSON.parse(readFileSync(new URL('../golden/goldens.json', import.meta.url), 'utf8')) as Record<
  string,
  { recipeHash: string; sha256: string }
>;

test('the golden set covers every generator × format', () => {
  assert.deepEqual(
    Object.keys(committed).sort(),
    goldenCases()
      .map((c) => c.id)
      .sort(),
    'run `npm run goldens:update` after adding a generator or format (and bump versions for changed output)',
  );
});

test('every golden renders to its committed bytes, twice', async () => {
  const first = await renderGoldens();
  const second = await renderGoldens();
  const drift: string[] = [];
  for (const [id, expected] of Object.entries(committed)) {
    const got = first.get(id);
    assert.ok(got, `missing golden ${id}`);
    assert.equal(got.recipeHash, expected.recipeHash, `${id}: the recipe itself changed`);
    if (got.sha256 !== expected.sha256) drift.push(id);
    assert.equal(second.get(id)?.sha256, got.sha256, `${id}: two renders in one run differ`);
  }
  assert.deepEqual(drift, [], 'output drifted; a generator whose output changes must bump its version');
});
