// Organic blob: a smooth radial outline (a seeded oval plus a few lobes, harmonics of the angle,
// sampled at many points) joined by a closed Catmull-Rom spline converted to cubic Béziers and
// filled with a palette gradient. Extra layers stack smaller blobs on top, each drifting towards
// the light and kept inside the one behind it, each with a soft shadow. The blob is the subject:
// scaled so its outline spans `size` of the canvas's short side and centred optically (between its
// area centroid and its bounding box, a little above the middle). Behind it a soft halo in the
// outer layer's most vivid colour, with the background tinted towards it. The seed sets the
// silhouette, which way it leans (along the long side of a wide or tall canvas), the light, and
// which part of the palette the outer layer (and so the halo) takes: a different one for
// consecutive seeds.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { num } from '../lib/svg.ts';
import { softShadow } from '../lib/shadow.ts';
import { defineGenerator } from '../generator.types.ts';
import { colorParam, paletteParam, parseHex, toHex } from '../lib/color.ts';
import { mixOklab, oklabToRgb, rgbToOklab } from '../lib/oklab.ts';
import { deviceBounds, paintGradient, pathCoverage, scaling } from '../lib/gradient.ts';
import { readBlock, writeBlock } from '../lib/pixels.ts';
import { goldenSpread, hash32, range, seededStream } from '../lib/random.ts';
import { dmath } from '../lib/dmath.ts';

export interface BlobParams extends Record<string, unknown> {
  palette: string[];
  background: string;
  size: number;
  points: number;
  irregularity: number;
  layers: number;
  spread: number;
  shadow: number;
  glow: number;
}

const defaults: BlobParams = {
  palette: ['#0f4c5c', '#1b998b', '#f4d35e', '#ee964b', '#f95738'],
  background: '#fbf5ec',
  size: 0.6,
  points: 7,
  irregularity: 0.6,
  layers: 3,
  spread: 0.5,
  shadow: 0.3,
  glow: 0.5,
};

interface BlobLayer {
  start: [number, number];
  curves: Array<[number, number, number, number, number, number]>;
  gradient: { x1: number; y1: number; x2: number; y2: number; stops: Array<[number, string]> };
}

/** The halo's opacity along its radius (× its strength): about a Gaussian, zero at the rim. */
const HALO_FALLOFF: ReadonlyArray<[number, number]> = [
  [0, 1],
  [0.25, 0.88],
  [0.5, 0.55],
  [0.75, 0.2],
  [1, 0],
];

/** How far the background is tinted towards the halo's colour at glow 1. */
const BACKGROUND_TINT = 0.16;

/** Shadow tint, also the SVG form's flood-color #140a28. */
const SHADOW_COLOR = { r: 20, g: 10, b: 40 };

/** The soft halo behind the blob: a radial gradient from `color` at `alpha` to nothing. */
interface Halo {
  cx: number;
  cy: number;
  r: number;
  color: string;
  stops: Array<[number, number]>;
}

interface Scene {
  /** The background, tinted a little towards the halo's colour. */
  background: string;
  layers: BlobLayer[];
  halo?: Halo;
  shadowBlur: number;
  shadowOffset: number;
  shadowAlpha: number;
}

/** Points along a closed Catmull-Rom outline (its Bézier segments, `per` samples each). */
function outlinePoints(layer: BlobLayer, per: number): Array<[number, number]> {
  const pts: Array<[number, number]> = [];
  let [x0, y0] = layer.start;
  for (const [ax, ay, bx, by, x1, y1] of layer.curves) {
    for (let i = 0; i < per; i++) {
      const t = i / per,
        u = 1 - t;
      pts.push([
        u * u * u * x0 + 3 * u * u * t * ax + 3 * u * t * t * bx + t * t * t * x1,
        u * u * u * y0 + 3 * u * u * t * ay + 3 * u * t * t * by + t * t * t * y1,
      ]);
    }
    x0 = x1;
    y0 = y1;
  }
  return pts;
}

