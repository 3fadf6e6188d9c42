// Mesh gradient: a handful of coloured control points, each a soft elliptical Gaussian glow,
// layered over a base colour — the Stripe / Apple wallpaper look. The same radial gradients are
// used for the raster and the SVG form, so both show the same picture. Optional film grain
// breaks up 8-bit banding.
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { num } from '../lib/2a88792/svg.ts';
import { defineGenerator } from '../../generator.types.ts';
import { colorParam, paletteParam, parseHex, rgba, type Rgb } from '../lib/2a88792/color.ts';
import { range, subRandom } from '../lib/2a88792/random.ts';

export interface MeshGradientParams extends Record<string, unknown> {
  palette: string[];
  background: string;
  points: number;
  softness: number;
  grain: number;
}

const defaults: MeshGradientParams = {
  palette: ['#ff5e7e', '#ffb86b', '#7c5cff', '#22c1ee', '#ff8bd1'],
  background: '#3b2a8f',
  points: 7,
  softness: 0.85,
  grain: 0.04,
};

interface Glow {
  x: number;
  y: number;
  rx: number;
  ry: number;
  rotation: number; // degrees
  color: Rgb;
}

/** Gaussian-like alpha falloff sampled into gradient stops; reaches exactly 0 at the rim. */
const FALLOFF: ReadonlyArray<readonly [number, number]> = (() => {
  const k = 3.2;
  const end = Math.exp(-k);
  const stops: Array<[number, number]> = [];
  for (let i = 0; i <= 10; i++) {
    const t = i / 10;
    stops.push([t, (Math.exp(-k * t * t) - end) / (1 - end)]);
  }
  return stops;
})();

/** Long side, in pixels, of the buffer the glows are painted into on large canvases. */
const GLOW_BUFFER = 1280;

function buildGlows(p: MeshGradientParams, seed: number, width: number, height: number): Glow[] {
  const rnd = subRandom(seed, 'mesh-gradient/points');
  const colors = p.palette.map(parseHex);
  // Shuffle colour order so different seeds give different arrangements, but every colour is used.
  const order = colors.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  // Stratified placement: a rough grid of cells with jitter so points cover the canvas evenly.
  const n = p.points;
  const aspect = width / height;
  const cols = Math.max(1, Math.round(Math.sqrt(n * aspect)));
  const rows = Math.max(1, Math.ceil(n / cols));
  const cells: Array<[number, number]> = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) cells.push([c, r]);
  for (let i = cells.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [cells[i], cells[j]] = [cells[j], cells[i]];
  }
  const base = p.softness * Math.sqrt(width * height) * 0.62;
  const glows: Glow[] = [];
  for (let i = 0; i < n; i++) {
    const [c, r] = cells[i % cells.length];
    const x = ((c + range(rnd, 0.1, 0.9)) / cols) * width * 1.1 - width * 0.05;
    const y = ((r + range(rnd, 0.1, 0.9)) / rows) * height * 1.1 - height * 0.05;
    const size = base * range(rnd, 0.75, 1.25);
    const stretch = range(rnd, 0.7, 1.4);
    glows.push({
      x,
      y,
      rx: size * stretch,
      ry: size / stretch,
      rotation: range(rnd, 0, 180),
      color: colors[order[i % order.length]],
    });
  }
  return glows;
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

