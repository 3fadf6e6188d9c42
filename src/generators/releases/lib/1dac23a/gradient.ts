// Canvas-style gradients (linear, radial, conic) painted in plain JavaScript into RGBA pixels.
// Skia evaluates gradients in its float pipeline with SIMD code chosen from the CPU (FMA on AVX2
// machines rounds differently), so ctx.createLinearGradient/createRadialGradient/
// createConicGradient give other pixels on other CPUs. JavaScript arithmetic is IEEE double and
// never fused, so these are the same everywhere. Skia is still used where it is exact: solid
// fills give a path's anti-aliased coverage (pathCoverage), which a gradient can then fill.
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { Rgb } from './color.ts';
import type { PixelBlock } from './pixels.ts';

/** A 2-D affine map [a, b, c, d, e, f], as DOMMatrix: x' = a·x + c·y + e, y' = b·x + d·y + f. */
export type Affine = readonly [number, number, number, number, number, number];

export const IDENTITY: Affine = [1, 0, 0, 1, 0, 0];

/** m ∘ n: apply n, then m (as ctx.transform(n) on a context whose transform is m). */
export function compose(m: Affine, n: Affine): Affine {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

export function invert(m: Affine): Affine {
  const det = m[0] * m[3] - m[1] * m[2];
  return [m[3] / det, -m[1] / det, -m[2] / det, m[0] / det, (m[2] * m[5] - m[3] * m[4]) / det, (m[1] * m[4] - m[0] * m[5]) / det];
}

export const scaling = (sx: number, sy = sx): Affine => [sx, 0, 0, sy, 0, 0];
export const translation = (x: number, y: number): Affine => [1, 0, 0, 1, x, y];
export const rotation = (radians: number): Affine => [Math.cos(radians), Math.sin(radians), -Math.sin(radians), Math.cos(radians), 0, 0];

export interface ColorStop {
  offset: number;
  color: Rgb;
  /** 0..1; default 1. */
  alpha?: number;
}

/** Same geometry as the canvas constructors (radial: concentric, inner radius 0; conic: angle in radians). */
export type GradientShape =
  | { kind: 'linear'; x0: number; y0: number; x1: number; y1: number }
  | { kind: 'radial'; cx: number; cy: number; r: number }
  | { kind: 'conic'; angle: number; cx: number; cy: number };

export interface GradientFill {
  shape: GradientShape;
  stops: readonly ColorStop[];
  /** User space → device pixels: the context's transform the gradient and shape are drawn with. */
  transform?: Affine;
  /** 'source-over' (default) or 'lighter' (additive). */
  blend?: 'source-over' | 'lighter';
  /** Coverage of each pixel of the block in its alpha channel (RGBA, same size), from pathCoverage. */
  coverage?: Uint8ClampedArray;
}

const RAMP = 1024;

/**
 * The stops sampled at RAMP evenly spaced offsets, premultiplied: r, g, b in 0..255 and alpha in
 * 0..1. Colours are interpolated unpremultiplied, as Skia does; outside the stops the end colours
 * extend. 1024 entries keep every step far below one 8-bit level.
 */
function ramp(stops: readonly ColorStop[]): Float64Array {
  const sorted = [...stops].sort((a, b) => a.offset - b.offset);
  const out = new Float64Array(RAMP * 4);
  let k = 0;
  for (let i = 0; i < RAMP; i++) {
    const t = i / (RAMP - 1);
    while (k < sorted.length - 1 && sorted[k + 1].offset < t) k++;
    const a = sorted[k];
    const b = sorted[Math.min(k + 1, sorted.length - 1)];
    const span = b.offset - a.offset;
    const f = span > 0 ? Math.max(0, Math.min(1, (t - a.offset) / span)) : t < a.offset ? 0 : 1;
    const alpha = (a.alpha ?? 1) + ((b.alpha ?? 1) - (a.alpha ?? 1)) * f;
    out[i * 4] = (a.color.r + (b.color.r - a.color.r) * f) * alpha;
    out[i * 4 + 1] = (a.color.g + (b.color.g - a.color.g) * f) * alpha;
    out[i * 4 + 2] = (a.color.b + (b.color.b - a.color.b) * f) * alpha;
    out[i * 4 + 3] = alpha;
  }
  return out;
}

/**
 * Paints a gradient over `block`, which must be opaque (every generator paints an opaque
 * background first): source-over gives c' = s·a + c·(1 − a), lighter c' = c + s·a. With
 * `coverage` the gradient only fills what a path covers, anti-aliased. A radial gradient whose
 * last stop is transparent only visits pixels inside its circle (or ellipse, once transformed).
 */
export function paintGradient(block: PixelBlock, fill: GradientFill): void {
  const m = fill.transform ?? IDENTITY;
  const [a, b, c, d, e, f] = invert(m); // device → user space
  const lut = ramp(fill.stops);
  const s = fill.shape;
  const lighter = fill.blend === 'lighter';
  const cov = fill.coverage;
  let x0 = 0,
    y0 = 0,
    x1 = block.width,
    y1 = block.height;
  const last = [...fill.stops].sort((p, q) => p.offset - q.offset).at(-1);
  if (s.kind === 'radial' && (last?.alpha ?? 1) === 0) {
    const cx = m[0] * s.cx + m[2] * s.cy + m[4];
    const cy = m[1] * s.cx + m[3] * s.cy + m[5];
    const ex = s.r * Math.hypot(m[0], m[2]) + 1;
    const ey = s.r * Math.hypot(m[1], m[3]) + 1;
    x0 = Math.max(0, Math.floor(cx - ex) - block.x);
    x1 = Math.min(block.width, Math.ceil(cx + ex) - block.x);
    y0 = Math.max(0, Math.floor(cy - ey) - block.y);
    y1 = Math.min(block.height, Math.ceil(cy + ey) - block.y);
  }
  // t for a user-space point; linear: projection on the axis, radial: distance / r, conic: turn.
  let kx = 0,
    ky = 0,
    ox = 0,
    oy = 0,
    inv = 1;
  if (s.kind === 'linear') {
    const dx = s.x1 - s.x0,
      dy = s.y1 - s.y0;
    const len2 = dx * dx + dy * dy || 1;
    kx = dx / len2;
    ky = dy / len2;
    ox = s.x0;
    oy = s.y0;
  } else {
    ox = s.cx;
    oy = s.cy;
    inv = s.kind === 'radial' ? 1 / s.r : 1 / (2 * Math.PI);
  }
  const angle = s.kind === 'conic' ? s.angle : 0;
  const kind = s.kind === 'linear' ? 0 : s.kind === 'radial' ? 1 : 2;
  const data = block.data;
  const top = RAMP - 1;
  for (let y = y0; y < y1; y++) {
    const py = block.y + y + 0.5;
    const rowX = c * py + e - ox;
    const rowY = d * py + f - oy;
    let i = (y * block.width + x0) * 4;
    for (let x = x0; x < x1; x++, i += 4) {
      const k = cov === undefined ? 1 : cov[i + 3] / 255;
      if (k === 0) continue;
      const px = block.x + x + 0.5;
      const ux = a * px + rowX;
      const uy = b * px + rowY;
      let t: number;
      if (kind === 0) t = ux * kx + uy * ky;
      else if (kind === 1) t = Math.sqrt(ux * ux + uy * uy) * inv;
      else {
        t = (Math.atan2(uy, ux) - angle) * inv;
        t -= Math.floor(t);
      }
      const j = (t <= 0 ? 0 : t >= 1 ? top : (t * top + 0.5) | 0) << 2;
      const sa = lut[j + 3] * k;
      if (sa === 0) continue;
      if (lighter) {
        data[i] += lut[j] * k;
        data[i + 1] += lut[j + 1] * k;
        data[i + 2] += lut[j + 2] * k;
      } else {
        const keep = 1 - sa;
        data[i] = lut[j] * k + data[i] * keep;
        data[i + 1] = lut[j + 1] * k + data[i + 1] * keep;
        data[i + 2] = lut[j + 2] * k + data[i + 2] * keep;
      }
    }
  }
}

/** Device-pixel bounds of user-space bounds [x0, y0, x1, y1] under `transform`, widened by 1 px, inside the canvas. */
export function deviceBounds(
  bounds: readonly [number, number, number, number],
  transform: Affine,
  canvasWidth: number,
  canvasHeight: number,
) {
  const xs: number[] = [],
    ys: number[] = [];
  for (const [x, y] of [
    [bounds[0], bounds[1]],
    [bounds[2], bounds[1]],
    [bounds[0], bounds[3]],
    [bounds[2], bounds[3]],
  ]) {
    xs.push(transform[0] * x + transform[2] * y + transform[4]);
    ys.push(transform[1] * x + transform[3] * y + transform[5]);
  }
  const x = Math.max(0, Math.floor(Math.min(...xs)) - 1);
  const y = Math.max(0, Math.floor(Math.min(...ys)) - 1);
  return {
    x,
    y,
    width: Math.max(0, Math.min(canvasWidth, Math.ceil(Math.max(...xs)) + 1) - x),
    height: Math.max(0, Math.min(canvasHeight, Math.ceil(Math.max(...ys)) + 1) - y),
  };
}

/**
 * Anti-aliased coverage of a path over a region of device pixels, in the alpha channel of the
 * RGBA result: Skia fills it in opaque white, which is exact on every CPU (no float pipeline).
 */
export function pathCoverage(
  region: { x: number; y: number; width: number; height: number },
  transform: Affine,
  trace: (c: SKRSContext2D) => void,
): Uint8ClampedArray {
  const canvas = createCanvas(region.width, region.height);
  const g = canvas.getContext('2d');
  const [a, b, c, d, e, f] = compose(translation(-region.x, -region.y), transform);
  g.setTransform(a, b, c, d, e, f);
  g.fillStyle = '#fff';
  g.beginPath();
  trace(g);
  g.fill();
  return g.getImageData(0, 0, region.width, region.height).data as Uint8ClampedArray;
}
