// Starfield warp: seeded stars fly towards the viewer out of a vanishing point, leaving light
// trails. Each star has a fixed direction (x0, y0) and a depth z = fract(z0 - loop * speed); with an
// integer speed the depth returns to its start at loop = 1, so the animation loops seamlessly. A
// star's trail is the segment between its projection now and its projection a little further
// back in depth, so every frame is computed on its own. Stars fade in far away and out very near,
// so the wrap from near to far never pops.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { LOOP_DEFAULTS, type LoopParams, loopAnimation, loopParamSchema } from '../lib/1dac23a/animation.ts';
import { defineGenerator } from '../../generator.types.ts';
import { colorParam, paletteParam, parseHex, type Rgb } from '../lib/1dac23a/color.ts';
import { paintGradient, scaling } from '../lib/1dac23a/gradient.ts';
import { type PixelBlock, solidBlock, writeBlock } from '../lib/1dac23a/pixels.ts';
import { subRandom } from '../lib/2a88792/random.ts';

export interface StarfieldParams extends Record<string, unknown>, LoopParams {
  stars: number;
  speed: number;
  trail: number;
  starSize: number;
  palette: string[];
  background: string;
  nebula: number;
}

const defaults: StarfieldParams = {
  stars: 700,
  speed: 1,
  trail: 0.5,
  starSize: 1.6,
  palette: ['#ffffff', '#cfe0ff', '#9ec5ff', '#ffe3c2', '#d9c8ff'],
  background: '#04050d',
  nebula: 0.5,
  ...LOOP_DEFAULTS,
};

const NEAR = 0.015;

interface Star {
  x: number;
  y: number;
  z0: number;
  color: Rgb;
  brightness: number;
}

function makeStars(p: StarfieldParams, seed: number): Star[] {
  const rnd = subRandom(seed, 'starfield/stars');
  const colors = p.palette.map(parseHex);
  const stars: Star[] = [];
  for (let i = 0; i < p.stars; i++) {
    // Directions uniform over a square that covers the view at far depth; a few stars close to
    // the axis are pushed out so the vanishing point does not collect near-static dots.
    let x = rnd() * 2 - 1;
    let y = rnd() * 2 - 1;
    const r = Math.hypot(x, y);
    if (r < 0.04) {
      x = (x / (r || 1)) * 0.04;
      y = (y / (r || 1)) * 0.04;
    }
    stars.push({ x, y, z0: rnd(), color: colors[Math.floor(rnd() * colors.length)], brightness: 0.55 + 0.45 * rnd() });
  }
  return stars;
}

