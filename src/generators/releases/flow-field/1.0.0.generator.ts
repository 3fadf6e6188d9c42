// Noise flow field: evenly spaced streamlines (Jobard–Lefer style) traced through a seeded simplex
// angle field. Lines stop when they run into another line, leave the canvas or reach their length,
// which gives the combed, hand-drawn look. Lines are simplified (Ramer–Douglas–Peucker) once and
// the same polylines feed both the raster and the SVG.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { num } from '../lib/2a88792/svg.ts';
import { defineGenerator } from '../../generator.types.ts';
import { colorParam, paletteParam } from '../lib/1dac23a/color.ts';
import { fbm2, noise2D } from '../lib/1dac23a/noise.ts';
import { subRandom } from '../lib/3e3ef4b/random.ts';
import { simplify } from '../lib/3e3ef4b/polyline.ts';

export interface FlowFieldParams extends Record<string, unknown> {
  background: string;
  palette: string[];
  spacing: number;
  lineWidth: number;
  scale: number;
  turbulence: number;
  detail: number;
  maxLength: number;
  opacity: number;
}

const defaults: FlowFieldParams = {
  background: '#10131c',
  palette: ['#f6bd60', '#f28482', '#84a59d', '#f5cac3', '#7fb7d8'],
  spacing: 7,
  lineWidth: 1.4,
  scale: 1.2,
  turbulence: 0.6,
  detail: 2,
  maxLength: 0.6,
  opacity: 0.9,
};

/** Hard budget on traced points so the worst case (4096² at minimum spacing) stays fast. */
const MAX_POINTS = 500_000;
const MAX_SEEDS = 60_000;

interface Scene {
  /** Polylines grouped by palette index. */
  groups: number[][][];
}

