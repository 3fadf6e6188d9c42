// Topographic map: a seeded, domain-warped fBm height field sampled on a grid, traced into
// iso-lines with marching squares (segments joined into polylines, then simplified), with thicker
// "index" contours every few levels and optional hypsometric tints between them. The same
// polylines feed the raster and the SVG.
import { Path2D, type SKRSContext2D } from '@napi-rs/canvas';
import { num } from '../lib/2a88792/svg.ts';
import { defineGenerator } from '../../generator.types.ts';
import { colorParam, paletteParam, parseHex, samplePalette, toHex } from '../lib/1dac23a/color.ts';
import { fbm2, noise2D } from '../lib/1dac23a/noise.ts';
import { simplify } from '../lib/3e3ef4b/polyline.ts';

export interface TopographyParams extends Record<string, unknown> {
  levels: number;
  scale: number;
  detail: number;
  warp: number;
  lineWidth: number;
  majorEvery: number;
  lineColor: string;
  background: string;
  fill: boolean;
  palette: string[];
}

const defaults: TopographyParams = {
  levels: 20,
  scale: 1.3,
  detail: 3,
  warp: 0.3,
  lineWidth: 1,
  majorEvery: 5,
  lineColor: '#5a4632',
  background: '#f3ecdf',
  fill: false,
  palette: ['#dfe9d6', '#c5dcb4', '#e8dcae', '#dcb98a', '#c09a7c', '#f1ede8'],
};

/** Grid budget: at most this many height samples, however large the canvas. */
const MAX_SAMPLES = 300_000;
/** Upper bound on contour vertices drawn (see buildScene). */
const VERTEX_BUDGET = 200_000;

interface Grid {
  v: Float32Array;
  nx: number;
  ny: number;
  x0: number;
  y0: number;
  cell: number;
}

interface Contour {
  pts: number[];
  closed: boolean;
}

// Marching-squares segment table: for each case, pairs of edges (0 top, 1 right, 2 bottom, 3 left).
// Saddles (5, 10) are listed for "centre below"; the other resolution is chosen at run time.
const SEGMENTS: number[][] = [
  [],
  [3, 2],
  [2, 1],
  [3, 1],
  [0, 1],
  [0, 1, 3, 2],
  [0, 2],
  [3, 0],
  [3, 0],
  [0, 2],
  [3, 0, 2, 1],
  [0, 1],
  [3, 1],
  [2, 1],
  [3, 2],
  [],
];

/**
 * Iso-lines of the grid at each level, joined into polylines in canvas coordinates. One pass over
 * the cells collects segments for every level a cell spans; then each level's segments are linked
 * through their shared grid edges and walked into polylines.
 */
