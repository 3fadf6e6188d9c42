// Isometric blocks: a field of square tiles seen in isometric projection, each raised into a
// column whose height follows seeded noise (with the odd tower), like a tiny abstract city. Tops are
// coloured along the palette by height and the two visible sides are shaded, drawn back to front
// as solid polygons on the canvas and in the SVG.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { defineGenerator, type RenderInput } from '../../generator.types.ts';
import { colorParam, mix, paletteParam, parseHex, samplePalette, toHex } from '../lib/1dac23a/color.ts';
import { fbm2, noise2D } from '../lib/1dac23a/noise.ts';
import { range, subRandom } from '../lib/3e3ef4b/random.ts';
import { num } from '../lib/2a88792/svg.ts';

export interface IsometricParams extends Record<string, unknown> {
  cells: number;
  maxHeight: number;
  towers: number;
  shade: number;
  palette: string[];
  background: string;
}

const defaults: IsometricParams = {
  cells: 14,
  maxHeight: 4,
  towers: 0.05,
  shade: 0.5,
  palette: ['#3d5a80', '#5fa8d3', '#98c1d9', '#f2cc8f', '#ee6c4d'],
  background: '#141b2d',
};

const SQRT3_2 = Math.sqrt(3) / 2;

interface Prism {
  top: string;
  left: string;
  right: string;
  /** Polygons: top rhombus, left side, right side, as flat [x, y, x, y, …]. */
  faces: [number[], number[], number[]];
}

function buildPrisms(p: IsometricParams, seed: number, width: number, height: number): Prism[] {
  const noise = noise2D(seed, 'isometric/height');
  const rnd = subRandom(seed, 'isometric/towers');
  const palette = p.palette.map(parseHex);
  const shadow = parseHex(p.background);
  const s = width / p.cells / (2 * SQRT3_2); // tile edge: `cells` tiles across the width
  const dx = s * SQRT3_2;
  const dy = s * 0.5;
  const unitH = s * 0.62; // height of one level
  const ox = range(rnd, -40, 40),
    oy = range(rnd, -40, 40);
  // Rows r = i + j run top to bottom, columns c = i - j left to right: enough of both to cover the
  // canvas, including columns that rise into it from below.
  const cols = Math.ceil(width / (2 * dx)) + 2;
  const rowsTop = -2;
  const rowsBottom = Math.ceil((height + (p.maxHeight + 3) * unitH) / dy) + 2;
  const prisms: Prism[] = [];
  for (let r = rowsTop; r <= rowsBottom; r++) {
    for (let c = -cols - 1; c <= cols * 2 + 1; c++) {
      if ((r + c) & 1) continue; // i and j integers
      const i = (r + c) / 2,
        j = (r - c) / 2;
      const x = c * dx;
      const yBase = r * dy;
      if (x < -2 * dx || x > width + 2 * dx) continue;
      const v = 0.5 + 0.5 * fbm2(noise, i * 0.16 + ox, j * 0.16 + oy, 2) * 1.4;
      let level = Math.max(0, Math.min(p.maxHeight, Math.floor(v * (p.maxHeight + 1))));
      const tower = rnd() < p.towers;
      if (tower) level += 1 + Math.floor(rnd() * Math.max(1, p.maxHeight));
      const h = level * unitH + s * 0.12; // every tile has a thin base
      const top = yBase - h;
      if (top - dy > height || yBase + dy < 0 - (p.maxHeight * 2 + 2) * unitH) continue;
      if (top + 2 * dy < 0 && yBase + 2 * dy < 0) continue;
      const t = p.maxHeight + 1 > 0 ? Math.min(1, level / (p.maxHeight * 1.5 + 1)) : 0;
      const base = samplePalette(palette, tower ? Math.min(1, 0.85 + 0.15 * rnd()) : t);
      const topFace = [x, top - dy, x + dx, top, x, top + dy, x - dx, top];
      const leftFace = [x - dx, top, x, top + dy, x, yBase + dy, x - dx, yBase];
      const rightFace = [x, top + dy, x + dx, top, x + dx, yBase, x, yBase + dy];
      prisms.push({
        top: toHex(base),
        left: toHex(mix(base, shadow, 0.25 * p.shade + 0.05)),
        right: toHex(mix(base, shadow, 0.55 * p.shade + 0.1)),
        faces: [topFace, leftFace, rightFace],
      });
    }
  }
  return prisms;
}

export default defineGenerator<IsometricParams>({
  slug: 'isometric',
  name: 'Isometric blocks',
  description:
    'A tiny abstract city in isometric projection: columns of blocks rising with a smooth field, tops coloured by height, sides shaded.',
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
        title: 'Tiles across',
        description: 'Number of tiles across the width of the canvas.',
        minimum: 4,
        maximum: 48,
        default: defaults.cells,
      },
      maxHeight: {
        type: 'integer',
        title: 'Height levels',
        description: 'Highest number of block levels the field raises a column to (0 = flat tiles).',
        minimum: 0,
        maximum: 10,
        default: defaults.maxHeight,
      },
      towers: {
        type: 'number',
        title: 'Towers',
        description: 'Share of columns raised further into towers in the last palette colour.',
        minimum: 0,
        maximum: 0.5,
        default: defaults.towers,
      },
      shade: {
        type: 'number',
        title: 'Side shading',
        description: 'How much darker the sides of a column are than its top.',
        minimum: 0,
        maximum: 1,
        default: defaults.shade,
      },
      palette: paletteParam('Palette', 'Top colours from the lowest to the highest columns.', defaults.palette),
      background: colorParam('Background', 'Colour behind the blocks; the sides are shaded towards it.', defaults.background),
    },
  },

  draw(ctx: SKRSContext2D, input) {
    const { params: p, width, height, seed } = input;
    ctx.fillStyle = p.background;
    ctx.fillRect(0, 0, width, height);
    const poly = (pts: number[], color: string) => {
      ctx.beginPath();
      ctx.moveTo(pts[0], pts[1]);
      for (let k = 2; k < pts.length; k += 2) ctx.lineTo(pts[k], pts[k + 1]);
      ctx.closePath();
      ctx.fillStyle = color;
      ctx.fill();
    };
    for (const pr of buildPrisms(p, seed, width, height)) {
      poly(pr.faces[1], pr.left);
      poly(pr.faces[2], pr.right);
      poly(pr.faces[0], pr.top);
    }
  },

  svg(input: RenderInput<IsometricParams>) {
    const { params: p, width, height, seed } = input;
    const W = num(width),
      H = num(height);
    const d = (pts: number[]) => {
      let out = `M${num(pts[0])} ${num(pts[1])}`;
      for (let k = 2; k < pts.length; k += 2) out += `L${num(pts[k])} ${num(pts[k + 1])}`;
      return `${out}Z`;
    };
    const paths = buildPrisms(p, seed, width, height).map(
      (pr) =>
        `<path fill="${pr.left}" d="${d(pr.faces[1])}"/><path fill="${pr.right}" d="${d(pr.faces[2])}"/><path fill="${pr.top}" d="${d(pr.faces[0])}"/>`,
    );
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
      `<rect width="${W}" height="${H}" fill="${p.background}"/>${paths.join('')}</svg>`
    );
  },
});
