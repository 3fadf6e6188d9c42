// Geometric patterns: a plane tiled with triangles, hexagons, chevron bands or staggered dots,
// separated by a thin gap of background colour. With pattern "auto" (the default) the seed picks
// the shape and its scale; the seed always picks the colour rhythm (scattered, an ombre walk
// through the palette, diagonal stripes, or two tones with sparse accents). Every tile is
// faceted for depth: triangles and chevrons have a lit and a plain side, hexagons a lit top and a
// shaded bottom, dots a lit centre (lit = 16 % white, shaded = 18 % black, mixed in sRGB, which
// the CSS writes as color-mix() of the colour's custom property).
//
// The raster, the SVG and the CSS draw the same polygons in the same colours: colours repeat over a
// seeded repeat unit (6-8 tiles wide, hashed per cell, so it reads as random) because a CSS
// background can only repeat. Every tile is decomposed for the CSS into primitives a gradient
// layer can paint without spilling over its neighbours:
//   - a right triangle with axis-aligned legs at a corner of the layer's tile -> linear-gradient;
//   - an axis-aligned rectangle at a corner of the layer's tile -> conic-gradient quadrant;
//   - a circle in the middle of the layer's tile -> radial-gradient;
//   - chevron bands -> conic-gradient "everything below this zigzag", stacked in order.
// Where two primitives of one tile meet, browsers anti-alias (or snap) both edges and the
// background shows through as a hairline seam; a thin rectangle in the tile's colour is painted
// under every such internal edge (kept 2 px inside the tile's outline) so the seam cannot show.
// All lengths in the CSS are multiples of the --svc-geometric-size custom property (plus px nudges).
import type { SKRSContext2D } from '@napi-rs/canvas';
import { Path2D } from '../lib/canvas.ts';
import { num } from '../lib/svg.ts';
import { defineGenerator } from '../generator.types.ts';
import { colorParam, mix, paletteParam, parseHex, toHex } from '../lib/color.ts';
import { goldenSpread, hash32, seededStream } from '../lib/random.ts';
import { dmath } from '../lib/dmath.ts';

export const PATTERNS = ['triangles', 'hexagons', 'chevrons', 'dots'] as const;
export type Pattern = (typeof PATTERNS)[number];

export interface GeometricParams extends Record<string, unknown> {
  pattern: Pattern | 'auto';
  size: number;
  gap: number;
  palette: string[];
  background: string;
}

const defaults: GeometricParams = {
  pattern: 'auto',
  size: 48,
  gap: 0.06,
  palette: ['#264653', '#2a9d8f', '#e9c46a', '#f4a261', '#e76f51'],
  background: '#10181d',
};

/** The shape and tile size a recipe draws: pattern "auto" lets the seed pick both. */
interface Resolved extends GeometricParams {
  pattern: Pattern;
}
function resolve(p: GeometricParams, seed: number): Resolved {
  if (p.pattern !== 'auto') return p as Resolved;
  // Each block of four seeds (0–3, 4–7, …) shows all four shapes, in a hashed rotation.
  const pattern = PATTERNS[((seed >>> 0) + hash32(`geometric/pattern#${Math.floor((seed >>> 0) / 4)}`)) % 4];
  const scale = [0.75, 1, 1.5, 2.25][Math.floor(goldenSpread(seed, 'geometric/scale') * 4)];
  return { ...p, pattern, size: Math.min(240, Math.max(12, Math.round(p.size * scale))) };
}

/** Tones of a palette colour: 0 as given, 1 lit, 2 shaded. */
const TONES = [0, 0.16, 0.18];
function tone(hex: string, t: number): string {
  if (t === 0) return hex;
  return toHex(mix(parseHex(hex), t === 1 ? { r: 255, g: 255, b: 255 } : { r: 0, g: 0, b: 0 }, TONES[t]));
}

const SQRT3 = Math.sqrt(3);
/** Radius of a dot's lit centre, as a fraction of the dot's. */
const DOT_CORE = 0.5;

