// flowing-gradient: the shared animated-generator contract (lib/generator-contract.ts), then what is its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { animatedGeneratorContract } from '../../../test/unit/generators/generator-contract.ts';
import { pixelsFrameForTest, renderFrameForTest } from '../../../test/unit/generators/render-for-test.ts';
import gen, { flowingGradientPixels } from './flowing-gradient.generator.ts';

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

// Without grain: the grain table can turn a one-level difference into two.
test('flowing-gradient: the interpolated field is within one level of evaluating every pixel', () => {
  for (const [params, width, height] of [
    [{ grain: 0 }, 160, 90],
    [{ grain: 0, softness: 0.3, blobs: 8, warp: 1 }, 120, 97],
    [{ grain: 0, softness: 1.5, speed: 4 }, 50, 130],
  ] as const) {
    const input = { params: { ...gen.defaults, ...params }, seed: 4, width, height, pixelRatio: 1, random: () => 0, frame: 5 };
    const frame = { ...input, frameCount: 72, time: 0, loop: 5 / 72 };
    const fast = flowingGradientPixels(frame, { width, height });
    const exact = flowingGradientPixels(frame, { width, height }, true);
    let max = 0;
    for (let i = 0; i < fast.length; i++) max = Math.max(max, Math.abs(fast[i] - exact[i]));
    assert.ok(max <= 1, `${JSON.stringify(params)}: largest difference ${max}`);
  }
});

test('flowing-gradient: the frame after the last is exactly frame 0', () => {
  const frames = gen.animation!(gen.defaults).frames;
  assert.deepEqual(pixelsFrameForTest(gen, { seed: 3, frame: frames }), pixelsFrameForTest(gen, { seed: 3, frame: 0 }));
});
