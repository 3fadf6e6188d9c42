// The compositor's frame and its blends, in integer arithmetic. The frame is opaque RGBA device
// pixels held in JavaScript; every layer is blended into it here, each result rounded once (to the
// nearest level, halves up) from exact integer sums — the same on every CPU. Skia is used only to
// give coverage: a path filled (or stroked) in opaque white on a transparent canvas, whose alpha is
// exact on every CPU (src/generators/lib/gradient.ts, pathCoverage, does the same).
import type { SKRSContext2D } from '@napi-rs/canvas';
import { createCanvas } from '../generators/lib/canvas.ts';

/** Opaque RGBA device pixels, row-major. */
export interface Frame {
  readonly data: Uint8ClampedArray;
  readonly width: number;
  readonly height: number;
}

/** A rectangle of whole device pixels. */
export interface Region {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A colour with its alpha, 0..255 each. */
export interface Rgba {
  readonly r: number;
  readonly g: number;
  readonly b: number;
  readonly a: number;
}

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

/** Whether a string is a colour a template may use: `#rgb`, `#rrggbb` or `#rrggbbaa`. */
export const isHexColor = (value: unknown): value is string => typeof value === 'string' && HEX.test(value);

/** `#rgb`, `#rrggbb` or `#rrggbbaa` as RGBA (alpha 255 unless given). */
export function parseColor(hex: string): Rgba {
  if (!isHexColor(hex)) throw new Error(`not a colour: ${hex}`);
  const h = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1);
  const byte = (i: number) => parseInt(h.slice(i, i + 2), 16);
  return { r: byte(0), g: byte(2), b: byte(4), a: h.length === 8 ? byte(6) : 255 };
}

/** An opacity 0..1 as a level 0..255 (rounded). */
export const opacityLevel = (opacity: number | undefined): number => Math.round(Math.max(0, Math.min(1, opacity ?? 1)) * 255);

export function solidFrame(width: number, height: number, color: Rgba): Frame {
  const data = new Uint8ClampedArray(width * height * 4);
  // One 32-bit word a pixel (the machine is little-endian: lib/dmath.ts refuses to load otherwise).
  new Uint32Array(data.buffer).fill((0xff000000 | (color.b << 16) | (color.g << 8) | color.r) >>> 0);
  return { data, width, height };
}

/** The part of a region inside the frame (possibly empty). */
export function clip(region: Region, frame: { width: number; height: number }): Region {
  const x = Math.max(0, region.x);
  const y = Math.max(0, region.y);
  const x1 = Math.min(frame.width, region.x + region.width);
  const y1 = Math.min(frame.height, region.y + region.height);
  return { x, y, width: Math.max(0, x1 - x), height: Math.max(0, y1 - y) };
}

/** Whole device pixels covering [x0, x1) × [y0, y1) (device units), widened by a pixel, inside the frame. */
export function regionAround(x0: number, y0: number, x1: number, y1: number, frame: { width: number; height: number }): Region {
  const x = Math.floor(x0) - 1;
  const y = Math.floor(y0) - 1;
  return clip({ x, y, width: Math.ceil(x1) + 1 - x, height: Math.ceil(y1) + 1 - y }, frame);
}

export type PathTracer = (
  c: Pick<
    SKRSContext2D,
    'moveTo' | 'lineTo' | 'quadraticCurveTo' | 'bezierCurveTo' | 'closePath' | 'ellipse' | 'rect' | 'roundRect' | 'arc'
  >,
) => void;

/**
 * Anti-aliased coverage (0..255, one byte a pixel) of a path over a region: Skia fills it (or
 * strokes it `strokeWidth` wide) in opaque white with the transform scale·(x, y) − region, and the
 * alpha is read back, which is exact on every CPU.
 */
export function coverage(region: Region, scale: number, trace: PathTracer, strokeWidth?: number): Uint8Array {
  const out = new Uint8Array(region.width * region.height);
  if (out.length === 0) return out;
  const canvas = createCanvas(region.width, region.height);
  const g = canvas.getContext('2d');
  g.setTransform(scale, 0, 0, scale, -region.x, -region.y);
  g.beginPath();
  trace(g);
  if (strokeWidth === undefined) {
    g.fillStyle = '#fff';
    g.fill();
  } else {
    g.strokeStyle = '#fff';
    g.lineWidth = strokeWidth;
    g.stroke();
  }
  const rgba = g.getImageData(0, 0, region.width, region.height).data;
  for (let i = 0; i < out.length; i++) out[i] = rgba[i * 4 + 3];
  return out;
}