export default defineGenerator<MeshGradientParams>({
  slug: 'mesh-gradient',
  name: 'Mesh gradient',
  description: 'Soft multi-point mesh gradient: coloured control points blended into a smooth wallpaper, with optional film grain.',
  version: '1.0.0',
  animated: false,
  formats: ['png', 'webp', 'svg'],
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      palette: paletteParam('Palette', 'Colours of the control points; each is used at least once.', defaults.palette),
      background: colorParam('Base colour', 'Colour underneath the glows, visible between them.', defaults.background),
      points: {
        type: 'integer',
        title: 'Control points',
        description: 'Number of coloured glows blended together.',
        minimum: 2,
        maximum: 16,
        default: defaults.points,
      },
      softness: {
        type: 'number',
        title: 'Softness',
        description: 'Size of each glow relative to the canvas; larger values blend colours more.',
        minimum: 0.3,
        maximum: 1.5,
        default: defaults.softness,
      },
      grain: {
        type: 'number',
        title: 'Grain',
        description: 'Strength of the film-grain texture (0 = perfectly smooth).',
        minimum: 0,
        maximum: 0.3,
        default: defaults.grain,
      },
    },
  },

  draw(ctx: SKRSContext2D, input) {
    const { params: p, width, height, seed, pixelRatio } = input;
    // The glows are very smooth, so on large canvases they are painted into a smaller buffer
    // (long side ≤ GLOW_BUFFER px) and scaled up; the grain on top hides any interpolation.
    const k = Math.min(pixelRatio, GLOW_BUFFER / Math.max(width, height));
    const direct = k >= pixelRatio;
    const buffer = direct ? null : createCanvas(Math.max(1, Math.ceil(width * k)), Math.max(1, Math.ceil(height * k)));
    const g2 = buffer ? buffer.getContext('2d') : ctx;
    if (buffer) g2.scale(k, k);
    g2.fillStyle = p.background;
    g2.fillRect(0, 0, width, height);
    for (const g of buildGlows(p, seed, width, height)) {
      g2.save();
      g2.translate(g.x, g.y);
      g2.rotate((g.rotation * Math.PI) / 180);
      g2.scale(g.rx, g.ry);
      const grad = g2.createRadialGradient(0, 0, 0, 0, 0, 1);
      for (const [t, a] of FALLOFF) grad.addColorStop(t, rgba(g.color, Math.round(a * 100) / 100));
      g2.fillStyle = grad;
      g2.beginPath();
      g2.arc(0, 0, 1, 0, Math.PI * 2);
      g2.fill();
      g2.restore();
    }
    if (buffer) {
      ctx.imageSmoothingEnabled = true;
      ctx.imageSmoothingQuality = 'medium';
      ctx.drawImage(buffer, 0, 0, buffer.width, buffer.height, 0, 0, buffer.width / k, buffer.height / k);
    }
    if (p.grain > 0) applyGrain(ctx, seed, 'mesh-gradient/grain', p.grain);
  },

  svg(input) {
    const { params: p, width, height, seed } = input;
    const glows = buildGlows(p, seed, width, height);
    const defs: string[] = [];
    const body: string[] = [`<rect width="${num(width)}" height="${num(height)}" fill="${p.background}"/>`];
    glows.forEach((g, i) => {
      const stops = FALLOFF.map(
        ([t, a]) =>
          `<stop offset="${num(t)}" stop-color="rgb(${Math.round(g.color.r)},${Math.round(g.color.g)},${Math.round(g.color.b)})" stop-opacity="${num(a)}"/>`,
      ).join('');
      defs.push(
        `<radialGradient id="g${i}" gradientUnits="userSpaceOnUse" cx="0" cy="0" r="1" gradientTransform="translate(${num(g.x)} ${num(g.y)}) rotate(${num(g.rotation)}) scale(${num(g.rx)} ${num(g.ry)})">${stops}</radialGradient>`,
      );
      body.push(`<rect width="${num(width)}" height="${num(height)}" fill="url(#g${i})"/>`);
    });
    if (p.grain > 0) {
      defs.push(
        `<filter id="grain" x="0" y="0" width="100%" height="100%" filterUnits="userSpaceOnUse" color-interpolation-filters="sRGB">` +
          `<feTurbulence type="fractalNoise" baseFrequency="0.8" numOctaves="2" seed="${grainSeed(seed)}" stitchTiles="stitch"/>` +
          `<feColorMatrix type="matrix" values="1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 0 0 0 0 ${num(p.grain)}"/></filter>`,
      );
      body.push(`<rect width="${num(width)}" height="${num(height)}" filter="url(#grain)"/>`);
    }
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${num(height)}" viewBox="0 0 ${num(width)} ${num(height)}">` +
      `<defs>${defs.join('')}</defs>${body.join('')}</svg>`
    );
  },
});
