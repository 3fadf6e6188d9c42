// Particle flow: particles advected through a looping curl-noise field, with fading trails.
//
// Frames are rendered independently, so nothing is accumulated on the canvas. Instead each
// particle's path is recomputed from scratch every frame:
//   - the field is v(p, t) = V0(p) + cos(2πt)·V1(p) + sin(2πt)·V2(p), three divergence-free (curl)
//     fields of seeded simplex noise sampled on a grid; t is measured in loops, so v is periodic;
//   - time runs on a global step clock of S = lifetimes × L steps per loop. Particle i is (re)born
//     every L steps at a seeded offset; its spawn point depends on (i, life mod lifetimes), so the
//     whole system repeats exactly after one loop;
//   - a frame integrates each particle from its birth to "now" (at most L steps) and strokes the last
//     `trail` steps of that path, fading towards the tail. Particles fade in at birth and out before
//     they respawn, so nothing pops.
import { LOOP_DEFAULTS, type LoopParams, loopAnimation, loopParamSchema } from '../lib/1dac23a/animation.ts';
import { defineGenerator, type FrameInput } from '../../generator.types.ts';
import { drawPixels } from '../lib/1dac23a/pixels.ts';
import { colorParam, paletteParam, parseHex } from '../lib/1dac23a/color.ts';
import { noise2D } from '../lib/1dac23a/noise.ts';
import { subRandom } from '../lib/3e3ef4b/random.ts';

export interface ParticleFlowParams extends Record<string, unknown>, LoopParams {
  particles: number;
  trail: number;
  speed: number;
  scale: number;
  lifetimes: number;
  lineWidth: number;
  palette: string[];
  background: string;
}

const defaults: ParticleFlowParams = {
  particles: 1200,
  trail: 20,
  speed: 1,
  scale: 1.5,
  lifetimes: 2,
  lineWidth: 1.2,
  palette: ['#f72585', '#b5179e', '#7209b7', '#4361ee', '#4cc9f0'],
  background: '#08071a',
  ...LOOP_DEFAULTS,
};

/** Integration steps in one particle life. */
const LIFE_STEPS = 64;
const TRAIL_CHUNKS = 4;
const ALPHA_LEVELS = 8;
const TAU = Math.PI * 2;

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

