// Truchet tiles: a grid of randomly oriented tiles whose edges always match, so the motifs join
// into continuous paths. Styles: quarter arcs (Smith tiles), two-tone filled arcs, diagonal bands
// (10 PRINT mazes) and half-square triangles (Truchet's originals). Every motif is built as one
// SVG path string that also drives the raster (Path2D), so PNG, SVG and CSS show the same tiles.
// The seed also lays a slow wave of bias over the grid (`structure`): where it leans one way the
// tiles mostly share an orientation and the paths run long, where it leans the other they curl the
// other way, so each seed has regions of its own texture instead of uniform noise.
// A seeded radial glow shades the motifs from the foreground towards an accent colour: a function
// of position only, painted over the motifs' coverage, so a path that crosses a tile border keeps
// its colour there (no steps at tile edges). `scheme: auto` lets the seed pick one of a few curated
// tonal triads: lines a few shades off the background, glowing into a contrasting accent.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { createCanvas, Path2D } from '../lib/canvas.ts';
import { num } from '../lib/svg.ts';
import { defineGenerator } from '../generator.types.ts';
import { colorParam, parseHex, toHex } from '../lib/color.ts';
import { type Lab, mixOklab, oklabToRgb, rgbToOklab } from '../lib/oklab.ts';
import { paintGradient, scaling } from '../lib/gradient.ts';
import { solidBlock, writeBlock } from '../lib/pixels.ts';
import { hash32, seededStream } from '../lib/random.ts';
import { dmath } from '../lib/dmath.ts';

export const TRUCHET_STYLES = ['arcs', 'arcs-filled', 'diagonal', 'triangles'] as const;

export interface TruchetParams extends Record<string, unknown> {
  style: (typeof TRUCHET_STYLES)[number];
  tileSize: number;
  thickness: number;
  foreground: string;
  background: string;
  structure: number;
  scheme: 'auto' | 'custom';
  accent: string;
  shading: number;
}

const defaults: TruchetParams = {
  style: 'arcs',
  tileSize: 44,
  thickness: 0.24,
  foreground: '#4a6a8f',
  background: '#1b2a41',
  structure: 0.5,
  scheme: 'auto',
  accent: '#f4a259',
  shading: 0.8,
};

/**
 * Curated [background, foreground, accent] triads that `scheme: auto` picks from by seed: tonal
 * lines (calm, not the vibrating contrast of light lines on a dark ground) and one accent to glow.
 */
const SCHEMES: readonly (readonly [string, string, string])[] = [
  ['#1b2a41', '#4a6a8f', '#f4a259'],
  ['#f3ede2', '#cdbfa8', '#c8553d'],
  ['#0f3d3e', '#3f7f74', '#a8e6cf'],
  ['#2b193d', '#6b4a7e', '#f1a6c0'],
  ['#e9efe8', '#a9c3c9', '#33658a'],
  ['#262626', '#5a5a52', '#e9c46a'],
];

/** The colours a picture uses: the params, or (auto, colours untouched) a seeded triad. */
function colors(p: TruchetParams, seed: number): { background: string; foreground: string; accent: string } {
  const own = p.foreground !== defaults.foreground || p.background !== defaults.background || p.accent !== defaults.accent;
  if (p.scheme === 'custom' || own) return { background: p.background, foreground: p.foreground, accent: p.accent };
  // Consecutive seeds step through the triads, so neighbouring seeds never share one.
  const [background, foreground, accent] = SCHEMES[(hash32('truchet/scheme') + (seed >>> 0)) % SCHEMES.length];
  return { background, foreground, accent };
}

/**
 * The seeded shading: a radial gradient over the whole picture, from the foreground mixed towards
 * the accent (by `shading`) at a seeded centre to the plain foreground at its rim and beyond. The
 * colour is a function of position only, so a path that runs on across a tile border keeps its
 * colour there (before, each tile took one of six steps, and colours jumped at tile borders).
 */
interface Shade {
  cx: number;
  cy: number;
  r: number;
  /** [offset, '#rrggbb'] along the radius; sRGB between them, mixed in OKLab at each. */
  stops: Array<[number, string]>;
}

