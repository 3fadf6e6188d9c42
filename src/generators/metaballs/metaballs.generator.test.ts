// metaballs: the shared animated-generator contract (lib/generator-contract.ts), then what is its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { animatedGeneratorContract } from '../../../test/unit/generators/generator-contract.ts';
import { renderFrameForTest } from '../../../test/unit/generators/render-for-test.ts';
import gen from './metaballs.generator.ts';

animatedGeneratorContract(gen, {
  invalid: [{ balls: 1 }, { balls: 17 }, { size: 3 }, { glow: -1 }, { backgroundBottom: '#12345' }],
  loops: [
    { balls: 16, size: 2 },
    { fps: 10, duration: 1.05, glow: 0 },
    { balls: 2, size: 0.4 },
  ],
});

test('metaballs: bigger blobs cover more of the background', () => {
  const covered = (px: Uint8ClampedArray) => {
    let n = 0;
    for (let i = 0; i < px.length; i += 4) if (px[i] + px[i + 1] + px[i + 2] > 300) n++;
    return n;
  };
  const small = renderFrameForTest(gen, { seed: 4, params: { size: 0.5 }, frame: 7 });
  const big = renderFrameForTest(gen, { seed: 4, params: { size: 1.6 }, frame: 7 });
  assert.ok(covered(big.pixels) > covered(small.pixels));
});
