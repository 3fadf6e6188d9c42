// Flowing gradient: a soft mesh / aurora gradient. A few colour blobs drift on closed Lissajous
// paths (integer frequencies of 2π·loop, so the animation loops exactly) and are blended per pixel
// as a Gaussian-weighted average in OKLab, which keeps mixtures bright instead of muddy. A gentle
// looping domain warp bends the blobs into organic shapes. The field is smooth, so it is computed
// at a small internal resolution and scaled up with a bicubic filter (lib/resample.ts); a fixed
// film-grain tile drawn on top hides 8-bit banding.
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { LOOP_DEFAULTS, type LoopParams, loopAnimation, loopParamSchema } from '../lib/1dac23a/animation.ts';
import { defineGenerator } from '../../generator.types.ts';
import { colorParam, paletteParam, parseHex, type Rgb } from '../lib/1dac23a/color.ts';
import { range, subRandom } from '../lib/2a88792/random.ts';
import { emptyBlock, writeBlock } from '../lib/1dac23a/pixels.ts';
import { resample } from '../lib/1dac23a/resample.ts';

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
  palette: ['#ff5f8f', '#ffb36b', '#8b5cf6', '#2ec5ff', '#22d3a6'],
  background: '#160f36',
  blobs: 5,
  softness: 0.9,
  speed: 1,
  warp: 0.5,
  grain: 0.05,
  ...LOOP_DEFAULTS,
};

const TAU = Math.PI * 2;
/** Internal resolution of the field along the longer side. */
const FIELD = 160;

