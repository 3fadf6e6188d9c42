// truchet: the shared generator contract (lib/generator-contract.ts) with its own params.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stillGeneratorContract } from '../../../test/unit/generators/generator-contract.ts';
import { renderFrameForTest } from '../../../test/unit/generators/render-for-test.ts';
import gen from './truchet.generator.ts';

stillGeneratorContract(gen, {
  invalid: [{ style: 'hex' }],
  variants: [
    { style: 'arcs-filled' },
    { style: 'diagonal' },
    { style: 'triangles', tileSize: 12 },
    { shading: 0 },
    { shading: 1, scheme: 'custom' },
  ],
});

test('truchet: colour runs on smoothly along the motifs, also across tile borders', () => {
  for (const style of ['arcs', 'arcs-filled', 'diagonal', 'triangles'] as const) {
    const params = {
      style,
      tileSize: 40,
      scheme: 'custom',
      background: '#101010',
      foreground: '#e03020',
      accent: '#2040f0',
      shading: 1,
    } as const;
    const width = 320,
      height = 200;
    const flat = renderFrameForTest(gen, { seed: 3, width, height, params: { ...params, shading: 0 } }).pixels;
    const shaded = renderFrameForTest(gen, { seed: 3, width, height, params }).pixels;
    // Fully covered pixels are exactly the foreground in the flat picture (edge pixels are blends).
    const inside = (i: number) => flat[i] === 0xe0 && flat[i + 1] === 0x30 && flat[i + 2] === 0x20;
    let max = 0,
      pairs = 0;
    for (let y = 0; y < height - 1; y++) {
      for (let x = 0; x < width - 1; x++) {
        const i = (y * width + x) * 4;
        for (const j of [i + 4, i + width * 4]) {
          if (!inside(i) || !inside(j)) continue;
          pairs++;
          for (let c = 0; c < 3; c++) max = Math.max(max, Math.abs(shaded[i + c] - shaded[j + c]));
        }
      }
    }
    assert.ok(pairs > 1000, `${style}: ${pairs} pairs`);
    assert.ok(max <= 4, `${style}: a step of ${max} between neighbouring motif pixels`);
  }
});
