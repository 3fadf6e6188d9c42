// Starfield warp: seeded stars fly towards the viewer out of a vanishing point, leaving light
// trails. Each star has a fixed direction (x0, y0) and a depth z = fract(z0 - loop * speed); with an
// integer speed the depth returns to its start at loop = 1, so the animation loops seamlessly. A
// star's trail is the segment between its projection now and its projection a little further
// back in depth, so every frame is computed on its own. Stars fade in far away and out very near,
// so the wrap from near to far never pops.
// Behind them sits a still deep sky, painted once per animation with the nebula: a seeded band of
// milky-way glow (noise-textured, with a dark dust lane) and thousands of distant stars, denser in
// the band, with a power-law spread of brightness and soft halos on the brightest few, so even a
// single still frame reads as a full sky with depth.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { LOOP_DEFAULTS, type LoopParams, loopAnimation, loopParamSchema } from '../lib/1dac23a/animation.ts';
import { defineGenerator } from '../../generator.types.ts';
import { colorParam, paletteParam, parseHex, type Rgb } from '../lib/1dac23a/color.ts';
import { paintGradient, scaling } from '../lib/1dac23a/gradient.ts';
import { type PixelBlock, solidBlock, writeBlock } from '../lib/1dac23a/pixels.ts';
import { seededStream } from '../lib/3e3ef4b/random.ts';
import { fbm2, noise2D } from '../lib/1dac23a/noise.ts';

export interface StarfieldParams extends Record<string, unknown>, LoopParams {
  stars: number;
  speed: number;
  trail: number;
  starSize: number;
  palette: string[];
  background: string;
  nebula: number;
  milkyWay: number;
  distantStars: number;
}

