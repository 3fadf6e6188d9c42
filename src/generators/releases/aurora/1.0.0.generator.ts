// Aurora: curtains of light rippling over a night sky above a dark ridge, with a seeded starfield.
// Each curtain is a lower edge y(x, t) made of a few sines whose phases turn by whole multiples of
// 2π per loop, so the animation joins up exactly. Its light fades slowly upwards and quickly
// downwards (a table per curtain, colour shifting towards the top), and is broken into vertical
// rays by a second set of looping sines. Every pixel is computed here, at full resolution, from
// per-column and per-row tables, so a 1080p frame stays cheap.
import { LOOP_DEFAULTS, type LoopParams, loopAnimation, loopParamSchema } from '../lib/1dac23a/animation.ts';
import { defineGenerator, type FrameInput } from '../../generator.types.ts';
import { colorParam, mix, paletteParam, parseHex } from '../lib/1dac23a/color.ts';
import { drawPixels } from '../lib/1dac23a/pixels.ts';
import { range, subRandom } from '../lib/3e3ef4b/random.ts';

export interface AuroraParams extends Record<string, unknown>, LoopParams {
  curtains: number;
  intensity: number;
  speed: number;
  stars: number;
  ridge: boolean;
  palette: string[];
  sky: string;
}

const defaults: AuroraParams = {
  curtains: 3,
  intensity: 1,
  speed: 1,
  stars: 0.5,
  ridge: true,
  palette: ['#3dffa8', '#17c3b2', '#7b5cff', '#ff5fa2'],
  sky: '#050b1f',
  ...LOOP_DEFAULTS,
};

const TAU = Math.PI * 2;

interface Curtain {
  base: number;
  waves: Array<[number, number, number, number]>; // frequency (cycles across), amplitude, phase, speed (integer)
  rays: Array<[number, number, number]>; // frequency, phase, speed (integer)
  low: number; // colour index 0..1 along the palette at the edge
  strength: number;
}

function curtains(seed: number, count: number): Curtain[] {
  const rnd = subRandom(seed, 'aurora/curtains');
  const out: Curtain[] = [];
  for (let k = 0; k < count; k++) {
    const sign = () => (rnd() < 0.5 ? -1 : 1);
    out.push({
      base: range(rnd, 0.4, 0.56) + (k - (count - 1) / 2) * 0.07,
      waves: [
        [range(rnd, 0.6, 1.4), range(rnd, 0.08, 0.14), rnd() * TAU, sign()],
        [range(rnd, 1.8, 3.2), range(rnd, 0.025, 0.05), rnd() * TAU, 2 * sign()],
        [range(rnd, 4, 7), range(rnd, 0.008, 0.016), rnd() * TAU, 3 * sign()],
      ],
      rays: [
        [range(rnd, 9, 16), rnd() * TAU, sign()],
        [range(rnd, 23, 37), rnd() * TAU, 2 * sign()],
      ],
      low: (k / Math.max(1, count)) * 0.5,
      strength: range(rnd, 0.7, 1),
    });
  }
  return out;
}

export default defineGenerator<AuroraParams>({
  slug: 'aurora',
  name: 'Aurora',
  description: 'Northern lights: glowing curtains rippling over a starry night sky and a dark ridge, looping seamlessly.',
  version: '1.0.0',
  animated: true,
  formats: ['gif', 'mp4', 'png', 'webp'],
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      curtains: {
        type: 'integer',
        title: 'Curtains',
        description: 'Number of aurora curtains.',
        minimum: 1,
        maximum: 5,
        default: defaults.curtains,
      },
      intensity: {
        type: 'number',
        title: 'Intensity',
        description: 'Brightness of the light.',
        minimum: 0.2,
        maximum: 2,
        default: defaults.intensity,
      },
      speed: {
        type: 'integer',
        title: 'Speed',
        description: 'How many times the ripples cycle during one loop.',
        minimum: 1,
        maximum: 4,
        default: defaults.speed,
      },
      stars: {
        type: 'number',
        title: 'Stars',
        description: 'Density of the stars (0 = none).',
        minimum: 0,
        maximum: 1,
        default: defaults.stars,
      },
      ridge: {
        type: 'boolean',
        title: 'Ridge',
        description: 'Draw a dark mountain ridge along the bottom.',
        default: defaults.ridge,
      },
      palette: paletteParam('Palette', 'Colours of the light, from the lower edge of the curtains to their tops.', defaults.palette),
      sky: colorParam('Sky', 'Colour of the night sky at the top; it lightens slightly towards the horizon.', defaults.sky),
      ...loopParamSchema(defaults),
    },
  },

  animation: loopAnimation,

  pixels: auroraPixels,
  draw: drawPixels(auroraPixels),
});

