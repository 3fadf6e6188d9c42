// Identicon: a small mirror-symmetric grid of filled cells derived from a hash of the seed and an
// optional name, in one colour picked from the same hash (GitHub identicon style). The colour is
// chosen in OKLCH so every hue has the same perceived lightness and contrast. The raster and the
// SVG are drawn from the same cell geometry.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { num } from '../lib/2a88792/svg.ts';
import { defineGenerator } from '../../generator.types.ts';
import { colorParam, toHex, type Rgb } from '../lib/1dac23a/color.ts';
import { hash32, mulberry32 } from '../lib/3e3ef4b/random.ts';

export const CELL_SHAPES = ['square', 'rounded', 'circle'] as const;
export type CellShape = (typeof CELL_SHAPES)[number];

export interface IdenticonParams extends Record<string, unknown> {
  name: string;
  grid: number;
  padding: number;
  cellShape: CellShape;
  rounded: boolean;
  background: string;
}

const defaults: IdenticonParams = {
  name: '',
  grid: 5,
  padding: 0.12,
  cellShape: 'square',
  rounded: false,
  background: '#f2f2f5',
};

/** OKLCH (L 0..1, C, h degrees) to an sRGB colour, with the chroma reduced until it fits the gamut. */
export function oklchToRgb(l: number, c: number, hDeg: number): Rgb {
  const toSrgb = (x: number) => (x <= 0.0031308 ? 12.92 * x : 1.055 * Math.pow(x, 1 / 2.4) - 0.055);
  const h = (hDeg * Math.PI) / 180;
  for (let chroma = c; ; chroma *= 0.9) {
    const a = chroma * Math.cos(h);
    const b = chroma * Math.sin(h);
    const l_ = (l + 0.3963377774 * a + 0.2158037573 * b) ** 3;
    const m_ = (l - 0.1055613458 * a - 0.0638541728 * b) ** 3;
    const s_ = (l - 0.0894841775 * a - 1.291485548 * b) ** 3;
    const r = 4.0767416621 * l_ - 3.3077115913 * m_ + 0.2309699292 * s_;
    const g = -1.2684380046 * l_ + 2.6097574011 * m_ - 0.3413193965 * s_;
    const bl = -0.0041960863 * l_ - 0.7034186147 * m_ + 1.707614701 * s_;
    const inGamut = [r, g, bl].every((v) => v >= -1e-4 && v <= 1 + 1e-4);
    if (inGamut || chroma < 0.005) {
      const f = (v: number) => Math.max(0, Math.min(1, toSrgb(Math.max(0, v)))) * 255;
      return { r: f(r), g: f(g), b: f(bl) };
    }
  }
}

interface Layout {
  color: string;
  /** cells[row][col], mirrored left/right. */
  cells: boolean[][];
  /** Cell boundaries along x and y (grid + 1 values each), in logical units. */
  xs: number[];
  ys: number[];
  cornerRadius: number;
}

/** The hash every choice derives from: the seed, plus the name when one is given. */
export function identiconHash(seed: number, name: string): number {
  return hash32(`identicon|${seed >>> 0}|${name}`);
}

function layout(p: IdenticonParams, seed: number, width: number, height: number, pixelRatio: number): Layout {
  const rnd = mulberry32(identiconHash(seed, p.name));
  const g = p.grid;
  const half = Math.ceil(g / 2);
  let cells: boolean[][] = [];
  // Redraw (deterministically) until the pattern is neither nearly empty nor nearly full.
  for (let attempt = 0; attempt < 16; attempt++) {
    cells = [];
    let on = 0;
    for (let r = 0; r < g; r++) {
      const row = new Array<boolean>(g).fill(false);
      for (let c = 0; c < half; c++) {
        const v = rnd() < 0.5;
        row[c] = v;
        row[g - 1 - c] = v;
      }
      on += row.filter(Boolean).length;
      cells.push(row);
    }
    const fill = on / (g * g);
    const usesEveryRow = cells.filter((row) => row.some(Boolean)).length >= g - 1;
    if (fill >= 0.3 && fill <= 0.7 && usesEveryRow) break;
  }
  const hue = rnd() * 360;
  const lightness = 0.62 + rnd() * 0.1;
  const chroma = 0.13 + rnd() * 0.05;
  const color = toHex(oklchToRgb(lightness, chroma, hue));

  // A centred square; boundaries snapped to device pixels so square cells are crisp.
  const side = Math.min(width, height) * (1 - 2 * p.padding);
  const x0 = (width - side) / 2;
  const y0 = (height - side) / 2;
  const snap = (v: number) => Math.round(v * pixelRatio) / pixelRatio;
  const xs: number[] = [];
  const ys: number[] = [];
  for (let k = 0; k <= g; k++) {
    xs.push(snap(x0 + (side * k) / g));
    ys.push(snap(y0 + (side * k) / g));
  }
  const cornerRadius = p.rounded ? Math.min(width, height) * 0.16 : 0;
  return { color, cells, xs, ys, cornerRadius };
}

