// Plasma: the demoscene classic. A sum of sine waves (two plane waves and two circular ripples
// around moving centres) is mapped through a cyclic palette. Every phase is an integer multiple of
// 2π·loop, so the last frame joins the first exactly. The field is computed per pixel at a reduced
// internal resolution (`detail`) and drawn scaled up with high-quality smoothing: plasma is smooth,
// so this costs nothing visible and keeps a 1080p frame fast.
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { loopAnimation, loopParamSchema } from '../lib/2a88792/animation.ts';
import { defineGenerator } from '../../generator.types.ts';
import { paletteParam, parseHex, samplePalette } from '../lib/2a88792/color.ts';
import { range, subRandom } from '../lib/2a88792/random.ts';

export interface PlasmaParams extends Record<string, unknown> {
  palette: string[];
  scale: number;
  speed: number;
  colorCycles: number;
  detail: number;
  fps: number;
  duration: number;
}

const defaults: PlasmaParams = {
  palette: ['#120c3d', '#4b1d8f', '#b5179e', '#ff6b6b', '#ffc857', '#2ec4b6'],
  scale: 1,
  speed: 1,
  colorCycles: 1,
  detail: 240,
  fps: 24,
  duration: 3,
};

const TAU = Math.PI * 2;
const LUT_SIZE = 1024;

/** A cyclic colour table: the palette followed by its first colour again, so it wraps smoothly. */
function paletteLut(palette: readonly string[]): Uint8Array {
  const stops = palette.map(parseHex);
  stops.push(stops[0]);
  const lut = new Uint8Array(LUT_SIZE * 3);
  for (let i = 0; i < LUT_SIZE; i++) {
    // Smoothstep between stops gives softer, rounder colour transitions than linear mixing.
    const x = (i / LUT_SIZE) * (stops.length - 1);
    const k = Math.min(stops.length - 2, Math.floor(x));
    const f = x - k;
    const c = samplePalette(stops, (k + f * f * (3 - 2 * f)) / (stops.length - 1));
    lut[i * 3] = c.r;
    lut[i * 3 + 1] = c.g;
    lut[i * 3 + 2] = c.b;
  }
  return lut;
}

interface Waves {
  f1: number;
  a1: number;
  f2: number;
  a2: number;
  p2: number;
  f3: number;
  f4: number;
  p4: number;
  c3: [number, number, number, number];
  c4: [number, number, number, number];
  offset: number;
}

function waves(seed: number): Waves {
  const rnd = subRandom(seed, 'plasma/waves');
  return {
    f1: range(rnd, 3, 6),
    a1: rnd() * TAU,
    f2: range(rnd, 3, 6),
    a2: rnd() * TAU,
    p2: rnd() * TAU,
    f3: range(rnd, 5, 9),
    f4: range(rnd, 4, 8),
    p4: rnd() * TAU,
    c3: [range(rnd, -0.3, 0.3), range(rnd, -0.2, 0.2), range(rnd, 0.2, 0.5), rnd() * TAU],
    c4: [range(rnd, -0.3, 0.3), range(rnd, -0.2, 0.2), range(rnd, 0.2, 0.5), rnd() * TAU],
    offset: rnd(),
  };
}

