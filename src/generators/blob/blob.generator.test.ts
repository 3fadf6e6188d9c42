// blob: the shared generator contract (lib/generator-contract.ts) with its own params.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stillGeneratorContract } from '../../../test/unit/generators/generator-contract.ts';
import { renderFrameForTest } from '../../../test/unit/generators/render-for-test.ts';
import gen from './blob.generator.ts';

stillGeneratorContract(gen, {
  invalid: [{ points: 2 }],
  variants: [
    { layers: 1, shadow: 0, irregularity: 0 },
    { layers: 6, points: 16, irregularity: 1, spread: 1, size: 1.2, glow: 1 },
    { layers: 2, points: 3, glow: 0 },
  ],
});

test('blob: the blob is the subject, centred and 45–65% of the short side at every aspect ratio', () => {
  for (const [width, height] of [
    [240, 126],
    [126, 126],
    [126, 240],
    [64, 64],
    [192, 108],
  ]) {
    for (const seed of [1, 2, 3, 4, 5]) {
      // Without halo and shadow the background is flat, so the blob is every other pixel.
      const { pixels } = renderFrameForTest(gen, { seed, width, height, params: { glow: 0, shadow: 0 } });
      let x0 = width,
        y0 = height,
        x1 = -1,
        y1 = -1;
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const i = (y * width + x) * 4;
          if (pixels[i] === pixels[0] && pixels[i + 1] === pixels[1] && pixels[i + 2] === pixels[2]) continue;
          x0 = Math.min(x0, x);
          x1 = Math.max(x1, x);
          y0 = Math.min(y0, y);
          y1 = Math.max(y1, y);
        }
      }
      const short = Math.min(width, height);
      const across = (width >= height ? y1 - y0 + 1 : x1 - x0 + 1) / short;
      const at = `${width}×${height} seed ${seed}`;
      assert.ok(across >= 0.45 && across <= 0.65, `${at}: spans ${across.toFixed(2)} of the short side`);
      assert.ok(Math.abs((x0 + x1 + 1) / 2 - width / 2) <= 0.06 * short, `${at}: off-centre horizontally`);
      assert.ok(Math.abs((y0 + y1 + 1) / 2 - height / 2) <= 0.06 * short, `${at}: off-centre vertically`);
    }
  }
});
