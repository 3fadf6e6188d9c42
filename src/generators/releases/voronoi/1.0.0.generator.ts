// Voronoi mosaic: seeded sites (optionally evened out with Lloyd relaxation) cut the canvas into
// convex cells. Each cell is computed exactly as a polygon by clipping the canvas rectangle with the
// perpendicular bisectors of nearby sites (found through a uniform grid), so the raster and the SVG
// share the same geometry. Gaps are made by shifting the bisectors inward; corners can be rounded.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { num } from '../lib/2a88792/svg.ts';
import { defineGenerator } from '../../generator.types.ts';
import { colorParam, mix, paletteParam, parseHex, samplePalette, toHex, type Rgb } from '../lib/1dac23a/color.ts';
import { fbm2, noise2D } from '../lib/1dac23a/noise.ts';
import { subRandom } from '../lib/3e3ef4b/random.ts';

export const COLOR_MODES = ['random', 'gradient'] as const;

export interface VoronoiParams extends Record<string, unknown> {
  cells: number;
  palette: string[];
  colorMode: (typeof COLOR_MODES)[number];
  gap: number;
  gapColor: string;
  roundness: number;
  relax: number;
  variation: number;
}

const defaults: VoronoiParams = {
  cells: 80,
  palette: ['#264653', '#2a9d8f', '#e9c46a', '#f4a261', '#e76f51'],
  colorMode: 'random',
  gap: 4,
  gapColor: '#fbf6ec',
  roundness: 6,
  relax: 2,
  variation: 0.25,
};

/** Keep the part of a polygon (flat xy array) where (p - o)·u <= limit. */
function clipHalfPlane(poly: number[], ox: number, oy: number, ux: number, uy: number, limit: number): number[] {
  const out: number[] = [];
  const n = poly.length / 2;
  if (n === 0) return out;
  let px = poly[2 * n - 2],
    py = poly[2 * n - 1];
  let pd = (px - ox) * ux + (py - oy) * uy - limit;
  for (let i = 0; i < n; i++) {
    const cx = poly[2 * i],
      cy = poly[2 * i + 1];
    const cd = (cx - ox) * ux + (cy - oy) * uy - limit;
    if (cd <= 0) {
      if (pd > 0) {
        const t = pd / (pd - cd);
        out.push(px + (cx - px) * t, py + (cy - py) * t);
      }
      out.push(cx, cy);
    } else if (pd <= 0) {
      const t = pd / (pd - cd);
      out.push(px + (cx - px) * t, py + (cy - py) * t);
    }
    px = cx;
    py = cy;
    pd = cd;
  }
  return out;
}

/** Exact Voronoi cells (clipped to the canvas), each shrunk by `inset` from every bisector. */
function voronoiCells(xs: Float64Array, ys: Float64Array, width: number, height: number, inset: number): number[][] {
  const n = xs.length;
  const g = Math.max(1e-6, Math.sqrt((width * height) / n));
  const gx = Math.max(1, Math.ceil(width / g));
  const gy = Math.max(1, Math.ceil(height / g));
  const buckets: number[][] = Array.from({ length: gx * gy }, () => []);
  const cellOf = (x: number, y: number): [number, number] => [
    Math.min(gx - 1, Math.max(0, Math.floor(x / g))),
    Math.min(gy - 1, Math.max(0, Math.floor(y / g))),
  ];
  for (let i = 0; i < n; i++) {
    const [cx, cy] = cellOf(xs[i], ys[i]);
    buckets[cy * gx + cx].push(i);
  }
  const maxRing = Math.max(gx, gy);
  const polys: number[][] = [];
  for (let i = 0; i < n; i++) {
    const sx = xs[i],
      sy = ys[i];
    let poly = [0, 0, width, 0, width, height, 0, height];
    const [cx, cy] = cellOf(sx, sy);
    for (let r = 0; r <= maxRing && poly.length; r++) {
      for (let j = cy - r; j <= cy + r; j++) {
        if (j < 0 || j >= gy) continue;
        const edgeRow = j === cy - r || j === cy + r;
        for (let k = cx - r; k <= cx + r; k += edgeRow ? 1 : 2 * r) {
          if (k >= 0 && k < gx) {
            for (const o of buckets[j * gx + k]) {
              if (o === i) continue;
              const dx = xs[o] - sx,
                dy = ys[o] - sy;
              const d = Math.hypot(dx, dy);
              if (d < 1e-9) {
                if (o < i) poly = []; // coincident sites: the first one owns the cell
                continue;
              }
              poly = clipHalfPlane(poly, sx, sy, dx / d, dy / d, d / 2 - inset);
              if (!poly.length) break;
            }
          }
          if (r === 0) break;
        }
      }
      // Sites in later rings are at least r·g away; they matter only if closer than twice the
      // farthest polygon vertex.
      let maxD2 = 0;
      for (let v = 0; v < poly.length; v += 2) maxD2 = Math.max(maxD2, (poly[v] - sx) ** 2 + (poly[v + 1] - sy) ** 2);
      if (r * g > 2 * (Math.sqrt(maxD2) + inset)) break;
    }
    polys.push(poly);
  }
  return polys;
}

