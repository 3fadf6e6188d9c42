import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveRecipe } from '../engine/recipe.ts';
import { ALL_GENERATORS } from '../generators/index.ts';
import { GeneratorRegistry } from '../generators/registry.ts';
import { renderCost } from '../services/pricing.ts';
import { deviceSize } from './device-size.ts';

test('each side × pixelRatio, rounded to the nearest pixel (halves up)', () => {
  assert.deepEqual(deviceSize({ width: 333, height: 17, pixelRatio: 1.5 }), { width: 500, height: 26 });
  assert.deepEqual(deviceSize({ width: 1920, height: 1080, pixelRatio: 0.75 }), { width: 1440, height: 810 });
});

test('a recipe is drawn at, limited by and priced for the same device pixels', () => {
  const size = { width: 1001, height: 999, pixelRatio: 1.5 };
  const resolved = resolveRecipe(new GeneratorRegistry(ALL_GENERATORS), 'mesh-gradient', { seed: 1, size, format: 'png' });
  const device = deviceSize(size);
  assert.deepEqual([resolved.deviceWidth, resolved.deviceHeight], [1502, 1499]);
  assert.deepEqual([device.width, device.height], [1502, 1499]);
  assert.equal(renderCost(resolved), Math.ceil((1502 * 1499) / 1_000_000));
});
