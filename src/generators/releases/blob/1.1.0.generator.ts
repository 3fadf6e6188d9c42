// Organic blob: control points around a circle with radii perturbed by seeded simplex noise
// (sampled on the circle, so the shape closes seamlessly), joined by a closed Catmull-Rom spline
// converted to cubic Béziers and filled with a palette gradient. Optional extra layers stack
// smaller, shifted blobs on top, each with a soft shadow.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { num } from '../lib/2a88792/svg.ts';
import { softShadow } from '../lib/1dac23a/shadow.ts';
import { defineGenerator } from '../../generator.types.ts';
import { colorParam, paletteParam, parseHex, samplePalette, toHex } from '../lib/1dac23a/color.ts';
import { deviceBounds, paintGradient, pathCoverage, scaling } from '../lib/1dac23a/gradient.ts';
import { readBlock, writeBlock } from '../lib/1dac23a/pixels.ts';
import { noise2D } from '../lib/1dac23a/noise.ts';
import { range, subRandom } from '../lib/2a88792/random.ts';

export interface BlobParams extends Record<string, unknown> {
  palette: string[];
  background: string;
  size: number;
  points: number;
  irregularity: number;
  layers: number;
  spread: number;
  shadow: number;
}

const defaults: BlobParams = {
  palette: ['#5b5bf0', '#a35cff', '#ff6fb5', '#ffb36b'],
  background: '#fdf6f0',
  size: 0.78,
  points: 7,
  irregularity: 0.6,
  layers: 3,
  spread: 0.35,
  shadow: 0.3,
};

interface BlobLayer {
  start: [number, number];
  curves: Array<[number, number, number, number, number, number]>;
  gradient: { x1: number; y1: number; x2: number; y2: number; stops: Array<[number, string]> };
}

/** Shadow tint, also the SVG form's flood-color #140a28. */
const SHADOW_COLOR = { r: 20, g: 10, b: 40 };

interface Scene {
  layers: BlobLayer[];
  shadowBlur: number;
  shadowOffset: number;
  shadowAlpha: number;
}

function buildScene(p: BlobParams, seed: number, width: number, height: number): Scene {
  const rnd = subRandom(seed, 'blob/shape');
  const noise = noise2D(seed, 'blob/radius');
  const palette = p.palette.map(parseHex);
  const unit = Math.min(width, height);
  const R = (p.size * unit) / 2;
  const L = p.layers;
  const light = range(rnd, -Math.PI * 0.9, -Math.PI * 0.35); // gradient direction: light from above
  const lx = Math.cos(light),
    ly = Math.sin(light);
  let cx = width / 2,
    cy = height / 2;
  const layers: BlobLayer[] = [];
  for (let k = 0; k < L; k++) {
    const scale = 1 - (k / Math.max(1, L)) * 0.62;
    const r = R * scale;
    if (k > 0) {
      // Drift each layer away from the previous centre, staying inside the first blob.
      const a = range(rnd, 0, Math.PI * 2);
      const dist = p.spread * R * 0.3;
      cx += Math.cos(a) * dist;
      cy += Math.sin(a) * dist;
    }
    const n = p.points;
    const rot = range(rnd, 0, Math.PI * 2);
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = 0; i < n; i++) {
      const th = rot + (i / n) * Math.PI * 2;
      const nv = noise(Math.cos(th) * 1.1 + k * 9.7, Math.sin(th) * 1.1 + k * 5.3);
      const jitter = range(rnd, -1, 1);
      const rr = r * (1 + p.irregularity * (0.45 * nv + 0.16 * jitter));
      xs.push(cx + Math.cos(th) * rr);
      ys.push(cy + Math.sin(th) * rr);
    }
    // Closed Catmull-Rom → cubic Bézier.
    const curves: BlobLayer['curves'] = [];
    for (let i = 0; i < n; i++) {
      const i0 = (i - 1 + n) % n,
        i1 = (i + 1) % n,
        i2 = (i + 2) % n;
      curves.push([
        xs[i] + (xs[i1] - xs[i0]) / 6,
        ys[i] + (ys[i1] - ys[i0]) / 6,
        xs[i1] - (xs[i2] - xs[i]) / 6,
        ys[i1] - (ys[i2] - ys[i]) / 6,
        xs[i1],
        ys[i1],
      ]);
    }
    const t0 = k / L,
      t1 = (k + 1) / L;
    const stops: Array<[number, string]> = [];
    for (let s = 0; s < 4; s++) stops.push([s / 3, toHex(samplePalette(palette, t0 + ((t1 - t0) * s) / 3))]);
    const gr = r * 1.2;
    layers.push({
      start: [xs[0], ys[0]],
      curves,
      gradient: { x1: cx + lx * gr, y1: cy + ly * gr, x2: cx - lx * gr, y2: cy - ly * gr, stops },
    });
  }
  return { layers, shadowBlur: R * 0.08 * p.shadow + 0.3, shadowOffset: R * 0.06 * p.shadow, shadowAlpha: 0.55 * p.shadow };
}

