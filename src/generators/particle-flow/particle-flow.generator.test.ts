// particle-flow: the shared animated-generator contract (lib/generator-contract.ts), then what is its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { animatedGeneratorContract } from '../../../test/unit/generators/generator-contract.ts';
import { renderFrameForTest } from '../../../test/unit/generators/render-for-test.ts';
import gen from './particle-flow.generator.ts';

animatedGeneratorContract(gen, {
  invalid: [{ particles: 49 }, { trail: 49 }, { lifetimes: 0 }, { speed: 3.5 }],
  loops: [
    { lifetimes: 1, trail: 48 },
    { lifetimes: 4, speed: 3 },
    { fps: 10, duration: 1.05 },
  ],
});

test('particle-flow: more particles cover more of the canvas', () => {
  const lit = (px: Uint8ClampedArray) => {
    let n = 0;
    for (let i = 0; i < px.length; i += 4) if (px[i] + px[i + 1] + px[i + 2] > 120) n++;
    return n;
  };
  const few = renderFrameForTest(gen, { seed: 4, params: { particles: 100 }, frame: 20 });
  const many = renderFrameForTest(gen, { seed: 4, params: { particles: 3000 }, frame: 20 });
  assert.ok(lit(many.pixels) > lit(few.pixels));
});
