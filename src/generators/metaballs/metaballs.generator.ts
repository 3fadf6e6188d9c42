// Metaballs: soft blobs that drift, merge and split like a lava lamp. Each ball adds r²/d² to a
// field; the blobs are where the field passes 1, coloured by a blend of the balls' own colours
// weighted by their share of the field, with an anti-aliased edge, a lighter core and a faint glow
// around. Every ball moves on a closed Lissajous path with whole-number frequencies, so the loop
// is seamless. The balls' homes spiral out evenly from the centre (balanced around it), and their
// paths keep to the room the canvas leaves them: whatever its shape, no blob touches an edge.
// The field is computed on a coarse grid of nodes (every 1–4 device pixels, finer for small balls)
// and interpolated; the colour of every pixel is computed here.
import { LOOP_DEFAULTS, type LoopParams, loopAnimation, loopParamSchema } from '../lib/animation.ts';
import { defineGenerator, type FrameInput } from '../generator.types.ts';
import { colorParam, paletteParam, parseHex } from '../lib/color.ts';
import { drawPixels } from '../lib/pixels.ts';
import { goldenSpread, range, seededStream } from '../lib/random.ts';
import { dmath } from '../lib/dmath.ts';

export interface MetaballsParams extends Record<string, unknown>, LoopParams {
  balls: number;
  size: number;
  glow: number;
  palette: string[];
  background: string;
  backgroundBottom: string;
}

const defaults: MetaballsParams = {
  balls: 8,
  size: 1,
  glow: 0.5,
  palette: ['#ff4d6d', '#ff9e00', '#c77dff', '#48cae4'],
  background: '#1b1036',
  backgroundBottom: '#3a0f3f',
  ...LOOP_DEFAULTS,
};

const TAU = Math.PI * 2;
const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));
/** A ball's centre keeps this many of its (largest) radii from every edge. */
const EDGE = 1.45;
/** Largest field allowed on the canvas edge over the loop: a lone ball's body then stays ⅓ of its radius clear. */
const EDGE_FIELD = 0.55;
/** How far out the homes spiral, as a share of each ball's room. */
const HOME_SPREAD = 0.5;
/** Paths are drawn in to no less than this share of their size before the balls are made smaller. */
const MIN_PATH = 0.35;
/** Times over the loop at which the edge is checked. */
const EDGE_SAMPLES = 48;

interface Ball {
  /** Home, relative to the canvas centre, and the Lissajous amplitudes, in CSS pixels. */
  hx: number;
  hy: number;
  ax: number;
  ay: number;
  fx: number;
  fy: number;
  px: number;
  py: number;
  /** Radius in CSS pixels, before the pulse. */
  r: number;
  pulse: number;
  pf: number;
  pp: number;
  color: number;
}

/** Where a ball is at `phase` (radians of the loop), relative to the canvas centre, and its radius. */
function position(b: Ball, phase: number): [number, number, number] {
  return [
    b.hx + b.ax * dmath.sin(b.fx * phase + b.px),
    b.hy + b.ay * dmath.sin(b.fy * phase + b.py),
    b.r * (1 + b.pulse * dmath.sin(b.pf * phase + b.pp)),
  ];
}

/**
 * The balls and their paths on a width × height canvas (CSS pixels, so every pixel ratio gets the
 * same layout). Fewer balls are drawn a little larger so the picture stays full.
 */
