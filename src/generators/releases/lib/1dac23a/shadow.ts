import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { Rgb } from './color.ts';
import { readBlock, writeBlock } from './pixels.ts';
import { resample } from './resample.ts';

/**
 * Soft drop shadow of a path, without the path itself, over opaque pixels. Skia's blur cost grows
 * with the blurred area, so the shadow is rendered into a buffer about σ/3 times smaller than the
 * device canvas (the blur hides the lower resolution) and scaled up over the affected region only.
 * Skia only blurs the shape's mask (exact on every CPU); scaling (bilinear) and blending happen in
 * JavaScript, because Skia's smoothed drawImage gives other pixels on other CPUs.
 */
export function softShadow(
  ctx: SKRSContext2D,
  pixelRatio: number,
  width: number,
  height: number,
  trace: (c: SKRSContext2D) => void,
  bounds: readonly [number, number, number, number],
  sigma: number,
  dy: number,
  color: Rgb,
  alpha: number,
): void {
  const pad = sigma * 3 + 1;
  const x0 = Math.max(0, Math.floor(bounds[0] - pad));
  const y0 = Math.max(0, Math.floor(bounds[1] + Math.min(0, dy) - pad));
  const x1 = Math.min(width, Math.ceil(bounds[2] + pad));
  const y1 = Math.min(height, Math.ceil(bounds[3] + Math.max(0, dy) + pad));
  if (x1 <= x0 || y1 <= y0) return;
  const f = Math.max(1, (sigma * pixelRatio) / 3); // device pixels per buffer pixel
  const k = pixelRatio / f; // buffer pixels per logical unit
  const bw = Math.ceil((x1 - x0) * k) + 1;
  const bh = Math.ceil((y1 - y0) * k) + 1;
  const buffer = createCanvas(bw, bh);
  const b = buffer.getContext('2d');
  // Draw the shape off to the left of the buffer; the shadow offset brings only its shadow back.
  // Opaque black: the buffer then holds exactly the blurred coverage in its alpha channel.
  const shift = Math.ceil(bw + 6 * sigma * k + 16);
  b.setTransform(k, 0, 0, k, -x0 * k - shift, -y0 * k);
  b.shadowColor = '#000';
  b.shadowBlur = 2 * sigma * k;
  b.shadowOffsetX = shift;
  b.shadowOffsetY = dy * k;
  b.fillStyle = '#000';
  b.beginPath();
  trace(b);
  b.fill();
  const rgba = b.getImageData(0, 0, bw, bh).data;
  const mask = new Uint8ClampedArray(bw * bh);
  for (let i = 0; i < mask.length; i++) mask[i] = rgba[i * 4 + 3];

  // The buffer covers device pixels [x0·pr, x0·pr + bw·f) × [y0·pr, y0·pr + bh·f).
  const dx = Math.floor(x0 * pixelRatio);
  const dy0 = Math.floor(y0 * pixelRatio);
  const rw = Math.min(ctx.canvas.width, Math.ceil(x0 * pixelRatio + bw * f)) - dx;
  const rh = Math.min(ctx.canvas.height, Math.ceil(y0 * pixelRatio + bh * f)) - dy0;
  if (rw <= 0 || rh <= 0) return;
  const cover = new Uint8ClampedArray(rw * rh);
  resample(mask, bw, bh, cover, rw, rh, {
    filter: 'bilinear',
    channels: 1,
    mapping: { scaleX: 1 / f, scaleY: 1 / f, offsetX: (dx - x0 * pixelRatio) / f, offsetY: (dy0 - y0 * pixelRatio) / f },
  });
  const block = readBlock(ctx, dx, dy0, rw, rh);
  const d = block.data;
  const a = alpha / 255;
  for (let i = 0, j = 0; j < cover.length; i += 4, j++) {
    if (cover[j] === 0) continue;
    const s = cover[j] * a;
    d[i] = color.r * s + d[i] * (1 - s);
    d[i + 1] = color.g * s + d[i + 1] * (1 - s);
    d[i + 2] = color.b * s + d[i + 2] * (1 - s);
  }
  writeBlock(ctx, block);
}
