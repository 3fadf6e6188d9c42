// Flowing gradient: a soft mesh / aurora gradient. A few colour blobs drift on closed Lissajous
// paths (integer frequencies of 2π·loop, so the animation loops exactly) and are blended per pixel
// as a Gaussian-weighted average in OKLab, which keeps mixtures bright instead of muddy. A gentle
// looping domain warp bends the blobs into organic shapes. The field is smooth, so it is evaluated
// exactly only on a coarse grid and interpolated with cubics (within one level of evaluating every
// pixel, at a tenth of the cost); a fixed film-grain tile blended on top (overlay, by table) hides
// 8-bit banding. Every pixel is computed here in plain IEEE arithmetic, the same on every CPU, and
// handed over by pixels() without a canvas. The seed also moves and stretches the ring the blobs
// drift around, so compositions differ from seed to seed, not only their colours.
import { LOOP_DEFAULTS, type LoopParams, loopAnimation, loopParamSchema } from '../lib/animation.ts';
import { defineGenerator, type FrameInput } from '../generator.types.ts';
import { colorParam, paletteParam, parseHex } from '../lib/color.ts';
import { range, seededStream } from '../lib/random.ts';
import { type Lab, rgbToOklab } from '../lib/oklab.ts';
import { drawPixels } from '../lib/pixels.ts';
import { dmath } from '../lib/dmath.ts';

export interface FlowingGradientParams extends Record<string, unknown>, LoopParams {
  palette: string[];
  background: string;
  blobs: number;
  softness: number;
  speed: number;
  warp: number;
  grain: number;
}

const defaults: FlowingGradientParams = {
  palette: ['#ffd166', '#ef476f', '#06d6a0', '#118ab2', '#f78c6b'],
  background: '#0b1d2a',
  blobs: 5,
  softness: 0.9,
  speed: 1,
  warp: 0.5,
  // 0.035: a visible texture that keeps the 640×360 gif under 3 MB (grain is what LZW cannot pack).
  grain: 0.035,
  ...LOOP_DEFAULTS,
};

const TAU = Math.PI * 2;
/** Half-width of the smooth knee where a blob's weight saturates its coverage. */
const KNEE = 0.25;
/** Node spacing of the evaluated grid: at most this many canvas heights… */
const GRID_MAX = 1 / 16;
/** …and at most this fraction of the narrowest blob's sigma. */
const GRID_PER_SIGMA = 0.25;

interface Blob {
  lab: [number, number, number];
  cx: number;
  cy: number;
  ax: number;
  ay: number;
  mx: number;
  my: number;
  px: number;
  py: number;
  sigma: number;
  pulse: number;
}

function makeBlobs(p: FlowingGradientParams, seed: number, aspect: number): Blob[] {
  const rnd = seededStream(seed, 'flowing-gradient/blobs');
  const labs = p.palette.map((c) => rgbToOklab(parseHex(c)));
  const order = labs.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const blobs: Blob[] = [];
  // The ring: its centre moves off the middle and it stretches wider or taller, by the seed.
  const layout = seededStream(seed, 'flowing-gradient/layout');
  const ringX = 0.5 + range(layout, -0.14, 0.14);
  const ringY = 0.5 + range(layout, -0.14, 0.14);
  const stretch = range(layout, 0.7, 1.35);
  const turn = layout() * TAU;
  for (let i = 0; i < p.blobs; i++) {
    // Spread the path centres around an ellipse so blobs share the canvas evenly.
    const a = (i / p.blobs) * TAU + range(rnd, -0.4, 0.4) + turn;
    const rr = range(rnd, 0.2, 0.38);
    blobs.push({
      lab: labs[order[i % order.length]],
      cx: ringX * aspect + dmath.cos(a) * rr * stretch * aspect,
      cy: ringY + (dmath.sin(a) * rr) / stretch,
      ax: range(rnd, 0.12, 0.3) * aspect,
      ay: range(rnd, 0.1, 0.25),
      mx: rnd() < 0.5 ? 1 : -1,
      my: rnd() < 0.3 ? 2 : rnd() < 0.5 ? 1 : -1,
      px: rnd() * TAU,
      py: rnd() * TAU,
      sigma: p.softness * range(rnd, 0.26, 0.38),
      pulse: rnd() * TAU,
    });
  }
  // Re-centre so the blobs' mean position at the loop's start is the ring's centre: the random
  // Lissajous phases otherwise leave one side of the frame empty.
  let mx = 0,
    my = 0;
  for (const b of blobs) {
    mx += b.cx + b.ax * dmath.sin(b.px);
    my += b.cy + b.ay * dmath.sin(b.py);
  }
  mx /= blobs.length;
  my /= blobs.length;
  for (const b of blobs) {
    b.cx += ringX * aspect - mx;
    b.cy += (ringY - my) * 0.5;
  }
  return blobs;
}

