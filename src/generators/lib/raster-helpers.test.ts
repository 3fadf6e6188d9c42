// The JavaScript replacements for Skia's CPU-dependent paths keep Skia's look: the resampler
// against drawImage smoothing 'medium'/'high', the gradient painter against canvas gradients.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCanvas } from '@napi-rs/canvas';
import { paintGradient, scaling } from './gradient.ts';
import { solidBlock } from './pixels.ts';
import { resample } from './resample.ts';

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  assert.equal(a.length, b.length);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

function field(w: number, h: number): Uint8ClampedArray {
  const d = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      d[i] = 128 + 100 * Math.sin(x * 0.3);
      d[i + 1] = 128 + 100 * Math.cos(y * 0.4 + x * 0.1);
      d[i + 2] = ((x * 7 + y * 13) % 64) * 4;
      d[i + 3] = 255;
    }
  }
  return d;
}

test('resample: bilinear and bicubic match Skia drawImage smoothing medium and high within one level', () => {
  const [sw, sh, dw, dh] = [97, 53, 640, 360];
  const src = field(sw, sh);
  const small = createCanvas(sw, sh);
  const sctx = small.getContext('2d');
  const img = sctx.createImageData(sw, sh);
  img.data.set(src);
  sctx.putImageData(img, 0, 0);
  for (const [quality, filter] of [
    ['medium', 'bilinear'],
    ['high', 'bicubic'],
  ] as const) {
    const c = createCanvas(dw, dh).getContext('2d');
    c.imageSmoothingEnabled = true;
    c.imageSmoothingQuality = quality;
    c.drawImage(small, 0, 0, dw, dh);
    const out = new Uint8ClampedArray(dw * dh * 4);
    resample(src, sw, sh, out, dw, dh, { filter, opaque: true });
    assert.ok(maxDiff(out, c.getImageData(0, 0, dw, dh).data) <= 1, quality);
  }
});

test('resample: the same grid is an exact copy, and one channel works like four', () => {
  const src = field(31, 17);
  const out = new Uint8ClampedArray(src.length);
  resample(src, 31, 17, out, 31, 17, { filter: 'bicubic' });
  assert.deepEqual(out, src);
  const alpha = Uint8ClampedArray.from({ length: 31 * 17 }, (_, i) => src[i * 4]);
  const one = new Uint8ClampedArray(100 * 60);
  const four = new Uint8ClampedArray(100 * 60 * 4);
  resample(alpha, 31, 17, one, 100, 60, { filter: 'bilinear', channels: 1 });
  resample(src, 31, 17, four, 100, 60, { filter: 'bilinear' });
  assert.deepEqual(
    one,
    Uint8ClampedArray.from({ length: 100 * 60 }, (_, i) => four[i * 4]),
  );
});

test('paintGradient matches canvas linear, radial and conic gradients within two levels', () => {
  const [w, h, pr] = [160, 90, 2];
  const stops = [
    { offset: 0, color: { r: 255, g: 40, b: 90 }, alpha: 1 },
    { offset: 0.4, color: { r: 30, g: 200, b: 120 }, alpha: 0.6 },
    { offset: 1, color: { r: 20, g: 60, b: 250 }, alpha: 0 },
  ];
  const shapes = [
    { kind: 'linear', x0: 10, y0: 5, x1: 150, y1: 80 },
    { kind: 'radial', cx: 70, cy: 40, r: 60 },
    { kind: 'conic', angle: 0.7, cx: 80, cy: 45 },
  ] as const;
  for (const shape of shapes) {
    const canvas = createCanvas(w * pr, h * pr);
    const ctx = canvas.getContext('2d');
    ctx.scale(pr, pr);
    ctx.fillStyle = '#202040';
    ctx.fillRect(0, 0, w, h);
    const g =
      shape.kind === 'linear'
        ? ctx.createLinearGradient(shape.x0, shape.y0, shape.x1, shape.y1)
        : shape.kind === 'radial'
          ? ctx.createRadialGradient(shape.cx, shape.cy, 0, shape.cx, shape.cy, shape.r)
          : ctx.createConicGradient(shape.angle, shape.cx, shape.cy);
    for (const s of stops) g.addColorStop(s.offset, `rgba(${s.color.r},${s.color.g},${s.color.b},${s.alpha})`);
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, w, h);
    const block = solidBlock(w * pr, h * pr, { r: 0x20, g: 0x20, b: 0x40 });
    paintGradient(block, { shape, stops, transform: scaling(pr) });
    // Conic: the seam at the start angle may land on either side of a pixel.
    const skia = ctx.getImageData(0, 0, w * pr, h * pr).data;
    let off = 0;
    for (let i = 0; i < skia.length; i++) if (Math.abs(skia[i] - block.data[i]) > 2) off++;
    assert.ok(off <= (shape.kind === 'conic' ? 3 * h * pr : 0), `${shape.kind}: ${off} channels differ by more than 2`);
  }
});
