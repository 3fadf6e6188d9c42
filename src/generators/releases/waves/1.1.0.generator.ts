// Layered waves: stacked smooth curves (seeded simplex noise or sums of sines), filled from the
// back to the front with colours sampled along a palette, like a paper-cut landscape. Each curve is
// a Catmull-Rom spline through a few dozen samples, drawn as cubic Béziers in both the raster and
// the SVG. An optional soft shadow separates the layers.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { num } from '../lib/2a88792/svg.ts';
import { softShadow } from '../lib/1dac23a/shadow.ts';
import { defineGenerator } from '../../generator.types.ts';
import { colorParam, mix, paletteParam, parseHex, samplePalette, toHex } from '../lib/1dac23a/color.ts';
import { paintGradient, scaling } from '../lib/1dac23a/gradient.ts';
import { solidBlock, writeBlock } from '../lib/1dac23a/pixels.ts';
import { fbm2, noise2D } from '../lib/1dac23a/noise.ts';
import { range, subRandom } from '../lib/3e3ef4b/random.ts';

export const WAVE_SHAPES = ['noise', 'sine'] as const;

export interface WavesParams extends Record<string, unknown> {
  layers: number;
  palette: string[];
  background: string;
  shape: (typeof WAVE_SHAPES)[number];
  amplitude: number;
  frequency: number;
  horizon: number;
  shadow: number;
}

const defaults: WavesParams = {
  layers: 6,
  palette: ['#f9c784', '#f4a36c', '#e8736c', '#b5577f', '#6a4c93', '#2d3a6b'],
  background: '#fdebd3',
  shape: 'noise',
  amplitude: 0.55,
  frequency: 1.6,
  horizon: 0.32,
  shadow: 0.35,
};

interface Layer {
  color: string;
  /** Start point then cubic segments [c1x, c1y, c2x, c2y, x, y]. */
  start: [number, number];
  curves: Array<[number, number, number, number, number, number]>;
}

interface Scene {
  sky: [string, string];
  layers: Layer[];
  shadowBlur: number;
  shadowOffset: number;
  shadowAlpha: number;
}

function buildScene(p: WavesParams, seed: number, width: number, height: number): Scene {
  const noise = noise2D(seed, 'waves/shape');
  const rnd = subRandom(seed, 'waves/phase');
  const palette = p.palette.map(parseHex);
  const L = p.layers;
  const top = p.horizon * height;
  const gap = (height - top) / (L + 0.4); // the nearest layer keeps a slightly deeper band
  const amp = p.amplitude * gap * 1.5;
  const samples = Math.min(240, Math.ceil(p.frequency * (p.shape === 'noise' ? 14 : 10)) + 6);
  const shadowBlur = gap * 0.35 * p.shadow + 0.5;
  const margin = width * 0.02 + (p.shadow > 0 ? shadowBlur * 3 : 0); // shadows must not fade out at the sides
  const layers: Layer[] = [];
  for (let k = 0; k < L; k++) {
    const base = top + k * gap;
    const phase1 = range(rnd, 0, Math.PI * 2);
    const phase2 = range(rnd, 0, Math.PI * 2);
    const f2 = range(rnd, 1.8, 2.6);
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = 0; i <= samples; i++) {
      const u = i / samples;
      const x = -margin + u * (width + 2 * margin);
      let v: number;
      if (p.shape === 'noise') {
        v = fbm2(noise, u * p.frequency * 1.4 + k * 11.3, k * 7.7 + 3.1, 2) * 1.5;
      } else {
        v = 0.75 * Math.sin(u * p.frequency * Math.PI * 2 + phase1) + 0.25 * Math.sin(u * p.frequency * f2 * Math.PI * 2 + phase2);
      }
      xs.push(x);
      ys.push(base - v * amp);
    }
    // Catmull-Rom → cubic Bézier (uniform, tension 1/6).
    const curves: Layer['curves'] = [];
    for (let i = 0; i < samples; i++) {
      const i0 = Math.max(0, i - 1),
        i3 = Math.min(samples, i + 2);
      curves.push([
        xs[i] + (xs[i + 1] - xs[i0]) / 6,
        ys[i] + (ys[i + 1] - ys[i0]) / 6,
        xs[i + 1] - (xs[i3] - xs[i]) / 6,
        ys[i + 1] - (ys[i3] - ys[i]) / 6,
        xs[i + 1],
        ys[i + 1],
      ]);
    }
    const t = L === 1 ? 1 : k / (L - 1);
    layers.push({ color: toHex(samplePalette(palette, t)), start: [xs[0], ys[0]], curves });
  }
  const horizonTint = toHex(mix(parseHex(p.background), palette[0], 0.35));
  return {
    sky: [p.background, horizonTint],
    layers,
    shadowBlur,
    shadowOffset: -gap * 0.1 * p.shadow,
    shadowAlpha: 0.45 * p.shadow,
  };
}