/** Distance from (x, y) along the unit direction (dx, dy) to the nearest crossing of a closed polygon. */
function rayDistance(poly: ReadonlyArray<readonly [number, number]>, x: number, y: number, dx: number, dy: number): number {
  let best = Infinity;
  for (let i = 0; i < poly.length; i++) {
    const [ax, ay] = poly[i];
    const [bx, by] = poly[(i + 1) % poly.length];
    const ex = bx - ax,
      ey = by - ay;
    const den = dx * ey - dy * ex;
    if (den === 0) continue;
    const t = ((ax - x) * ey - (ay - y) * ex) / den; // along the ray
    const u = ((ax - x) * dy - (ay - y) * dx) / den; // along the edge
    if (t > 0 && u >= 0 && u <= 1 && t < best) best = t;
  }
  return best === Infinity ? 0 : best;
}

function buildScene(p: BlobParams, seed: number, width: number, height: number): Scene {
  const rnd = seededStream(seed, 'blob/shape');
  const layout = seededStream(seed, 'blob/layout');
  const palette = p.palette.map((c) => rgbToOklab(parseHex(c)));
  // Which part of the palette each layer takes: the palette is cut into one part per layer, the
  // outer layer takes part (seed + k) mod layers, so consecutive seeds never share the outer (and
  // halo) colour, and the rest follow in palette order, which runs either way by seed. Turned by
  // whole parts, so no layer's gradient wraps around the palette's ends.
  const L = p.layers;
  const outer = (hash32('blob/palette') + (seed >>> 0)) % L;
  const reversed = layout() < 0.5;
  if (reversed) palette.reverse();
  const turn = (reversed ? L - 1 - outer : outer) / L;
  // Palette sampled in OKLab: no olive or grey midpoints between distant hues.
  const sampleLab = (t: number) => {
    const x = Math.max(0, Math.min(1, t)) * (palette.length - 1);
    const i = Math.min(palette.length - 2, Math.floor(x));
    return mixOklab(palette[i], palette[i + 1], x - i);
  };
  const sample = (t: number) => toHex(oklabToRgb(sampleLab(t)));
  const short = Math.min(width, height),
    long = Math.max(width, height);
  const wide = width >= height;
  // Light from above, from the upper left to the upper right; along the golden-ratio sequence, so
  // consecutive seeds light (and stack) their layers from clearly different sides.
  const light = -Math.PI * (0.1 + 0.8 * goldenSpread(seed, 'blob/light'));
  const lx = dmath.cos(light),
    ly = dmath.sin(light);
  // The silhouette's character, by seed: how oval it is and which way it leans (on a wide or tall
  // canvas within 40° of the long side, so the blob fills the room it has).
  const oval = p.irregularity * range(layout, 0.08, 0.32);
  const lean = long / short > 1.15 ? (wide ? 0 : Math.PI / 2) + range(layout, -0.7, 0.7) : range(layout, 0, Math.PI);
  // Lobes: harmonics 3..K of the radius, weaker the higher; more control points allow more of them.
  const K = Math.max(3, Math.min(9, Math.round(p.points / 2) + 1));

  // Built around (0, 0) with the outer radius 1, then scaled and centred on the canvas below. The
  // outline samples a smooth radial function (the oval and the lobes) at many points, so the
  // spline through them has no corners.
  const n = Math.max(24, p.points * 4);
  let cx = 0,
    cy = 0;
  let previous: Array<[number, number]> = [];
  const layers: BlobLayer[] = [];
  for (let k = 0; k < L; k++) {
    const r = 1 - (k / Math.max(1, L)) * 0.62;
    if (k > 0) {
      // Each layer drifts from the previous centre, mostly towards the light.
      const a = light + range(rnd, -1.1, 1.1);
      const dist = p.spread * 0.3;
      cx += dmath.cos(a) * dist;
      cy += dmath.sin(a) * dist;
    }
    const amps: number[] = [],
      phases: number[] = [];
    for (let h = 3; h <= K; h++) {
      amps.push((p.irregularity * 0.2 * range(rnd, 0.3, 1)) / (h - 2));
      phases.push(range(rnd, 0, Math.PI * 2));
    }
    const ovalTurn = lean + range(rnd, -0.3, 0.3);
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = 0; i < n; i++) {
      const th = (i / n) * Math.PI * 2;
      const c = dmath.cos(th),
        sn = dmath.sin(th);
      let shape = 1 + oval * dmath.cos(2 * (th - ovalTurn));
      for (let h = 3; h <= K; h++) shape += amps[h - 3] * dmath.cos(h * th + phases[h - 3]);
      let rr = r * shape;
      // Inside the layer behind, with a margin, so no layer pokes out of the one it sits on.
      if (k > 0) rr = Math.min(rr, 0.86 * rayDistance(previous, cx, cy, c, sn));
      xs.push(cx + c * rr);
      ys.push(cy + sn * rr);
    }
    // Closed Catmull-Rom → cubic Bézier.
    const curves: BlobLayer['curves'] = [];
    for (let i = 0; i < n; i++) {
      const i0 = (i - 1 + n) % n,
        i1 = (i + 1) % n,
        i2 = (i + 2) % n;
      curves.push([
        xs[i] + (xs[i1] - xs[i0]) / 6,
        ys[i] + (ys[i1] - ys[i0]) / 6,
        xs[i1] - (xs[i2] - xs[i]) / 6,
        ys[i1] - (ys[i2] - ys[i]) / 6,
        xs[i1],
        ys[i1],
      ]);
    }
    const t0 = (k / L + turn) % 1,
      t1 = t0 + 1 / L;
    const stops: Array<[number, string]> = [];
    for (let s = 0; s < 4; s++) stops.push([s / 3, sample(t0 + ((t1 - t0) * s) / 3)]);
    const gr = r * 1.2;
    const layer: BlobLayer = {
      start: [xs[0], ys[0]],
      curves,
      gradient: { x1: cx + lx * gr, y1: cy + ly * gr, x2: cx - lx * gr, y2: cy - ly * gr, stops },
    };
    layers.push(layer);
    previous = outlinePoints(layer, 4);
  }

  // Size: the outer outline spans `size` of the short side across the canvas's short axis, and
  // along the long axis at most 1.3 times that (less on a squarer canvas) and 85% of the long side.
  const outline = outlinePoints(layers[0], 12);
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  let area = 0,
    ax = 0,
    ay = 0;
  for (let i = 0; i < outline.length; i++) {
    const [px, py] = outline[i];
    const [qx, qy] = outline[(i + 1) % outline.length];
    x0 = Math.min(x0, px);
    x1 = Math.max(x1, px);
    y0 = Math.min(y0, py);
    y1 = Math.max(y1, py);
    const cross = px * qy - qx * py;
    area += cross;
    ax += (px + qx) * cross;
    ay += (py + qy) * cross;
  }
  const spanShort = wide ? y1 - y0 : x1 - x0,
    spanLong = wide ? x1 - x0 : y1 - y0;
  const longRoom = Math.min(0.85 * long, p.size * short * Math.min(1.3, Math.sqrt(long / short)));
  const R = Math.min((p.size * short) / spanShort, longRoom / spanLong);
  // Optical centre: halfway between the outline's area centroid and its bounding box's centre,
  // placed a little above the canvas centre (the shadow falls below).
  const mx = 0.5 * (ax / (3 * area) + (x0 + x1) / 2),
    my = 0.5 * (ay / (3 * area) + (y0 + y1) / 2);
  const tx = width / 2 - mx * R,
    ty = height / 2 - 0.015 * short - my * R;
  const X = (x: number) => tx + x * R,
    Y = (y: number) => ty + y * R;
  for (const layer of layers) {
    layer.start = [X(layer.start[0]), Y(layer.start[1])];
    layer.curves = layer.curves.map(([a, b, c, d, e, f]) => [X(a), Y(b), X(c), Y(d), X(e), Y(f)]);
    const g = layer.gradient;
    layer.gradient = { x1: X(g.x1), y1: Y(g.y1), x2: X(g.x2), y2: Y(g.y2), stops: g.stops };
  }
  // The halo's colour: the most vivid of the outer layer's colours (a dull one reads as grey haze).
  let glowLab = sampleLab(turn);
  for (let i = 1; i <= 8; i++) {
    const c = sampleLab(turn + i / (8 * L));
    if (Math.hypot(c[1], c[2]) > Math.hypot(glowLab[1], glowLab[2])) glowLab = c;
  }
  // The halo: the outer layer's most vivid colour, centred a little towards the light, smooth falloff.
  const a0 = 0.6 * p.glow;
  const halo: Halo | undefined =
    a0 > 0
      ? {
          cx: width / 2 + lx * 0.4 * R,
          cy: height / 2 - 0.015 * short + ly * 0.4 * R,
          r: 3 * R,
          color: toHex(oklabToRgb(glowLab)),
          stops: HALO_FALLOFF.map(([t, a]) => [t, a * a0]),
        }
      : undefined;
  return {
    background: toHex(oklabToRgb(mixOklab(rgbToOklab(parseHex(p.background)), glowLab, BACKGROUND_TINT * p.glow))),
    layers,
    halo,
    shadowBlur: R * 0.08 * p.shadow + 0.3,
    shadowOffset: R * 0.06 * p.shadow,
    shadowAlpha: 0.55 * p.shadow,
  };
}

