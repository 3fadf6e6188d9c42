// Truchet tiles: a grid of randomly oriented tiles whose edges always match, so the motifs join
// into continuous paths. Styles: quarter arcs (Smith tiles), two-tone filled arcs, diagonal bands
// (10 PRINT mazes) and half-square triangles (Truchet's originals). Every motif is built as one
// SVG path string that also drives the raster (Path2D), so PNG, SVG and CSS show the same tiles.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { Path2D } from '@napi-rs/canvas';
import { num } from '../lib/2a88792/svg.ts';
import { defineGenerator } from '../../generator.types.ts';
import { colorParam } from '../lib/1dac23a/color.ts';
import { hash32 } from '../lib/2a88792/random.ts';

export const TRUCHET_STYLES = ['arcs', 'arcs-filled', 'diagonal', 'triangles'] as const;

export interface TruchetParams extends Record<string, unknown> {
  style: (typeof TRUCHET_STYLES)[number];
  tileSize: number;
  thickness: number;
  foreground: string;
  background: string;
}

const defaults: TruchetParams = {
  style: 'arcs',
  tileSize: 40,
  thickness: 0.24,
  foreground: '#f4a259',
  background: '#1b2a41',
};

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
      switch (p.style) {
        case 'arcs': {
          if (u < 0.5) {
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
          const o = u < 0.5 ? 0 : 1;
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
            u < 0.5
              ? `M${num(x)} ${num(y)}h${D}l${SD} ${SD}v${D}h${nD}l${nSD} ${nSD}z`
              : `M${num(x + s)} ${num(y)}v${D}l${nSD} ${SD}h${nD}v${nD}l${SD} ${nSD}z`,
          );
          break;
        }
        case 'triangles': {
          const o = Math.floor(u * 4);
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
    'Randomly rotated Truchet tiles (quarter arcs, two-tone arcs, diagonal mazes or triangles) that join into continuous patterns.',
  version: '1.0.0',
  animated: false,
  formats: ['png', 'webp', 'svg', 'css'],
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
    },
  },

  draw(ctx: SKRSContext2D, input) {
    const { params: p, width, height, seed } = input;
    ctx.fillStyle = p.background;
    ctx.fillRect(0, 0, width, height);
    const l = layout(p, seed, width, height);
    ctx.fillStyle = p.foreground;
    ctx.fill(new Path2D(l.d), l.evenOdd ? 'evenodd' : 'nonzero');
  },

  svg(input) {
    const { params: p, width, height, seed } = input;
    const l = layout(p, seed, width, height);
    const W = num(width),
      H = num(height);
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
      `<rect width="${W}" height="${H}" fill="${p.background}"/>` +
      `<path fill="${p.foreground}"${l.evenOdd ? ' fill-rule="evenodd"' : ''} d="${l.d}"/></svg>`
    );
  },

  css(input) {
    // The foreground is an alpha mask (the tile block as an inline SVG) painted with a custom
    // property colour on a pseudo-element, so colours and tile size stay editable in CSS. The block
    // is the same cols×rows tiles as the picture, centred; Truchet edges always match, so it repeats
    // seamlessly on larger elements.
    const { params: p, width, height, seed } = input;
    const s = p.tileSize;
    const l = layout(p, seed, width, height);
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
      `/* Truchet tiles (${p.style}) — render-service truchet 1.0.0. Edit the custom properties to restyle. */`,
      `.svc-truchet {`,
      `  --svc-foreground: ${p.foreground};`,
      `  --svc-background: ${p.background};`,
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