function buildBalls(seed: number, count: number, paletteSize: number, size: number, width: number, height: number): Ball[] {
  const rnd = seededStream(seed, 'metaballs/balls');
  const S = Math.min(width, height);
  // A squarer canvas has less room around the blobs than a 16:9 one: they are drawn a little smaller.
  const crowd = Math.min(1, dmath.pow(Math.max(width, height) / S / (16 / 9), 0.3));
  const grow = size * crowd * Math.sqrt(8 / Math.max(4, count));
  // The spiral's turn follows the golden-ratio sequence, so nearby seeds arrange the colours apart.
  const turn = goldenSpread(seed, 'metaballs/turn') * TAU;
  const balls: Ball[] = [];
  for (let i = 0; i < count; i++) {
    const r = S * range(rnd, 0.07, 0.13) * grow;
    const pulse = range(rnd, 0.05, 0.18);
    // Room for the centre on each side of the canvas centre, keeping EDGE radii from the edges.
    const roomX = Math.max(0, width / 2 - EDGE * r * (1 + pulse));
    const roomY = Math.max(0, height / 2 - EDGE * r * (1 + pulse));
    // Vogel's sunflower spiral: even spacing, balanced around the centre.
    const rho = Math.sqrt((i + 0.5) / count) * HOME_SPREAD;
    const a = turn + i * GOLDEN_ANGLE;
    const hx = rho * dmath.cos(a) * roomX;
    const hy = rho * dmath.sin(a) * roomY;
    balls.push({
      hx,
      hy,
      ax: (roomX - Math.abs(hx)) * range(rnd, 0.4, 0.85),
      ay: (roomY - Math.abs(hy)) * range(rnd, 0.4, 0.85),
      fx: 1 + Math.floor(rnd() * 2),
      fy: 1 + Math.floor(rnd() * 2),
      px: rnd() * TAU,
      py: rnd() * TAU,
      r,
      pulse,
      pf: 1 + Math.floor(rnd() * 2),
      pp: rnd() * TAU,
      color: i % paletteSize,
    });
  }
  // The homes' centre of mass (by area) on the canvas centre: paths average to their homes, so
  // over the loop the picture is balanced.
  let mx = 0,
    my = 0,
    mw = 0;
  for (const b of balls) {
    mx += b.hx * b.r * b.r;
    my += b.hy * b.r * b.r;
    mw += b.r * b.r;
  }
  for (const b of balls) {
    b.hx -= mx / mw;
    b.hy -= my / mw;
  }
  fitToEdges(balls, width, height);
  return balls;
}

/**
 * Merged blobs reach further than one ball: draws the paths in (down to MIN_PATH of their size),
 * then if need be the balls smaller (large sizes, many balls), until the field on the edge stays
 * under EDGE_FIELD over the whole loop. The field is checked at the points of each edge nearest
 * each ball, where it peaks.
 */
function fitToEdges(balls: Ball[], width: number, height: number): void {
  const n = balls.length;
  const xs = new Float64Array(n),
    ys = new Float64Array(n),
    r2 = new Float64Array(n);
  const hw = width / 2,
    hh = height / 2;
  const field = (x: number, y: number) => {
    let f = 0;
    for (let j = 0; j < n; j++) f += r2[j] / ((x - xs[j]) * (x - xs[j]) + (y - ys[j]) * (y - ys[j]) + 1e-9);
    return f;
  };
  const clear = () => {
    for (let s = 0; s < EDGE_SAMPLES; s++) {
      const phase = (TAU * s) / EDGE_SAMPLES;
      for (let j = 0; j < n; j++) {
        const [x, y, r] = position(balls[j], phase);
        xs[j] = x;
        ys[j] = y;
        r2[j] = r * r;
      }
      for (let j = 0; j < n; j++) {
        const x = Math.max(-hw, Math.min(hw, xs[j])),
          y = Math.max(-hh, Math.min(hh, ys[j]));
        if (Math.max(field(-hw, y), field(hw, y), field(x, -hh), field(x, hh)) > EDGE_FIELD) return false;
      }
    }
    return true;
  };
  let path = 1;
  for (let attempt = 0; attempt < 40 && !clear(); attempt++) {
    const drawIn = path > MIN_PATH;
    if (drawIn) path *= 0.9;
    for (const b of balls) {
      if (drawIn) {
        b.hx *= 0.9;
        b.hy *= 0.9;
        b.ax *= 0.9;
        b.ay *= 0.9;
      } else b.r *= 0.92;
    }
  }
}

