// Linear / radial / conic gradient through a palette of colour stops. Geometry follows CSS
// (0deg points up, angles turn clockwise, linear gradients reach the corners, radial gradients
// reach the farthest corner), so the PNG, SVG and CSS forms agree. Stops can be interpolated in
// OKLab (perceptually even, no muddy midpoints) by inserting intermediate stops; CSS uses the
// native `in oklab` syntax where supported. A light seeded grain dithers away 8-bit banding.
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { num } from '../lib/2a88792/svg.ts';
import { defineGenerator } from '../../generator.types.ts';
import { paletteParam, parseHex, toHex, type Rgb } from '../lib/2a88792/color.ts';
import { subRandom } from '../lib/2a88792/random.ts';

export const GRADIENT_KINDS = ['linear', 'radial', 'conic'] as const;
export const INTERPOLATIONS = ['oklab', 'srgb'] as const;

export interface LinearGradientParams extends Record<string, unknown> {
  kind: (typeof GRADIENT_KINDS)[number];
  angle: number;
  palette: string[];
  centerX: number;
  centerY: number;
  interpolation: (typeof INTERPOLATIONS)[number];
  grain: number;
}

const defaults: LinearGradientParams = {
  kind: 'linear',
  angle: 135,
  palette: ['#12c2e9', '#c471ed', '#f64f59'],
  centerX: 0.5,
  centerY: 0.5,
  interpolation: 'oklab',
  grain: 0.03,
};

// --- OKLab (Björn Ottosson) -------------------------------------------------------------
const toLinear = (c: number) => {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
};
const fromLinear = (v: number) => 255 * (v <= 0.0031308 ? 12.92 * v : 1.055 * Math.pow(Math.max(0, v), 1 / 2.4) - 0.055);