function centroid(poly: number[], fx: number, fy: number): [number, number] {
  let a = 0,
    cx = 0,
    cy = 0;
  const n = poly.length / 2;
  for (let i = 0; i < n; i++) {
    const x0 = poly[2 * i],
      y0 = poly[2 * i + 1];
    const x1 = poly[(2 * i + 2) % (2 * n)],
      y1 = poly[(2 * i + 3) % (2 * n)];
    const c = x0 * y1 - x1 * y0;
    a += c;
    cx += (x0 + x1) * c;
    cy += (y0 + y1) * c;
  }
  if (Math.abs(a) < 1e-9) return [fx, fy];
  return [cx / (3 * a), cy / (3 * a)];
}

/** Path commands for a convex polygon with corners rounded by quadratic curves. */
interface Cmd {
  m: [number, number];
  segs: Array<[number, number, number, number, number, number]>;
} // L to (x,y) then Q (cx,cy,x,y)

function roundedPath(poly: number[], radius: number): Cmd | null {
  const n = poly.length / 2;
  if (n < 3) return null;
  const pts: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) {
    const x = poly[2 * i],
      y = poly[2 * i + 1];
    const last = pts[pts.length - 1];
    if (!last || Math.hypot(last[0] - x, last[1] - y) > 1e-6) pts.push([x, y]);
  }
  if (pts.length > 2 && Math.hypot(pts[0][0] - pts[pts.length - 1][0], pts[0][1] - pts[pts.length - 1][1]) <= 1e-6) pts.pop();
  const m = pts.length;
  if (m < 3) return null;
  const segs: Cmd['segs'] = [];
  let start: [number, number] | null = null;
  for (let i = 0; i < m; i++) {
    const [px, py] = pts[(i - 1 + m) % m];
    const [vx, vy] = pts[i];
    const [nx, ny] = pts[(i + 1) % m];
    const lp = Math.hypot(vx - px, vy - py),
      ln = Math.hypot(nx - vx, ny - vy);
    const r = Math.min(radius, lp / 2, ln / 2);
    const ax = vx + ((px - vx) / lp) * r,
      ay = vy + ((py - vy) / lp) * r;
    const bx = vx + ((nx - vx) / ln) * r,
      by = vy + ((ny - vy) / ln) * r;
    if (!start) start = [ax, ay];
    segs.push([ax, ay, vx, vy, bx, by]);
  }
  return { m: start!, segs };
}

interface Cell {
  path: Cmd;
  color: string;
}

function buildScene(p: VoronoiParams, seed: number, width: number, height: number): Cell[] {
  const rnd = subRandom(seed, 'voronoi/sites');
  const n = p.cells;
  let xs = new Float64Array(n),
    ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    xs[i] = rnd() * width;
    ys[i] = rnd() * height;
  }
  for (let it = 0; it < p.relax; it++) {
    const polys = voronoiCells(xs, ys, width, height, 0);
    const nx = new Float64Array(n),
      ny = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const [cx, cy] = polys[i].length ? centroid(polys[i], xs[i], ys[i]) : [xs[i], ys[i]];
      nx[i] = cx;
      ny[i] = cy;
    }
    xs = nx;
    ys = ny;
  }
  const polys = voronoiCells(xs, ys, width, height, p.gap / 2);

  const crnd = subRandom(seed, 'voronoi/colors');
  const palette = p.palette.map(parseHex);
  const noise = noise2D(seed, 'voronoi/gradient');
  const unit = Math.min(width, height);
  const dir = crnd() * Math.PI * 2;
  const ux = Math.cos(dir),
    uy = Math.sin(dir);
  const span = Math.abs(ux) * width + Math.abs(uy) * height;
  const white: Rgb = { r: 255, g: 255, b: 255 };
  const black: Rgb = { r: 0, g: 0, b: 0 };
  const cells: Cell[] = [];
  for (let i = 0; i < n; i++) {
    let c: Rgb;
    if (p.colorMode === 'gradient') {
      const along = ((xs[i] - width / 2) * ux + (ys[i] - height / 2) * uy) / span + 0.5;
      const t = along + fbm2(noise, (xs[i] / unit) * 1.3, (ys[i] / unit) * 1.3, 2) * 0.35 + (crnd() - 0.5) * 0.12;
      c = samplePalette(palette, t);
    } else {
      c = palette[Math.floor(crnd() * palette.length) % palette.length];
    }
    const v = (crnd() * 2 - 1) * p.variation * 0.22;
    c = v >= 0 ? mix(c, white, v) : mix(c, black, -v);
    const path = roundedPath(polys[i], p.gap > 0 ? p.roundness : 0);
    if (path) cells.push({ path, color: toHex(c) });
  }
  return cells;
}