export default defineGenerator<MetaballsParams>({
  slug: 'metaballs',
  name: 'Metaballs',
  description:
    'Glossy blobs drifting, merging and splitting like a lava lamp around the middle of the frame, never cut by its edges, their colours blending where they meet; loops seamlessly.',
  version: '1.1.0',
  animated: true,
  formats: ['gif', 'mp4', 'png', 'webp', 'jpeg'],
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      balls: {
        type: 'integer',
        title: 'Balls',
        description: 'Number of blobs.',
        minimum: 2,
        maximum: 16,
        default: defaults.balls,
      },
      size: {
        type: 'number',
        title: 'Size',
        description: 'Size of the blobs, relative to the default; blobs too big to move inside the canvas are drawn smaller.',
        minimum: 0.4,
        maximum: 2,
        default: defaults.size,
      },
      glow: {
        type: 'number',
        title: 'Glow',
        description: 'Strength of the soft glow around the blobs (0 = none).',
        minimum: 0,
        maximum: 1,
        default: defaults.glow,
      },
      palette: paletteParam('Palette', 'Blob colours; each blob keeps one and they blend where blobs merge.', defaults.palette),
      background: colorParam('Background top', 'Colour of the background at the top.', defaults.background),
      backgroundBottom: colorParam('Background bottom', 'Colour of the background at the bottom.', defaults.backgroundBottom),
      ...loopParamSchema(defaults),
    },
  },

  animation: loopAnimation,

  pixels: metaballsPixels,
  draw: drawPixels(metaballsPixels),
});

/** The last layout built: every frame of a clip has the same one, and fitting it to the edges takes a few ms. */
let lastLayout: { key: string; balls: readonly Ball[] } | undefined;
function layout(seed: number, count: number, paletteSize: number, size: number, width: number, height: number): readonly Ball[] {
  const key = `${seed}/${count}/${paletteSize}/${size}/${width}/${height}`;
  if (lastLayout?.key !== key) lastLayout = { key, balls: buildBalls(seed, count, paletteSize, size, width, height) };
  return lastLayout.balls;
}