const smooth = (e0: number, e1: number, x: number) => {
  const t = Math.max(0, Math.min(1, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};

const rounded = (c: Rgb): Rgb => ({ r: Math.round(c.r), g: Math.round(c.g), b: Math.round(c.b) });

/** Length of [d − ½, d + ½] (a pixel's extent) inside [−h, h]: box-filtered coverage across an edge pair. */
const overlap = (d: number, h: number) => Math.max(0, Math.min(d + 0.5, h) - Math.max(d - 0.5, -h));

/**
 * Adds a round-capped line from (x0, y0) to (x1, y1) (device pixels) whose opacity runs from a0 at
 * the start to a1 at the end, anti-aliased by distance to the segment. Rows only visit the span the
 * stroke can reach, so long diagonal streaks cost their length, not their bounding box.
 */
function addStreak(px: PixelBlock, x0: number, y0: number, x1: number, y1: number, hw: number, c: Rgb, a0: number, a1: number): void {
  const R = hw + 0.5;
  const dx = x1 - x0,
    dy = y1 - y0;
  const len2 = dx * dx + dy * dy;
  const top = Math.max(0, Math.floor(Math.min(y0, y1) - R));
  const bottom = Math.min(px.height - 1, Math.ceil(Math.max(y0, y1) + R));
  const d = px.data;
  for (let y = top; y <= bottom; y++) {
    const py = y + 0.5;
    // The part of the centre line within R of this row, widened by R.
    let ta = 0,
      tb = 1;
    if (dy !== 0) {
      ta = Math.max(0, Math.min(1, (py - R - y0) / dy));
      tb = Math.max(0, Math.min(1, (py + R - y0) / dy));
    }
    const left = Math.max(0, Math.floor(Math.min(x0 + dx * ta, x0 + dx * tb) - R));
    const right = Math.min(px.width - 1, Math.ceil(Math.max(x0 + dx * ta, x0 + dx * tb) + R));
    for (let x = left; x <= right; x++) {
      const qx = x + 0.5 - x0,
        qy = py - y0;
      const t = len2 > 0 ? Math.max(0, Math.min(1, (qx * dx + qy * dy) / len2)) : 0;
      const ex = qx - t * dx,
        ey = qy - t * dy;
      const cov = overlap(Math.sqrt(ex * ex + ey * ey), hw);
      if (cov === 0) continue;
      const a = (a0 + (a1 - a0) * t) * cov;
      const i = (y * px.width + x) * 4;
      d[i] += c.r * a;
      d[i + 1] += c.g * a;
      d[i + 2] += c.b * a;
    }
  }
}

/** Adds a disc (device pixels); coverage from the exact chord on four sub-rows per pixel, as Skia's scan converter. */
function addDisc(px: PixelBlock, cx: number, cy: number, r: number, c: Rgb, alpha: number): void {
  const x0 = Math.max(0, Math.floor(cx - r)),
    x1 = Math.min(px.width - 1, Math.floor(cx + r));
  const y0 = Math.max(0, Math.floor(cy - r)),
    y1 = Math.min(px.height - 1, Math.floor(cy + r));
  const d = px.data;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      let cov = 0;
      for (let k = 0; k < 4; k++) {
        const sy = y + 0.125 + k * 0.25 - cy;
        const h2 = r * r - sy * sy;
        if (h2 <= 0) continue;
        const h = Math.sqrt(h2);
        cov += Math.max(0, Math.min(x + 1, cx + h) - Math.max(x, cx - h));
      }
      if (cov === 0) continue;
      const a = alpha * cov * 0.25;
      const i = (y * px.width + x) * 4;
      d[i] += c.r * a;
      d[i + 1] += c.g * a;
      d[i + 2] += c.b * a;
    }
  }
}

/** Frames of one animation share their backdrop; keeping the last one saves most of a frame's time. */
let lastBackdrop: { key: string; data: Uint8ClampedArray } | undefined;
const BACKDROP_CACHE_PIXELS = 3840 * 2160;

/** Background colour and nebula, in device pixels (the same for every frame). */
function backdrop(
  p: StarfieldParams,
  seed: number,
  width: number,
  height: number,
  pr: number,
  dw: number,
  dh: number,
  reuse: boolean,
): PixelBlock {
  const key = JSON.stringify([p.background, p.palette, p.nebula, seed, width, height, pr, dw, dh]);
  if (lastBackdrop?.key === key) return { data: lastBackdrop.data.slice(), width: dw, height: dh, x: 0, y: 0 };
  const frame = solidBlock(dw, dh, parseHex(p.background));
  const toDevice = scaling(pr);
  const cx = width / 2;
  const cy = height / 2;
  const half = Math.max(width, height) / 2;

  // Nebula: a few very soft glows tinted by the palette, plus a faint light at the vanishing point.
  if (p.nebula > 0) {
    const rnd = subRandom(seed, 'starfield/nebula');
    const colors = p.palette.map(parseHex);
    const tints: Rgb[] = [
      { r: 90, g: 60, b: 200 },
      { r: 30, g: 110, b: 200 },
      { r: 170, g: 60, b: 160 },
    ];
    const alpha = (a: number) => Math.round(a * 1000) / 1000;
    for (let i = 0; i < 3; i++) {
      const x = width * (0.15 + 0.7 * rnd());
      const y = height * (0.15 + 0.7 * rnd());
      const r = half * (0.6 + 0.6 * rnd());
      const t = tints[Math.floor(rnd() * tints.length)];
      const c = colors[Math.floor(rnd() * colors.length)];
      const tint = rounded({ r: (t.r + c.r * 0.3) / 1.3, g: (t.g + c.g * 0.3) / 1.3, b: (t.b + c.b * 0.3) / 1.3 });
      paintGradient(frame, {
        shape: { kind: 'radial', cx: x, cy: y, r },
        stops: [
          { offset: 0, color: tint, alpha: alpha(0.34 * p.nebula) },
          { offset: 0.45, color: tint, alpha: alpha(0.13 * p.nebula) },
          { offset: 1, color: tint, alpha: 0 },
        ],
        transform: toDevice,
      });
    }
    const light = { r: 200, g: 215, b: 255 };
    paintGradient(frame, {
      shape: { kind: 'radial', cx, cy, r: half * 0.45 },
      stops: [
        { offset: 0, color: light, alpha: alpha(0.16 * p.nebula) },
        { offset: 1, color: light, alpha: 0 },
      ],
      transform: toDevice,
    });
  }

  if (reuse && dw * dh <= BACKDROP_CACHE_PIXELS) lastBackdrop = { key, data: frame.data.slice() };
  return frame;
}