function rgbToOklab({ r, g, b }: Rgb): [number, number, number] {
  const lr = toLinear(r),
    lg = toLinear(g),
    lb = toLinear(b);
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

function oklabToRgb([L, a, b]: [number, number, number]): Rgb {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return {
    r: fromLinear(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
    g: fromLinear(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
    b: fromLinear(-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s),
  };
}

/** Palette → explicit [offset, colour] stops, expanded through OKLab when asked. */
function buildStops(p: LinearGradientParams): Array<[number, string]> {
  const colors = p.palette.slice();
  if (p.kind === 'conic') colors.push(colors[0]); // close the loop: no hard seam at the start angle
  const n = colors.length;
  if (p.interpolation === 'srgb') return colors.map((c, i) => [i / (n - 1), c.toLowerCase()]);
  const labs = colors.map((c) => rgbToOklab(parseHex(c)));
  const sub = 8;
  const stops: Array<[number, string]> = [];
  for (let i = 0; i < n - 1; i++) {
    for (let k = 0; k < sub; k++) {
      const t = k / sub;
      const a = labs[i],
        b = labs[i + 1];
      const lab: [number, number, number] = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
      stops.push([(i + t) / (n - 1), k === 0 ? colors[i].toLowerCase() : toHex(oklabToRgb(lab))]);
    }
  }
  stops.push([1, colors[n - 1].toLowerCase()]);
  return stops;
}

interface Geometry {
  // linear
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  // radial / conic
  cx: number;
  cy: number;
  r: number;
}

function geometry(p: LinearGradientParams, width: number, height: number): Geometry {
  const rad = (p.angle * Math.PI) / 180;
  const dx = Math.sin(rad),
    dy = -Math.cos(rad);
  const len = Math.abs(width * Math.sin(rad)) + Math.abs(height * Math.cos(rad));
  const mx = width / 2,
    my = height / 2;
  const cx = p.centerX * width,
    cy = p.centerY * height;
  const r = Math.max(Math.hypot(cx, cy), Math.hypot(width - cx, cy), Math.hypot(cx, height - cy), Math.hypot(width - cx, height - cy));
  return {
    x1: mx - (dx * len) / 2,
    y1: my - (dy * len) / 2,
    x2: mx + (dx * len) / 2,
    y2: my + (dy * len) / 2,
    cx,
    cy,
    r: Math.max(r, 1e-3),
  };
}

/**
 * Film grain: a seeded 256×256 tile of grey noise with alpha = amount, repeated over the canvas
 * in device pixels. Source-over blending gives c' = c + amount·(n − c), the same formula the SVG
 * filter uses; Skia does the blending natively, so it stays fast at 40 megapixels.
 */
function applyGrain(ctx: SKRSContext2D, seed: number, purpose: string, amount: number): void {
  const T = 256;
  const tile = createCanvas(T, T);
  const tctx = tile.getContext('2d');
  const img = tctx.createImageData(T, T);
  const d = img.data;
  let s = Math.floor(subRandom(seed, purpose)() * 4294967296) | 0 || 0x2545f491;
  const alpha = Math.max(1, Math.round(amount * 255));
  for (let i = 0; i < d.length; i += 4) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    const n = ((s & 255) + ((s >>> 8) & 255)) >>> 1; // triangular around mid-grey
    d[i] = d[i + 1] = d[i + 2] = n;
    d[i + 3] = alpha;
  }
  tctx.putImageData(img, 0, 0);
  const pattern = ctx.createPattern(tile, 'repeat');
  if (!pattern) return;
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = pattern;
  ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  ctx.restore();
}

function grainSeed(seed: number): number {
  return (seed % 10000) + 1;
}

export default defineGenerator<LinearGradientParams>({
  slug: 'linear-gradient',
  name: 'Gradient',
  description: 'Linear, radial or conic gradient through a palette, with perceptual (OKLab) blending and anti-banding grain.',
  version: '1.0.0',
  animated: false,
  formats: ['png', 'webp', 'svg', 'css'],
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      kind: {
        type: 'string',
        title: 'Kind',
        description: 'Gradient shape: linear (along an angle), radial (circles from the centre) or conic (sweeping around the centre).',
        enum: [...GRADIENT_KINDS],
        default: defaults.kind,
      },
      angle: {
        type: 'number',
        title: 'Angle',
        description: 'Degrees, clockwise from "up", as in CSS. Direction of a linear gradient; start angle of a conic one.',
        minimum: 0,
        maximum: 360,
        default: defaults.angle,
      },
      palette: paletteParam('Colour stops', 'Colours from the start to the end of the gradient, evenly spaced.', defaults.palette),
      centerX: {
        type: 'number',
        title: 'Centre X',
        description: 'Horizontal centre of radial and conic gradients (0 = left edge, 1 = right edge).',
        minimum: 0,
        maximum: 1,
        default: defaults.centerX,
      },
      centerY: {
        type: 'number',
        title: 'Centre Y',
        description: 'Vertical centre of radial and conic gradients (0 = top edge, 1 = bottom edge).',
        minimum: 0,
        maximum: 1,
        default: defaults.centerY,
      },
      interpolation: {
        type: 'string',
        title: 'Blending',
        description: 'Colour space for blending between stops: oklab (perceptually even, vivid midpoints) or srgb (classic CSS).',
        enum: [...INTERPOLATIONS],
        default: defaults.interpolation,
      },
      grain: {
        type: 'number',
        title: 'Grain',
        description: 'Seeded film grain that hides 8-bit banding (0 = none). Not part of the CSS form.',
        minimum: 0,
        maximum: 0.3,
        default: defaults.grain,
      },
    },
  },

  draw(ctx: SKRSContext2D, input) {
    const { params: p, width, height, seed } = input;
    const g = geometry(p, width, height);
    const stops = buildStops(p);
    const grad =
      p.kind === 'linear'
        ? ctx.createLinearGradient(g.x1, g.y1, g.x2, g.y2)
        : p.kind === 'radial'
          ? ctx.createRadialGradient(g.cx, g.cy, 0, g.cx, g.cy, g.r)
          : ctx.createConicGradient(((p.angle - 90) * Math.PI) / 180, g.cx, g.cy);
    for (const [t, c] of stops) grad.addColorStop(t, c);
    ctx.fillStyle = grad;
    ctx.fillRect(0, 0, width, height);
    if (p.grain > 0) applyGrain(ctx, seed, 'linear-gradient/grain', p.grain);
  },

  svg(input) {
    const { params: p, width, height, seed } = input;
    const g = geometry(p, width, height);
    const stops = buildStops(p);
    const W = num(width),
      H = num(height);
    const stopTags = stops.map(([t, c]) => `<stop offset="${num(t * 100)}%" stop-color="${c}"/>`).join('');
    const defs: string[] = [];
    const body: string[] = [];
    if (p.kind === 'linear') {
      defs.push(
        `<linearGradient id="g" gradientUnits="userSpaceOnUse" x1="${num(g.x1)}" y1="${num(g.y1)}" x2="${num(g.x2)}" y2="${num(g.y2)}">${stopTags}</linearGradient>`,
      );
      body.push(`<rect width="${W}" height="${H}" fill="url(#g)"/>`);
    } else if (p.kind === 'radial') {
      defs.push(
        `<radialGradient id="g" gradientUnits="userSpaceOnUse" cx="${num(g.cx)}" cy="${num(g.cy)}" r="${num(g.r)}">${stopTags}</radialGradient>`,
      );
      body.push(`<rect width="${W}" height="${H}" fill="url(#g)"/>`);
    } else {
      // SVG has no conic gradient: sweep thin overlapping wedges, each filled with the sampled colour.
      const steps = 360;
      const R = g.r * 1.05;
      const start = ((p.angle - 90) * Math.PI) / 180;
      const rgbStops = stops.map(([t, c]) => [t, parseHex(c)] as const);
      const sample = (t: number): string => {
        let i = 0;
        while (i < rgbStops.length - 2 && rgbStops[i + 1][0] < t) i++;
        const [t0, c0] = rgbStops[i];
        const [t1, c1] = rgbStops[i + 1];
        const u = t1 > t0 ? Math.min(1, Math.max(0, (t - t0) / (t1 - t0))) : 0;
        return toHex({ r: c0.r + (c1.r - c0.r) * u, g: c0.g + (c1.g - c0.g) * u, b: c0.b + (c1.b - c0.b) * u });
      };
      const parts: string[] = [];
      for (let i = 0; i < steps; i++) {
        const a0 = start + (i / steps) * Math.PI * 2;
        const a1 = start + ((i + 1.6) / steps) * Math.PI * 2; // overlap the next wedge to hide seams
        parts.push(
          `<path fill="${sample((i + 0.5) / steps)}" d="M${num(g.cx)} ${num(g.cy)}L${num(g.cx + R * Math.cos(a0))} ${num(g.cy + R * Math.sin(a0))}L${num(g.cx + R * Math.cos(a1))} ${num(g.cy + R * Math.sin(a1))}Z"/>`,
        );
      }
      body.push(`<rect width="${W}" height="${H}" fill="${stops[0][1]}"/>`, `<g>${parts.join('')}</g>`);
    }
    if (p.grain > 0) {
      defs.push(
        `<filter id="grain" x="0" y="0" width="100%" height="100%" filterUnits="userSpaceOnUse" color-interpolation-filters="sRGB">` +
          `<feTurbulence type="fractalNoise" baseFrequency="0.8" numOctaves="2" seed="${grainSeed(seed)}" stitchTiles="stitch"/>` +
          `<feColorMatrix type="matrix" values="1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 0 0 0 0 ${num(p.grain)}"/></filter>`,
      );
      body.push(`<rect width="${W}" height="${H}" filter="url(#grain)"/>`);
    }
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs>${defs.join('')}</defs>${body.join('')}</svg>`;
  },

  css(input) {
    const { params: p } = input;
    const colors = p.palette.map((c) => c.toLowerCase());
    const vars = colors.map((c, i) => `  --svc-stop-${i + 1}: ${c};`);
    const list = p.kind === 'conic' ? [...colors.map((_, i) => i), 0] : colors.map((_, i) => i);
    const stopList = list.map((idx, i) => `var(--svc-stop-${idx + 1}) ${num((i / (list.length - 1)) * 100)}%`).join(', ');
    const at = 'at var(--svc-center-x) var(--svc-center-y)';
    const fn = (space: string) => {
      const cs = space ? ` in ${space}` : '';
      if (p.kind === 'linear') return `linear-gradient(var(--svc-angle)${cs}, ${stopList})`;
      if (p.kind === 'radial') return `radial-gradient(circle farthest-corner ${at}${cs}, ${stopList})`;
      return `conic-gradient(from var(--svc-angle) ${at}${cs}, ${stopList})`;
    };
    const lines = [
      `/* ${p.kind} gradient — render-service linear-gradient 1.0.0. Edit the custom properties to restyle. */`,
      `.svc-linear-gradient {`,
      `  --svc-angle: ${num(p.angle)}deg;`,
      `  --svc-center-x: ${num(p.centerX * 100)}%;`,
      `  --svc-center-y: ${num(p.centerY * 100)}%;`,
      ...vars,
      `  background-color: var(--svc-stop-1);`,
      `  background-image: ${fn('')};`,
      `}`,
    ];
    if (p.interpolation === 'oklab') {
      lines.push(
        `@supports (background-image: linear-gradient(in oklab, red, blue)) {`,
        `  .svc-linear-gradient {`,
        `    background-image: ${fn('oklab')};`,
        `  }`,
        `}`,
      );
    }
    return lines.join('\n') + '\n';
  },
});
