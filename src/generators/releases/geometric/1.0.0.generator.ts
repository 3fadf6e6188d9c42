// Geometric patterns: a plane tiled with triangles, hexagons, chevron bands or staggered dots,
// each tile painted with a palette colour picked by a hash of the seed and the tile's grid
// position, separated by a thin gap of background colour.
//
// The raster and the SVG draw the same polygons. The CSS form is the periodic rendition of the
// same geometry: colours are taken from a small repeat unit (2-4 tiles wide) so the pattern can be
// built from CSS gradients alone. Every tile is decomposed into primitives a gradient layer can
// paint without spilling over its neighbours:
//   - a right triangle with axis-aligned legs at a corner of the layer's tile -> linear-gradient;
//   - an axis-aligned rectangle at a corner of the layer's tile -> conic-gradient quadrant;
//   - a circle in the middle of the layer's tile -> radial-gradient;
//   - chevron bands -> conic-gradient "everything below this zigzag", stacked in order.
// All lengths in the CSS are multiples of the --svc-geometric-size custom property.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { Path2D } from '@napi-rs/canvas';
import { num } from '../lib/2a88792/svg.ts';
import { defineGenerator } from '../../generator.types.ts';
import { colorParam, paletteParam } from '../lib/1dac23a/color.ts';
import { subRandom } from '../lib/2a88792/random.ts';

export const PATTERNS = ['triangles', 'hexagons', 'chevrons', 'dots'] as const;
export type Pattern = (typeof PATTERNS)[number];

export interface GeometricParams extends Record<string, unknown> {
  pattern: Pattern;
  size: number;
  gap: number;
  palette: string[];
  background: string;
}

const defaults: GeometricParams = {
  pattern: 'triangles',
  size: 48,
  gap: 0.08,
  palette: ['#264653', '#2a9d8f', '#e9c46a', '#f4a261', '#e76f51'],
  background: '#14212a',
};

const SQRT3 = Math.sqrt(3);

type Pt = [number, number];
type Shape = { kind: 'poly'; pts: Pt[]; color: number } | { kind: 'circle'; cx: number; cy: number; r: number; color: number };