/** The frame's field: blob positions and weights, warp, base colour (units: canvas height = 1). */
interface Frame {
  n: number;
  bx: Float64Array;
  by: Float64Array;
  inv: Float64Array;
  amp: Float64Array;
  labs: Float64Array;
  bg: Lab;
  warp: number;
  wf1: number;
  wf2: number;
  wp1: number;
  wp2: number;
  ph: number;
  minSigma: number;
}

function frameField(p: FlowingGradientParams, seed: number, loop: number, aspect: number): Frame {
  const blobs = makeBlobs(p, seed, aspect);
  // The fraction of the loop, so the last frame's next (loop = 1) is exactly frame 0.
  const turn = loop * p.speed;
  const ph = TAU * (turn - Math.floor(turn));
  const n = blobs.length;
  const f: Frame = {
    n,
    bx: new Float64Array(n),
    by: new Float64Array(n),
    inv: new Float64Array(n),
    amp: new Float64Array(n),
    labs: new Float64Array(n * 3),
    bg: rgbToOklab(parseHex(p.background)),
    warp: p.warp * 0.12,
    wf1: 0,
    wf2: 0,
    wp1: 0,
    wp2: 0,
    ph,
    minSigma: Infinity,
  };
  blobs.forEach((b, i) => {
    f.bx[i] = b.cx + b.ax * dmath.sin(b.mx * ph + b.px);
    f.by[i] = b.cy + b.ay * dmath.sin(b.my * ph + b.py);
    f.inv[i] = 1 / (2 * b.sigma * b.sigma);
    f.amp[i] = 1 + 0.25 * dmath.sin(ph + b.pulse);
    f.labs.set(b.lab, i * 3);
    f.minSigma = Math.min(f.minSigma, b.sigma);
  });
  const wr = seededStream(seed, 'flowing-gradient/warp');
  f.wf1 = range(wr, 2, 3.5);
  f.wf2 = range(wr, 2, 3.5);
  f.wp1 = wr() * TAU;
  f.wp2 = wr() * TAU;
  return f;
}

/** Linear-light [0, 1] -> sRGB 0..255, unrounded. */
const gammaEncode = (v: number) => (v <= 0 ? 0 : v >= 1 ? 255 : 255 * (v <= 0.0031308 ? 12.92 * v : 1.055 * dmath.pow(v, 1 / 2.4) - 0.055));

/**
 * The field's colour at (u0, v0) as sRGB 0..255 floats into out[o..o+2]. Blob colours: weighted
 * mean with squared weights (keeps each colour vivid near its centre); coverage: how much of the
 * base colour the blobs hide together; a looping domain warp bends the blobs.
 */
function fieldColor(f: Frame, u0: number, v0: number, out: Float64Array, o: number): void {
  const u = u0 + f.warp * dmath.sin(f.wf1 * v0 + f.ph + f.wp1);
  const v = v0 + f.warp * dmath.sin(f.wf2 * u0 - f.ph + f.wp2);
  let sw = 1e-9,
    L = 0,
    A = 0,
    B = 0,
    clear = 1;
  for (let i = 0; i < f.n; i++) {
    const dx = u - f.bx[i],
      dy = v - f.by[i];
    const w = f.amp[i] * dmath.exp(-(dx * dx + dy * dy) * f.inv[i]);
    const w2 = w * w;
    sw += w2;
    L += f.labs[i * 3] * w2;
    A += f.labs[i * 3 + 1] * w2;
    B += f.labs[i * 3 + 2] * w2;
    // A blob hides the base fully from w = 1 on, through a smooth knee (a hard clamp draws a ring).
    clear *= 1 - (w < 1 - KNEE ? w : w < 1 + KNEE ? w - ((w - 1 + KNEE) * (w - 1 + KNEE)) / (4 * KNEE) : 1);
  }
  const cov = 1 - clear;
  const bg = f.bg;
  L = bg[0] + (L / sw - bg[0]) * cov;
  A = bg[1] + (A / sw - bg[1]) * cov;
  B = bg[2] + (B / sw - bg[2]) * cov;
  // OKLab -> linear sRGB (as lib/oklab.ts; cubes as products, not Math.pow).
  const l1 = L + 0.3963377774 * A + 0.2158037573 * B;
  const m1 = L - 0.1055613458 * A - 0.0638541728 * B;
  const s1 = L - 0.0894841775 * A - 1.291485548 * B;
  const l_ = l1 * l1 * l1,
    m_ = m1 * m1 * m1,
    s_ = s1 * s1 * s1;
  out[o] = gammaEncode(4.0767416621 * l_ - 3.3077115913 * m_ + 0.2309699292 * s_);
  out[o + 1] = gammaEncode(-1.2684380046 * l_ + 2.6097574011 * m_ - 0.3413193965 * s_);
  out[o + 2] = gammaEncode(-0.0041960863 * l_ - 0.7034186147 * m_ + 1.707614701 * s_);
}

