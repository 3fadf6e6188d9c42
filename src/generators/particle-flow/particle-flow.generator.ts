// Particle flow: particles advected through a looping curl-noise field, drawing glowing trails,
// composed around a seeded vortex.
//
// Frames are rendered independently, so nothing is accumulated on the canvas. Instead each
// particle's path is recomputed from scratch every frame:
//   - the field is v(p, t) = V0(p) + cos(2πt)·V1(p) + sin(2πt)·V2(p), three divergence-free (curl)
//     fields of seeded simplex noise sampled on a grid; t is measured in loops, so v is periodic.
//     V0 also carries a broad vortex around a seeded focus, so the picture has a centre of mass;
//   - time runs on a global step clock of S = lifetimes × L steps per loop. Particle i is (re)born
//     every L steps at a seeded offset; its spawn point depends on (i, life mod lifetimes), so the
//     whole system repeats exactly after one loop. Most are born around the focus, and each takes
//     its palette colour from where it is born along a seeded axis, so colours sit in masses;
//   - a frame integrates each particle from its birth to "now" (at most L steps) and strokes the last
//     `trail` steps of that path. Particles fade in at birth and out before they respawn, so
//     nothing pops;
//   - the trails' light is added over a soft, still glow behind the vortex, then tone-mapped.
import { LOOP_DEFAULTS, type LoopParams, loopAnimation, loopParamSchema } from '../lib/animation.ts';
import { defineGenerator, type FrameInput } from '../generator.types.ts';
import { drawPixels } from '../lib/pixels.ts';
import { colorParam, paletteParam, parseHex, type Rgb } from '../lib/color.ts';
import { noise2D } from '../lib/noise.ts';
import { goldenSpread, seededStream } from '../lib/random.ts';
import { dmath } from '../lib/dmath.ts';

export interface ParticleFlowParams extends Record<string, unknown>, LoopParams {
  particles: number;
  trail: number;
  speed: number;
  scale: number;
  lifetimes: number;
  lineWidth: number;
  glow: number;
  palette: string[];
  background: string;
}

const defaults: ParticleFlowParams = {
  particles: 1000,
  trail: 40,
  speed: 0.7,
  scale: 1.5,
  lifetimes: 2,
  lineWidth: 1.2,
  glow: 0.6,
  palette: ['#f72585', '#b5179e', '#7209b7', '#4361ee', '#4cc9f0'],
  background: '#08071a',
  ...LOOP_DEFAULTS,
};

/** Integration steps in one particle life. */
const LIFE_STEPS = 64;
const ALPHA_LEVELS = 8;
const TAU = Math.PI * 2;
/** Radius of the vortex, as a fraction of the shorter side. */
const VORTEX_RADIUS = 0.42;
/** The vortex's stream function amplitude, per radius in noise units: it peaks at about 0.43× this, the noise near 1. */
const VORTEX_STRENGTH = 6;
/** Share of the particles born around the focus; the rest are spread over the canvas. */
const FOCUSED = 0.65;
/** Peak light of a lone trail, relative to its colour. */
const EXPOSURE = 1;
/** Light of the glow behind the vortex at its centre, relative to its colour, at glow = 1. */
const GLOW_GAIN = 1;
/** Width of that glow, relative to the vortex radius. */
const GLOW_SPREAD = 1.2;