export default defineGenerator<WavesParams>({
  slug: 'waves',
  name: 'Layered waves',
  description: 'Stacked smooth waves coloured along a palette, from a soft sky to a deep foreground, like a paper-cut landscape.',
  version: '1.1.0',
  animated: false,
  formats: ['png', 'webp', 'svg'],
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      layers: {
        type: 'integer',
        title: 'Layers',
        description: 'Number of stacked waves.',
        minimum: 2,
        maximum: 16,
        default: defaults.layers,
      },
      palette: paletteParam(
        'Palette',
        'Wave colours from the farthest to the nearest layer (sampled smoothly for any layer count).',
        defaults.palette,
      ),
      background: colorParam(
        'Sky',
        'Colour at the top of the sky; it fades towards the farthest wave colour at the horizon.',
        defaults.background,
      ),
      shape: {
        type: 'string',
        title: 'Wave shape',
        description: 'noise: organic, hill-like ridges; sine: regular rolling waves.',
        enum: [...WAVE_SHAPES],
        default: defaults.shape,
      },
      amplitude: {
        type: 'number',
        title: 'Amplitude',
        description: 'Wave height relative to the spacing between layers.',
        minimum: 0,
        maximum: 1,
        default: defaults.amplitude,
      },
      frequency: {
        type: 'number',
        title: 'Frequency',
        description: 'Roughly how many crests span the width of the canvas.',
        minimum: 0.3,
        maximum: 8,
        default: defaults.frequency,
      },
      horizon: {
        type: 'number',
        title: 'Horizon',
        description: 'Height of the farthest wave, as a fraction of the canvas height from the top.',
        minimum: 0.05,
        maximum: 0.85,
        default: defaults.horizon,
      },
      shadow: {
        type: 'number',
        title: 'Shadow',
        description: 'Strength of the soft shadow each wave casts on the one behind it (0 = flat).',
        minimum: 0,
        maximum: 1,
        default: defaults.shadow,
      },
    },
  },

  draw(ctx: SKRSContext2D, input) {
    const { params: p, width, height, seed, pixelRatio } = input;
    const scene = buildScene(p, seed, width, height);
    // Sky gradient in JavaScript (lib/gradient.ts): Skia's gradients give other pixels on other CPUs.
    const sky = solidBlock(ctx.canvas.width, ctx.canvas.height, parseHex(scene.sky[0]));
    paintGradient(sky, {
      shape: { kind: 'linear', x0: 0, y0: 0, x1: 0, y1: height * p.horizon + 1 },
      stops: [
        { offset: 0, color: parseHex(scene.sky[0]) },
        { offset: 1, color: parseHex(scene.sky[1]) },
      ],
      transform: scaling(pixelRatio),
    });
    writeBlock(ctx, sky);
    for (const layer of scene.layers) {
      if (scene.shadowAlpha > 0) {
        // Only the top of a wave casts a visible shadow (the rest is covered by the wave itself),
        // so the shadow is cast by a band along the crest, which keeps the blurred area small.
        const depth = scene.shadowBlur * 4 + Math.abs(scene.shadowOffset);
        let minY = layer.start[1],
          maxY = layer.start[1];
        for (const c of layer.curves)
          for (const y of [c[1], c[3], c[5]]) {
            minY = Math.min(minY, y);
            maxY = Math.max(maxY, y);
          }
        const last = layer.curves[layer.curves.length - 1];
        softShadow(
          ctx,
          pixelRatio,
          width,
          height,
          (b) => {
            b.moveTo(layer.start[0], layer.start[1]);
            for (const [a, bb, c, d, e, f] of layer.curves) b.bezierCurveTo(a, bb, c, d, e, f);
            b.lineTo(last[4], last[5] + depth);
            for (let i = layer.curves.length - 1; i >= 0; i--) {
              const [a, bb, c, d] = layer.curves[i];
              const [px, py] = i > 0 ? [layer.curves[i - 1][4], layer.curves[i - 1][5]] : layer.start;
              b.bezierCurveTo(c, d + depth, a, bb + depth, px, py + depth);
            }
            b.closePath();
          },
          [layer.start[0], minY, last[4], maxY + depth],
          scene.shadowBlur,
          scene.shadowOffset,
          { r: 0, g: 0, b: 0 },
          scene.shadowAlpha,
        );
      }
      ctx.beginPath();
      ctx.moveTo(layer.start[0], layer.start[1]);
      for (const [a, b, c, d, e, f] of layer.curves) ctx.bezierCurveTo(a, b, c, d, e, f);
      const end = layer.curves[layer.curves.length - 1];
      ctx.lineTo(end[4], height + 10);
      ctx.lineTo(layer.start[0], height + 10);
      ctx.closePath();
      ctx.fillStyle = layer.color;
      ctx.fill();
    }
  },

  svg(input) {
    const { params: p, width, height, seed } = input;
    const scene = buildScene(p, seed, width, height);
    const W = num(width),
      H = num(height);
    const defs = [
      `<linearGradient id="sky" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="0" y2="${num(height * p.horizon + 1)}"><stop offset="0" stop-color="${scene.sky[0]}"/><stop offset="1" stop-color="${scene.sky[1]}"/></linearGradient>`,
    ];
    const hasShadow = scene.shadowAlpha > 0;
    if (hasShadow) {
      defs.push(
        `<filter id="shadow" x="-10%" y="-50%" width="120%" height="200%" color-interpolation-filters="sRGB">` +
          `<feGaussianBlur in="SourceAlpha" stdDeviation="${num(scene.shadowBlur)}"/><feOffset dy="${num(scene.shadowOffset)}" result="b"/>` +
          `<feFlood flood-color="#000" flood-opacity="${num(scene.shadowAlpha)}"/><feComposite in2="b" operator="in"/>` +
          `<feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter>`,
      );
    }
    const paths = scene.layers.map((layer) => {
      let d = `M${num(layer.start[0])} ${num(layer.start[1])}C`;
      d += layer.curves.map((c) => c.map(num).join(' ')).join(' ');
      const end = layer.curves[layer.curves.length - 1];
      d += `L${num(end[4])} ${num(height + 10)}L${num(layer.start[0])} ${num(height + 10)}Z`;
      return `<path fill="${layer.color}"${hasShadow ? ' filter="url(#shadow)"' : ''} d="${d}"/>`;
    });
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs>${defs.join('')}</defs>` +
      `<rect width="${W}" height="${H}" fill="url(#sky)"/>` +
      `${paths.join('')}</svg>`
    );
  },
});