const SHADE_STOPS = 9;

/**
 * OKLab colours mixed in polar form (lightness, chroma, hue along the shorter arc): a blue shading
 * to an orange passes through violet and pink instead of grey. A colour with almost no chroma has
 * no hue of its own and takes the other's.
 */
function mixOklch(a: Lab, b: Lab, t: number): Lab {
  const ca = Math.hypot(a[1], a[2]),
    cb = Math.hypot(b[1], b[2]);
  if (ca < 0.02 || cb < 0.02) return mixOklab(a, b, t);
  const ha = dmath.atan2(a[2], a[1]);
  let dh = dmath.atan2(b[2], b[1]) - ha;
  if (dh > Math.PI) dh -= 2 * Math.PI;
  if (dh < -Math.PI) dh += 2 * Math.PI;
  const h = ha + dh * t,
    c = ca + (cb - ca) * t;
  return [a[0] + (b[0] - a[0]) * t, c * dmath.cos(h), c * dmath.sin(h)];
}

function shade(seed: number, l: Layout, tileSize: number, foreground: string, accent: string, strength: number): Shade {
  const rnd = seededStream(seed, 'truchet/shade');
  const cx = (0.15 + 0.7 * rnd()) * l.cols,
    cy = (0.15 + 0.7 * rnd()) * l.rows;
  const radius = (0.45 + 0.4 * rnd()) * Math.max(l.cols, l.rows);
  const a = rgbToOklab(parseHex(foreground)),
    b = rgbToOklab(parseHex(accent));
  const s = Math.max(0, Math.min(1, strength));
  const stops: Array<[number, string]> = [];
  for (let k = 0; k < SHADE_STOPS; k++) {
    const t = k / (SHADE_STOPS - 1);
    const fall = 1 - t * t * (3 - 2 * t); // smoothstep: a soft glow, no visible rim
    stops.push([t, toHex(oklabToRgb(mixOklch(a, b, s * fall)))]);
  }
  return { cx: l.ox + cx * tileSize, cy: l.oy + cy * tileSize, r: radius * tileSize, stops };
}

/** The seeded bias field: tile (i, j) takes its first orientation when its random value is below this. */
function biasField(seed: number, strength: number): (i: number, j: number) => number {
  const rnd = seededStream(seed, 'truchet/structure');
  const angle = rnd() * Math.PI * 2;
  const wavelength = 6 + 10 * rnd(); // tiles
  const k = (Math.PI * 2) / wavelength;
  const kx = dmath.cos(angle) * k,
    ky = dmath.sin(angle) * k;
  const phase = rnd() * Math.PI * 2;
  const k2 = k * (0.45 + 0.3 * rnd());
  const phase2 = rnd() * Math.PI * 2;
  const amp = 0.42 * Math.max(0, Math.min(1, strength));
  return (i, j) => 0.5 + amp * (0.65 * dmath.sin(kx * i + ky * j + phase) + 0.35 * dmath.sin(k2 * (i - j) + phase2));
}