export default defineGenerator<PlasmaParams>({
  slug: 'plasma',
  name: 'Plasma',
  description: 'Classic colourful plasma: interfering sine waves and ripples mapped through a cycling palette, looping seamlessly.',
  version: '1.0.0',
  animated: true,
  formats: ['gif', 'mp4', 'png', 'webp'],
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      palette: paletteParam(
        'Palette',
        'Colours the plasma cycles through (used as a loop: the last blends back into the first).',
        defaults.palette,
      ),
      scale: {
        type: 'number',
        title: 'Scale',
        description: 'Size of the plasma features; larger values zoom in on broader waves.',
        minimum: 0.25,
        maximum: 4,
        default: defaults.scale,
      },
      speed: {
        type: 'integer',
        title: 'Speed',
        description: 'How many times the waves cycle during one loop of the animation.',
        minimum: 1,
        maximum: 5,
        default: defaults.speed,
      },
      colorCycles: {
        type: 'integer',
        title: 'Colour cycles',
        description: 'How many times the palette repeats across the range of the field (more gives finer colour bands).',
        minimum: 1,
        maximum: 4,
        default: defaults.colorCycles,
      },
      detail: {
        type: 'integer',
        title: 'Detail',
        description: 'Internal render width in pixels before the smooth upscale; higher is sharper but slower.',
        minimum: 64,
        maximum: 320,
        default: defaults.detail,
      },
      ...loopParamSchema(defaults),
    },
  },

  animation: loopAnimation,

  draw(ctx: SKRSContext2D, input) {
    const { params: p, width, height, seed, loop } = input;
    const cw = ctx.canvas.width;
    const ch = ctx.canvas.height;
    const iw = Math.max(2, Math.min(p.detail, cw));
    const ih = Math.max(2, Math.round((iw * ch) / cw));
    const w = waves(seed);
    const lut = paletteLut(p.palette);
    const phase = TAU * loop * p.speed;

    // Coordinates: the shorter side spans 1 unit (before `scale`), centred on the canvas.
    const unit = 1 / (Math.min(iw, ih) * p.scale);
    const xs = new Float64Array(iw);
    const ys = new Float64Array(ih);
    for (let x = 0; x < iw; x++) xs[x] = (x + 0.5 - iw / 2) * unit;
    for (let y = 0; y < ih; y++) ys[y] = (y + 0.5 - ih / 2) * unit;

    // Plane waves are separable: sin(X + Y) = sin X cos Y + cos X sin Y with per-column / per-row tables.
    const k1x = w.f1 * Math.cos(w.a1);
    const k1y = w.f1 * Math.sin(w.a1);
    const k2x = w.f2 * Math.cos(w.a2);
    const k2y = w.f2 * Math.sin(w.a2);
    const s1x = new Float64Array(iw),
      c1x = new Float64Array(iw),
      s2x = new Float64Array(iw),
      c2x = new Float64Array(iw);
    for (let x = 0; x < iw; x++) {
      s1x[x] = Math.sin(k1x * xs[x] + phase);
      c1x[x] = Math.cos(k1x * xs[x] + phase);
      s2x[x] = Math.sin(k2x * xs[x] - phase + w.p2);
      c2x[x] = Math.cos(k2x * xs[x] - phase + w.p2);
    }
    // Ripple centres travel on closed Lissajous paths.
    const cx3 = w.c3[0] + w.c3[2] * Math.cos(phase + w.c3[3]);
    const cy3 = w.c3[1] + w.c3[2] * Math.sin(2 * phase + w.c3[3]) * 0.6;
    const cx4 = w.c4[0] + w.c4[2] * Math.sin(phase + w.c4[3]);
    const cy4 = w.c4[1] + w.c4[2] * Math.cos(phase + w.c4[3]) * 0.6;
    const bands = (p.colorCycles * LUT_SIZE) / 2.6; // field range is about ±1.3 after the 1/3 scaling
    const shift = (w.offset + loop * p.speed) * LUT_SIZE;

    const off = createCanvas(iw, ih);
    const octx = off.getContext('2d');
    const img = octx.createImageData(iw, ih);
    const d = img.data;
    let o = 0;
    for (let y = 0; y < ih; y++) {
      const py = ys[y];
      const s1y = Math.sin(k1y * py),
        c1y = Math.cos(k1y * py);
      const s2y = Math.sin(k2y * py),
        c2y = Math.cos(k2y * py);
      const dy3 = (py - cy3) * (py - cy3);
      const dy4 = (py - cy4) * (py - cy4);
      for (let x = 0; x < iw; x++) {
        const px = xs[x];
        const v1 = s1x[x] * c1y + c1x[x] * s1y;
        const v2 = s2x[x] * c2y + c2x[x] * s2y;
        const v3 = Math.sin(w.f3 * Math.sqrt((px - cx3) * (px - cx3) + dy3) - phase);
        const v4 = Math.sin(w.f4 * Math.sqrt((px - cx4) * (px - cx4) + dy4) + phase + w.p4);
        const v = (v1 + v2 + v3 + v4) / 3;
        let idx = Math.floor(v * bands + shift) % LUT_SIZE;
        if (idx < 0) idx += LUT_SIZE;
        const l = idx * 3;
        d[o] = lut[l];
        d[o + 1] = lut[l + 1];
        d[o + 2] = lut[l + 2];
        d[o + 3] = 255;
        o += 4;
      }
    }
    octx.putImageData(img, 0, 0);
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(off, 0, 0, width, height);
  },
});
