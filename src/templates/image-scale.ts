// An image asset scaled onto device pixels in JavaScript (Skia's smoothed drawImage gives other
// pixels on other CPUs). Straight RGBA is premultiplied first, so the colour of transparent pixels
// never bleeds into the edges (no dark or light halos around a logo); then, while the image is
// more than twice the size it is shown at, it is halved by exact 2×2 box averages (so fine detail
// does not alias: a 4-tap cubic sees only 4 of the source pixels under each device pixel when
// shrinking further), and the rest is Mitchell bicubic (lib/resample.ts). Every step is integer or
// IEEE arithmetic, never fused: the same bytes on every CPU.
import { resample } from '../generators/lib/resample.ts';

/** Premultiplied RGBA: c·a/255, rounded to nearest. */
export function premultiply(rgba: Uint8Array | Uint8ClampedArray): Uint8ClampedArray {
  const out = new Uint8ClampedArray(rgba.length);
  for (let i = 0; i < rgba.length; i += 4) {
    const a = rgba[i + 3];
    out[i + 3] = a;
    if (a === 255) {
      out[i] = rgba[i];
      out[i + 1] = rgba[i + 1];
      out[i + 2] = rgba[i + 2];
    } else if (a !== 0) {
      out[i] = Math.floor((rgba[i] * a + 127) / 255);
      out[i + 1] = Math.floor((rgba[i + 1] * a + 127) / 255);
      out[i + 2] = Math.floor((rgba[i + 2] * a + 127) / 255);
    }
  }
  return out;
}

/** Half the size, each pixel the rounded mean of a 2×2 block (an odd last row or column repeats its edge). */
export function halve(src: Uint8ClampedArray, w: number, h: number): { data: Uint8ClampedArray; width: number; height: number } {
  const hw = Math.ceil(w / 2);
  const hh = Math.ceil(h / 2);
  const out = new Uint8ClampedArray(hw * hh * 4);
  for (let y = 0; y < hh; y++) {
    const r0 = 2 * y * w * 4;
    const r1 = Math.min(2 * y + 1, h - 1) * w * 4;
    for (let x = 0; x < hw; x++) {
      const c0 = 2 * x * 4;
      const c1 = Math.min(2 * x + 1, w - 1) * 4;
      const o = (y * hw + x) * 4;
      for (let c = 0; c < 4; c++) out[o + c] = (src[r0 + c0 + c] + src[r0 + c1 + c] + src[r1 + c0 + c] + src[r1 + c1 + c] + 2) >> 2;
    }
  }
  return { data: out, width: hw, height: hh };
}

export interface Placement {
  /** Device pixels per image pixel (the same on both axes). */
  readonly scale: number;
  /** Where the image's top-left corner falls, in device pixels (fractional). */
  readonly x: number;
  readonly y: number;
}

/** Downscaling: a source larger than this many times the output is halved first. */
export const HALVE_ABOVE = 2;

/**
 * The premultiplied image as it falls on a region of device pixels (region-sized premultiplied
 * RGBA): device pixel centre (X + 0.5) samples image coordinate (X + 0.5 − x) / scale.
 * `halveAbove` (default HALVE_ABOVE; Infinity: never) is exposed for measurement.
 */
export function placeImage(
  premultiplied: Uint8ClampedArray,
  width: number,
  height: number,
  at: Placement,
  region: { x: number; y: number; width: number; height: number },
  halveAbove = HALVE_ABOVE,
): Uint8ClampedArray {
  let src = premultiplied;
  let sw = width,
    sh = height;
  // Image pixels per device pixel, and where region pixel 0's left edge falls in the image.
  let step = 1 / at.scale;
  let offsetX = (region.x - at.x) / at.scale;
  let offsetY = (region.y - at.y) / at.scale;
  while (step > halveAbove && sw > 1 && sh > 1) {
    const half = halve(src, sw, sh);
    src = half.data;
    sw = half.width;
    sh = half.height;
    step /= 2;
    offsetX /= 2;
    offsetY /= 2;
  }
  const out = new Uint8ClampedArray(region.width * region.height * 4);
  resample(src, sw, sh, out, region.width, region.height, {
    filter: 'bicubic',
    mapping: { scaleX: step, scaleY: step, offsetX, offsetY },
  });
  // The cubic overshoots a little at hard edges: a colour above its alpha is no premultiplied colour.
  for (let i = 0; i < out.length; i += 4) {
    const a = out[i + 3];
    if (out[i] > a) out[i] = a;
    if (out[i + 1] > a) out[i + 1] = a;
    if (out[i + 2] > a) out[i + 2] = a;
  }
  return out;
}