function contours(g: Grid, levels: number[]): Contour[][] {
  const { v, nx, ny, x0, y0, cell } = g;
  const H = (nx - 1) * ny; // horizontal edges come first, then vertical ones
  const total = H + nx * (ny - 1);
  const n = levels.length;
  const lo = levels[0],
    step = n > 1 ? levels[1] - levels[0] : 1;
  const segs: number[][] = levels.map(() => []);
  const edges = new Int32Array(4);
  for (let j = 0; j < ny - 1; j++) {
    for (let i = 0; i < nx - 1; i++) {
      const a = v[j * nx + i],
        b = v[j * nx + i + 1],
        c = v[(j + 1) * nx + i + 1],
        d = v[(j + 1) * nx + i];
      const mn = Math.min(a, b, c, d),
        mx = Math.max(a, b, c, d);
      let k0 = Math.max(0, Math.ceil((mn - lo) / step) - 1);
      const k1 = Math.min(n - 1, Math.floor((mx - lo) / step) + 1);
      if (k0 > k1) continue;
      edges[0] = j * (nx - 1) + i;
      edges[1] = H + j * nx + i + 1;
      edges[2] = edges[0] + nx - 1;
      edges[3] = H + j * nx + i;
      for (; k0 <= k1; k0++) {
        const level = levels[k0];
        const idx = (a >= level ? 8 : 0) | (b >= level ? 4 : 0) | (c >= level ? 2 : 0) | (d >= level ? 1 : 0);
        if (idx === 0 || idx === 15) continue;
        let seg = SEGMENTS[idx];
        if (idx === 5 || idx === 10) {
          const centreAbove = (a + b + c + d) / 4 >= level;
          // Case 5 (b, d above): centre above joins b and d → cut off a (left-top) and c (bottom-right).
          if (idx === 5 && centreAbove) seg = [3, 0, 2, 1];
          // Case 10 (a, c above): centre above joins a and c → cut off b (top-right) and d (left-bottom).
          if (idx === 10 && centreAbove) seg = [0, 1, 3, 2];
        }
        const list = segs[k0];
        for (let s = 0; s < seg.length; s += 2) list.push(edges[seg[s]], edges[seg[s + 1]]);
      }
    }
  }
  const link1 = new Int32Array(total).fill(-1);
  const link2 = new Int32Array(total).fill(-1);
  const seen = new Uint8Array(total);
  const result: Contour[][] = [];
  for (let k = 0; k < n; k++) {
    const level = levels[k];
    const list = segs[k];
    for (let s = 0; s < list.length; s += 2) {
      const e1 = list[s],
        e2 = list[s + 1];
      if (link1[e1] < 0) link1[e1] = e2;
      else link2[e1] = e2;
      if (link1[e2] < 0) link1[e2] = e1;
      else link2[e2] = e1;
    }
    const point = (e: number, out: number[]) => {
      if (e < H) {
        const j = Math.floor(e / (nx - 1)),
          i = e - j * (nx - 1);
        const va = v[j * nx + i],
          vb = v[j * nx + i + 1];
        out.push(x0 + (i + (level - va) / (vb - va)) * cell, y0 + j * cell);
      } else {
        const q = e - H;
        const j = Math.floor(q / nx),
          i = q - j * nx;
        const va = v[j * nx + i],
          vb = v[(j + 1) * nx + i];
        out.push(x0 + i * cell, y0 + (j + (level - va) / (vb - va)) * cell);
      }
    };
    const walk = (start: number): Contour => {
      const pts: number[] = [];
      let prev = -1,
        cur = start;
      let closed = false;
      for (;;) {
        seen[cur] = 1;
        point(cur, pts);
        const nxt = link1[cur] !== prev ? link1[cur] : link2[cur];
        if (nxt < 0) break;
        if (nxt === start) {
          closed = true;
          break;
        }
        if (seen[nxt]) break;
        prev = cur;
        cur = nxt;
      }
      return { pts, closed };
    };
    const out: Contour[] = [];
    // Open lines first (their ends have a single link), then the remaining closed loops.
    for (let s = 0; s < list.length; s++) {
      const e = list[s];
      if (!seen[e] && link2[e] < 0) out.push(walk(e));
    }
    for (let s = 0; s < list.length; s++) if (!seen[list[s]]) out.push(walk(list[s]));
    for (let s = 0; s < list.length; s++) {
      const e = list[s];
      link1[e] = link2[e] = -1;
      seen[e] = 0;
    }
    result.push(out);
  }
  return result;
}

interface Level {
  major: boolean;
  lines: Contour[];
  tint?: string;
}

interface Scene {
  levels: Level[];
  baseTint?: string;
}