/** Catmull-Rom weights of the four nodes around fraction t. */
function cubicWeights(t: number, w: Float64Array): void {
  const t2 = t * t,
    t3 = t2 * t;
  w[0] = 0.5 * (-t3 + 2 * t2 - t);
  w[1] = 0.5 * (3 * t3 - 5 * t2 + 2);
  w[2] = 0.5 * (-3 * t3 + 4 * t2 + t);
  w[3] = 0.5 * (t3 - t2);
}

const GRAIN_TILE = 128;
let grainCache: { seed: number; tile: Uint8Array } | undefined;
/** A tile of mid-grey noise for the grain overlay (the same for every frame of a seed). */
function grainTile(seed: number): Uint8Array {
  if (grainCache?.seed === seed) return grainCache.tile;
  const rnd = seededStream(seed, 'flowing-gradient/grain');
  const tile = new Uint8Array(GRAIN_TILE * GRAIN_TILE);
  for (let i = 0; i < tile.length; i++) tile[i] = Math.round((rnd() + rnd()) * 127.5);
  grainCache = { seed, tile };
  return tile;
}

let overlayCache: { alpha: number; lut: Uint8Array } | undefined;
/** Overlay blend of grain value g over channel value c at `alpha`, by table: lut[g << 8 | c]. */
function overlayLut(alpha: number): Uint8Array {
  if (overlayCache?.alpha === alpha) return overlayCache.lut;
  const lut = new Uint8Array(256 * 256);
  for (let g = 0; g < 256; g++) {
    for (let c = 0; c < 256; c++) {
      const o = c < 128 ? (2 * c * g) / 255 : 255 - (2 * (255 - c) * (255 - g)) / 255;
      lut[(g << 8) | c] = Math.round(c + (o - c) * alpha);
    }
  }
  overlayCache = { alpha, lut };
  return lut;
}

/** A channel value rounded to a byte index (for the grain table). */
const byte = (v: number) => (v <= 0 ? 0 : v >= 255 ? 255 : (v + 0.5) | 0);

/**
 * The frame as opaque RGBA. The field is smooth, so it is evaluated exactly only on a coarse grid of
 * nodes (a fraction of its narrowest blob apart) and interpolated with Catmull-Rom cubics: down each
 * node column for a pixel row, then along the row by forward differences (three additions a channel
 * a pixel). `exact` evaluates every pixel instead (the reference the tests compare with).
 */
