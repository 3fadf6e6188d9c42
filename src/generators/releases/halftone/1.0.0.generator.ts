// Halftone: a rotated grid of dots whose size follows a seeded noise field (two octaves of simplex
// noise plus a broad sweep), like an enlarged print screen. Each dot's colour is sampled along the
// palette by a second, slower field, so the ink drifts through the colours across the picture.
// Dots are solid shapes, drawn on the canvas and in the SVG alike.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { defineGenerator, type RenderInput } from '../../generator.types.ts';
import { colorParam, paletteParam, parseHex, samplePalette, toHex } from '../lib/1dac23a/color.ts';
import { fbm2, noise2D } from '../lib/1dac23a/noise.ts';
import { range, subRandom } from '../lib/3e3ef4b/random.ts';
import { num } from '../lib/2a88792/svg.ts';

export const HALFTONE_SHAPES = ['circle', 'square', 'diamond'] as const;

export interface HalftoneParams extends Record<string, unknown> {
  cells: number;
  angle: number;
  contrast: number;
  shape: (typeof HALFTONE_SHAPES)[number];
  palette: string[];
  background: string;
}

const defaults: HalftoneParams = {
  cells: 36,
  angle: 22,
  contrast: 0.7,
  shape: 'circle',
  palette: ['#1d3557', '#e63946', '#f4a261', '#2a9d8f'],
  background: '#f6efe2',
};

interface Dot {
  x: number;
  y: number;
  r: number;
  color: string;
}

function buildDots(p: HalftoneParams, seed: number, width: number, height: number): Dot[] {
  const size = noise2D(seed, 'halftone/size');
  const hue = noise2D(seed, 'halftone/colour');
  const rnd = subRandom(seed, 'halftone/sweep');
  const palette = p.palette.map(parseHex);
  const S = Math.min(width, height);
  const step = S / p.cells;
  const a = (p.angle * Math.PI) / 180;
  const ca = Math.cos(a),
    sa = Math.sin(a);
  // A broad sweep direction and the noise offsets come from the seed.
  const sweep = rnd() * Math.PI * 2;
  const sx = Math.cos(sweep),
    sy = Math.sin(sweep);
  const ox = range(rnd, -50, 50),
    oy = range(rnd, -50, 50);
  const cx = width / 2,
    cy = height / 2;
  const half = Math.hypot(width, height) / 2 + step;
  const n = Math.ceil(half / step);
  const dots: Dot[] = [];
  for (let j = -n; j <= n; j++) {
    for (let i = -n; i <= n; i++) {
      // Grid point in the rotated frame, staggered every other row.
      const u = (i + (j & 1 ? 0.5 : 0)) * step;
      const v = j * step * 0.8660254;
      const x = cx + u * ca - v * sa;
      const y = cy + u * sa + v * ca;
      if (x < -step || y < -step || x > width + step || y > height + step) continue;
      const nx = x / S,
        ny = y / S;
      const broad = ((x - cx) * sx + (y - cy) * sy) / (half * 2) + 0.5; // 0..1 across
      let t = 0.55 * fbm2(size, nx * 1.6 + ox, ny * 1.6 + oy, 2) + 0.45 * (broad * 2 - 1);
      t = 0.5 + 0.5 * Math.tanh(t * (1 + 3 * p.contrast));
      const r = step * 0.62 * Math.sqrt(t);
      if (r < step * 0.05) continue;
      const c = 0.5 + 0.5 * fbm2(hue, nx * 0.9 - oy, ny * 0.9 + ox, 2) * 1.6;
      dots.push({ x, y, r, color: toHex(samplePalette(palette, c)) });
    }
  }
  return dots;
}

function dotPath(shape: HalftoneParams['shape'], d: Dot): Array<[number, number]> | null {
  if (shape === 'circle') return null;
  if (shape === 'square') {
    const h = d.r * 0.9;
    return [
      [d.x - h, d.y - h],
      [d.x + h, d.y - h],
      [d.x + h, d.y + h],
      [d.x - h, d.y + h],
    ];
  }
  const h = d.r * 1.25;
  return [
    [d.x, d.y - h],
    [d.x + h, d.y],
    [d.x, d.y + h],
    [d.x - h, d.y],
  ];
}

export default defineGenerator<HalftoneParams>({
  slug: 'halftone',
  name: 'Halftone',
  description:
    'An enlarged print screen: a rotated grid of dots growing and shrinking with a smooth field, their ink drifting through a palette.',
  version: '1.0.0',
  animated: false,
  formats: ['png', 'webp', 'svg'],
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      cells: {
        type: 'integer',
        title: 'Dots across',
        description: 'Number of dots across the shorter side of the canvas.',
        minimum: 8,
        maximum: 120,
        default: defaults.cells,
      },
      angle: {
        type: 'number',
        title: 'Screen angle',
        description: 'Rotation of the dot grid, in degrees.',
        minimum: 0,
        maximum: 90,
        default: defaults.angle,
      },
      contrast: {
        type: 'number',
        title: 'Contrast',
        description: 'How sharply the dots go from tiny to full (0 = soft, 1 = punchy).',
        minimum: 0,
        maximum: 1,
        default: defaults.contrast,
      },
      shape: {
        type: 'string',
        title: 'Dot shape',
        description: 'circle, square or diamond dots.',
        enum: [...HALFTONE_SHAPES],
        default: defaults.shape,
      },
      palette: paletteParam('Ink', 'Colours the dots drift through across the picture.', defaults.palette),
      background: colorParam('Paper', 'Colour behind the dots.', defaults.background),
    },
  },

  draw(ctx: SKRSContext2D, input) {
    const { params: p, width, height, seed } = input;
    ctx.fillStyle = p.background;
    ctx.fillRect(0, 0, width, height);
    for (const d of buildDots(p, seed, width, height)) {
      ctx.fillStyle = d.color;
      ctx.beginPath();
      const pts = dotPath(p.shape, d);
      if (pts) {
        ctx.moveTo(pts[0][0], pts[0][1]);
        for (let k = 1; k < pts.length; k++) ctx.lineTo(pts[k][0], pts[k][1]);
        ctx.closePath();
      } else ctx.arc(d.x, d.y, d.r, 0, Math.PI * 2);
      ctx.fill();
    }
  },

  svg(input: RenderInput<HalftoneParams>) {
    const { params: p, width, height, seed } = input;
    const W = num(width),
      H = num(height);
    const shapes = buildDots(p, seed, width, height).map((d) => {
      const pts = dotPath(p.shape, d);
      if (!pts) return `<circle cx="${num(d.x)}" cy="${num(d.y)}" r="${num(d.r)}" fill="${d.color}"/>`;
      return `<path fill="${d.color}" d="M${pts.map(([x, y]) => `${num(x)} ${num(y)}`).join('L')}Z"/>`;
    });
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
      `<rect width="${W}" height="${H}" fill="${p.background}"/>${shapes.join('')}</svg>`
    );
  },
});