function buildScene(p: TopographyParams, seed: number, width: number, height: number): Scene {
  const noise = noise2D(seed, 'topography/height');
  const warpX = noise2D(seed, 'topography/warp-x');
  const warpY = noise2D(seed, 'topography/warp-y');
  const unit = Math.min(width, height);
  const freq = p.scale / unit;
  // Sample a little beyond the canvas so lines leave it cleanly. With tints, a ring of very low
  // samples outside closes every contour, so each level's region can be filled (even-odd).
  const cell = Math.max(3, Math.sqrt((width * height) / MAX_SAMPLES));
  const pad = p.fill ? Math.ceil((p.lineWidth * 2.5 + 2) / cell) + 1 : 1;
  const x0 = -pad * cell,
    y0 = -pad * cell;
  const nx = Math.ceil((width + 2 * pad * cell) / cell) + 1;
  const ny = Math.ceil((height + 2 * pad * cell) / cell) + 1;
  const v = new Float32Array(nx * ny);
  let lo = Infinity,
    hi = -Infinity;
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const x = (x0 + i * cell) * freq,
        y = (y0 + j * cell) * freq;
      const wx = p.warp > 0 ? fbm2(warpX, x * 0.7, y * 0.7, 2) * p.warp * 1.5 : 0;
      const wy = p.warp > 0 ? fbm2(warpY, x * 0.7, y * 0.7, 2) * p.warp * 1.5 : 0;
      const h = fbm2(noise, x + wx, y + wy, p.detail, 2, 0.42);
      v[j * nx + i] = h;
      if (h < lo) lo = h;
      if (h > hi) hi = h;
    }
  }
  const span = hi - lo || 1;
  for (let k = 0; k < v.length; k++) v[k] = (v[k] - lo) / span;
  if (p.fill) {
    for (let i = 0; i < nx; i++) {
      v[i] = -1;
      v[(ny - 1) * nx + i] = -1;
    }
    for (let j = 0; j < ny; j++) {
      v[j * nx] = -1;
      v[j * nx + nx - 1] = -1;
    }
  }
  const grid: Grid = { v, nx, ny, x0, y0, cell };
  const palette = p.palette.map(parseHex);
  // Wider lines hide more simplification, and every vertex of a wide stroke is costly to render.
  const tol = Math.min(cell * 0.25, 0.2 + p.lineWidth * 0.15);
  const n = p.levels;
  const values = Array.from({ length: n }, (_, k) => (k + 1) / (n + 1));
  const traced = contours(grid, values);
  // Keep the total vertex count bounded (wide strokes cost a few µs per vertex): on huge, busy
  // maps, simplify harder until the budget is met.
  let simplified: Contour[][] = [];
  for (let pass = 0; pass < 5; pass++) {
    let count = 0;
    simplified = traced.map((lines) =>
      lines
        .map((c) => {
          const pts = simplify(c.pts, tol * 2 ** pass);
          count += pts.length / 2;
          return { pts, closed: c.closed };
        })
        .filter((c) => c.pts.length >= 4),
    );
    if (count <= VERTEX_BUDGET) break;
  }
  const levels: Level[] = simplified.map((lines, i) => ({
    major: p.majorEvery > 0 && (i + 1) % p.majorEvery === 0,
    lines,
    tint: p.fill ? toHex(samplePalette(palette, (i + 1) / n)) : undefined,
  }));
  return { levels, baseTint: p.fill ? toHex(palette[0]) : undefined };
}