function metaballsPixels(input: FrameInput<MetaballsParams>, device: { width: number; height: number }): Uint8ClampedArray {
  const { params: p, seed, loop, width, height } = input;
  const cw = device.width;
  const ch = device.height;
  const sx = cw / width,
    sy = ch / height;
  const phase = TAU * loop;
  const pal = p.palette.map(parseHex);
  const balls = layout(seed, p.balls, pal.length, p.size, width, height);
  const n = balls.length;

  // Ball centres and radii in device pixels.
  const bx = new Float64Array(n),
    by = new Float64Array(n),
    r2 = new Float64Array(n);
  let rMean = 0,
    rMin = Infinity;
  for (let k = 0; k < n; k++) {
    const [x, y, r] = position(balls[k], phase);
    bx[k] = (width / 2 + x) * sx;
    by[k] = (height / 2 + y) * sy;
    const rd = r * sx;
    r2[k] = rd * rd;
    rMean += rd / n;
    rMin = Math.min(rMin, rd);
  }
  // The field is smooth, so it is computed on nodes every `step` device pixels and interpolated in
  // between (an edge moves by under a quarter of a pixel: about 3·step²/8r); the shading below runs on
  // every pixel, so edges stay crisp.
  const step = Math.max(1, Math.min(4, Math.floor(rMin / 6)));
  const gw = Math.ceil(cw / step) + 1;
  const gh = Math.ceil(ch / step) + 1;
  // Per ball: dx² per node column and dy² per node row, in device pixels (nodes at pixel centres).
  const dx2 = new Float64Array(n * gw);
  const dy2 = new Float64Array(n * gh);
  for (let k = 0; k < n; k++) {
    for (let i = 0; i < gw; i++) dx2[k * gw + i] = (i * step + 0.5 - bx[k]) * (i * step + 0.5 - bx[k]);
    for (let j = 0; j < gh; j++) dy2[k * gh + j] = (j * step + 0.5 - by[k]) * (j * step + 0.5 - by[k]);
  }
  const cr = new Float64Array(n),
    cg = new Float64Array(n),
    cb = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const c = pal[balls[k].color];
    cr[k] = c.r;
    cg[k] = c.g;
    cb[k] = c.b;
  }
  // Field and field-weighted colour at the nodes, ball by ball along each node row.
  const F = new Float64Array(gw * gh),
    FR = new Float64Array(gw * gh),
    FG = new Float64Array(gw * gh),
    FB = new Float64Array(gw * gh);
  for (let j = 0; j < gh; j++) {
    const row = j * gw;
    for (let k = 0; k < n; k++) {
      const dy = dy2[k * gh + j] + 1;
      const rr = r2[k],
        ccr = cr[k],
        ccg = cg[k],
        ccb = cb[k];
      const off = k * gw;
      for (let i = 0; i < gw; i++) {
        const w = rr / (dx2[off + i] + dy);
        F[row + i] += w;
        FR[row + i] += w * ccr;
        FG[row + i] += w * ccg;
        FB[row + i] += w * ccb;
      }
    }
  }
  // Near the edge of a ball of radius r the field changes by about 2/r per pixel.
  const aa = Math.max(0.02, 2 / Math.max(1, rMean));
  const top = parseHex(p.background);
  const bottom = parseHex(p.backgroundBottom);
  const glow = p.glow * 0.35;
  const FLOOR = 0.2; // below this field a pixel is background (the glow starts there)

  const out = new Uint8ClampedArray(cw * ch * 4);
  const out32 = new Uint32Array(out.buffer);
  // One row of node values interpolated between two node rows.
  const rf = new Float64Array(gw),
    rr = new Float64Array(gw),
    rg = new Float64Array(gw),
    rb = new Float64Array(gw);
  const invStep = 1 / step;
  for (let j = 0; j < ch; j++) {
    const t = ch > 1 ? j / (ch - 1) : 0;
    const br = top.r + (bottom.r - top.r) * t,
      bg = top.g + (bottom.g - top.g) * t,
      bb = top.b + (bottom.b - top.b) * t;
    // The row's background as four bytes, read back as one word (same bytes whatever the byte order).
    const rowStart = j * cw;
    out[rowStart * 4] = br;
    out[rowStart * 4 + 1] = bg;
    out[rowStart * 4 + 2] = bb;
    out[rowStart * 4 + 3] = 255;
    const bgWord = out32[rowStart];
    const a0 = Math.floor(j / step) * gw;
    const fy = (j % step) * invStep;
    for (let i = 0; i < gw; i++) {
      const u = a0 + i,
        v = u + gw;
      rf[i] = F[u] + (F[v] - F[u]) * fy;
      rr[i] = FR[u] + (FR[v] - FR[u]) * fy;
      rg[i] = FG[u] + (FG[v] - FG[u]) * fy;
      rb[i] = FB[u] + (FB[v] - FB[u]) * fy;
    }
    for (let i = 0, x0 = 0; x0 < cw; i++, x0 += step) {
      const x1 = Math.min(cw, x0 + step);
      const f0 = rf[i],
        f1 = rf[i + 1];
      // Interpolation is monotone between two nodes: both under the floor is a run of background.
      if (f0 < FLOOR && f1 < FLOOR) {
        for (let x = rowStart + x0; x < rowStart + x1; x++) out32[x] = bgWord;
        continue;
      }
      for (let x = x0; x < x1; x++) {
        const fx = (x - x0) * invStep;
        const f = f0 + (f1 - f0) * fx;
        let r = br,
          g = bg,
          b = bb;
        if (f > FLOOR) {
          // Field-weighted mean colour.
          const inv = 1 / f;
          const mr = (rr[i] + (rr[i + 1] - rr[i]) * fx) * inv,
            mg = (rg[i] + (rg[i + 1] - rg[i]) * fx) * inv,
            mb = (rb[i] + (rb[i + 1] - rb[i]) * fx) * inv;
          // Glow outside the edge.
          if (glow > 0 && f < 1) {
            const q = (f - FLOOR) / (1 - FLOOR);
            const gl = glow * q * q;
            r += (mr - r) * gl;
            g += (mg - g) * gl;
            b += (mb - b) * gl;
          }
          // Body, with a lighter core towards the centre of each blob.
          const cover = (f - 1) / aa + 0.5;
          if (cover > 0) {
            const cv = cover >= 1 ? 1 : cover;
            const core = f > 1.3 ? Math.min(1, (f - 1.3) / 2.2) * 0.45 : 0;
            const fr = mr + (255 - mr) * core,
              fg = mg + (255 - mg) * core,
              fb = mb + (255 - mb) * core;
            r += (fr - r) * cv;
            g += (fg - g) * cv;
            b += (fb - b) * cv;
          }
        }
        const o = (rowStart + x) * 4;
        out[o] = r;
        out[o + 1] = g;
        out[o + 2] = b;
        out[o + 3] = 255;
      }
    }
  }
  return out;
}