export default defineGenerator<VoronoiParams>({
  slug: 'voronoi',
  name: 'Voronoi',
  description: 'Voronoi mosaic of seeded cells filled from a palette, with optional gaps and rounded corners.',
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
        title: 'Cells',
        description: 'Number of Voronoi cells.',
        minimum: 3,
        maximum: 2000,
        default: defaults.cells,
      },
      palette: paletteParam('Palette', 'Cell colours.', defaults.palette),
      colorMode: {
        type: 'string',
        title: 'Colouring',
        description: 'random: each cell takes a palette colour at random; gradient: colours flow smoothly across the canvas.',
        enum: [...COLOR_MODES],
        default: defaults.colorMode,
      },
      gap: {
        type: 'number',
        title: 'Gap',
        description: 'Width of the border between cells in pixels (0 = cells touch).',
        minimum: 0,
        maximum: 40,
        default: defaults.gap,
      },
      gapColor: colorParam('Gap colour', 'Colour of the borders between cells.', defaults.gapColor),
      roundness: {
        type: 'number',
        title: 'Corner rounding',
        description: 'Corner radius of the cells in pixels (0 = sharp corners). Only applies when there is a gap.',
        minimum: 0,
        maximum: 60,
        default: defaults.roundness,
      },
      relax: {
        type: 'integer',
        title: 'Relaxation',
        description: 'Lloyd relaxation passes: 0 keeps raw random cells, more passes give even, honeycomb-like cells.',
        minimum: 0,
        maximum: 6,
        default: defaults.relax,
      },
      variation: {
        type: 'number',
        title: 'Shade variation',
        description: 'Random lightening/darkening of individual cells (0 = flat palette colours).',
        minimum: 0,
        maximum: 1,
        default: defaults.variation,
      },
    },
  },

  draw(ctx: SKRSContext2D, input) {
    const { params: p, width, height, seed } = input;
    ctx.fillStyle = p.gapColor;
    ctx.fillRect(0, 0, width, height);
    const cells = buildScene(p, seed, width, height);
    // Without a gap, stroke each cell in its own colour to hide anti-aliasing seams between cells.
    const seamFix = p.gap === 0;
    if (seamFix) {
      ctx.lineWidth = 0.75;
      ctx.lineJoin = 'round';
    }
    for (const { path, color } of cells) {
      ctx.beginPath();
      ctx.moveTo(path.m[0], path.m[1]);
      for (const [ax, ay, vx, vy, bx, by] of path.segs) {
        ctx.lineTo(ax, ay);
        ctx.quadraticCurveTo(vx, vy, bx, by);
      }
      ctx.closePath();
      ctx.fillStyle = color;
      ctx.fill();
      if (seamFix) {
        ctx.strokeStyle = color;
        ctx.stroke();
      }
    }
  },

  svg(input) {
    const { params: p, width, height, seed } = input;
    const cells = buildScene(p, seed, width, height);
    const W = num(width),
      H = num(height);
    const seam = p.gap === 0 ? ` stroke-width="0.75" stroke-linejoin="round"` : '';
    const parts = cells.map(({ path, color }) => {
      let d = `M${num(path.m[0])} ${num(path.m[1])}`;
      for (const [ax, ay, vx, vy, bx, by] of path.segs) {
        d += `L${num(ax)} ${num(ay)}`;
        if (ax !== vx || ay !== vy || bx !== vx || by !== vy) d += `Q${num(vx)} ${num(vy)} ${num(bx)} ${num(by)}`;
      }
      return `<path fill="${color}"${p.gap === 0 ? ` stroke="${color}"` : ''} d="${d}Z"/>`;
    });
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
      `<rect width="${W}" height="${H}" fill="${p.gapColor}"/><g${seam}>${parts.join('')}</g></svg>`
    );
  },
});