const defaults: StarfieldParams = {
  stars: 700,
  speed: 1,
  trail: 0.5,
  starSize: 1.6,
  palette: ['#ffffff', '#cfe0ff', '#9ec5ff', '#ffe3c2', '#d9c8ff'],
  background: '#04050d',
  nebula: 0.5,
  milkyWay: 0.6,
  distantStars: 0.6,
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
  const rnd = seededStream(seed, 'starfield/stars');
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

/** The milky-way band of a seed: brightness profile (0..1) and cloud texture at a point in CSS px. */
function milkyWayBand(seed: number, width: number, height: number) {
  const rnd = seededStream(seed, 'starfield/milky-way');
  const half = Math.max(width, height) / 2;
  // A line through a point near the middle, tilted up to ±40° from a diagonal.
  const theta = ((rnd() < 0.5 ? -1 : 1) * (10 + 60 * rnd()) * Math.PI) / 180;
  const px = width / 2 + (rnd() - 0.5) * 0.4 * width;
  const py = height / 2 + (rnd() - 0.5) * 0.4 * height;
  const nx = -Math.sin(theta),
    ny = Math.cos(theta);
  const w = 0.24 + 0.1 * rnd();
  const warp = noise2D(seed, 'starfield/milky-way/warp');
  const cloud = noise2D(seed, 'starfield/milky-way/cloud');
  const dust = noise2D(seed, 'starfield/milky-way/dust');
  return {
    /** [core profile, wide halo, cloud texture 0..1, dust 0..1]. */
    at(x: number, y: number): [number, number, number, number] {
      const u = x / half,
        v = y / half;
      const d = Math.abs(((x - px) * nx + (y - py) * ny) / half + 0.1 * warp(u * 1.3, v * 1.3)) / w;
      const core = d < 1 ? (1 - d * d) * (1 - d * d) : 0;
      const halo = 1 / (1 + d * d * 0.6);
      const c = 0.5 + 0.5 * fbm2(cloud, u * 2.4, v * 2.4, 5);
      const lane = d < 0.5 ? smooth(0.0, 0.35, fbm2(dust, u * 3.2, v * 3.2, 4)) * (1 - 4 * d * d) : 0;
      return [core, halo, c, lane];
    },
  };
}

/**
 * Adds the milky-way glow: evaluated on a grid every 4 device pixels and interpolated bilinearly
 * between (the glow is far softer than that), warm in the core and cool at the edges.
 */
function paintMilkyWay(px: PixelBlock, band: ReturnType<typeof milkyWayBand>, strength: number, pr: number): void {
  const step = 4;
  const gw = Math.ceil(px.width / step) + 1,
    gh = Math.ceil(px.height / step) + 1;
  const grid = new Float64Array(gw * gh * 3);
  const warm = { r: 250, g: 222, b: 240 },
    cool = { r: 120, g: 140, b: 255 };
  for (let j = 0; j < gh; j++) {
    for (let i = 0; i < gw; i++) {
      const [core, halo, c, lane] = band.at((i * step) / pr, (j * step) / pr);
      const tex = c * c;
      const a = strength * (0.5 * core * (0.12 + 1.5 * tex) + 0.1 * halo * (0.4 + 0.6 * c)) * (1 - 0.75 * lane);
      const k = (j * gw + i) * 3;
      const wmix = Math.min(1, core * 1.2);
      grid[k] = (cool.r + (warm.r - cool.r) * wmix) * a * 0.62;
      grid[k + 1] = (cool.g + (warm.g - cool.g) * wmix) * a * 0.62;
      grid[k + 2] = (cool.b + (warm.b - cool.b) * wmix) * a * 0.62;
    }
  }
  const d = px.data;
  for (let y = 0; y < px.height; y++) {
    const gy = Math.floor(y / step),
      fy = (y % step) / step;
    for (let x = 0; x < px.width; x++) {
      const gx = Math.floor(x / step),
        fx = (x % step) / step;
      const k00 = (gy * gw + gx) * 3,
        k10 = k00 + 3,
        k01 = k00 + gw * 3,
        k11 = k01 + 3;
      const i = (y * px.width + x) * 4;
      for (let ch = 0; ch < 3; ch++) {
        const top = grid[k00 + ch] + (grid[k10 + ch] - grid[k00 + ch]) * fx;
        const bottom = grid[k01 + ch] + (grid[k11 + ch] - grid[k01 + ch]) * fx;
        d[i + ch] += top + (bottom - top) * fy;
      }
    }
  }
}

/** Still, distant stars: denser in the milky way, most faint, a few bright ones with a halo. */
function paintDistantStars(
  px: PixelBlock,
  p: StarfieldParams,
  seed: number,
  width: number,
  height: number,
  pr: number,
  band: ReturnType<typeof milkyWayBand>,
): void {
  const rnd = seededStream(seed, 'starfield/distant');
  const colors = p.palette.map(parseHex);
  const count = Math.round(p.distantStars * 6000 * ((width * height) / (1200 * 630)));
  const toDevice = scaling(pr);
  for (let n = 0; n < count; n++) {
    const x = rnd() * width,
      y = rnd() * height;
    const keep = rnd();
    const b0 = rnd();
    const color = colors[Math.floor(rnd() * colors.length)];
    if (p.milkyWay > 0) {
      const [core, halo] = band.at(x, y);
      if (keep > 0.35 + 0.65 * Math.max(core, 0.5 * halo)) continue;
    } else if (keep > 0.6) continue;
    const b = 0.1 + 0.9 * b0 * b0 * b0 * b0;
    addDisc(px, x * pr, y * pr, (0.4 + 0.75 * b) * pr, color, Math.min(1, 0.35 + 0.9 * b));
    if (b > 0.7) {
      const c = rounded(color);
      paintGradient(px, {
        shape: { kind: 'radial', cx: x, cy: y, r: 4 + 8 * b },
        stops: [
          { offset: 0, color: c, alpha: Math.round(0.3 * b * 1000) / 1000 },
          { offset: 0.3, color: c, alpha: Math.round(0.08 * b * 1000) / 1000 },
          { offset: 1, color: c, alpha: 0 },
        ],
        transform: toDevice,
        blend: 'lighter',
      });
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
  const key = JSON.stringify([p.background, p.palette, p.nebula, p.milkyWay, p.distantStars, seed, width, height, pr, dw, dh]);
  if (lastBackdrop?.key === key) return { data: lastBackdrop.data.slice(), width: dw, height: dh, x: 0, y: 0 };
  const frame = solidBlock(dw, dh, parseHex(p.background));
  const toDevice = scaling(pr);
  const cx = width / 2;
  const cy = height / 2;
  const half = Math.max(width, height) / 2;
  const band = milkyWayBand(seed, width, height);
  if (p.milkyWay > 0) paintMilkyWay(frame, band, p.milkyWay, pr);

  // Nebula: a few very soft glows tinted by the palette, plus a faint light at the vanishing point.
  if (p.nebula > 0) {
    const rnd = seededStream(seed, 'starfield/nebula');
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

  if (p.distantStars > 0) paintDistantStars(frame, p, seed, width, height, pr, band);

  if (reuse && dw * dh <= BACKDROP_CACHE_PIXELS) lastBackdrop = { key, data: frame.data.slice() };
  return frame;
}

export default defineGenerator<StarfieldParams>({
  slug: 'starfield',
  name: 'Starfield warp',
  description: 'Stars streaming towards the viewer at warp speed with glowing trails over a faint nebula; loops seamlessly.',
  version: '1.2.0',
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
      milkyWay: {
        type: 'number',
        title: 'Milky way',
        description: 'Strength of the seeded band of galactic glow, with clouds and a dust lane, behind the stars (0 = none).',
        minimum: 0,
        maximum: 1,
        default: defaults.milkyWay,
      },
      distantStars: {
        type: 'number',
        title: 'Distant stars',
        description:
          'Density of the still, distant stars behind the moving ones (0 = none; 1 = up to 6,000 at 1200×630, scaled by area, fewer away from the milky way).',
        minimum: 0,
        maximum: 1,
        default: defaults.distantStars,
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
