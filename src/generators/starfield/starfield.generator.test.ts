// starfield: the shared animated-generator contract (lib/generator-contract.ts), then what is its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { animatedGeneratorContract } from '../../../test/unit/generators/generator-contract.ts';
import { renderFrameForTest } from '../../../test/unit/generators/render-for-test.ts';
import gen from './starfield.generator.ts';

animatedGeneratorContract(gen, {
  invalid: [{ stars: 3001 }, { speed: 0 }, { trail: -0.1 }],
  loops: [
    { speed: 4, trail: 1 },
    { fps: 10, duration: 1.05, trail: 0 },
  ],
});

test('starfield: more stars make a brighter sky', () => {
  const lum = (px: Uint8ClampedArray) => px.reduce((s, v, i) => (i % 4 === 3 ? s : s + v), 0);
  const few = renderFrameForTest(gen, { seed: 4, params: { stars: 50, nebula: 0 }, frame: 6 });
  const many = renderFrameForTest(gen, { seed: 4, params: { stars: 2000, nebula: 0 }, frame: 6 });
  assert.ok(lum(many.pixels) > lum(few.pixels));
});