type Pt = [number, number];
/** A shape in palette colour `color` and tone `tone` (0 plain, 1 lit, 2 shaded; facets lie over their tile). */
type Shape =
  | { kind: 'poly'; pts: Pt[]; color: number; tone: number }
  | { kind: 'circle'; cx: number; cy: number; r: number; color: number; tone: number };

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
  /** Colour of cell (i, j); periodic over PERIOD[pattern] so the CSS can repeat it exactly. */
  color: (i: number, j: number) => number;
  /** Chevrons: band colours, periodic over `bands`. */
  bandColor: (k: number) => number;
  bands: number;
}

/** Repeat unit in cells (columns, rows). Triangles count half-steps; rows must be even (stagger). */
const PERIOD: Record<Pattern, [number, number]> = { triangles: [12, 4], hexagons: [8, 4], dots: [8, 4], chevrons: [1, 1] };

/** How the colours fall over the tiles; the seed picks one. */
const RHYTHMS = ['scatter', 'ombre', 'stripes', 'accent'] as const;

function setup(p: Resolved, seed: number): Setup {
  const rnd = seededStream(seed, `geometric/${p.pattern}`);
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
  const rhythm = RHYTHMS[Math.floor(goldenSpread(seed, `geometric/rhythm/${p.pattern}`) * RHYTHMS.length)];
  // Ombre and stripes walk the palette in its own order (a palette is usually a ramp), from a seeded end.
  const reverse = rnd() < 0.5;
  const ramp = (k: number) => (reverse ? n - 1 - k : k);
  // One repeat unit of colours; columns mirror about the unit's middle where a rhythm has a direction,
  // so the unit joins its repeats without a seam.
  const [pw, ph] = PERIOD[p.pattern];
  const half = pw / 2;
  const grid: number[] = [];
  for (let j = 0; j < ph; j++) {
    for (let i = 0; i < pw; i++) {
      const m = i < half ? i : pw - 1 - i; // 0 … half-1 … 0
      const h = cellHash(seed, i, j, salt);
      let c: number;
      if (rhythm === 'ombre') c = ramp(Math.min(n - 1, Math.floor(((m + j / 2) / (half + ph / 2 - 0.5)) * n)));
      else if (rhythm === 'stripes') c = ramp(mod(Math.floor(m / 2) + j, Math.min(n, 3)));
      else if (rhythm === 'accent') c = h < 0.14 ? perm[2 % n] : perm[(i + j) % 2];
      else {
        c = Math.floor(h * n) % n;
        if (i > 0 && c === grid[j * pw + i - 1]) c = (c + 1 + Math.floor(cellHash(seed, i, j, salt + 1) * (n - 1))) % n;
      }
      grid.push(c);
    }
  }
  const color = (i: number, j: number) => grid[mod(j, ph) * pw + mod(i, pw)];
  // Bands: a closed walk through the palette that never repeats a colour twice in a row: there and
  // back along the ramp for ombre and stripes, hashed otherwise.
  if (rhythm === 'ombre' || rhythm === 'stripes') {
    const walk: number[] = [];
    for (let k = 0; k < n; k++) walk.push(ramp(k));
    for (let k = n - 2; k > 0; k--) walk.push(ramp(k));
    return { s, inset, n, ox, oy, color, bandColor: (k) => walk[mod(k, walk.length)], bands: walk.length };
  }
  const bands = 2 * n;
  const walk: number[] = [perm[0]];
  for (let b = 1; b < bands; b++) {
    let c = (walk[b - 1] + 1 + Math.floor(cellHash(seed, b, 7, salt) * (n - 1))) % n;
    if (b === bands - 1 && c === walk[0]) c = (c + 1) % n === walk[b - 1] ? (c + 2) % n : (c + 1) % n;
    walk.push(c);
  }
  const bandColor = (k: number): number => walk[mod(k, bands)];
  return { s, inset, n, ox, oy, color, bandColor, bands };
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
function buildShapes(p: Resolved, seed: number, width: number, height: number): Shape[] {
  const st = setup(p, seed);
  const { s, inset, ox, oy } = st;
  const shapes: Shape[] = [];
  const shift = (pts: Pt[]): Pt[] => pts.map(([x, y]) => [x - ox, y - oy] as Pt);
  switch (p.pattern) {
    case 'triangles': {
      const { H, tri } = triangleGeom(s);
      for (let j = -1; j * H - oy < height + H; j++) {
        for (let k = -2; (k * s) / 2 - ox < width + s; k++) {
          const { up, pts } = tri(k, j, inset);
          const color = st.color(k, j);
          shapes.push({ kind: 'poly', pts: shift(pts), color, tone: 0 });
          // The left half lit: apex, the foot of the median, the left corner.
          const [apex, left] = up ? [pts[0], pts[2]] : [pts[2], pts[0]];
          shapes.push({ kind: 'poly', pts: shift([apex, [apex[0], left[1]], left]), color, tone: 1 });
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
            pts.push([cx + r * dmath.cos(ang), cy + r * dmath.sin(ang)]);
          }
          const color = st.color(i, j);
          shapes.push({ kind: 'poly', pts: shift(pts), color, tone: 0 });
          // Lit top cap and shaded bottom cap (vertices 5, 0, 1 and 2, 3, 4).
          shapes.push({ kind: 'poly', pts: shift([pts[5], pts[0], pts[1]]), color, tone: 1 });
          shapes.push({ kind: 'poly', pts: shift([pts[2], pts[3], pts[4]]), color, tone: 2 });
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
          const color = st.color(i, j);
          shapes.push({ kind: 'circle', cx: cx - ox, cy: cy - oy, r, color, tone: 0 });
          shapes.push({ kind: 'circle', cx: cx - ox, cy: cy - oy, r: r * DOT_CORE, color, tone: 1 });
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
        const color = st.bandColor(k);
        shapes.push({ kind: 'poly', pts: [...top, ...bottom], color, tone: 0 });
        // The left half of every tile (from a multiple of s to the fold at s/2) lit.
        for (let q = 0; q + 1 < xs.length; q += 2) {
          const [x0, x1] = [xs[q], xs[q + 1]];
          const pts: Pt[] = [
            [x0, zig(k, x0) + gv],
            [x1, zig(k, x1) + gv],
            [x1, zig(k + 1, x1) - gv],
            [x0, zig(k + 1, x0) - gv],
          ];
          shapes.push({ kind: 'poly', pts: shift(pts), color, tone: 1 });
        }
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
  /** A nudge of the position, in px. */
  posPx?: Pt;
}

const fmt = (v: number) => {
  const r = Math.round(v * 10000) / 10000;
  return Object.is(r, -0) ? '0' : String(r);
};
const SIZE_VAR = 'var(--svc-geometric-size)';
/** A length of k tiles, optionally nudged by px pixels (for anti-aliased edges). */
function len(k: number, px = 0): string {
  if (px === 0) return k === 0 ? '0px' : `calc(${SIZE_VAR}*${fmt(k)})`;
  if (k === 0) return `${fmt(px)}px`;
  return `calc(${SIZE_VAR}*${fmt(k)} ${px < 0 ? '-' : '+'} ${fmt(Math.abs(px))}px)`;
}
/** A palette colour's custom property: plain (c), lit (l) or shaded (d). */
const colorVar = (i: number, t = 0) => `var(--svc-geometric-${'cld'[t]}${i + 1})`;

/** Right triangle with its right angle at V, legs lx (towards dx) and ly (towards dy); units of s. */
function cornerTriangle(V: Pt, dx: 1 | -1, dy: 1 | -1, lx: number, ly: number, color: string, box: Pt): Layer | null {
  if (lx <= 1e-6 || ly <= 1e-6) return null;
  const angle = (dmath.atan2(dx / lx, -dy / ly) * 180) / Math.PI;
  const h = (lx * ly) / Math.hypot(lx, ly);
  return {
    image: `linear-gradient(${fmt(mod(angle, 360))}deg,${color} ${len(h, -0.5)},#0000 ${len(h, 0.5)})`,
    pos: [V[0] - (dx < 0 ? box[0] : 0), V[1] - (dy < 0 ? box[1] : 0)],
  };
}

/** Axis-aligned rectangle at (x, y) of size w × h tiles, each nudged by the matching px value. */
function rectangle(x: number, y: number, w: number, h: number, color: string, px: [number, number, number, number] = [0, 0, 0, 0]): Layer {
  return {
    image: `conic-gradient(from 270deg at ${len(w, px[2])} ${len(h, px[3])},${color} 90deg,#0000 0)`,
    pos: [x, y],
    posPx: [px[0], px[1]],
  };
}

/**
 * Seam cover: a rectangle in the tile's colour under an internal edge, from (x, y0) to (x, y1) in
 * tiles (vertical) or across [x0, x1] at height y (horizontal), `half` px either side, shortened by
 * `trim` px at both ends so it stays inside the tile. Null when the tile is too small for it.
 */
function seamV(x: number, y0: number, y1: number, trim: [number, number], color: string, unit: number): Layer | null {
  if ((y1 - y0) * unit - trim[0] - trim[1] < 1) return null;
  return rectangle(x, y0, 0, y1 - y0, color, [-1, trim[0], 2, -trim[0] - trim[1]]);
}

function cssLayers(p: Resolved, seed: number): { layers: Layer[]; box: Pt; base: string; vars: string[] } {
  const unit = p.size;
  const [pw, ph] = PERIOD[p.pattern];
  const st = setup(p, seed);
  const inset = st.inset / unit; // in tiles
  const ox = st.ox / unit;
  const oy = st.oy / unit;
  const layers: Layer[] = [];
  const push = (l: Layer | null) => {
    if (l) layers.push({ ...l, pos: [l.pos[0] - ox, l.pos[1] - oy] });
  };
  let box: Pt = [1, 1];
  let base = 'var(--svc-geometric-bg)';
  const vars: string[] = [];
  switch (p.pattern) {
    case 'triangles': {
      const { H, tri } = triangleGeom(1);
      box = [pw / 2, ph * H];
      for (let j = 0; j < ph; j++) {
        for (let k = 0; k < pw; k++) {
          const { up, pts } = tri(k, j, inset);
          const c = colorVar(st.color(k, j));
          const lit = colorVar(st.color(k, j), 1);
          const group: Array<Layer | null> = [];
          if (up) {
            const [apex, right, left] = pts;
            const V: Pt = [apex[0], left[1]];
            // Under the two halves: their shared vertical edge, from 2 px below the apex to the base.
            group.push(seamV(apex[0], apex[1], left[1], [2, 0], c, unit));
            group.push(cornerTriangle(V, -1, -1, apex[0] - left[0], left[1] - apex[1], lit, box));
            group.push(cornerTriangle(V, 1, -1, right[0] - apex[0], right[1] - apex[1], c, box));
          } else {
            const [left, right, apex] = pts;
            const V: Pt = [apex[0], left[1]];
            group.push(seamV(apex[0], left[1], apex[1], [0, 2], c, unit));
            group.push(cornerTriangle(V, -1, 1, apex[0] - left[0], apex[1] - left[1], lit, box));
            group.push(cornerTriangle(V, 1, 1, right[0] - apex[0], apex[1] - right[1], c, box));
          }
          // CSS lists the top layer first: halves above, cover below.
          group.reverse().forEach(push);
        }
      }
      break;
    }
    case 'hexagons': {
      const { R, centre, radius } = hexGeom(1);
      box = [pw, ph * 1.5 * R];
      const r = radius(inset);
      const a = (r * SQRT3) / 2;
      for (let j = 0; j < ph; j++) {
        for (let i = 0; i < pw; i++) {
          const [cx, cy] = centre(i, j);
          const c = colorVar(st.color(i, j));
          const lit = colorVar(st.color(i, j), 1);
          const dark = colorVar(st.color(i, j), 2);
          push(cornerTriangle([cx, cy - r / 2], -1, -1, a, r / 2, lit, box));
          push(cornerTriangle([cx, cy - r / 2], 1, -1, a, r / 2, lit, box));
          push(cornerTriangle([cx, cy + r / 2], -1, 1, a, r / 2, dark, box));
          push(cornerTriangle([cx, cy + r / 2], 1, 1, a, r / 2, dark, box));
          push({ ...rectangle(cx - a, cy - r / 2, 2 * a, r, c) });
          // Under them: the vertical edge between the corner triangles and the rectangle's top and
          // bottom edges, each kept 2 px inside the outline.
          push(seamV(cx, cy - r, cy + r, [2, 2], c, unit));
          if (2 * a * unit > 6) push(rectangle(cx - a, cy - r / 2, 2 * a, r, c, [2, -1, -4, 2]));
        }
      }
      break;
    }
    case 'dots': {
      const { rowH, centre, radius } = dotGeom(1);
      box = [pw, ph * rowH];
      const r = radius(inset);
      // Every dot has the same radii: its stops are custom properties (lit centre, then the dot).
      const core = r * DOT_CORE;
      [len(core, -0.5), len(core, 0.5), len(r, -0.5), len(r, 0.5)].forEach((v, k) => vars.push(`  --svc-geometric-r${k + 1}: ${v};`));
      for (let j = 0; j < ph; j++) {
        for (let i = 0; i < pw; i++) {
          const [cx, cy] = centre(i, j);
          const c = colorVar(st.color(i, j));
          const lit = colorVar(st.color(i, j), 1);
          // The layer's tile is centred on the dot (the dot is far smaller than the repeat unit).
          push({
            image: `radial-gradient(circle,${lit} var(--svc-geometric-r1),${c} var(--svc-geometric-r2) var(--svc-geometric-r3),#0000 var(--svc-geometric-r4))`,
            pos: [cx - box[0] / 2, cy - box[1] / 2],
          });
        }
      }
      break;
    }
    case 'chevrons': {
      const { t, gv, zig } = chevronGeom(1, inset);
      const N = st.bands;
      box = [1, N * t];
      base = colorVar(st.bandColor(-2));
      // Bottom-most layer first here; reversed below because CSS lists the top layer first.
      const stack: Layer[] = [];
      for (let k = -2; k < N; k++) {
        const apexY = zig(k, 0.5);
        // Everything below the zigzag (from straight down, clockwise: the lit left side, the gap
        // above the fold, the plain right side).
        const below = (y: number, color: string, left?: string): Layer => ({
          image: left
            ? `conic-gradient(from 180deg at ${len(0.5)} ${len(y)},${left} 135deg,#0000 0 225deg,${color} 0)`
            : `conic-gradient(from 45deg at ${len(0.5)} ${len(y)},${color} 270deg,#0000 0)`,
          pos: [0, 0],
        });
        // (Band -2 is only there for its lit half at the top of the unit; the gap above it is not.)
        if (gv > 1e-6 && k > -2) stack.push(below(apexY - gv, 'var(--svc-geometric-bg)'));
        stack.push(below(apexY + gv, colorVar(st.bandColor(k)), colorVar(st.bandColor(k), 1)));
      }
      stack.reverse();
      for (const l of stack) push(l);
      break;
    }
  }
  return { layers, box, base, vars };
}

// ---------------------------------------------------------------------------------------------

export default defineGenerator<GeometricParams>({
  slug: 'geometric',
  name: 'Geometric pattern',
  description:
    'Repeating geometric tiles (triangles, hexagons, chevrons or dots) in palette colours, as an image, an SVG or a pure-CSS background.',
  version: '1.2.0',
  animated: false,
  formats: ['png', 'webp', 'jpeg', 'svg', 'css'],
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      pattern: {
        type: 'string',
        title: 'Pattern',
        description:
          'Tile shape: equilateral triangles, hexagons, chevron bands or staggered dots; auto lets the seed pick the shape and scale the tile size by 0.75–2.25.',
        enum: ['auto', ...PATTERNS],
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
      palette: paletteParam(
        'Palette',
        'Tile colours, best as a ramp; the seed picks how they fall over the tiles (scattered, an ombre along the palette, stripes, or two tones with accents).',
        defaults.palette,
      ),
      background: colorParam('Background', 'Colour of the gaps between tiles.', defaults.background),
    },
  },

  draw(ctx: SKRSContext2D, input) {
    const { width, height, seed } = input;
    const p = resolve(input.params, seed);
    ctx.fillStyle = p.background;
    ctx.fillRect(0, 0, width, height);
    const n = p.palette.length;
    // One path per tone and colour, plain tiles first, their facets over them.
    const paths = TONES.flatMap(() => p.palette.map(() => new Path2D()));
    for (const sh of buildShapes(p, seed, width, height)) {
      const path = paths[sh.tone * n + sh.color];
      if (sh.kind === 'circle') {
        path.moveTo(sh.cx + sh.r, sh.cy);
        path.arc(sh.cx, sh.cy, sh.r, 0, Math.PI * 2);
      } else {
        sh.pts.forEach(([x, y], i) => (i === 0 ? path.moveTo(x, y) : path.lineTo(x, y)));
        path.closePath();
      }
    }
    paths.forEach((path, k) => {
      ctx.fillStyle = tone(p.palette[k % n], Math.floor(k / n));
      ctx.fill(path);
    });
  },

  svg(input) {
    const { width, height, seed } = input;
    const p = resolve(input.params, seed);
    const W = num(width);
    const H = num(height);
    const n = p.palette.length;
    const groups: string[][] = TONES.flatMap(() => p.palette.map(() => []));
    for (const sh of buildShapes(p, seed, width, height)) {
      const g = groups[sh.tone * n + sh.color];
      if (sh.kind === 'circle') g.push(`<circle cx="${num(sh.cx)}" cy="${num(sh.cy)}" r="${num(sh.r)}"/>`);
      else g.push(`<path d="M${sh.pts.map(([x, y]) => `${num(x)} ${num(y)}`).join('L')}z"/>`);
    }
    const body = groups
      .map((g, k) => (g.length ? `<g fill="${tone(p.palette[k % n], Math.floor(k / n))}">${g.join('')}</g>` : ''))
      .join('');
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
      `<rect width="${W}" height="${H}" fill="${p.background}"/>${body}</svg>`
    );
  },

  css(input) {
    const { seed } = input;
    const p = resolve(input.params, seed);
    const { layers, box, base, vars: own } = cssLayers(p, seed);
    const norm = (v: number, m: number) => mod(Math.round(v * 10000) / 10000, Math.round(m * 10000) / 10000);
    const shade = (t: number) =>
      p.palette.map(
        (_, i) =>
          `  --svc-geometric-${'cld'[t]}${i + 1}: color-mix(in srgb,var(--svc-geometric-c${i + 1}) ${Math.round(100 - TONES[t] * 100)}%,${t === 1 ? '#fff' : '#000'});`,
      );
    const vars = [
      `  --svc-geometric-size: ${fmt(p.size)}px;`,
      `  --svc-geometric-bg: ${p.background};`,
      ...p.palette.map((c, i) => `  --svc-geometric-c${i + 1}: ${c};`),
      ...shade(1),
      ...(p.pattern === 'hexagons' ? shade(2) : []),
      ...own,
    ];
    return [
      `/* Geometric pattern (${p.pattern}), seed ${seed}. Change the custom properties to recolour or resize it. */`,
      '.svc-geometric {',
      ...vars,
      `  background-color: ${base};`,
      `  background-image:\n${layers.map((l) => `    ${l.image}`).join(',\n')};`,
      `  background-size: ${len(box[0])} ${len(box[1])};`,
      `  background-position:\n${layers.map((l) => `    ${len(norm(l.pos[0], box[0]), l.posPx?.[0])} ${len(norm(l.pos[1], box[1]), l.posPx?.[1])}`).join(',\n')};`,
      '  background-repeat: repeat;',
      '}',
      '',
    ].join('\n');
  },
});