/** 255³: the denominator of a blend whose alpha is colour × coverage × opacity. */
const D3 = 255 * 255 * 255;
const HALF3 = (D3 - 1) / 2;
/** 255²: colour × coverage. */
const D2 = 255 * 255;
const HALF2 = (D2 - 1) / 2;

/**
 * Source-over of a solid colour through a coverage mask (region-sized; undefined: full) at an
 * opacity level: d' = (c·α + d·(255³ − α)) / 255³, α = alpha·coverage·opacity, rounded to nearest.
 * The sums are integers below 2^33 and the quotient is rounded once, so the result is exact.
 */
export function blendSolid(frame: Frame, region: Region, mask: Uint8Array | undefined, color: Rgba, opacity: number): void {
  const k = color.a * opacity;
  if (k === 0) return;
  const d = frame.data;
  const { r, g, b } = color;
  for (let y = 0; y < region.height; y++) {
    let i = ((region.y + y) * frame.width + region.x) * 4;
    let j = y * region.width;
    for (let x = 0; x < region.width; x++, i += 4, j++) {
      const alpha = k * (mask ? mask[j] : 255);
      if (alpha === 0) continue;
      if (alpha === D3) {
        d[i] = r;
        d[i + 1] = g;
        d[i + 2] = b;
        continue;
      }
      const keep = D3 - alpha;
      d[i] = Math.floor((r * alpha + d[i] * keep + HALF3) / D3);
      d[i + 1] = Math.floor((g * alpha + d[i + 1] * keep + HALF3) / D3);
      d[i + 2] = Math.floor((b * alpha + d[i + 2] * keep + HALF3) / D3);
    }
  }
}

/**
 * Source-over of premultiplied RGBA pixels (region-sized) through an optional coverage mask at an
 * opacity level: d' = (p·β·255 + d·(255³ − a·β)) / 255³, β = coverage·opacity, rounded once.
 */
export function blendPremultiplied(
  frame: Frame,
  region: Region,
  src: Uint8ClampedArray,
  mask: Uint8Array | undefined,
  opacity: number,
): void {
  if (opacity === 0) return;
  const d = frame.data;
  for (let y = 0; y < region.height; y++) {
    let i = ((region.y + y) * frame.width + region.x) * 4;
    let j = y * region.width;
    for (let x = 0; x < region.width; x++, i += 4, j++) {
      const beta = opacity * (mask ? mask[j] : 255);
      const s = j * 4;
      const alpha = src[s + 3] * beta;
      if (alpha === 0) continue;
      if (alpha === D3) {
        d[i] = src[s];
        d[i + 1] = src[s + 1];
        d[i + 2] = src[s + 2];
        continue;
      }
      const keep = D3 - alpha;
      const w = beta * 255;
      d[i] = Math.floor((src[s] * w + d[i] * keep + HALF3) / D3);
      d[i + 1] = Math.floor((src[s + 1] * w + d[i + 1] * keep + HALF3) / D3);
      d[i + 2] = Math.floor((src[s + 2] * w + d[i + 2] * keep + HALF3) / D3);
    }
  }
}

/**
 * A layer drawn on its own first (premultiplied RGBA over a region, transparent to start), so that
 * its parts overlap as one picture and its opacity applies once: a shape's fill under its stroke,
 * a colour emoji's layers.
 */
export class Group {
  readonly data: Uint8ClampedArray;
  constructor(readonly region: Region) {
    this.data = new Uint8ClampedArray(region.width * region.height * 4);
  }

  /** Source-over of a solid colour through coverage of a sub-region (frame coordinates), rounded once. */
  fill(sub: Region, mask: Uint8Array, color: Rgba): void {
    const d = this.data;
    const { r, g, b, a } = color;
    for (let y = 0; y < sub.height; y++) {
      const gy = sub.y + y - this.region.y;
      if (gy < 0 || gy >= this.region.height) continue;
      for (let x = 0; x < sub.width; x++) {
        const gx = sub.x + x - this.region.x;
        if (gx < 0 || gx >= this.region.width) continue;
        const alpha = a * mask[y * sub.width + x];
        if (alpha === 0) continue;
        const i = (gy * this.region.width + gx) * 4;
        const keep = D2 - alpha;
        d[i] = Math.floor((r * alpha + d[i] * keep + HALF2) / D2);
        d[i + 1] = Math.floor((g * alpha + d[i + 1] * keep + HALF2) / D2);
        d[i + 2] = Math.floor((b * alpha + d[i + 2] * keep + HALF2) / D2);
        d[i + 3] = Math.floor((255 * alpha + d[i + 3] * keep + HALF2) / D2);
      }
    }
  }

  /** The group over the frame at an opacity level. */
  blendInto(frame: Frame, opacity: number): void {
    blendPremultiplied(frame, this.region, this.data, undefined, opacity);
  }
}