/** Three curl-noise velocity fields on a grid covering the canvas plus a margin. */
function buildField(seed: number, width: number, height: number, scale: number, margin: number): Field {
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
  for (let j = 0; j < 3; j++) {
    const n = noise2D(seed, `particle-flow/field${j}`);
    const n2 = noise2D(seed, `particle-flow/detail${j}`);
    // Potential on nodes extended by one on each side for central differences.
    const pw = gw + 2;
    const psi = new Float64Array(pw * (gh + 2));
    for (let y = 0; y < gh + 2; y++) {
      for (let x = 0; x < pw; x++) {
        const fx = (x0 + (x - 1) * cell) * freq;
        const fy = (y0 + (y - 1) * cell) * freq;
        psi[y * pw + x] = n(fx, fy) + 0.35 * n2(fx * 2.3, fy * 2.3);
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
  description: 'Glowing particles drifting through a slowly changing curl-noise flow, drawing fading trails; loops seamlessly.',
  version: '1.0.0',
  animated: true,
  formats: ['gif', 'mp4', 'png', 'webp'],
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
      palette: paletteParam('Palette', 'Particle colours; each particle keeps one.', defaults.palette),
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
  const f = buildField(seed, width, height, p.scale, margin * 2);
  const { gw, gh, cell, x0, y0, vx, vy } = f;
  const [vx0, vx1, vx2] = vx;
  const [vy0, vy1, vy2] = vy;
  const S = LIFE_STEPS * p.lifetimes;
  const cosT = new Float64Array(S);
  const sinT = new Float64Array(S);
  for (let k = 0; k < S; k++) {
    cosT[k] = Math.cos((TAU * k) / S);
    sinT[k] = Math.sin((TAU * k) / S);
  }

  const rnd = subRandom(seed, 'particle-flow/particles');
  const nColors = p.palette.length;
  const px = new Float64Array(LIFE_STEPS + 2);
  const py = new Float64Array(LIFE_STEPS + 2);
  // Trail points of all particles, and the chunks (bucket, first point, point count) to stroke.
  const maxPts = p.particles * (p.trail + 2);
  const tx = new Float32Array(maxPts);
  const ty = new Float32Array(maxPts);
  let nPtsAll = 0;
  const chunkBucket = new Int32Array(p.particles * TRAIL_CHUNKS);
  const chunkStart = new Int32Array(p.particles * TRAIL_CHUNKS);
  const chunkCount = new Int32Array(p.particles * TRAIL_CHUNKS);
  let nChunks = 0;
  const g = loop * S;
  const spanW = width + 2 * margin;
  const spanH = height + 2 * margin;

  for (let i = 0; i < p.particles; i++) {
    const birth = Math.floor(rnd() * LIFE_STEPS);
    const colorIndex = Math.floor(rnd() * nColors) % nColors;
    const q = g - birth;
    const life = Math.floor(q / LIFE_STEPS);
    const age = q - life * LIFE_STEPS; // 0 <= age < LIFE_STEPS
    const fade = smooth(0, 0.15, age / LIFE_STEPS) * smooth(1, 0.75, age / LIFE_STEPS);
    if (fade * ALPHA_LEVELS < 0.5 / TRAIL_CHUNKS) continue; // invisible: skip the integration too
    const key = ((life % p.lifetimes) + p.lifetimes) % p.lifetimes;
    let x = cellHash(seed, i, key * 2) * spanW - margin;
    let y = cellHash(seed, i, key * 2 + 1) * spanH - margin;
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
    // Split into chunks that brighten towards the head (a full trail fades to ~1/4 at its tail).
    for (let c = 0; c < TRAIL_CHUNKS; c++) {
      const a0 = Math.floor(((nPts - 1) * c) / TRAIL_CHUNKS);
      const a1 = Math.floor(((nPts - 1) * (c + 1)) / TRAIL_CHUNKS);
      if (a1 <= a0) continue;
      const level = Math.round(fade * ((c + 1) / TRAIL_CHUNKS) * ALPHA_LEVELS);
      if (level <= 0) continue;
      chunkBucket[nChunks] = colorIndex * ALPHA_LEVELS + (level - 1);
      chunkStart[nChunks] = base + a0;
      chunkCount[nChunks] = a1 - a0 + 1;
      nChunks++;
    }
  }

  // Rasterise the trails ourselves: stroking tens of thousands of tiny segments through the
  // canvas costs ~30 ms whatever the size, while additive splatting of a small cone kernel along
  // each segment into a float buffer costs a few ms and gives a true additive glow.
  const cw = device.width;
  const ch = device.height;
  const sx = cw / width;
  const sy = ch / height;
  const acc = lightBuffer(cw * ch * 3);
  const R = Math.max(1, p.lineWidth * sx * 0.85); // kernel radius in device px
  const invR = 1 / R;
  const spacing = Math.min(0.8, R * 0.6);
  const colors = p.palette.map(parseHex);
  const cr = colors.map((c) => c.r),
    cg = colors.map((c) => c.g),
    cb = colors.map((c) => c.b);
  const splat = (x: number, y: number, r: number, g2: number, b: number) => {
    const xa = Math.max(0, Math.ceil(x - R)),
      xb = Math.min(cw - 1, Math.floor(x + R));
    const ya = Math.max(0, Math.ceil(y - R)),
      yb = Math.min(ch - 1, Math.floor(y + R));
    for (let yy = ya; yy <= yb; yy++) {
      const dy = yy + 0.5 - y;
      const row = yy * cw;
      for (let xx = xa; xx <= xb; xx++) {
        const dx = xx + 0.5 - x;
        const d2 = dx * dx + dy * dy;
        if (d2 >= R * R) continue;
        const w = 1 - Math.sqrt(d2) * invR;
        const o = (row + xx) * 3;
        acc[o] += r * w;
        acc[o + 1] += g2 * w;
        acc[o + 2] += b * w;
      }
    }
  };
  for (let c = 0; c < nChunks; c++) {
    const bucket = chunkBucket[c];
    const ci = Math.floor(bucket / ALPHA_LEVELS);
    const alpha = (((bucket % ALPHA_LEVELS) + 1) / ALPHA_LEVELS) * 0.9;
    // Weight per sample so a line's peak brightness is about `alpha` times its colour.
    const k = (alpha * spacing) / R;
    const r = cr[ci] * k,
      g2 = cg[ci] * k,
      b = cb[ci] * k;
    const first = chunkStart[c];
    let ax = tx[first] * sx,
      ay = ty[first] * sy;
    for (let j = 1; j < chunkCount[c]; j++) {
      const bx = tx[first + j] * sx,
        by = ty[first + j] * sy;
      const segLen = Math.hypot(bx - ax, by - ay);
      const n = Math.max(1, Math.ceil(segLen / spacing));
      const f = segLen / spacing / n; // keeps intensity per unit length constant
      // Samples at the segment's interior points; the shared end point is drawn by the next segment.
      for (let q = 0; q < n; q++) {
        const t = (q + 0.5) / n;
        const x = ax + (bx - ax) * t,
          y = ay + (by - ay) * t;
        if (x < -R || y < -R || x > cw + R || y > ch + R) continue;
        splat(x, y, r * f, g2 * f, b * f);
      }
      ax = bx;
      ay = by;
    }
  }

  // Additive light over the background with a soft shoulder instead of a hard clip.
  const bg = parseHex(p.background);
  const bgc = [bg.r, bg.g, bg.b];
  const TONE = 2048;
  const tone = bgc.map((b) => {
    const t = new Uint8ClampedArray(TONE);
    for (let v = 0; v < TONE; v++) t[v] = Math.round(255 - (255 - b) * Math.exp(-v / Math.max(1, 255 - b)));
    return t;
  });
  const [t0, t1, t2] = tone;
  const d = new Uint8ClampedArray(cw * ch * 4);
  // Most of a frame is unlit background (every sum below 1 maps to tone entry 0): fill it at once,
  // four bytes at a time (copying the first pixel's bytes, so byte order does not matter), and
  // tone-map only the lit pixels. Sums are never negative, so the result is the same bytes.
  d[0] = t0[0];
  d[1] = t1[0];
  d[2] = t2[0];
  d[3] = 255;
  const d32 = new Uint32Array(d.buffer);
  d32.fill(d32[0]);
  for (let i = 0, o = 0; i < acc.length; i += 3, o += 4) {
    if (acc[i] < 1 && acc[i + 1] < 1 && acc[i + 2] < 1) continue;
    d[o] = t0[Math.min(TONE - 1, acc[i] | 0)];
    d[o + 1] = t1[Math.min(TONE - 1, acc[i + 1] | 0)];
    d[o + 2] = t2[Math.min(TONE - 1, acc[i + 2] | 0)];
    d[o + 3] = 255;
  }
  return d;
}
