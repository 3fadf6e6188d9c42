// flowing-gradient: the shared animated-generator contract (lib/generator-contract.ts), then what is its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { animatedGeneratorContract } from '../../../test/unit/generators/generator-contract.ts';
import { renderFrameForTest } from '../../../test/unit/generators/render-for-test.ts';
import gen from './flowing-gradient.generator.ts';

animatedGeneratorContract(gen, {
  invalid: [{ blobs: 1 }, { speed: 1.5 }, { warp: 1.1 }, { softness: 0.2 }],
  loops: [
    { speed: 3, warp: 1 },
    { fps: 10, duration: 1.05, grain: 0 },
    { blobs: 8, softness: 0.3 },
  ],
});

test('flowing-gradient: without grain the picture is smooth (neighbouring pixels are close)', () => {
  const { pixels, width } = renderFrameForTest(gen, { seed: 8, params: { grain: 0 }, frame: 4 });
  let max = 0;
  for (let i = 0; i + 4 < pixels.length; i += 4) {
    if ((i / 4) % width === width - 1) continue;
    for (let c = 0; c < 3; c++) max = Math.max(max, Math.abs(pixels[i + c] - pixels[i + 4 + c]));
  }
  assert.ok(max < 40, `largest step between neighbours ${max}`);
});