/** Deterministic per-tile random value in [0, 1): independent of grid size and drawing order. */
function tileRandom(seedHash: number, i: number, j: number): number {
  let h = (seedHash ^ Math.imul(i + 0x3c6ef372, 0x9e3779b1) ^ Math.imul(j + 0x1b873593, 0x85ebca77)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

interface Layout {
  cols: number;
  rows: number;
  ox: number;
  oy: number;
  /** Foreground shapes as one SVG path, in the coordinates of the canvas (origin at ox, oy). */
  d: string;
  evenOdd: boolean;
}

/** Path of all foreground shapes of a cols×rows block of tiles whose top-left corner is at (ox, oy). */
function tilePath(p: TruchetParams, seed: number, cols: number, rows: number, ox: number, oy: number): string {
  const s = p.tileSize;
  const sh = hash32(`truchet/${seed}`);
  const bias = biasField(seed, p.structure);
  const h = Math.min(0.45, p.thickness) * s * 0.5; // half line width
  const S = num(s);
  const r1 = num(s / 2 - h),
    r2 = num(s / 2 + h),
    dr = num(2 * h),
    R = num(s / 2);
  const nr1 = num(-(s / 2 - h)),
    nr2 = num(-(s / 2 + h)),
    ndr = num(-2 * h),
    nR = num(-(s / 2));
  const dd = Math.min(s, h * Math.SQRT2);
  const D = num(dd),
    nD = num(-dd),
    SD = num(s - dd),
    nSD = num(-(s - dd)),
    nS = num(-s);
  const parts: string[] = [];
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < cols; i++) {
      const x = ox + i * s,
        y = oy + j * s;
      const u = tileRandom(sh, i, j);
      const t = bias(i, j);
      switch (p.style) {
        case 'arcs': {
          if (u < t) {
            // Arcs around the top-left and bottom-right corners.
            parts.push(
              `M${num(x + s / 2 + h)} ${num(y)}a${r2} ${r2} 0 0 1 ${nr2} ${r2}v${ndr}a${r1} ${r1} 0 0 0 ${r1} ${nr1}z`,
              `M${num(x + s / 2 - h)} ${num(y + s)}a${r2} ${r2} 0 0 1 ${r2} ${nr2}v${dr}a${r1} ${r1} 0 0 0 ${nr1} ${r1}z`,
            );
          } else {
            // Arcs around the top-right and bottom-left corners.
            parts.push(
              `M${num(x + s)} ${num(y + s / 2 + h)}a${r2} ${r2} 0 0 1 ${nr2} ${nr2}h${dr}a${r1} ${r1} 0 0 0 ${r1} ${r1}z`,
              `M${num(x)} ${num(y + s / 2 - h)}a${r2} ${r2} 0 0 1 ${r2} ${r2}h${ndr}a${r1} ${r1} 0 0 0 ${nr1} ${nr1}z`,
            );
          }
          break;
        }
        case 'arcs-filled': {
          // Grid vertices are two-coloured like a checkerboard; the quarter discs take the colour
          // of their corner, the band between them the other colour. Orientation o puts the discs on
          // the top-left/bottom-right (0) or top-right/bottom-left (1) corners.
          const o = u < t ? 0 : 1;
          const discsForeground = (i + j + o) % 2 === 0;
          const discs =
            o === 0
              ? `M${num(x)} ${num(y)}h${R}a${R} ${R} 0 0 1 ${nR} ${R}zM${num(x + s)} ${num(y + s)}h${nR}a${R} ${R} 0 0 1 ${R} ${nR}z`
              : `M${num(x + s)} ${num(y)}v${R}a${R} ${R} 0 0 1 ${nR} ${nR}zM${num(x)} ${num(y + s)}v${nR}a${R} ${R} 0 0 1 ${R} ${R}z`;
          parts.push(discsForeground ? discs : `M${num(x)} ${num(y)}h${S}v${S}h${nS}z${discs}`);
          break;
        }
        case 'diagonal': {
          parts.push(
            u < t
              ? `M${num(x)} ${num(y)}h${D}l${SD} ${SD}v${D}h${nD}l${nSD} ${nSD}z`
              : `M${num(x + s)} ${num(y)}v${D}l${nSD} ${SD}h${nD}v${nD}l${SD} ${nSD}z`,
          );
          break;
        }
        case 'triangles': {
          // The bias picks the diagonal (0 and 2 split the tile along "/", 1 and 3 along "\"), a
          // second value the side that is filled.
          const o = (u < t ? 0 : 1) + (tileRandom(sh ^ 0x5bd1e995, i, j) < 0.5 ? 0 : 2);
          parts.push(
            o === 0
              ? `M${num(x)} ${num(y)}h${S}l${nS} ${S}z`
              : o === 1
                ? `M${num(x + s)} ${num(y)}v${S}l${nS} ${nS}z`
                : o === 2
                  ? `M${num(x + s)} ${num(y + s)}h${nS}l${S} ${nS}z`
                  : `M${num(x)} ${num(y + s)}v${nS}l${S} ${S}z`,
          );
          break;
        }
      }
    }
  }
  return parts.join('');
}

/**
 * The grid is centred on the canvas and has an even number of columns and rows, so the filled-arc
 * colouring stays consistent when the block repeats (the CSS form tiles it).
 */