function auroraPixels(input: FrameInput<AuroraParams>, device: { width: number; height: number }): Uint8ClampedArray {
  const { params: p, seed, loop } = input;
  const cw = device.width;
  const ch = device.height;
  const phase = TAU * loop * p.speed;
  const cs = curtains(seed, p.curtains);
  const palette = p.palette.map(parseHex);
  const sky = parseHex(p.sky);
  const horizon = mix(sky, palette[palette.length - 1], 0.18);

  // Sky colour per row.
  const skyR = new Float32Array(ch),
    skyG = new Float32Array(ch),
    skyB = new Float32Array(ch);
  for (let y = 0; y < ch; y++) {
    const t = (y / Math.max(1, ch - 1)) ** 1.6;
    skyR[y] = sky.r + (horizon.r - sky.r) * t;
    skyG[y] = sky.g + (horizon.g - sky.g) * t;
    skyB[y] = sky.b + (horizon.b - sky.b) * t;
  }

  // Light per curtain as a table over d = edge − y in device pixels (d > 0 above the edge).
  const up = ch * 0.32; // slow fade upwards
  const down = ch * 0.018; // quick fade below the edge
  const below = Math.ceil(down * 6);
  const above = Math.ceil(up * 3.2);
  const span = below + above + 1;
  const nc = cs.length;
  const lr = new Float32Array(nc * span),
    lg = new Float32Array(nc * span),
    lb = new Float32Array(nc * span);
  const gain = (p.intensity * 260) / Math.sqrt(nc);
  for (let k = 0; k < nc; k++) {
    for (let i = 0; i < span; i++) {
      const d = i - below;
      const a = d < 0 ? Math.exp(d / down) : Math.exp(-d / up) * (0.45 + 0.55 * Math.exp(-d / (up * 0.08)));
      const ct = Math.min(1, cs[k].low + Math.max(0, d) / (up * 0.9));
      const x = ct * (palette.length - 1);
      const j = Math.min(palette.length - 2, Math.floor(x));
      const c = mix(palette[j], palette[j + 1], x - j);
      const g = a * gain * cs[k].strength;
      lr[k * span + i] = (c.r / 255) * g;
      lg[k * span + i] = (c.g / 255) * g;
      lb[k * span + i] = (c.b / 255) * g;
    }
  }

  // Edge and ray strength per column and curtain.
  const edge = new Int32Array(nc * cw);
  const ray = new Float32Array(nc * cw);
  for (let k = 0; k < nc; k++) {
    const c = cs[k];
    for (let x = 0; x < cw; x++) {
      const u = x / cw;
      let y = c.base;
      for (const [f, a, ph, sp] of c.waves) y += a * Math.sin(TAU * f * u + ph + sp * phase);
      let r = 0;
      for (const [f, ph, sp] of c.rays) r += Math.sin(TAU * f * u + ph + sp * phase + 2 * Math.sin(TAU * 1.3 * u + phase));
      edge[k * cw + x] = Math.round(y * ch);
      // Rays: 0.35..1, sharpened.
      const rr = 0.5 + 0.25 * r;
      ray[k * cw + x] = 0.35 + 0.65 * rr * rr;
    }
  }

  // Ridge height per column (static), with a fractional edge for anti-aliasing.
  const ridgeY = new Float32Array(cw).fill(ch + 1);
  const ridgeColor = mix(sky, { r: 0, g: 0, b: 0 }, 0.55);
  if (p.ridge) {
    const rnd = subRandom(seed, 'aurora/ridge');
    const hs: Array<[number, number, number]> = [];
    for (let i = 0; i < 5; i++) hs.push([range(rnd, 1, 3) * (i + 1), range(rnd, 0.3, 1) / (i + 1), rnd() * TAU]);
    for (let x = 0; x < cw; x++) {
      const u = x / cw;
      let h = 0;
      for (const [f, a, ph] of hs) h += a * Math.sin(TAU * f * u + ph);
      ridgeY[x] = ch * (0.86 - 0.06 * h);
    }
  }

  const out = new Uint8ClampedArray(cw * ch * 4);
  for (let y = 0; y < ch; y++) {
    const sr = skyR[y],
      sg = skyG[y],
      sb = skyB[y];
    let o = y * cw * 4;
    for (let x = 0; x < cw; x++, o += 4) {
      let r = sr,
        g = sg,
        b = sb;
      for (let k = 0; k < nc; k++) {
        const i = edge[k * cw + x] - y + below;
        if (i < 0 || i >= span) continue;
        const w = ray[k * cw + x];
        const idx = k * span + i;
        r += lr[idx] * w;
        g += lg[idx] * w;
        b += lb[idx] * w;
      }
      // Soft shoulder instead of a hard clip.
      r = r < 200 ? r : 255 - 55 * Math.exp((200 - r) / 55);
      g = g < 200 ? g : 255 - 55 * Math.exp((200 - g) / 55);
      b = b < 200 ? b : 255 - 55 * Math.exp((200 - b) / 55);
      const cover = ridgeY[x] - y; // > 1: sky; < 0: ridge
      if (cover < 1) {
        const t = cover <= 0 ? 1 : 1 - cover;
        r += (ridgeColor.r - r) * t;
        g += (ridgeColor.g - g) * t;
        b += (ridgeColor.b - b) * t;
      }
      out[o] = r;
      out[o + 1] = g;
      out[o + 2] = b;
      out[o + 3] = 255;
    }
  }

  // Stars: seeded positions in logical units (the same across pixel ratios), twinkling with the loop.
  if (p.stars > 0) {
    const rnd = subRandom(seed, 'aurora/stars');
    const count = Math.round(p.stars * 0.00035 * cw * ch);
    for (let i = 0; i < count; i++) {
      const x = Math.floor(rnd() * cw);
      const y = Math.floor(rnd() * ch * 0.9);
      const tw = rnd() * TAU;
      const size = rnd();
      if (ridgeY[x] <= y + 1) continue;
      const lum = (0.35 + 0.45 * size) * (0.75 + 0.25 * Math.sin(phase + tw));
      const plot = (px: number, py: number, a: number) => {
        if (px < 0 || py < 0 || px >= cw || py >= ch) return;
        const q = (py * cw + px) * 4;
        out[q] = out[q] + (255 - out[q]) * a;
        out[q + 1] = out[q + 1] + (250 - out[q + 1]) * a;
        out[q + 2] = out[q + 2] + (235 - out[q + 2]) * a;
      };
      plot(x, y, lum);
      if (size > 0.8) {
        plot(x - 1, y, lum * 0.4);
        plot(x + 1, y, lum * 0.4);
        plot(x, y - 1, lum * 0.4);
        plot(x, y + 1, lum * 0.4);
      }
    }
  }
  return out;
}
