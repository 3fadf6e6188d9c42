// Metaballs: soft blobs that drift, merge and split like a lava lamp. Each ball adds r²/d² to a
// field; the blobs are where the field passes 1, coloured by a blend of the balls' own colours
// weighted by their share of the field, with an anti-aliased edge, a lighter core and a faint glow
// around. Every ball moves on a closed Lissajous path with whole-number frequencies, so the loop
// is seamless. The field is computed on every other pixel and interpolated; the colour of every pixel
// is computed here.
import { LOOP_DEFAULTS, type LoopParams, loopAnimation, loopParamSchema } from '../lib/1dac23a/animation.ts';
import { defineGenerator, type FrameInput } from '../../generator.types.ts';
import { colorParam, paletteParam, parseHex } from '../lib/1dac23a/color.ts';
import { drawPixels } from '../lib/1dac23a/pixels.ts';
import { range, subRandom } from '../lib/3e3ef4b/random.ts';

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

interface Ball {
  cx: number;
  cy: number;
  ax: number;
  ay: number;
  fx: number;
  fy: number;
  px: number;
  py: number;
  r: number;
  pulse: number;
  pf: number;
  pp: number;
  color: number;
}

function buildBalls(seed: number, count: number, paletteSize: number): Ball[] {
  const rnd = subRandom(seed, 'metaballs/balls');
  const balls: Ball[] = [];
  for (let i = 0; i < count; i++) {
    balls.push({
      cx: range(rnd, 0.25, 0.75),
      cy: range(rnd, 0.3, 0.7),
      ax: range(rnd, 0.12, 0.32),
      ay: range(rnd, 0.12, 0.3),
      fx: 1 + Math.floor(rnd() * 2),
      fy: 1 + Math.floor(rnd() * 2),
      px: rnd() * TAU,
      py: rnd() * TAU,
      r: range(rnd, 0.07, 0.13),
      pulse: range(rnd, 0.05, 0.18),
      pf: 1 + Math.floor(rnd() * 2),
      pp: rnd() * TAU,
      color: i % paletteSize,
    });
  }
  return balls;
}

export default defineGenerator<MetaballsParams>({
  slug: 'metaballs',
  name: 'Metaballs',
  description: 'Glossy blobs drifting, merging and splitting like a lava lamp, their colours blending where they meet; loops seamlessly.',
  version: '1.0.0',
  animated: true,
  formats: ['gif', 'mp4', 'png', 'webp'],
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
        description: 'Size of the blobs, relative to the default.',
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

function metaballsPixels(input: FrameInput<MetaballsParams>, device: { width: number; height: number }): Uint8ClampedArray {
  const { params: p, seed, loop } = input;
  const cw = device.width;
  const ch = device.height;
  const S = Math.min(cw, ch);
  const phase = TAU * loop;
  const pal = p.palette.map(parseHex);
  const balls = buildBalls(seed, p.balls, pal.length);
  const n = balls.length;
  // Fewer balls are drawn a little larger so the picture stays full.
  const grow = p.size * Math.sqrt(8 / Math.max(4, n));

  // The field is smooth, so it is computed on every other pixel (nodes at even device pixels) and
  // interpolated in between; the shading below runs on every pixel, so edges stay crisp.
  const gw = (cw >> 1) + 2;
  const gh = (ch >> 1) + 2;
  // Per ball: dx² per node column and dy² per node row, in device pixels.
  const dx2 = new Float64Array(n * gw);
  const dy2 = new Float64Array(n * gh);
  const r2 = new Float64Array(n);
  let rMean = 0;
  for (let k = 0; k < n; k++) {
    const b = balls[k];
    const x = (b.cx + b.ax * Math.sin(b.fx * phase + b.px)) * cw;
    const y = (b.cy + b.ay * Math.sin(b.fy * phase + b.py)) * ch;
    const r = S * b.r * grow * (1 + b.pulse * Math.sin(b.pf * phase + b.pp));
    r2[k] = r * r;
    rMean += r / n;
    for (let i = 0; i < gw; i++) dx2[k * gw + i] = (2 * i + 0.5 - x) * (2 * i + 0.5 - x);
    for (let j = 0; j < gh; j++) dy2[k * gh + j] = (2 * j + 0.5 - y) * (2 * j + 0.5 - y);
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

  const out = new Uint8ClampedArray(cw * ch * 4);
  let o = 0;
  for (let j = 0; j < ch; j++) {
    const t = ch > 1 ? j / (ch - 1) : 0;
    const br = top.r + (bottom.r - top.r) * t,
      bg = top.g + (bottom.g - top.g) * t,
      bb = top.b + (bottom.b - top.b) * t;
    for (let i = 0; i < cw; i++, o += 4) {
      // Bilinear between nodes: weights are 1 or ½ in each direction.
      const a = (j >> 1) * gw + (i >> 1);
      const bx = i & 1 ? a + 1 : a;
      const c = j & 1 ? a + gw : a;
      const d = j & 1 ? bx + gw : bx;
      const f = (F[a] + F[bx] + F[c] + F[d]) * 0.25;
      let r = br,
        g = bg,
        b = bb;
      if (f > 0.2) {
        // Field-weighted mean colour (the ¼ of the interpolation cancels).
        const inv = 1 / (f * 4);
        const mr = (FR[a] + FR[bx] + FR[c] + FR[d]) * inv,
          mg = (FG[a] + FG[bx] + FG[c] + FG[d]) * inv,
          mb = (FB[a] + FB[bx] + FB[c] + FB[d]) * inv;
        // Glow outside the edge.
        if (glow > 0 && f < 1) {
          const gl = glow * ((f - 0.2) / 0.8) ** 2;
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
      out[o] = r;
      out[o + 1] = g;
      out[o + 2] = b;
      out[o + 3] = 255;
    }
  }
  return out;
}
