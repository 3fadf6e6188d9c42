import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveRecipe } from '../engine/recipe.ts';
import { ALL_GENERATORS } from '../generators/index.ts';
import { GeneratorRegistry } from '../generators/registry.ts';
import { pixelFrames } from './pricing.ts';
import { RENDER_RATES, estimateRenderMs } from './render-estimate.ts';

const registry = new GeneratorRegistry(ALL_GENERATORS);

test('the model: a fixed part plus the pixel-frames pricing counts times the format’s rate', () => {
  const mp4 = resolveRecipe(registry, 'plasma', { seed: 1, size: { width: 1920, height: 1080 }, format: 'mp4' });
  const { baseMs, msPerMegapixel } = RENDER_RATES.mp4!;
  assert.equal(pixelFrames(mp4), 1920 * 1080 * 72);
  assert.equal(estimateRenderMs(mp4), Math.ceil(baseMs + (msPerMegapixel * 1920 * 1080 * 72) / 1e6));
  // The defaults fit the default 20 s animation budget; ten seconds at 30 fps do not.
  assert.ok(estimateRenderMs(mp4) < 20_000, `${estimateRenderMs(mp4)} ms`);
  const long = resolveRecipe(registry, 'plasma', { size: { width: 1920, height: 1080 }, format: 'mp4', params: { duration: 10, fps: 30 } });
  assert.ok(estimateRenderMs(long) > 20_000, `${estimateRenderMs(long)} ms`);
});

test('every format of every generator is estimated, and more pixels take longer', () => {
  for (const gen of ALL_GENERATORS) {
    for (const format of gen.formats) {
      const at = (pixelRatio: number) =>
        resolveRecipe(registry, gen.slug, { seed: 1, size: { width: 320, height: 180, pixelRatio }, format });
      const [small, large] = [estimateRenderMs(at(1)), estimateRenderMs(at(2))];
      assert.ok(small > 0 && large >= small, `${gen.slug} ${format}: ${small} → ${large} ms`);
    }
  }
});
