// Film grain of the gradient generators (linear-gradient, mesh-gradient).
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { subRandom } from '../2a88792/random.ts';

/**
 * Film grain: a seeded 256×256 tile of grey noise with alpha = amount, repeated over the canvas
 * in device pixels. Source-over blending gives c' = c + amount·(n − c), the same formula the SVG
 * filter uses; Skia does the blending natively, so it stays fast at 40 megapixels.
 */
export function applyGrain(ctx: SKRSContext2D, seed: number, purpose: string, amount: number): void {
  const T = 256;
  const tile = createCanvas(T, T);
  const tctx = tile.getContext('2d');
  const img = tctx.createImageData(T, T);
  const d = img.data;
  let s = Math.floor(subRandom(seed, purpose)() * 4294967296) | 0 || 0x2545f491;
  const alpha = Math.max(1, Math.round(amount * 255));
  for (let i = 0; i < d.length; i += 4) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    const n = ((s & 255) + ((s >>> 8) & 255)) >>> 1; // triangular around mid-grey
    d[i] = d[i + 1] = d[i + 2] = n;
    d[i + 3] = alpha;
  }
  tctx.putImageData(img, 0, 0);
  const pattern = ctx.createPattern(tile, 'repeat');
  if (!pattern) return;
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = pattern;
  ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  ctx.restore();
}