export default defineGenerator<TopographyParams>({
  slug: 'topography',
  name: 'Topography',
  description: 'Topographic contour lines of a seeded noise terrain, with index contours and optional hypsometric tints.',
  version: '1.0.0',
  animated: false,
  formats: ['png', 'webp', 'svg'],
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      levels: {
        type: 'integer',
        title: 'Contour levels',
        description: 'Number of evenly spaced elevation lines.',
        minimum: 3,
        maximum: 40,
        default: defaults.levels,
      },
      scale: {
        type: 'number',
        title: 'Terrain scale',
        description: 'How many hills fit across the shorter side of the canvas; higher is busier.',
        minimum: 0.3,
        maximum: 6,
        default: defaults.scale,
      },
      detail: {
        type: 'integer',
        title: 'Detail',
        description: 'Noise octaves: more gives rougher, more intricate contours.',
        minimum: 1,
        maximum: 5,
        default: defaults.detail,
      },
      warp: {
        type: 'number',
        title: 'Warp',
        description: 'Domain warping that twists the terrain into ridges and valleys (0 = plain noise).',
        minimum: 0,
        maximum: 1,
        default: defaults.warp,
      },
      lineWidth: {
        type: 'number',
        title: 'Line width',
        description: 'Width of the regular contour lines in pixels (index lines are drawn twice as wide).',
        minimum: 0.25,
        maximum: 4,
        default: defaults.lineWidth,
      },
      majorEvery: {
        type: 'integer',
        title: 'Index contour interval',
        description: 'Every n-th line is drawn thicker (0 = all lines the same).',
        minimum: 0,
        maximum: 10,
        default: defaults.majorEvery,
      },
      lineColor: colorParam('Line colour', 'Colour of the contour lines.', defaults.lineColor),
      background: colorParam('Background', 'Paper colour (hidden under the tints when fill is on).', defaults.background),
      fill: {
        type: 'boolean',
        title: 'Elevation tints',
        description: 'Fill the bands between contours with colours from the palette, low to high.',
        default: defaults.fill,
      },
      palette: paletteParam(
        'Tint palette',
        'Elevation tints from the lowest to the highest band (used when fill is on).',
        defaults.palette,
      ),
    },
  },

  draw(ctx: SKRSContext2D, input) {
    const { params: p, width, height, seed } = input;
    const scene = buildScene(p, seed, width, height);
    ctx.fillStyle = scene.baseTint ?? p.background;
    ctx.fillRect(0, 0, width, height);
    // Path2D calls are much cheaper than context calls for paths with many points.
    const trace = (path: Path2D, lines: Contour[]) => {
      for (const { pts, closed } of lines) {
        path.moveTo(pts[0], pts[1]);
        for (let i = 2; i < pts.length; i += 2) path.lineTo(pts[i], pts[i + 1]);
        if (closed) path.closePath();
      }
      return path;
    };
    if (p.fill) {
      for (const level of scene.levels) {
        if (!level.lines.length) continue;
        ctx.fillStyle = level.tint!;
        ctx.fill(trace(new Path2D(), level.lines), 'evenodd');
      }
    }
    ctx.strokeStyle = p.lineColor;
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
    for (const major of [false, true]) {
      ctx.lineWidth = major ? p.lineWidth * 2 : p.lineWidth;
      ctx.globalAlpha = major ? 1 : 0.75;
      // Stroke in batches: Skia strokes one huge multi-contour path far slower than many small ones.
      // Lines of one group do not overlap, so batching does not change the picture.
      const lines = scene.levels.filter((l) => l.major === major).flatMap((l) => l.lines);
      for (let i = 0; i < lines.length; i += 64) ctx.stroke(trace(new Path2D(), lines.slice(i, i + 64)));
    }
    ctx.globalAlpha = 1;
  },

  svg(input) {
    const { params: p, width, height, seed } = input;
    const scene = buildScene(p, seed, width, height);
    const W = num(width),
      H = num(height);
    const pathData = (lines: Contour[]) => {
      let d = '';
      for (const { pts, closed } of lines) {
        let qx = Math.round(pts[0] * 100),
          qy = Math.round(pts[1] * 100);
        d += `M${qx / 100} ${qy / 100}l`;
        let first = true;
        for (let i = 2; i < pts.length; i += 2) {
          const nx = Math.round(pts[i] * 100),
            ny = Math.round(pts[i + 1] * 100);
          const dx = (nx - qx) / 100,
            dy = (ny - qy) / 100;
          d += (first || dx < 0 ? '' : ' ') + dx + (dy < 0 ? '' : ' ') + dy;
          first = false;
          qx = nx;
          qy = ny;
        }
        if (closed) d += 'z';
      }
      return d;
    };
    const out: string[] = [
      `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">`,
      `<rect width="${W}" height="${H}" fill="${scene.baseTint ?? p.background}"/>`,
    ];
    if (p.fill) {
      for (const level of scene.levels) {
        if (level.lines.length) out.push(`<path fill="${level.tint}" fill-rule="evenodd" d="${pathData(level.lines)}"/>`);
      }
    }
    out.push(`<g fill="none" stroke="${p.lineColor}" stroke-linejoin="round" stroke-linecap="round">`);
    for (const major of [false, true]) {
      const lines = scene.levels.filter((l) => l.major === major).flatMap((l) => l.lines);
      if (!lines.length) continue;
      out.push(
        `<path stroke-width="${num(major ? p.lineWidth * 2 : p.lineWidth)}"${major ? '' : ' stroke-opacity="0.75"'} d="${pathData(lines)}"/>`,
      );
    }
    out.push('</g></svg>');
    return out.join('');
  },
});