/** A stable value in [0, 1) for a grid cell. */
function cellHash(seed: number, i: number, j: number, salt: number): number {
  let h = (seed ^ Math.imul(i | 0, 0x27d4eb2d) ^ Math.imul(j | 0, 0x165667b1) ^ Math.imul(salt, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h >>> 0) / 4294967296;
}

const mod = (a: number, m: number) => ((a % m) + m) % m;

interface Setup {
  s: number;
  /** Half the gap, in logical px (negative: a hair of overlap that hides anti-aliasing seams). */
  inset: number;
  n: number;
  /** Seeded offset of the whole pattern, in px. */
  ox: number;
  oy: number;
  /** Colour of cell (i, j). Raster: free; CSS: periodic. */
  color: (i: number, j: number) => number;
  /** Chevrons: band colours. */
  bandColor: (k: number) => number;
  perm: number[];
}

function setup(p: GeometricParams, seed: number, periodic: null | [number, number]): Setup {
  const rnd = subRandom(seed, `geometric/${p.pattern}`);
  const s = p.size;
  const gapPx = p.gap * s;
  const inset = gapPx > 0.5 ? gapPx / 2 : gapPx / 2 - 0.25;
  const n = p.palette.length;
  const ox = rnd() * s;
  const oy = rnd() * s;
  const salt = Math.floor(rnd() * 1e9);
  const perm = p.palette.map((_, i) => i);
  for (let i = perm.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  // Raster: every cell picks freely. CSS: the cells of the repeat unit walk through the shuffled
  // palette, so the unit shows as many different colours as it can.
  const color = (i: number, j: number) =>
    periodic ? perm[mod(mod(i, periodic[0]) + periodic[0] * mod(j, periodic[1]), n)] : Math.floor(cellHash(seed, i, j, salt) * n) % n;
  // Raster bands: a random walk through the palette that never repeats a colour twice in a row.
  const bandCache = new Map<number, number>();
  const bandColor = (k: number): number => {
    if (periodic) return perm[mod(k, n)];
    const cached = bandCache.get(k);
    if (cached !== undefined) return cached;
    let c = perm[0];
    // Walk from band -4 so the first visible bands are part of the same chain.
    for (let b = -4; b <= k; b++) {
      if (bandCache.has(b)) {
        c = bandCache.get(b)!;
        continue;
      }
      c = b === -4 ? perm[0] : (c + 1 + Math.floor(cellHash(seed, b, 7, salt) * (n - 1))) % n;
      bandCache.set(b, c);
    }
    return c;
  };
  return { s, inset, n, ox, oy, color, bandColor, perm };
}

// ---------------------------------------------------------------------------------------------
// Geometry, shared by raster and SVG.

function triangleGeom(s: number) {
  const H = (s * SQRT3) / 2;
  /** Vertices of triangle k in row j, shrunk by `inset` towards its centroid. */
  const tri = (k: number, j: number, inset: number): { pts: Pt[]; up: boolean } => {
    const up = mod(k + j, 2) === 0;
    const cx = (k * s) / 2;
    const y0 = j * H;
    const r = H / 3; // inradius
    const f = Math.max(0, (r - inset) / r);
    const gy = up ? y0 + (2 * H) / 3 : y0 + H / 3;
    const raw: Pt[] = up
      ? [
          [cx, y0],
          [cx + s / 2, y0 + H],
          [cx - s / 2, y0 + H],
        ]
      : [
          [cx - s / 2, y0],
          [cx + s / 2, y0],
          [cx, y0 + H],
        ];
    return { up, pts: raw.map(([x, y]) => [cx + (x - cx) * f, gy + (y - gy) * f] as Pt) };
  };
  return { H, tri };
}

function hexGeom(s: number) {
  const R = s / SQRT3;
  const centre = (i: number, j: number): Pt => [i * s + (mod(j, 2) === 1 ? s / 2 : 0), j * 1.5 * R];
  const radius = (inset: number) => (Math.max(0, s / 2 - inset) * 2) / SQRT3;
  return { R, centre, radius };
}

function dotGeom(s: number) {
  const rowH = (s * SQRT3) / 2;
  const centre = (i: number, j: number): Pt => [i * s + (mod(j, 2) === 1 ? s / 2 : 0), j * rowH];
  const radius = (inset: number) => (s / 2 - Math.max(inset, 0)) * 0.74;
  return { rowH, centre, radius };
}

function chevronGeom(s: number, inset: number) {
  const a = s / 2; // amplitude (45 degree slopes)
  const t = s / 2; // band thickness
  // Perpendicular half-gap `inset` is a vertical shift of inset * sqrt(2); keep bands visible.
  const gv = Math.min(inset * Math.SQRT2, 0.2 * s);
  /** y of zigzag k at x. */
  const zig = (k: number, x: number) => k * t + t / 2 + a * (1 - Math.abs(2 * mod(x / s, 1) - 1));
  return { a, t, gv, zig };
}

/** All shapes covering [0, width] x [0, height]. */
function buildShapes(p: GeometricParams, seed: number, width: number, height: number): Shape[] {
  const st = setup(p, seed, null);
  const { s, inset, ox, oy } = st;
  const shapes: Shape[] = [];
  const shift = (pts: Pt[]): Pt[] => pts.map(([x, y]) => [x - ox, y - oy] as Pt);
  switch (p.pattern) {
    case 'triangles': {
      const { H, tri } = triangleGeom(s);
      for (let j = -1; j * H - oy < height + H; j++) {
        for (let k = -2; (k * s) / 2 - ox < width + s; k++) {
          shapes.push({ kind: 'poly', pts: shift(tri(k, j, inset).pts), color: st.color(k, j) });
        }
      }
      break;
    }
    case 'hexagons': {
      const { R, centre, radius } = hexGeom(s);
      const r = radius(inset);
      for (let j = -1; j * 1.5 * R - oy < height + R; j++) {
        for (let i = -1; i * s - ox < width + s; i++) {
          const [cx, cy] = centre(i, j);
          const pts: Pt[] = [];
          for (let v = 0; v < 6; v++) {
            const ang = ((-90 + 60 * v) * Math.PI) / 180;
            pts.push([cx + r * Math.cos(ang), cy + r * Math.sin(ang)]);
          }
          shapes.push({ kind: 'poly', pts: shift(pts), color: st.color(i, j) });
        }
      }
      break;
    }
    case 'dots': {
      const { rowH, centre, radius } = dotGeom(s);
      const r = radius(inset);
      for (let j = -1; j * rowH - oy < height + rowH; j++) {
        for (let i = -1; i * s - ox < width + s; i++) {
          const [cx, cy] = centre(i, j);
          shapes.push({ kind: 'circle', cx: cx - ox, cy: cy - oy, r, color: st.color(i, j) });
        }
      }
      break;
    }
    case 'chevrons': {
      const { t, gv, zig } = chevronGeom(s, inset);
      // Zigzag vertices in pattern space (multiples of s/2), from left of the canvas to right of it.
      const xs: number[] = [];
      for (let x = Math.floor((ox - s) / s) * s; x <= ox + width + s; x += s / 2) xs.push(x);
      for (let k = -3; k * t - oy < height + s; k++) {
        const top = xs.map((x) => [x - ox, zig(k, x) + gv - oy] as Pt);
        const bottom = xs.map((x) => [x - ox, zig(k + 1, x) - gv - oy] as Pt).reverse();
        shapes.push({ kind: 'poly', pts: [...top, ...bottom], color: st.bandColor(k) });
      }
      break;
    }
  }
  return shapes;
}

// ---------------------------------------------------------------------------------------------
// CSS: gradient layers over one period of the pattern.

interface Layer {
  image: string;
  /** Top-left of the layer's tile, in units of the tile size. */
  pos: Pt;
}

const fmt = (v: number) => {
  const r = Math.round(v * 10000) / 10000;
  return Object.is(r, -0) ? '0' : String(r);
};
const SIZE_VAR = 'var(--svc-geometric-size)';
/** A length of k tiles, optionally nudged by px pixels (for anti-aliased edges). */
function len(k: number, px = 0): string {
  if (px === 0) return k === 0 ? '0px' : `calc(${SIZE_VAR} * ${fmt(k)})`;
  return `calc(${SIZE_VAR} * ${fmt(k)} ${px < 0 ? '-' : '+'} ${Math.abs(px)}px)`;
}
const colorVar = (i: number) => `var(--svc-geometric-c${i + 1})`;

/** Right triangle with its right angle at V, legs lx (towards dx) and ly (towards dy); units of s. */
function cornerTriangle(V: Pt, dx: 1 | -1, dy: 1 | -1, lx: number, ly: number, color: string, box: Pt): Layer | null {
  if (lx <= 1e-6 || ly <= 1e-6) return null;
  const angle = (Math.atan2(dx / lx, -dy / ly) * 180) / Math.PI;
  const h = (lx * ly) / Math.hypot(lx, ly);
  return {
    image: `linear-gradient(${fmt(mod(angle, 360))}deg, ${color} ${len(h, -0.5)}, transparent ${len(h, 0.5)})`,
    pos: [V[0] - (dx < 0 ? box[0] : 0), V[1] - (dy < 0 ? box[1] : 0)],
  };
}

function rectangle(x: number, y: number, w: number, h: number, color: string): Layer {
  return { image: `conic-gradient(from 270deg at ${len(w)} ${len(h)}, ${color} 90deg, transparent 90deg)`, pos: [x, y] };
}

function cssLayers(p: GeometricParams, seed: number): { layers: Layer[]; box: Pt; base: string; colors: string[] } {
  const unit = p.size;
  const period: Record<Pattern, [number, number]> = { triangles: [4, 2], hexagons: [2, 2], dots: [4, 2], chevrons: [1, 1] };
  const st = setup(p, seed, period[p.pattern]);
  const inset = st.inset / unit; // in tiles
  const ox = st.ox / unit;
  const oy = st.oy / unit;
  const layers: Layer[] = [];
  const push = (l: Layer | null) => {
    if (l) layers.push({ image: l.image, pos: [l.pos[0] - ox, l.pos[1] - oy] });
  };
  let box: Pt = [1, 1];
  let base = 'var(--svc-geometric-bg)';
  switch (p.pattern) {
    case 'triangles': {
      const { H, tri } = triangleGeom(1);
      box = [2, 2 * H];
      for (let j = 0; j < 2; j++) {
        for (let k = 0; k < 4; k++) {
          const { up, pts } = tri(k, j, inset);
          const c = colorVar(st.color(k, j));
          if (up) {
            const [apex, right, left] = pts;
            const V: Pt = [apex[0], left[1]];
            push(cornerTriangle(V, -1, -1, apex[0] - left[0], left[1] - apex[1], c, box));
            push(cornerTriangle(V, 1, -1, right[0] - apex[0], right[1] - apex[1], c, box));
          } else {
            const [left, right, apex] = pts;
            const V: Pt = [apex[0], left[1]];
            push(cornerTriangle(V, -1, 1, apex[0] - left[0], apex[1] - left[1], c, box));
            push(cornerTriangle(V, 1, 1, right[0] - apex[0], apex[1] - right[1], c, box));
          }
        }
      }
      break;
    }
    case 'hexagons': {
      const { R, centre, radius } = hexGeom(1);
      box = [2, 3 * R];
      const r = radius(inset);
      const a = (r * SQRT3) / 2;
      for (let j = 0; j < 2; j++) {
        for (let i = 0; i < 2; i++) {
          const [cx, cy] = centre(i, j);
          const c = colorVar(st.color(i, j));
          push({ ...rectangle(cx - a, cy - r / 2, 2 * a, r, c) });
          push(cornerTriangle([cx, cy - r / 2], -1, -1, a, r / 2, c, box));
          push(cornerTriangle([cx, cy - r / 2], 1, -1, a, r / 2, c, box));
          push(cornerTriangle([cx, cy + r / 2], -1, 1, a, r / 2, c, box));
          push(cornerTriangle([cx, cy + r / 2], 1, 1, a, r / 2, c, box));
        }
      }
      break;
    }
    case 'dots': {
      const { rowH, centre, radius } = dotGeom(1);
      box = [4, 2 * rowH];
      const r = radius(inset);
      for (let j = 0; j < 2; j++) {
        for (let i = 0; i < 4; i++) {
          const [cx, cy] = centre(i, j);
          const c = colorVar(st.color(i, j));
          push({
            image: `radial-gradient(circle at 50% 50%, ${c} ${len(r, -0.5)}, transparent ${len(r, 0.5)})`,
            pos: [cx - box[0] / 2, cy - box[1] / 2],
          });
        }
      }
      break;
    }
    case 'chevrons': {
      const { t, gv, zig } = chevronGeom(1, inset);
      const N = st.n;
      box = [1, N * t];
      base = colorVar(st.bandColor(-2));
      // Bottom-most layer first here; reversed below because CSS lists the top layer first.
      const stack: Layer[] = [];
      for (let k = -1; k < N; k++) {
        const apexY = zig(k, 0.5);
        const below = (y: number, color: string): Layer => ({
          image: `conic-gradient(from -45deg at ${len(0.5)} ${len(y)}, transparent 90deg, ${color} 90deg)`,
          pos: [0, 0],
        });
        if (gv > 1e-6) stack.push(below(apexY - gv, 'var(--svc-geometric-bg)'));
        stack.push(below(apexY + gv, colorVar(st.bandColor(k))));
      }
      stack.reverse();
      for (const l of stack) push(l);
      break;
    }
  }
  return { layers, box, base, colors: p.palette };
}

// ---------------------------------------------------------------------------------------------

export default defineGenerator<GeometricParams>({
  slug: 'geometric',
  name: 'Geometric pattern',
  description:
    'Repeating geometric tiles (triangles, hexagons, chevrons or dots) in palette colours, as an image, an SVG or a pure-CSS background.',
  version: '1.0.0',
  animated: false,
  formats: ['png', 'webp', 'svg', 'css'],
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      pattern: {
        type: 'string',
        title: 'Pattern',
        description: 'Tile shape: equilateral triangles, hexagons, chevron bands or staggered dots.',
        enum: [...PATTERNS],
        default: defaults.pattern,
      },
      size: {
        type: 'number',
        title: 'Tile size',
        description: 'Width of one tile in pixels (logical units).',
        minimum: 12,
        maximum: 240,
        default: defaults.size,
      },
      gap: {
        type: 'number',
        title: 'Gap',
        description: 'Space between tiles as a fraction of the tile size; the background colour shows through it.',
        minimum: 0,
        maximum: 0.4,
        default: defaults.gap,
      },
      palette: paletteParam('Palette', 'Tile colours; each tile picks one by a hash of the seed and its position.', defaults.palette),
      background: colorParam('Background', 'Colour of the gaps between tiles.', defaults.background),
    },
  },

  draw(ctx: SKRSContext2D, input) {
    const { params: p, width, height, seed } = input;
    ctx.fillStyle = p.background;
    ctx.fillRect(0, 0, width, height);
    const shapes = buildShapes(p, seed, width, height);
    const paths = p.palette.map(() => new Path2D());
    for (const sh of shapes) {
      const path = paths[sh.color];
      if (sh.kind === 'circle') {
        path.moveTo(sh.cx + sh.r, sh.cy);
        path.arc(sh.cx, sh.cy, sh.r, 0, Math.PI * 2);
      } else {
        sh.pts.forEach(([x, y], i) => (i === 0 ? path.moveTo(x, y) : path.lineTo(x, y)));
        path.closePath();
      }
    }
    paths.forEach((path, i) => {
      ctx.fillStyle = p.palette[i];
      ctx.fill(path);
    });
  },

  svg(input) {
    const { params: p, width, height, seed } = input;
    const W = num(width);
    const H = num(height);
    const groups: string[][] = p.palette.map(() => []);
    for (const sh of buildShapes(p, seed, width, height)) {
      if (sh.kind === 'circle') groups[sh.color].push(`<circle cx="${num(sh.cx)}" cy="${num(sh.cy)}" r="${num(sh.r)}"/>`);
      else groups[sh.color].push(`<path d="M${sh.pts.map(([x, y]) => `${num(x)} ${num(y)}`).join('L')}z"/>`);
    }
    const body = groups.map((g, i) => (g.length ? `<g fill="${p.palette[i]}">${g.join('')}</g>` : '')).join('');
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
      `<rect width="${W}" height="${H}" fill="${p.background}"/>${body}</svg>`
    );
  },

  css(input) {
    const { params: p, seed } = input;
    const { layers, box, base } = cssLayers(p, seed);
    const norm = (v: number, m: number) => mod(Math.round(v * 10000) / 10000, Math.round(m * 10000) / 10000);
    const vars = [
      `  --svc-geometric-size: ${fmt(p.size)}px;`,
      `  --svc-geometric-bg: ${p.background};`,
      ...p.palette.map((c, i) => `  --svc-geometric-c${i + 1}: ${c};`),
    ];
    return [
      `/* Geometric pattern (${p.pattern}), seed ${seed}. Change the custom properties to recolour or resize it. */`,
      '.svc-geometric {',
      ...vars,
      `  background-color: ${base};`,
      `  background-image:\n${layers.map((l) => `    ${l.image}`).join(',\n')};`,
      `  background-size: ${len(box[0])} ${len(box[1])};`,
      `  background-position:\n${layers.map((l) => `    ${len(norm(l.pos[0], box[0]))} ${len(norm(l.pos[1], box[1]))}`).join(',\n')};`,
      '  background-repeat: repeat;',
      '}',
      '',
    ].join('\n');
  },
});
