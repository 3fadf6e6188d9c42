// orbits: the shared animated-generator contract (lib/generator-contract.ts), then what is its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { animatedGeneratorContract, meanAbsDiff } from '../../../test/unit/generators/generator-contract.ts';
import { renderFrameForTest } from '../../../test/unit/generators/render-for-test.ts';
import gen from './orbits.generator.ts';

animatedGeneratorContract(gen, {
  invalid: [{ orbits: 1 }, { orbits: 13 }, { tilt: 0.9 }, { trail: 1 }, { speed: 4 }],
  loops: [
    { speed: 3, orbits: 12 },
    { fps: 10, duration: 1.05, trail: 0.9 },
    { tilt: 0, trail: 0, orbits: 2 },
  ],
});

test('orbits: trails change the picture', () => {
  const a = renderFrameForTest(gen, { seed: 4, params: { trail: 0 }, frame: 5 });
  const b = renderFrameForTest(gen, { seed: 4, params: { trail: 0.8 }, frame: 5 });
  assert.ok(meanAbsDiff(a.pixels, b.pixels) > 0.2);
});