// --- OKLab <-> sRGB -------------------------------------------------------------------------
const srgbToLinear = (c: number) => {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
};
function toOklab({ r, g, b }: Rgb): [number, number, number] {
  const lr = srgbToLinear(r),
    lg = srgbToLinear(g),
    lb = srgbToLinear(b);
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}
/** Linear-light [0, 1] -> sRGB byte, by table. */
const GAMMA_LUT = (() => {
  const n = 4096;
  const t = new Uint8Array(n + 1);
  for (let i = 0; i <= n; i++) {
    const v = i / n;
    t[i] = Math.round(255 * (v <= 0.0031308 ? 12.92 * v : 1.055 * Math.pow(v, 1 / 2.4) - 0.055));
  }
  return t;
})();
const encode = (v: number) => GAMMA_LUT[Math.round(Math.max(0, Math.min(1, v)) * 4096)];

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
  const rnd = subRandom(seed, 'flowing-gradient/blobs');
  const labs = p.palette.map((c) => toOklab(parseHex(c)));
  const order = labs.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const blobs: Blob[] = [];
  for (let i = 0; i < p.blobs; i++) {
    // Spread the path centres around an ellipse so blobs share the canvas evenly.
    const a = (i / p.blobs) * TAU + range(rnd, -0.4, 0.4);
    const rr = range(rnd, 0.15, 0.32);
    blobs.push({
      lab: labs[order[i % order.length]],
      cx: 0.5 * aspect + Math.cos(a) * rr * aspect,
      cy: 0.5 + Math.sin(a) * rr,
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
  return blobs;
}

/** A small tile of mid-grey noise for the grain overlay (same for every frame). */
function grainTile(seed: number, size: number) {
  const c = createCanvas(size, size);
  const g = c.getContext('2d');
  const img = g.createImageData(size, size);
  const rnd = subRandom(seed, 'flowing-gradient/grain');
  for (let i = 0; i < img.data.length; i += 4) {
    const v = Math.round((rnd() + rnd()) * 127.5);
    img.data[i] = v;
    img.data[i + 1] = v;
    img.data[i + 2] = v;
    img.data[i + 3] = 255;
  }
  g.putImageData(img, 0, 0);
  return c;
}

export default defineGenerator<FlowingGradientParams>({
  slug: 'flowing-gradient',
  name: 'Flowing gradient',
  description: 'A soft mesh / aurora gradient: blurred colour blobs drifting on closed paths, blended smoothly; loops seamlessly.',
  version: '1.1.0',
  animated: true,
  formats: ['gif', 'mp4', 'png', 'webp'],
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

  draw(ctx: SKRSContext2D, input) {
    const { params: p, seed, loop } = input;
    const cw = ctx.canvas.width;
    const ch = ctx.canvas.height;
    const scale = Math.min(1, FIELD / Math.max(cw, ch));
    const iw = Math.max(2, Math.round(cw * scale));
    const ih = Math.max(2, Math.round(ch * scale));
    const aspect = iw / ih;
    const blobs = makeBlobs(p, seed, aspect);
    const ph = TAU * loop * p.speed;

    // Blob positions and weights for this frame (units: canvas height = 1).
    const n = blobs.length;
    const bx = new Float64Array(n),
      by = new Float64Array(n),
      inv = new Float64Array(n),
      amp = new Float64Array(n);
    blobs.forEach((b, i) => {
      bx[i] = b.cx + b.ax * Math.sin(b.mx * ph + b.px);
      by[i] = b.cy + b.ay * Math.sin(b.my * ph + b.py);
      inv[i] = 1 / (2 * b.sigma * b.sigma);
      amp[i] = 1 + 0.25 * Math.sin(ph + b.pulse);
    });
    const bg = toOklab(parseHex(p.background));
    const warp = p.warp * 0.12;
    const wr = subRandom(seed, 'flowing-gradient/warp');
    const wf1 = range(wr, 2, 3.5),
      wf2 = range(wr, 2, 3.5),
      wp1 = wr() * TAU,
      wp2 = wr() * TAU;

    const d = new Uint8ClampedArray(iw * ih * 4);
    let o = 0;
    for (let y = 0; y < ih; y++) {
      const v0 = (y + 0.5) / ih;
      for (let x = 0; x < iw; x++) {
        const u0 = (x + 0.5) / ih;
        // Looping domain warp: a smooth swirl that bends the blobs.
        const u = u0 + warp * Math.sin(wf1 * v0 + ph + wp1);
        const v = v0 + warp * Math.sin(wf2 * u0 - ph + wp2);
        // Blob colours: weighted mean with squared weights (keeps each colour vivid near its
        // centre); coverage: how much of the base colour the blobs hide together.
        let sw = 1e-9,
          L = 0,
          A = 0,
          B = 0,
          clear = 1;
        for (let i = 0; i < n; i++) {
          const dx = u - bx[i],
            dy = v - by[i];
          const w = amp[i] * Math.exp(-(dx * dx + dy * dy) * inv[i]);
          const w2 = w * w;
          sw += w2;
          const lab = blobs[i].lab;
          L += lab[0] * w2;
          A += lab[1] * w2;
          B += lab[2] * w2;
          clear *= 1 - Math.min(1, w);
        }
        const cov = 1 - clear;
        L = bg[0] + (L / sw - bg[0]) * cov;
        A = bg[1] + (A / sw - bg[1]) * cov;
        B = bg[2] + (B / sw - bg[2]) * cov;
        const l_ = (L + 0.3963377774 * A + 0.2158037573 * B) ** 3;
        const m_ = (L - 0.1055613458 * A - 0.0638541728 * B) ** 3;
        const s_ = (L - 0.0894841775 * A - 1.291485548 * B) ** 3;
        d[o] = encode(4.0767416621 * l_ - 3.3077115913 * m_ + 0.2309699292 * s_);
        d[o + 1] = encode(-1.2684380046 * l_ + 2.6097574011 * m_ - 0.3413193965 * s_);
        d[o + 2] = encode(-0.0041960863 * l_ - 0.7034186147 * m_ + 1.707614701 * s_);
        d[o + 3] = 255;
        o += 4;
      }
    }
    // Scaled up in JavaScript (Mitchell bicubic, as Skia's 'high'): Skia's smoothed drawImage
    // gives other pixels on other CPUs.
    const out = emptyBlock(cw, ch);
    resample(d, iw, ih, out.data, cw, ch, { filter: 'bicubic', opaque: true });
    writeBlock(ctx, out);

    if (p.grain > 0) {
      // Grain in device pixels, independent of the context's scale.
      const pattern = ctx.createPattern(grainTile(seed, 128), 'repeat');
      if (!pattern) return;
      ctx.save();
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.globalAlpha = Math.min(1, p.grain * 2);
      ctx.globalCompositeOperation = 'overlay';
      ctx.fillStyle = pattern;
      ctx.fillRect(0, 0, cw, ch);
      ctx.restore();
    }
  },
});