function buildScene(p: FlowFieldParams, seed: number, width: number, height: number): Scene {
  const noise = noise2D(seed, 'flow-field/angle');
  const colorNoise = noise2D(seed, 'flow-field/color');
  const rnd = subRandom(seed, 'flow-field/seeds');
  const unit = Math.min(width, height);
  const freq = p.scale / unit;
  const turns = p.turbulence * Math.PI * 2;
  const octaves = p.detail;
  const angleAt = (x: number, y: number) => fbm2(noise, x * freq, y * freq, octaves) * turns;

  const dsep = p.spacing;
  const dtest = dsep * 0.5;
  const step = Math.min(4, Math.max(0.8, dsep * 0.35));
  const maxSteps = Math.min(3000, Math.max(8, Math.round((p.maxLength * unit) / step)));
  const minPoints = Math.max(3, Math.min(Math.round((dsep / step) * 2), Math.round((unit * 0.08) / step)));
  const selfGap = Math.ceil((dsep * 3) / step); // ignore own points this close along the line

  // Spatial hash of accepted points: cell = dtest, linked lists in typed arrays.
  const cell = dtest;
  const gw = Math.max(1, Math.ceil(width / cell) + 1);
  const gh = Math.max(1, Math.ceil(height / cell) + 1);
  const head = new Int32Array(gw * gh).fill(-1);
  const px = new Float32Array(MAX_POINTS);
  const py = new Float32Array(MAX_POINTS);
  const next = new Int32Array(MAX_POINTS);
  const owner = new Int32Array(MAX_POINTS);
  const order = new Int32Array(MAX_POINTS);
  let count = 0;

  const insert = (x: number, y: number, line: number, ord: number) => {
    const c = Math.floor(y / cell) * gw + Math.floor(x / cell);
    px[count] = x;
    py[count] = y;
    owner[count] = line;
    order[count] = ord;
    next[count] = head[c];
    head[c] = count;
    count++;
  };
  /** True when a point of another line (or a far-away part of this one) lies within `d`. */
  const blocked = (x: number, y: number, d: number, line: number, ord: number) => {
    const r = Math.ceil(d / cell);
    const cx = Math.floor(x / cell),
      cy = Math.floor(y / cell);
    const d2 = d * d;
    for (let j = Math.max(0, cy - r); j <= Math.min(gh - 1, cy + r); j++) {
      for (let i = Math.max(0, cx - r); i <= Math.min(gw - 1, cx + r); i++) {
        for (let k = head[j * gw + i]; k >= 0; k = next[k]) {
          if (owner[k] === line && Math.abs(order[k] - ord) < selfGap) continue;
          const dx = px[k] - x,
            dy = py[k] - y;
          if (dx * dx + dy * dy < d2) return true;
        }
      }
    }
    return false;
  };
  const inside = (x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height;

  // Candidate seeds: a jittered grid at the separation distance, in shuffled order.
  const cols = Math.max(1, Math.ceil(width / dsep));
  const rows = Math.max(1, Math.ceil(height / dsep));
  const total = cols * rows;
  const nSeeds = Math.min(total, MAX_SEEDS);
  const seedIdx = new Int32Array(total);
  for (let i = 0; i < total; i++) seedIdx[i] = i;
  for (let i = total - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    const t = seedIdx[i];
    seedIdx[i] = seedIdx[j];
    seedIdx[j] = t;
  }

  const nColors = p.palette.length;
  const groups: number[][][] = p.palette.map(() => []);
  const tol = Math.min(0.35, p.lineWidth * 0.25 + 0.1);
  let lineId = 0;
  for (let s = 0; s < nSeeds && count < MAX_POINTS - 2 * maxSteps - 2; s++) {
    const gi = seedIdx[s];
    const sx = Math.min(width - 1e-3, ((gi % cols) + rnd()) * dsep);
    const sy = Math.min(height - 1e-3, (Math.floor(gi / cols) + rnd()) * dsep);
    if (blocked(sx, sy, dsep, -1, 0)) continue;
    const line = lineId++;
    insert(sx, sy, line, 0);
    const fwd: number[] = [];
    const bwd: number[] = [];
    for (const dir of [1, -1]) {
      const out = dir === 1 ? fwd : bwd;
      let x = sx,
        y = sy;
      for (let k = 1; k <= maxSteps; k++) {
        // Midpoint (RK2) integration for smooth curves.
        const a1 = angleAt(x, y);
        const mx = x + Math.cos(a1) * step * 0.5 * dir;
        const my = y + Math.sin(a1) * step * 0.5 * dir;
        const a2 = angleAt(mx, my);
        const nx = x + Math.cos(a2) * step * dir;
        const ny = y + Math.sin(a2) * step * dir;
        if (!inside(nx, ny)) break;
        const ord = k * dir;
        if (blocked(nx, ny, dtest, line, ord)) break;
        insert(nx, ny, line, ord);
        out.push(nx, ny);
        x = nx;
        y = ny;
      }
    }
    const n = 1 + (fwd.length + bwd.length) / 2;
    if (n < minPoints) continue; // too short to read as a stroke: keep it as an obstacle only
    const pts: number[] = [];
    for (let i = bwd.length - 2; i >= 0; i -= 2) pts.push(bwd[i], bwd[i + 1]);
    pts.push(sx, sy);
    for (let i = 0; i < fwd.length; i++) pts.push(fwd[i]);
    // Colour: a slow noise field picks coherent regions, with a little per-line variety.
    const t = 0.5 + fbm2(colorNoise, sx * freq * 0.7, sy * freq * 0.7, 2) * 0.95 + (rnd() - 0.5) * 0.3;
    const ci = Math.max(0, Math.min(nColors - 1, Math.floor(t * nColors)));
    groups[ci].push(simplify(pts, tol));
  }
  return { groups };
}

export default defineGenerator<FlowFieldParams>({
  slug: 'flow-field',
  name: 'Flow field',
  description: 'Evenly spaced streamlines traced through a simplex-noise angle field: thin, combed strokes on a solid background.',
  version: '1.0.0',
  animated: false,
  formats: ['png', 'webp', 'svg'],
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      background: colorParam('Background', 'Canvas colour behind the lines.', defaults.background),
      palette: paletteParam('Line colours', 'Colours of the streamlines; neighbouring lines tend to share a colour.', defaults.palette),
      spacing: {
        type: 'number',
        title: 'Line spacing',
        description: 'Minimum distance between neighbouring lines, in pixels.',
        minimum: 4,
        maximum: 60,
        default: defaults.spacing,
      },
      lineWidth: {
        type: 'number',
        title: 'Line width',
        description: 'Stroke width in pixels.',
        minimum: 0.25,
        maximum: 8,
        default: defaults.lineWidth,
      },
      scale: {
        type: 'number',
        title: 'Swirl scale',
        description: 'How many swirls fit across the shorter side of the canvas; higher is busier.',
        minimum: 0.2,
        maximum: 10,
        default: defaults.scale,
      },
      turbulence: {
        type: 'number',
        title: 'Turbulence',
        description: 'How strongly the noise turns the flow (in full turns); low values give gentle currents.',
        minimum: 0.1,
        maximum: 4,
        default: defaults.turbulence,
      },
      detail: {
        type: 'integer',
        title: 'Detail',
        description: 'Noise octaves: more adds small wiggles on top of the large swirls.',
        minimum: 1,
        maximum: 4,
        default: defaults.detail,
      },
      maxLength: {
        type: 'number',
        title: 'Maximum line length',
        description: 'Longest streamline as a fraction of the shorter canvas side (per direction from its seed).',
        minimum: 0.05,
        maximum: 2,
        default: defaults.maxLength,
      },
      opacity: {
        type: 'number',
        title: 'Line opacity',
        description: 'Opacity of the strokes (1 = solid).',
        minimum: 0.1,
        maximum: 1,
        default: defaults.opacity,
      },
    },
  },

  draw(ctx: SKRSContext2D, input) {
    const { params: p, width, height, seed } = input;
    ctx.fillStyle = p.background;
    ctx.fillRect(0, 0, width, height);
    const { groups } = buildScene(p, seed, width, height);
    ctx.lineWidth = p.lineWidth;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.globalAlpha = p.opacity;
    groups.forEach((lines, ci) => {
      if (!lines.length) return;
      ctx.strokeStyle = p.palette[ci];
      ctx.beginPath();
      for (const pts of lines) {
        ctx.moveTo(pts[0], pts[1]);
        for (let i = 2; i < pts.length; i += 2) ctx.lineTo(pts[i], pts[i + 1]);
      }
      ctx.stroke();
    });
    ctx.globalAlpha = 1;
  },

  svg(input) {
    const { params: p, width, height, seed } = input;
    const { groups } = buildScene(p, seed, width, height);
    const W = num(width),
      H = num(height);
    const paths: string[] = [];
    groups.forEach((lines, ci) => {
      if (!lines.length) return;
      let d = '';
      for (const pts of lines) {
        // Absolute start, then relative steps between coordinates rounded to hundredths.
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
      }
      paths.push(`<path stroke="${p.palette[ci]}" d="${d}"/>`);
    });
    const op = p.opacity < 1 ? ` stroke-opacity="${num(p.opacity)}"` : '';
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
      `<rect width="${W}" height="${H}" fill="${p.background}"/>` +
      `<g fill="none" stroke-width="${num(p.lineWidth)}" stroke-linecap="round" stroke-linejoin="round"${op}>${paths.join('')}</g></svg>`
    );
  },
});
