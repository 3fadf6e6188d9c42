// aurora: the shared animated-generator contract (lib/generator-contract.ts), then what is its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { animatedGeneratorContract, meanAbsDiff } from '../../../test/unit/generators/generator-contract.ts';
import { renderFrameForTest } from '../../../test/unit/generators/render-for-test.ts';
import gen from './aurora.generator.ts';

animatedGeneratorContract(gen, {
  invalid: [{ curtains: 0 }, { curtains: 6 }, { intensity: 3 }, { speed: 1.5 }, { ridge: 'yes' }],
  loops: [
    { speed: 4, curtains: 5 },
    { fps: 10, duration: 1.05, stars: 1 },
    { ridge: false, stars: 0, curtains: 1 },
  ],
});

test('aurora: more intensity gives a brighter sky', () => {
  const sum = (px: Uint8ClampedArray) => px.reduce((a, v) => a + v, 0);
  const dim = renderFrameForTest(gen, { seed: 4, params: { intensity: 0.3 }, frame: 5 });
  const bright = renderFrameForTest(gen, { seed: 4, params: { intensity: 2 }, frame: 5 });
  assert.ok(sum(bright.pixels) > sum(dim.pixels));
  assert.ok(meanAbsDiff(bright.pixels, dim.pixels) > 1);
});