export default defineGenerator<BlobParams>({
  slug: 'blob',
  name: 'Blob',
  description:
    'A smooth organic blob, centred and filling the canvas, with gradient fills, optionally stacked in layers with soft shadows, on a soft halo of its colour.',
  version: '1.3.0',
  animated: false,
  formats: ['png', 'webp', 'jpeg', 'svg'],
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      palette: paletteParam('Palette', 'Gradient colours, spread across the layers from the back to the front.', defaults.palette),
      background: colorParam('Background', 'Canvas colour behind the blob (tinted towards the halo by glow).', defaults.background),
      size: {
        type: 'number',
        title: 'Size',
        description:
          'Extent of the outer blob across the shorter canvas side, as a fraction of that side (along the longer side it may reach up to 1.3 times as far).',
        minimum: 0.2,
        maximum: 1.2,
        default: defaults.size,
      },
      points: {
        type: 'integer',
        title: 'Complexity',
        description: 'Complexity of the outline: higher values allow more, smaller lobes (3 gives a smooth oval with one swell).',
        minimum: 3,
        maximum: 16,
        default: defaults.points,
      },
      irregularity: {
        type: 'number',
        title: 'Irregularity',
        description: 'How far the outline wanders from a circle: how oval and how lobed it is (0 = circle).',
        minimum: 0,
        maximum: 1,
        default: defaults.irregularity,
      },
      layers: {
        type: 'integer',
        title: 'Layers',
        description: 'Number of stacked blobs, each smaller than the one behind it.',
        minimum: 1,
        maximum: 6,
        default: defaults.layers,
      },
      spread: {
        type: 'number',
        title: 'Layer offset',
        description:
          'How far stacked layers drift from the centre of the one behind, towards the light (0 = concentric); they always stay inside it.',
        minimum: 0,
        maximum: 1,
        default: defaults.spread,
      },
      shadow: {
        type: 'number',
        title: 'Shadow',
        description: 'Strength of the soft drop shadow under each layer (0 = none).',
        minimum: 0,
        maximum: 1,
        default: defaults.shadow,
      },
      glow: {
        type: 'number',
        title: 'Glow',
        description: 'Strength of the soft halo in the outer layer’s colour around the blob (0 = plain background).',
        minimum: 0,
        maximum: 1,
        default: defaults.glow,
      },
    },
  },

  draw(ctx: SKRSContext2D, input) {
    const { params: p, width, height, seed, pixelRatio } = input;
    const scene = buildScene(p, seed, width, height);
    ctx.fillStyle = scene.background;
    ctx.fillRect(0, 0, width, height);
    const toDevice = scaling(pixelRatio);
    if (scene.halo) {
      // Painted in JavaScript (lib/gradient.ts), as the layers' gradients: Skia's differ by CPU.
      const h = scene.halo;
      const region = deviceBounds([h.cx - h.r, h.cy - h.r, h.cx + h.r, h.cy + h.r], toDevice, ctx.canvas.width, ctx.canvas.height);
      if (region.width > 0 && region.height > 0) {
        const block = readBlock(ctx, region.x, region.y, region.width, region.height);
        const color = parseHex(h.color);
        paintGradient(block, {
          shape: { kind: 'radial', cx: h.cx, cy: h.cy, r: h.r },
          stops: h.stops.map(([offset, alpha]) => ({ offset, color, alpha })),
          transform: toDevice,
        });
        writeBlock(ctx, block);
      }
    }
    for (const layer of scene.layers) {
      const trace = (c: SKRSContext2D) => {
        c.moveTo(layer.start[0], layer.start[1]);
        for (const [a, b, cc, d, e, f] of layer.curves) c.bezierCurveTo(a, b, cc, d, e, f);
        c.closePath();
      };
      let x0 = layer.start[0],
        y0 = layer.start[1],
        x1 = x0,
        y1 = y0;
      for (const c of layer.curves) {
        for (let i = 0; i < 6; i += 2) {
          x0 = Math.min(x0, c[i]);
          x1 = Math.max(x1, c[i]);
          y0 = Math.min(y0, c[i + 1]);
          y1 = Math.max(y1, c[i + 1]);
        }
      }
      if (scene.shadowAlpha > 0) {
        softShadow(
          ctx,
          pixelRatio,
          width,
          height,
          trace,
          [x0, y0, x1, y1],
          scene.shadowBlur,
          scene.shadowOffset,
          SHADOW_COLOR,
          scene.shadowAlpha,
        );
      }
      // The gradient is painted in JavaScript inside the shape's coverage (lib/gradient.ts):
      // Skia's gradients give other pixels on other CPUs.
      const region = deviceBounds([x0, y0, x1, y1], toDevice, ctx.canvas.width, ctx.canvas.height);
      if (region.width === 0 || region.height === 0) continue;
      const g = layer.gradient;
      const block = readBlock(ctx, region.x, region.y, region.width, region.height);
      paintGradient(block, {
        shape: { kind: 'linear', x0: g.x1, y0: g.y1, x1: g.x2, y1: g.y2 },
        stops: g.stops.map(([t, c]) => ({ offset: t, color: parseHex(c) })),
        transform: toDevice,
        coverage: pathCoverage(region, toDevice, trace),
      });
      writeBlock(ctx, block);
    }
  },

  svg(input) {
    const { params: p, width, height, seed } = input;
    const scene = buildScene(p, seed, width, height);
    const W = num(width),
      H = num(height);
    const defs: string[] = [];
    const hasShadow = scene.shadowAlpha > 0;
    if (hasShadow) {
      defs.push(
        `<filter id="shadow" x="-30%" y="-30%" width="160%" height="160%" color-interpolation-filters="sRGB">` +
          `<feGaussianBlur in="SourceAlpha" stdDeviation="${num(scene.shadowBlur)}"/><feOffset dy="${num(scene.shadowOffset)}" result="b"/>` +
          `<feFlood flood-color="#140a28" flood-opacity="${num(scene.shadowAlpha)}"/><feComposite in2="b" operator="in"/>` +
          `<feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter>`,
      );
    }
    let halo = '';
    if (scene.halo) {
      const h = scene.halo;
      defs.push(
        `<radialGradient id="halo" gradientUnits="userSpaceOnUse" cx="${num(h.cx)}" cy="${num(h.cy)}" r="${num(h.r)}">` +
          h.stops.map(([t, a]) => `<stop offset="${num(t)}" stop-color="${h.color}" stop-opacity="${num(a)}"/>`).join('') +
          `</radialGradient>`,
      );
      halo = `<rect width="${W}" height="${H}" fill="url(#halo)"/>`;
    }
    const paths = scene.layers.map((layer, i) => {
      const g = layer.gradient;
      defs.push(
        `<linearGradient id="g${i}" gradientUnits="userSpaceOnUse" x1="${num(g.x1)}" y1="${num(g.y1)}" x2="${num(g.x2)}" y2="${num(g.y2)}">` +
          g.stops.map(([t, c]) => `<stop offset="${num(t)}" stop-color="${c}"/>`).join('') +
          `</linearGradient>`,
      );
      const d = `M${num(layer.start[0])} ${num(layer.start[1])}C` + layer.curves.map((c) => c.map(num).join(' ')).join(' ') + 'Z';
      return `<path fill="url(#g${i})"${hasShadow ? ' filter="url(#shadow)"' : ''} d="${d}"/>`;
    });
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs>${defs.join('')}</defs>` +
      `<rect width="${W}" height="${H}" fill="${scene.background}"/>${halo}${paths.join('')}</svg>`
    );
  },
});