function cellHash(seed: number, a: number, b: number): number {
  let h = (seed ^ Math.imul(a | 0, 0x27d4eb2d) ^ Math.imul(b | 0, 0x165667b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h >>> 0) / 4294967296;
}

const smooth = (e0: number, e1: number, x: number) => {
  const t = Math.max(0, Math.min(1, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};

/** Where the seed puts the picture's weight: the vortex's focus and spin, and the colours' axis. */
interface Composition {
  fx: number;
  fy: number;
  radius: number;
  spin: number;
  /** Colour axis, scaled so ±½ is one vortex radius from the focus. */
  cax: number;
  cay: number;
}

function composition(seed: number, width: number, height: number): Composition {
  const minSide = Math.min(width, height);
  const radius = minSide * VORTEX_RADIUS;
  // Golden-ratio spread: nearby seeds put the focus and the colours far apart. The focus moves
  // within the room the vortex leaves, so it stays whole across the short side of any shape.
  const fx = width / 2 + (goldenSpread(seed, 'particle-flow/focus-x') - 0.5) * Math.max(0, width - 1.8 * radius) * 0.8;
  const fy = height / 2 + (goldenSpread(seed, 'particle-flow/focus-y') - 0.5) * Math.max(0, height - 1.8 * radius) * 0.8;
  const spin = goldenSpread(seed, 'particle-flow/spin') < 0.5 ? 1 : -1;
  const a = goldenSpread(seed, 'particle-flow/colour-axis') * TAU;
  return { fx, fy, radius, spin, cax: dmath.cos(a) / (2 * radius), cay: dmath.sin(a) / (2 * radius) };
}

interface Field {
  gw: number;
  gh: number;
  cell: number;
  x0: number;
  y0: number;
  /** Per basis field j: vx, vy at grid nodes. */
  vx: Float64Array[];
  vy: Float64Array[];
}

/** Three curl-noise velocity fields on a grid covering the canvas plus a margin; the first has the vortex. */
function buildField(seed: number, width: number, height: number, scale: number, margin: number, comp: Composition): Field {
  const minSide = Math.min(width, height);
  const cell = minSide / Math.max(20, 8 * scale);
  const x0 = -margin - cell;
  const y0 = -margin - cell;
  const gw = Math.ceil((width + 2 * margin) / cell) + 3;
  const gh = Math.ceil((height + 2 * margin) / cell) + 3;
  const freq = scale / minSide;
  const vx: Float64Array[] = [];
  const vy: Float64Array[] = [];
  const weights = [1, 0.85, 0.85];
  // A Gaussian stream function in the noise's units: circular flow peaking at radius/√2, as fast
  // whatever the scale.
  const amp = comp.spin * VORTEX_STRENGTH * comp.radius * freq;
  const inv2 = 1 / (comp.radius * comp.radius);
  for (let j = 0; j < 3; j++) {
    const n = noise2D(seed, `particle-flow/field${j}`);
    const n2 = noise2D(seed, `particle-flow/detail${j}`);
    // Potential on nodes extended by one on each side for central differences.
    const pw = gw + 2;
    const psi = new Float64Array(pw * (gh + 2));
    for (let y = 0; y < gh + 2; y++) {
      for (let x = 0; x < pw; x++) {
        const X = x0 + (x - 1) * cell;
        const Y = y0 + (y - 1) * cell;
        const fx = X * freq;
        const fy = Y * freq;
        let v = n(fx, fy) + 0.35 * n2(fx * 2.3, fy * 2.3);
        if (j === 0) v += amp * dmath.exp(-((X - comp.fx) * (X - comp.fx) + (Y - comp.fy) * (Y - comp.fy)) * inv2);
        psi[y * pw + x] = v;
      }
    }
    const ax = new Float64Array(gw * gh);
    const ay = new Float64Array(gw * gh);
    // Normalise so the typical speed is about 1 whatever the scale.
    const k = (weights[j] / (2 * cell * freq)) * 0.5;
    for (let y = 0; y < gh; y++) {
      for (let x = 0; x < gw; x++) {
        const c = (y + 1) * pw + (x + 1);
        ax[y * gw + x] = (psi[c + pw] - psi[c - pw]) * k;
        ay[y * gw + x] = -(psi[c + 1] - psi[c - 1]) * k;
      }
    }
    vx.push(ax);
    vy.push(ay);
  }
  return { gw, gh, cell, x0, y0, vx, vy };
}

export default defineGenerator<ParticleFlowParams>({
  slug: 'particle-flow',
  name: 'Particle flow',
  description:
    'Glowing particle trails swirling around a seeded vortex in a slowly changing curl-noise flow, their colours laid across it in masses over a soft glow; loops seamlessly.',
  version: '1.1.0',
  animated: true,
  formats: ['gif', 'mp4', 'png', 'webp', 'jpeg'],
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      particles: {
        type: 'integer',
        title: 'Particles',
        description: 'Number of particles.',
        minimum: 50,
        maximum: 3000,
        default: defaults.particles,
      },
      trail: {
        type: 'integer',
        title: 'Trail length',
        description: 'Length of each trail, in integration steps.',
        minimum: 2,
        maximum: 48,
        default: defaults.trail,
      },
      speed: {
        type: 'number',
        title: 'Speed',
        description: 'Distance a particle travels per step, relative to the canvas size.',
        minimum: 0.25,
        maximum: 3,
        default: defaults.speed,
      },
      scale: {
        type: 'number',
        title: 'Flow scale',
        description: 'Number of swirls across the shorter side of the canvas.',
        minimum: 0.5,
        maximum: 5,
        default: defaults.scale,
      },
      lifetimes: {
        type: 'integer',
        title: 'Lifetimes per loop',
        description: 'How many times each particle is reborn at a new place during one loop.',
        minimum: 1,
        maximum: 4,
        default: defaults.lifetimes,
      },
      lineWidth: {
        type: 'number',
        title: 'Line width',
        description: 'Thickness of the trails, in pixels.',
        minimum: 0.5,
        maximum: 4,
        default: defaults.lineWidth,
      },
      glow: {
        type: 'number',
        title: 'Glow',
        description: 'Strength of the soft light behind the vortex (0 = none).',
        minimum: 0,
        maximum: 1,
        default: defaults.glow,
      },
      palette: paletteParam(
        'Palette',
        'Particle colours, laid in order across the vortex along a direction the seed picks; each particle keeps one.',
        defaults.palette,
      ),
      background: colorParam('Background', 'Colour behind the particles.', defaults.background),
      ...loopParamSchema(defaults),
    },
  },

  animation: loopAnimation,

  pixels: particleFlowPixels,
  draw: drawPixels(particleFlowPixels),
});

/**
 * The light accumulated per pixel, reused from frame to frame of a clip: a 1080p frame's is 25 MB,
 * which cost more to allocate than to clear (35 → 20 ms a frame). pixels() runs to completion, so
 * one buffer per worker thread; frames over REUSED_LIGHT_MAX floats (50 MB, 2560×1440) get one of
 * their own, so a thread never keeps a very large buffer after a render.
 */
const REUSED_LIGHT_MAX = 2560 * 1440 * 3;
let light: Float32Array | undefined;
function lightBuffer(length: number): Float32Array {
  if (length > REUSED_LIGHT_MAX) return new Float32Array(length);
  if (light?.length !== length) light = new Float32Array(length);
  else light.fill(0);
  return light;
}

// Every pixel is written below (the background is part of the tone mapping), so no canvas is needed.
function particleFlowPixels(input: FrameInput<ParticleFlowParams>, device: { width: number; height: number }): Uint8ClampedArray {
  const { params: p, width, height, seed, loop } = input;

  const minSide = Math.min(width, height);
  const h = p.speed * minSide * 0.0065; // px per step at unit speed
  const margin = minSide * 0.08;
  const comp = composition(seed, width, height);
  const f = buildField(seed, width, height, p.scale, margin * 2, comp);
  const { gw, gh, cell, x0, y0, vx, vy } = f;
  const [vx0, vx1, vx2] = vx;
  const [vy0, vy1, vy2] = vy;
  const S = LIFE_STEPS * p.lifetimes;
  const cosT = new Float64Array(S);
  const sinT = new Float64Array(S);
  for (let k = 0; k < S; k++) {
    cosT[k] = dmath.cos((TAU * k) / S);
    sinT[k] = dmath.sin((TAU * k) / S);
  }

  const rnd = seededStream(seed, 'particle-flow/particles');
  const nColors = p.palette.length;
  const px = new Float64Array(LIFE_STEPS + 2);
  const py = new Float64Array(LIFE_STEPS + 2);
  // Trail points of all particles, and the strokes (bucket, first point, point count) to draw.
  const maxPts = p.particles * (p.trail + 2);
  const tx = new Float32Array(maxPts);
  const ty = new Float32Array(maxPts);
  let nPtsAll = 0;
  const strokeBucket = new Int32Array(p.particles);
  const strokeStart = new Int32Array(p.particles);
  const strokeCount = new Int32Array(p.particles);
  let nStrokes = 0;
  const g = loop * S;
  const spanW = width + 2 * margin;
  const spanH = height + 2 * margin;

  for (let i = 0; i < p.particles; i++) {
    const birth = Math.floor(rnd() * LIFE_STEPS);
    const q = g - birth;
    const life = Math.floor(q / LIFE_STEPS);
    const age = q - life * LIFE_STEPS; // 0 <= age < LIFE_STEPS
    const fade = smooth(0, 0.15, age / LIFE_STEPS) * smooth(1, 0.75, age / LIFE_STEPS);
    const level = Math.round(fade * ALPHA_LEVELS);
    if (level <= 0) continue; // invisible: skip the integration too
    const key = ((life % p.lifetimes) + p.lifetimes) % p.lifetimes;
    const u0 = cellHash(seed, i, key * 4),
      u1 = cellHash(seed, i, key * 4 + 1);
    let x: number, y: number;
    if (cellHash(seed, i, key * 4 + 2) < FOCUSED) {
      // Uniform over a disc a little wider than the vortex.
      const rr = comp.radius * 1.15 * Math.sqrt(u0);
      x = comp.fx + rr * dmath.cos(u1 * TAU);
      y = comp.fy + rr * dmath.sin(u1 * TAU);
    } else {
      x = u0 * spanW - margin;
      y = u1 * spanH - margin;
    }
    // The colour follows the birthplace along the seeded axis, with some spread.
    const ct0 = 0.5 + (x - comp.fx) * comp.cax + (y - comp.fy) * comp.cay + (cellHash(seed, i, key * 4 + 3) - 0.5) * 0.4;
    const colorIndex = Math.max(0, Math.min(nColors - 1, Math.floor(ct0 * nColors)));
    const A = Math.floor(age);
    const startStep = birth + life * LIFE_STEPS;
    px[0] = x;
    py[0] = y;
    for (let s = 0; s <= A; s++) {
      // Bilinear sample of the three basis fields, combined for this step's time.
      let gx = (x - x0) / cell;
      let gy = (y - y0) / cell;
      gx = gx < 0 ? 0 : gx > gw - 1.001 ? gw - 1.001 : gx;
      gy = gy < 0 ? 0 : gy > gh - 1.001 ? gh - 1.001 : gy;
      const ix = gx | 0;
      const iy = gy | 0;
      const fx = gx - ix;
      const fy = gy - iy;
      const c00 = iy * gw + ix;
      const c10 = c00 + 1;
      const c01 = c00 + gw;
      const c11 = c01 + 1;
      const w00 = (1 - fx) * (1 - fy),
        w10 = fx * (1 - fy),
        w01 = (1 - fx) * fy,
        w11 = fx * fy;
      let k = (startStep + s) % S;
      if (k < 0) k += S;
      const ct = cosT[k];
      const st = sinT[k];
      const ux =
        w00 * (vx0[c00] + ct * vx1[c00] + st * vx2[c00]) +
        w10 * (vx0[c10] + ct * vx1[c10] + st * vx2[c10]) +
        w01 * (vx0[c01] + ct * vx1[c01] + st * vx2[c01]) +
        w11 * (vx0[c11] + ct * vx1[c11] + st * vx2[c11]);
      const uy =
        w00 * (vy0[c00] + ct * vy1[c00] + st * vy2[c00]) +
        w10 * (vy0[c10] + ct * vy1[c10] + st * vy2[c10]) +
        w01 * (vy0[c01] + ct * vy1[c01] + st * vy2[c01]) +
        w11 * (vy0[c11] + ct * vy1[c11] + st * vy2[c11]);
      x += ux * h;
      y += uy * h;
      px[s + 1] = x;
      py[s + 1] = y;
    }
    const frac = age - A;
    // Trail: the last `trail` steps and the interpolated head.
    const base = nPtsAll;
    let inside = false;
    for (let s = Math.max(0, A - p.trail + 1); s <= A + 1; s++) {
      const X = s === A + 1 ? px[A] + (px[A + 1] - px[A]) * frac : px[s];
      const Y = s === A + 1 ? py[A] + (py[A + 1] - py[A]) * frac : py[s];
      if (X > -20 && X < width + 20 && Y > -20 && Y < height + 20) inside = true;
      tx[nPtsAll] = X;
      ty[nPtsAll] = Y;
      nPtsAll++;
    }
    const nPts = nPtsAll - base;
    if (!inside || nPts < 2) {
      nPtsAll = base;
      continue;
    }
    // One brightness along the whole trail: as a frame advances, a trail keeps its pixels but for
    // its two ends, and a gif stores only the pixels that change (a fade towards the tail changed them all).
    strokeBucket[nStrokes] = colorIndex * ALPHA_LEVELS + (level - 1);
    strokeStart[nStrokes] = base;
    strokeCount[nStrokes] = nPts;
    nStrokes++;
  }

  // Rasterise the trails ourselves: stroking tens of thousands of tiny segments through the
  // canvas costs ~30 ms whatever the size, while additive splatting of a small tent kernel along
  // each segment into a float buffer costs a few ms and gives a true additive glow.
  const cw = device.width;
  const ch = device.height;
  const sx = cw / width;
  const sy = ch / height;
  const acc = lightBuffer(cw * ch * 3);
  // Kernel radius in device px. Below one device pixel the kernel keeps a 1 px radius (narrower
  // would alias) but carries only the light of the true width, so a lower pixel ratio is the same
  // picture with fewer pixels instead of brighter, wider trails.
  const trueR = p.lineWidth * sx * 0.8;
  const R = Math.max(1, trueR);
  const invR = 1 / R;
  const spacing = Math.min(1, R);
  const colors = p.palette.map(parseHex);
  const cr = colors.map((c) => c.r),
    cg = colors.map((c) => c.g),
    cb = colors.map((c) => c.b);
  // A separable tent kernel (pixel centres at +0.5): as soft as a cone at this size, without a
  // square root per pixel.
  const splat = (x: number, y: number, r: number, g2: number, b: number) => {
    if (R === 1) {
      // The usual case (thin trails): the tent is a bilinear splat over 2×2 pixels.
      const X = x - 0.5,
        Y = y - 0.5;
      const ix = Math.floor(X),
        iy = Math.floor(Y);
      if (ix >= 0 && iy >= 0 && ix + 1 < cw && iy + 1 < ch) {
        const fx = X - ix,
          fy = Y - iy;
        const w00 = (1 - fx) * (1 - fy),
          w10 = fx * (1 - fy),
          w01 = (1 - fx) * fy,
          w11 = fx * fy;
        const o = (iy * cw + ix) * 3,
          o2 = o + cw * 3;
        acc[o] += r * w00;
        acc[o + 1] += g2 * w00;
        acc[o + 2] += b * w00;
        acc[o + 3] += r * w10;
        acc[o + 4] += g2 * w10;
        acc[o + 5] += b * w10;
        acc[o2] += r * w01;
        acc[o2 + 1] += g2 * w01;
        acc[o2 + 2] += b * w01;
        acc[o2 + 3] += r * w11;
        acc[o2 + 4] += g2 * w11;
        acc[o2 + 5] += b * w11;
        return;
      }
    }
    const xa = Math.max(0, Math.ceil(x - 0.5 - R)),
      xb = Math.min(cw - 1, Math.floor(x - 0.5 + R));
    const ya = Math.max(0, Math.ceil(y - 0.5 - R)),
      yb = Math.min(ch - 1, Math.floor(y - 0.5 + R));
    for (let yy = ya; yy <= yb; yy++) {
      const wy = 1 - Math.abs(yy + 0.5 - y) * invR;
      if (wy <= 0) continue;
      const row = yy * cw;
      for (let xx = xa; xx <= xb; xx++) {
        const w = wy * (1 - Math.abs(xx + 0.5 - x) * invR);
        if (w <= 0) continue;
        const o = (row + xx) * 3;
        acc[o] += r * w;
        acc[o + 1] += g2 * w;
        acc[o + 2] += b * w;
      }
    }
  };
  for (let c = 0; c < nStrokes; c++) {
    const bucket = strokeBucket[c];
    const ci = Math.floor(bucket / ALPHA_LEVELS);
    const alpha = (((bucket % ALPHA_LEVELS) + 1) / ALPHA_LEVELS) * EXPOSURE;
    // Weight per sample so a line's peak brightness is about `alpha` times its colour.
    const k = (alpha * spacing * Math.min(1, trueR / R)) / R;
    const r = cr[ci] * k,
      g2 = cg[ci] * k,
      b = cb[ci] * k;
    const first = strokeStart[c];
    let ax = tx[first] * sx,
      ay = ty[first] * sy;
    for (let j = 1; j < strokeCount[c]; j++) {
      const bx = tx[first + j] * sx,
        by = ty[first + j] * sy;
      const segLen = Math.sqrt((bx - ax) * (bx - ax) + (by - ay) * (by - ay));
      const n = Math.max(1, Math.ceil(segLen / spacing));
      const f = segLen / spacing / n; // keeps intensity per unit length constant
      // Samples at the segment's interior points; the shared end point is drawn by the next segment.
      const rf = r * f,
        gf = g2 * f,
        bf = b * f;
      for (let q = 0; q < n; q++) {
        const t = (q + 0.5) / n;
        const x = ax + (bx - ax) * t,
          y = ay + (by - ay) * t;
        if (x < -R || y < -R || x > cw + R || y > ch + R) continue;
        splat(x, y, rf, gf, bf);
      }
      ax = bx;
      ay = by;
    }
  }

  // Additive light (the trails' and the glow's) over the background with a soft shoulder instead
  // of a hard clip.
  const glow = glowTables(cw, ch, width, height, comp, colors, p.glow * GLOW_GAIN);
  const { gx, tx: gtx, gy, ty: gty, lr, lg, lb } = glow;
  const bg = parseHex(p.background);
  const bgc = [bg.r, bg.g, bg.b];
  const TONE = 2048;
  const tone = bgc.map((b) => {
    const t = new Uint8ClampedArray(TONE);
    for (let v = 0; v < TONE; v++) t[v] = Math.round(255 - (255 - b) * dmath.exp(-v / Math.max(1, 255 - b)));
    return t;
  });
  const [t0, t1, t2] = tone;
  const d = new Uint8ClampedArray(cw * ch * 4);
  // Much of a frame is unlit background (every sum below 1 maps to tone entry 0): fill it at once,
  // four bytes at a time (copying the first pixel's bytes, so byte order does not matter), and
  // tone-map only the lit pixels. Sums are never negative, so the result is the same bytes.
  d[0] = t0[0];
  d[1] = t1[0];
  d[2] = t2[0];
  d[3] = 255;
  const d32 = new Uint32Array(d.buffer);
  d32.fill(d32[0]);
  const last = GLOW_LUT - 1;
  for (let y = 0, i = 0, o = 0; y < ch; y++) {
    const wy = gy[y],
      ty = gty[y];
    for (let x = 0; x < cw; x++, i += 3, o += 4) {
      let r = acc[i],
        g = acc[i + 1],
        b = acc[i + 2];
      const w = gx[x] * wy;
      if (w >= 1e-3) {
        const t = ty + gtx[x];
        const k = t <= 0 ? 0 : t >= 1 ? last : Math.round(t * last);
        r += lr[k] * w;
        g += lg[k] * w;
        b += lb[k] * w;
      }
      if (r < 1 && g < 1 && b < 1) continue;
      d[o] = t0[Math.min(TONE - 1, r | 0)];
      d[o + 1] = t1[Math.min(TONE - 1, g | 0)];
      d[o + 2] = t2[Math.min(TONE - 1, b | 0)];
      d[o + 3] = 255;
    }
  }
  return d;
}

const GLOW_LUT = 64;

/**
 * The soft light behind the vortex: a Gaussian around the focus, coloured along the same axis as
 * the particles. It does not move, so a gif stores it once. Separable: weights per column (gx) and
 * per row (gy), the colour axis's position likewise (tx + ty), and the colours (lr, lg, lb) along
 * it; in CSS pixels, so the pixel ratio does not change it.
 */
function glowTables(cw: number, ch: number, width: number, height: number, comp: Composition, colors: Rgb[], gain: number) {
  const n = colors.length;
  const lr = new Float64Array(GLOW_LUT),
    lg = new Float64Array(GLOW_LUT),
    lb = new Float64Array(GLOW_LUT);
  for (let i = 0; i < GLOW_LUT; i++) {
    // The palette as the particles take it (index floor(t·n)), blended across each step.
    const x = Math.max(0, Math.min(n - 1, (i / (GLOW_LUT - 1)) * n - 0.5));
    const i0 = Math.floor(x);
    const i1 = Math.min(n - 1, i0 + 1);
    const f = x - i0;
    lr[i] = (colors[i0].r + (colors[i1].r - colors[i0].r) * f) * gain;
    lg[i] = (colors[i0].g + (colors[i1].g - colors[i0].g) * f) * gain;
    lb[i] = (colors[i0].b + (colors[i1].b - colors[i0].b) * f) * gain;
  }
  const spread = comp.radius * GLOW_SPREAD;
  const s2 = 1 / (spread * spread);
  const gx = new Float64Array(cw),
    tx = new Float64Array(cw),
    gy = new Float64Array(ch),
    ty = new Float64Array(ch);
  for (let x = 0; x < cw; x++) {
    const dx = ((x + 0.5) * width) / cw - comp.fx;
    gx[x] = gain > 0 ? dmath.exp(-dx * dx * s2) : 0;
    tx[x] = dx * comp.cax;
  }
  for (let y = 0; y < ch; y++) {
    const dy = ((y + 0.5) * height) / ch - comp.fy;
    gy[y] = dmath.exp(-dy * dy * s2);
    ty[y] = 0.5 + dy * comp.cay;
  }
  return { gx, tx, gy, ty, lr, lg, lb };
}