function layout(p: TruchetParams, seed: number, width: number, height: number): Layout {
  const s = p.tileSize;
  let cols = Math.max(2, Math.ceil(width / s));
  let rows = Math.max(2, Math.ceil(height / s));
  if (cols % 2) cols++;
  if (rows % 2) rows++;
  const ox = (width - cols * s) / 2;
  const oy = (height - rows * s) / 2;
  return { cols, rows, ox, oy, d: tilePath(p, seed, cols, rows, ox, oy), evenOdd: p.style === 'arcs-filled' };
}

export default defineGenerator<TruchetParams>({
  slug: 'truchet',
  name: 'Truchet tiles',
  description:
    'Randomly rotated Truchet tiles (quarter arcs, two-tone arcs, diagonal mazes or triangles) that join into continuous patterns, in calm tonal colours with a soft seeded glow of an accent colour.',
  version: '2.0.0',
  animated: false,
  formats: ['png', 'webp', 'jpeg', 'svg', 'css'],
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      style: {
        type: 'string',
        title: 'Style',
        description:
          'arcs: quarter-circle lines; arcs-filled: two-tone regions bounded by the arcs; diagonal: diagonal bands forming a maze; triangles: half-filled squares.',
        enum: [...TRUCHET_STYLES],
        default: defaults.style,
      },
      tileSize: {
        type: 'number',
        title: 'Tile size',
        description: 'Edge length of one tile in pixels.',
        minimum: 12,
        maximum: 512,
        default: defaults.tileSize,
      },
      thickness: {
        type: 'number',
        title: 'Line thickness',
        description: 'Width of the arcs and diagonal bands as a fraction of the tile size (not used by arcs-filled and triangles).',
        minimum: 0.02,
        maximum: 0.4,
        default: defaults.thickness,
      },
      foreground: colorParam('Foreground', 'Colour of the lines and filled shapes.', defaults.foreground),
      background: colorParam('Background', 'Colour behind the tiles.', defaults.background),
      structure: {
        type: 'number',
        title: 'Structure',
        description:
          'How strongly a slow seeded wave biases the tile orientations into regions of long runs and tight curls (0 = every tile a fair coin flip).',
        minimum: 0,
        maximum: 1,
        default: defaults.structure,
      },
      scheme: {
        type: 'string',
        title: 'Colour scheme',
        description:
          'auto: the seed picks one of a few curated background/foreground/accent triads, unless you set any of those colours; custom: always your colours.',
        enum: ['auto', 'custom'],
        default: defaults.scheme,
      },
      accent: colorParam(
        'Accent',
        'Colour the motifs glow towards around a seeded point, fading smoothly to the foreground.',
        defaults.accent,
      ),
      shading: {
        type: 'number',
        title: 'Shading',
        description:
          'How far the seeded glow shades the motifs from the foreground towards the accent at its centre (0 = one flat foreground colour).',
        minimum: 0,
        maximum: 1,
        default: defaults.shading,
      },
    },
  },

  draw(ctx: SKRSContext2D, input) {
    const { params: p, width, height, seed, pixelRatio } = input;
    const c = colors(p, seed);
    const l = layout(p, seed, width, height);
    const g = shade(seed, l, p.tileSize, c.foreground, c.accent, p.shading);
    // The motifs' coverage from Skia (a solid fill, exact on every CPU), the shade painted into it
    // in JavaScript (lib/gradient.ts): Skia's gradients give other pixels on other CPUs.
    const dw = ctx.canvas.width,
      dh = ctx.canvas.height;
    const toDevice = scaling(pixelRatio);
    const mask = createCanvas(dw, dh).getContext('2d');
    mask.setTransform(pixelRatio, 0, 0, pixelRatio, 0, 0);
    mask.fillStyle = '#fff';
    mask.fill(new Path2D(l.d), l.evenOdd ? 'evenodd' : 'nonzero');
    // The whole frame is written at once: the background as a block, the shaded motifs over it.
    const block = solidBlock(dw, dh, parseHex(c.background));
    paintGradient(block, {
      shape: { kind: 'radial', cx: g.cx, cy: g.cy, r: g.r },
      stops: g.stops.map(([offset, color]) => ({ offset, color: parseHex(color) })),
      transform: toDevice,
      coverage: mask.getImageData(0, 0, dw, dh).data as Uint8ClampedArray,
    });
    writeBlock(ctx, block);
  },

  svg(input) {
    const { params: p, width, height, seed } = input;
    const c = colors(p, seed);
    const l = layout(p, seed, width, height);
    const g = shade(seed, l, p.tileSize, c.foreground, c.accent, p.shading);
    const W = num(width),
      H = num(height);
    const stops = g.stops.map(([t, color]) => `<stop offset="${num(t)}" stop-color="${color}"/>`).join('');
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
      `<defs><radialGradient id="shade" gradientUnits="userSpaceOnUse" cx="${num(g.cx)}" cy="${num(g.cy)}" r="${num(g.r)}">${stops}</radialGradient></defs>` +
      `<rect width="${W}" height="${H}" fill="${c.background}"/>` +
      `<path fill="url(#shade)"${l.evenOdd ? ' fill-rule="evenodd"' : ''} d="${l.d}"/></svg>`
    );
  },

  css(input) {
    // The foreground is an alpha mask (the tile block as an inline SVG) painted with a custom
    // property colour on a pseudo-element, so colours and tile size stay editable in CSS. The block
    // is the same cols×rows tiles as the picture, centred; Truchet edges always match, so it repeats
    // seamlessly on larger elements. The shade is a radial gradient under the mask, placed as in
    // the picture relative to the element (browsers without oklch gradients show the foreground).
    const { params: p, width, height, seed } = input;
    const c = colors(p, seed);
    const s = p.tileSize;
    const l = layout(p, seed, width, height);
    const g = shade(seed, l, s, c.foreground, c.accent, p.shading);
    const bw = l.cols * s,
      bh = l.rows * s;
    const d = tilePath(p, seed, l.cols, l.rows, 0, 0);
    const svg =
      `<svg xmlns='http://www.w3.org/2000/svg' width='${num(bw)}' height='${num(bh)}' viewBox='0 0 ${num(bw)} ${num(bh)}' preserveAspectRatio='none'>` +
      `<path${l.evenOdd ? ` fill-rule='evenodd'` : ''} d='${d}'/></svg>`;
    const uri =
      'data:image/svg+xml,' + svg.replace(/%/g, '%25').replace(/#/g, '%23').replace(/</g, '%3C').replace(/>/g, '%3E').replace(/"/g, "'");
    const size = `calc(var(--svc-tile-size) * ${l.cols}) calc(var(--svc-tile-size) * ${l.rows})`;
    return [
      `/* Truchet tiles (${p.style}) — render-service truchet 2.0.0. Edit the custom properties to restyle. */`,
      `.svc-truchet {`,
      `  --svc-foreground: ${c.foreground};`,
      `  --svc-glow: ${g.stops[0][1]};`,
      `  --svc-background: ${c.background};`,
      `  --svc-tile-size: ${num(s)}px;`,
      `  --svc-pattern: url("${uri}");`,
      `  position: relative;`,
      `  isolation: isolate;`,
      `  background-color: var(--svc-background);`,
      `}`,
      `.svc-truchet::before {`,
      `  content: "";`,
      `  position: absolute;`,
      `  inset: 0;`,
      `  z-index: -1;`,
      `  pointer-events: none;`,
      `  background-color: var(--svc-foreground);`,
      `  background-image: radial-gradient(in oklch circle ${num(g.r)}px at ${num((100 * g.cx) / width)}% ${num((100 * g.cy) / height)}%, var(--svc-glow), var(--svc-foreground));`,
      `  -webkit-mask-image: var(--svc-pattern);`,
      `  mask-image: var(--svc-pattern);`,
      `  -webkit-mask-size: ${size};`,
      `  mask-size: ${size};`,
      `  -webkit-mask-position: center;`,
      `  mask-position: center;`,
      `  -webkit-mask-repeat: repeat;`,
      `  mask-repeat: repeat;`,
      `}`,
      '',
    ].join('\n');
  },
});