export function flowingGradientPixels(
  input: FrameInput<FlowingGradientParams>,
  device: { width: number; height: number },
  exact = false,
): Uint8ClampedArray {
  const { params: p, seed, loop } = input;
  const cw = device.width;
  const ch = device.height;
  const f = frameField(p, seed, loop, cw / ch);
  const out = new Uint8ClampedArray(cw * ch * 4);
  // Grain: a tile of device pixels repeated from the top-left corner, blended by table.
  const grain = p.grain > 0 ? grainTile(seed) : undefined;
  const lut = overlayLut(Math.min(1, p.grain * 2));

  if (exact) {
    const rgb = new Float64Array(3);
    for (let y = 0, o = 0; y < ch; y++) {
      for (let x = 0; x < cw; x++, o += 4) {
        fieldColor(f, (x + 0.5) / ch, (y + 0.5) / ch, rgb, 0);
        const g = grain ? grain[(y % GRAIN_TILE) * GRAIN_TILE + (x % GRAIN_TILE)] << 8 : -1;
        for (let c = 0; c < 3; c++) out[o + c] = g < 0 ? rgb[c] : lut[g | byte(rgb[c])];
        out[o + 3] = 255;
      }
    }
    return out;
  }

  // Nodes every `h` canvas heights, one beyond each edge for the cubic's outer taps.
  const h = Math.min(GRID_MAX, f.minSigma * GRID_PER_SIGMA);
  const cols = Math.ceil(cw / ch / h) + 3;
  const rows = Math.ceil(1 / h) + 3;
  const nodes = new Float64Array(cols * rows * 3);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) fieldColor(f, (c - 1) * h, (r - 1) * h, nodes, (r * cols + c) * 3);

  const wy = new Float64Array(4);
  const col = new Float64Array(cols * 3); // the node columns interpolated to this row
  // Per span and channel: value and first, second and third forward differences.
  const fd = new Float64Array(12);
  const s = 1 / (ch * h); // node units per pixel
  for (let y = 0; y < ch; y++) {
    const ry = (y + 0.5) * s + 1;
    const j = Math.floor(ry);
    cubicWeights(ry - j, wy);
    const r0 = (j - 1) * cols * 3,
      r1 = j * cols * 3,
      r2 = (j + 1) * cols * 3,
      r3 = (j + 2) * cols * 3;
    for (let k = 0; k < cols * 3; k++)
      col[k] = wy[0] * nodes[r0 + k] + wy[1] * nodes[r1 + k] + wy[2] * nodes[r2 + k] + wy[3] * nodes[r3 + k];
    const grainRow = (y % GRAIN_TILE) * GRAIN_TILE;
    let x = 0;
    let o = y * cw * 4;
    while (x < cw) {
      // The span between node columns i and i + 1: a cubic in x per channel (Catmull-Rom).
      const rx = (x + 0.5) * s + 1;
      const i = Math.floor(rx);
      const end = Math.max(x + 1, Math.min(cw, Math.ceil(i / s - 0.5)));
      const t = rx - i;
      for (let c = 0; c < 3; c++) {
        const p0 = col[(i - 1) * 3 + c],
          p1 = col[i * 3 + c],
          p2 = col[(i + 1) * 3 + c],
          p3 = col[(i + 2) * 3 + c];
        const b = 0.5 * (p2 - p0),
          c2 = p0 - 2.5 * p1 + 2 * p2 - 0.5 * p3,
          d = 0.5 * (p3 - p0) + 1.5 * (p1 - p2);
        fd[c * 4] = p1 + t * (b + t * (c2 + t * d));
        fd[c * 4 + 1] = b * s + c2 * s * (2 * t + s) + d * s * (3 * t * t + 3 * t * s + s * s);
        fd[c * 4 + 2] = 2 * c2 * s * s + 6 * d * s * s * (t + s);
        fd[c * 4 + 3] = 6 * d * s * s * s;
      }
      let rv = fd[0],
        r1d = fd[1],
        r2d = fd[2];
      let gv = fd[4],
        g1d = fd[5],
        g2d = fd[6];
      let bv = fd[8],
        b1d = fd[9],
        b2d = fd[10];
      const r3d = fd[3],
        g3d = fd[7],
        b3d = fd[11];
      if (grain) {
        for (; x < end; x++, o += 4) {
          const g = grain[grainRow + (x % GRAIN_TILE)] << 8;
          out[o] = lut[g | byte(rv)];
          out[o + 1] = lut[g | byte(gv)];
          out[o + 2] = lut[g | byte(bv)];
          out[o + 3] = 255;
          rv += r1d;
          r1d += r2d;
          r2d += r3d;
          gv += g1d;
          g1d += g2d;
          g2d += g3d;
          bv += b1d;
          b1d += b2d;
          b2d += b3d;
        }
      } else {
        for (; x < end; x++, o += 4) {
          out[o] = rv;
          out[o + 1] = gv;
          out[o + 2] = bv;
          out[o + 3] = 255;
          rv += r1d;
          r1d += r2d;
          r2d += r3d;
          gv += g1d;
          g1d += g2d;
          g2d += g3d;
          bv += b1d;
          b1d += b2d;
          b2d += b3d;
        }
      }
    }
  }
  return out;
}

export default defineGenerator<FlowingGradientParams>({
  slug: 'flowing-gradient',
  name: 'Flowing gradient',
  description: 'A soft mesh / aurora gradient: blurred colour blobs drifting on closed paths, blended smoothly; loops seamlessly.',
  version: '1.3.0',
  animated: true,
  formats: ['gif', 'mp4', 'png', 'webp', 'jpeg'],
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      palette: paletteParam('Palette', 'Colours of the drifting blobs.', defaults.palette),
      background: colorParam('Base colour', 'Colour the blobs fade into where none of them reaches.', defaults.background),
      blobs: { type: 'integer', title: 'Blobs', description: 'Number of colour blobs.', minimum: 2, maximum: 8, default: defaults.blobs },
      softness: {
        type: 'number',
        title: 'Softness',
        description: 'Size of the blobs; larger values blend the colours more.',
        minimum: 0.3,
        maximum: 1.5,
        default: defaults.softness,
      },
      speed: {
        type: 'integer',
        title: 'Speed',
        description: 'How many times the blobs travel their path during one loop.',
        minimum: 1,
        maximum: 4,
        default: defaults.speed,
      },
      warp: {
        type: 'number',
        title: 'Warp',
        description: 'How much the flow bends the blobs into wavy, aurora-like shapes (0 = round blobs).',
        minimum: 0,
        maximum: 1,
        default: defaults.warp,
      },
      grain: {
        type: 'number',
        title: 'Grain',
        description: 'Strength of the film-grain texture (0 = perfectly smooth).',
        minimum: 0,
        maximum: 0.25,
        default: defaults.grain,
      },
      ...loopParamSchema(defaults),
    },
  },

  animation: loopAnimation,

  pixels: (input, device) => flowingGradientPixels(input, device),
  draw: drawPixels((input, device) => flowingGradientPixels(input, device)),
});