export default defineGenerator<BlobParams>({
  slug: 'blob',
  name: 'Blob',
  description: 'Smooth organic blob shapes with gradient fills, optionally stacked in layers with soft shadows.',
  version: '1.1.0',
  animated: false,
  formats: ['png', 'webp', 'svg'],
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      palette: paletteParam('Palette', 'Gradient colours, spread across the layers from the back to the front.', defaults.palette),
      background: colorParam('Background', 'Canvas colour behind the blob.', defaults.background),
      size: {
        type: 'number',
        title: 'Size',
        description: 'Diameter of the outer blob as a fraction of the shorter canvas side.',
        minimum: 0.2,
        maximum: 1.2,
        default: defaults.size,
      },
      points: {
        type: 'integer',
        title: 'Complexity',
        description: 'Number of control points around the outline; more points give more lobes.',
        minimum: 3,
        maximum: 16,
        default: defaults.points,
      },
      irregularity: {
        type: 'number',
        title: 'Irregularity',
        description: 'How far the outline wanders from a circle (0 = circle).',
        minimum: 0,
        maximum: 1,
        default: defaults.irregularity,
      },
      layers: {
        type: 'integer',
        title: 'Layers',
        description: 'Number of stacked blobs, each smaller than the one behind it.',
        minimum: 1,
        maximum: 6,
        default: defaults.layers,
      },
      spread: {
        type: 'number',
        title: 'Layer offset',
        description: 'How far stacked layers drift from the centre of the one behind (0 = concentric).',
        minimum: 0,
        maximum: 1,
        default: defaults.spread,
      },
      shadow: {
        type: 'number',
        title: 'Shadow',
        description: 'Strength of the soft drop shadow under each layer (0 = none).',
        minimum: 0,
        maximum: 1,
        default: defaults.shadow,
      },
    },
  },

  draw(ctx: SKRSContext2D, input) {
    const { params: p, width, height, seed, pixelRatio } = input;
    ctx.fillStyle = p.background;
    ctx.fillRect(0, 0, width, height);
    const scene = buildScene(p, seed, width, height);
    for (const layer of scene.layers) {
      const trace = (c: SKRSContext2D) => {
        c.moveTo(layer.start[0], layer.start[1]);
        for (const [a, b, cc, d, e, f] of layer.curves) c.bezierCurveTo(a, b, cc, d, e, f);
        c.closePath();
      };
      let x0 = layer.start[0],
        y0 = layer.start[1],
        x1 = x0,
        y1 = y0;
      for (const c of layer.curves) {
        for (let i = 0; i < 6; i += 2) {
          x0 = Math.min(x0, c[i]);
          x1 = Math.max(x1, c[i]);
          y0 = Math.min(y0, c[i + 1]);
          y1 = Math.max(y1, c[i + 1]);
        }
      }
      if (scene.shadowAlpha > 0) {
        softShadow(
          ctx,
          pixelRatio,
          width,
          height,
          trace,
          [x0, y0, x1, y1],
          scene.shadowBlur,
          scene.shadowOffset,
          SHADOW_COLOR,
          scene.shadowAlpha,
        );
      }
      // The gradient is painted in JavaScript inside the shape's coverage (lib/gradient.ts):
      // Skia's gradients give other pixels on other CPUs.
      const toDevice = scaling(pixelRatio);
      const region = deviceBounds([x0, y0, x1, y1], toDevice, ctx.canvas.width, ctx.canvas.height);
      if (region.width === 0 || region.height === 0) continue;
      const g = layer.gradient;
      const block = readBlock(ctx, region.x, region.y, region.width, region.height);
      paintGradient(block, {
        shape: { kind: 'linear', x0: g.x1, y0: g.y1, x1: g.x2, y1: g.y2 },
        stops: g.stops.map(([t, c]) => ({ offset: t, color: parseHex(c) })),
        transform: toDevice,
        coverage: pathCoverage(region, toDevice, trace),
      });
      writeBlock(ctx, block);
    }
  },

  svg(input) {
    const { params: p, width, height, seed } = input;
    const scene = buildScene(p, seed, width, height);
    const W = num(width),
      H = num(height);
    const defs: string[] = [];
    const hasShadow = scene.shadowAlpha > 0;
    if (hasShadow) {
      defs.push(
        `<filter id="shadow" x="-30%" y="-30%" width="160%" height="160%" color-interpolation-filters="sRGB">` +
          `<feGaussianBlur in="SourceAlpha" stdDeviation="${num(scene.shadowBlur)}"/><feOffset dy="${num(scene.shadowOffset)}" result="b"/>` +
          `<feFlood flood-color="#140a28" flood-opacity="${num(scene.shadowAlpha)}"/><feComposite in2="b" operator="in"/>` +
          `<feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter>`,
      );
    }
    const paths = scene.layers.map((layer, i) => {
      const g = layer.gradient;
      defs.push(
        `<linearGradient id="g${i}" gradientUnits="userSpaceOnUse" x1="${num(g.x1)}" y1="${num(g.y1)}" x2="${num(g.x2)}" y2="${num(g.y2)}">` +
          g.stops.map(([t, c]) => `<stop offset="${num(t)}" stop-color="${c}"/>`).join('') +
          `</linearGradient>`,
      );
      const d = `M${num(layer.start[0])} ${num(layer.start[1])}C` + layer.curves.map((c) => c.map(num).join(' ')).join(' ') + 'Z';
      return `<path fill="url(#g${i})"${hasShadow ? ' filter="url(#shadow)"' : ''} d="${d}"/>`;
    });
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs>${defs.join('')}</defs>` +
      `<rect width="${W}" height="${H}" fill="${p.background}"/>${paths.join('')}</svg>`
    );
  },
});