/** Square cells merged into horizontal runs, so neighbouring cells never show a seam. */
function squareRuns(l: Layout): Array<[number, number, number, number]> {
  const runs: Array<[number, number, number, number]> = [];
  l.cells.forEach((row, r) => {
    let c = 0;
    while (c < row.length) {
      if (!row[c]) {
        c++;
        continue;
      }
      let e = c;
      while (e + 1 < row.length && row[e + 1]) e++;
      runs.push([l.xs[c], l.ys[r], l.xs[e + 1] - l.xs[c], l.ys[r + 1] - l.ys[r]]);
      c = e + 1;
    }
  });
  return runs;
}

interface CellBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

function cellBoxes(l: Layout): CellBox[] {
  const out: CellBox[] = [];
  l.cells.forEach((row, r) =>
    row.forEach((on, c) => {
      if (on) out.push({ x: l.xs[c], y: l.ys[r], w: l.xs[c + 1] - l.xs[c], h: l.ys[r + 1] - l.ys[r] });
    }),
  );
  return out;
}

export default defineGenerator<IdenticonParams>({
  slug: 'identicon',
  name: 'Identicon',
  description:
    'Avatar-style identicon: a mirror-symmetric grid of cells and a colour, both derived from a hash of the seed and an optional name.',
  version: '1.0.0',
  animated: false,
  formats: ['png', 'webp', 'svg'],
  // An avatar is square: its defaultSize (256×256) is now the release record's (releases/superseded.ts).
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      name: {
        type: 'string',
        title: 'Name',
        description:
          'Optional text (user name, e-mail, id) hashed together with the seed; the same name and seed always give the same avatar.',
        maxLength: 64,
        default: defaults.name,
      },
      grid: {
        type: 'integer',
        title: 'Grid size',
        description: 'Number of cells along each side of the pattern.',
        minimum: 4,
        maximum: 8,
        default: defaults.grid,
      },
      padding: {
        type: 'number',
        title: 'Padding',
        description: 'Empty margin around the pattern, as a fraction of the shorter side.',
        minimum: 0,
        maximum: 0.3,
        default: defaults.padding,
      },
      cellShape: {
        type: 'string',
        title: 'Cell shape',
        description: 'Square cells merge into solid blocks; rounded squares and circles give a softer, dotted look.',
        enum: [...CELL_SHAPES],
        default: defaults.cellShape,
      },
      rounded: {
        type: 'boolean',
        title: 'Rounded background',
        description: 'Round the corners of the background (the corners outside it are left transparent).',
        default: defaults.rounded,
      },
      background: colorParam('Background', 'Colour behind the pattern.', defaults.background),
    },
  },

  draw(ctx: SKRSContext2D, input) {
    const { params: p, width, height, seed, pixelRatio } = input;
    const l = layout(p, seed, width, height, pixelRatio);
    ctx.fillStyle = p.background;
    if (l.cornerRadius > 0) {
      ctx.beginPath();
      ctx.roundRect(0, 0, width, height, l.cornerRadius);
      ctx.fill();
    } else {
      ctx.fillRect(0, 0, width, height);
    }
    ctx.fillStyle = l.color;
    ctx.beginPath();
    if (p.cellShape === 'square') {
      for (const [x, y, w, h] of squareRuns(l)) ctx.rect(x, y, w, h);
    } else {
      for (const b of cellBoxes(l)) {
        const inset = Math.min(b.w, b.h) * 0.06;
        if (p.cellShape === 'circle') {
          const r = Math.min(b.w, b.h) / 2 - inset;
          ctx.moveTo(b.x + b.w / 2 + r, b.y + b.h / 2);
          ctx.arc(b.x + b.w / 2, b.y + b.h / 2, r, 0, Math.PI * 2);
        } else {
          ctx.roundRect(b.x + inset, b.y + inset, b.w - 2 * inset, b.h - 2 * inset, Math.min(b.w, b.h) * 0.28);
        }
      }
    }
    ctx.fill();
  },

  svg(input) {
    const { params: p, width, height, seed, pixelRatio } = input;
    const l = layout(p, seed, width, height, pixelRatio);
    const W = num(width);
    const H = num(height);
    const bg =
      l.cornerRadius > 0
        ? `<rect width="${W}" height="${H}" rx="${num(l.cornerRadius)}" fill="${p.background}"/>`
        : `<rect width="${W}" height="${H}" fill="${p.background}"/>`;
    let body: string;
    if (p.cellShape === 'square') {
      const d = squareRuns(l)
        .map(([x, y, w, h]) => `M${num(x)} ${num(y)}h${num(w)}v${num(h)}h${num(-w)}z`)
        .join('');
      body = d ? `<path d="${d}" fill="${l.color}"/>` : '';
    } else {
      const shapes = cellBoxes(l).map((b) => {
        const inset = Math.min(b.w, b.h) * 0.06;
        if (p.cellShape === 'circle') {
          return `<circle cx="${num(b.x + b.w / 2)}" cy="${num(b.y + b.h / 2)}" r="${num(Math.min(b.w, b.h) / 2 - inset)}"/>`;
        }
        return `<rect x="${num(b.x + inset)}" y="${num(b.y + inset)}" width="${num(b.w - 2 * inset)}" height="${num(b.h - 2 * inset)}" rx="${num(Math.min(b.w, b.h) * 0.28)}"/>`;
      });
      body = `<g fill="${l.color}">${shapes.join('')}</g>`;
    }
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${bg}${body}</svg>`;
  },
});
