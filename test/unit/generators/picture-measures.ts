// Two measures of a generator's pictures, shared by the seed/pixel-ratio test and the README's figures.
//   seedSpread: seeds 1, 2 and 3 at the generator's defaults, 480×252, each downscaled to 24×13; the
//     smallest mean absolute difference (0–255 per channel) over the three pairs. Low = seeds look alike.
//   ratioDrift: the same recipe (480×252) at pixelRatio 0.5 against pixelRatio 1 downscaled to the same
//     120×63; the mean absolute difference. High = something does not follow the pixel ratio.
import sharp from 'sharp';
import type { GeneratorDefinition } from '../../../src/generators/generator.types.ts';
import { renderFrameForTest } from './render-for-test.ts';

type AnyGenerator = GeneratorDefinition<Record<string, unknown>>;

async function downscale(f: { pixels: Uint8ClampedArray; width: number; height: number }, width: number, height: number) {
  const { data } = await sharp(Buffer.from(f.pixels.buffer, f.pixels.byteOffset, f.pixels.byteLength), {
    raw: { width: f.width, height: f.height, channels: 4 },
  })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return data;
}

function mad(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}

export async function seedSpread(gen: AnyGenerator): Promise<number> {
  const small = await Promise.all([1, 2, 3].map((seed) => downscale(renderFrameForTest(gen, { seed, width: 480, height: 252 }), 24, 13)));
  return Math.min(mad(small[0], small[1]), mad(small[0], small[2]), mad(small[1], small[2]));
}

export async function ratioDrift(gen: AnyGenerator): Promise<number> {
  const half = renderFrameForTest(gen, { seed: 1, width: 480, height: 252, pixelRatio: 0.5 });
  const full = renderFrameForTest(gen, { seed: 1, width: 480, height: 252, pixelRatio: 1 });
  const a = await downscale(half, 120, 63);
  const b = await downscale(full, 120, 63);
  return mad(a, b);
}