export default defineGenerator<StarfieldParams>({
  slug: 'starfield',
  name: 'Starfield warp',
  description: 'Stars streaming towards the viewer at warp speed with glowing trails over a faint nebula; loops seamlessly.',
  version: '1.1.0',
  animated: true,
  formats: ['gif', 'mp4', 'png', 'webp'],
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      stars: {
        type: 'integer',
        title: 'Stars',
        description: 'Number of stars in the field.',
        minimum: 50,
        maximum: 3000,
        default: defaults.stars,
      },
      speed: {
        type: 'integer',
        title: 'Speed',
        description: 'How many times each star travels the full depth during one loop.',
        minimum: 1,
        maximum: 6,
        default: defaults.speed,
      },
      trail: {
        type: 'number',
        title: 'Trail length',
        description: 'Length of the light streaks behind the stars (0 = points only).',
        minimum: 0,
        maximum: 1,
        default: defaults.trail,
      },
      starSize: {
        type: 'number',
        title: 'Star size',
        description: 'Radius of the nearest stars, in pixels.',
        minimum: 0.5,
        maximum: 5,
        default: defaults.starSize,
      },
      palette: paletteParam('Star colours', 'Tints the stars are picked from.', defaults.palette),
      background: colorParam('Background', 'Colour of deep space.', defaults.background),
      nebula: {
        type: 'number',
        title: 'Nebula',
        description: 'Strength of the soft coloured glow behind the stars (0 = plain background).',
        minimum: 0,
        maximum: 1,
        default: defaults.nebula,
      },
      ...loopParamSchema(defaults),
    },
  },

  animation: loopAnimation,

  draw(ctx: SKRSContext2D, input) {
    const { params: p, width, height, seed, loop, pixelRatio: pr } = input;
    const cx = width / 2;
    const cy = height / 2;
    const half = Math.max(width, height) / 2;
    // The whole frame is painted in JavaScript into device pixels, then put on the canvas once:
    // Skia's gradients give other pixels on other CPUs (lib/gradient.ts).
    const frame = backdrop(p, seed, width, height, pr, ctx.canvas.width, ctx.canvas.height, input.frameCount > 1);

    // Stars add their light ('lighter'): a streak fading in from its tail, then a round head.
    const stars = makeStars(p, seed);
    const focal = half * 0.9;
    const trailDepth = 0.04 + 0.3 * p.trail;
    for (const s of stars) {
      const zr = s.z0 - loop * p.speed;
      const z = NEAR + (1 - NEAR) * (zr - Math.floor(zr));
      const alpha = s.brightness * smooth(1, 0.72, z) * smooth(NEAR, NEAR + 0.05, z);
      if (alpha <= 0.01) continue;
      const hx = cx + (s.x * focal) / z;
      const hy = cy + (s.y * focal) / z;
      const rad = p.starSize * Math.min(2, 0.1 / z + 0.2);
      const tz = Math.min(1, z + trailDepth * z); // streaks grow with closeness, in proportion to depth
      const tx = cx + (s.x * focal) / tz;
      const ty = cy + (s.y * focal) / tz;
      const margin = rad + 2;
      const inside = (x: number, y: number) => x > -margin && x < width + margin && y > -margin && y < height + margin;
      if (!inside(hx, hy) && !inside(tx, ty)) continue;
      const len = Math.hypot(hx - tx, hy - ty);
      const color = rounded(s.color);
      if (p.trail > 0 && len > 0.75) {
        const halfWidth = (Math.max(0.6, rad * 1.3) * pr) / 2;
        if (len > 3) addStreak(frame, tx * pr, ty * pr, hx * pr, hy * pr, halfWidth, color, 0, alpha * 0.85);
        else addStreak(frame, tx * pr, ty * pr, hx * pr, hy * pr, halfWidth, color, alpha * 0.45, alpha * 0.45);
      }
      addDisc(frame, hx * pr, hy * pr, Math.max(0.45, rad) * pr, color, alpha);
    }
    writeBlock(ctx, frame);
  },
});
