// Starfield warp: seeded stars fly towards the viewer out of a vanishing point, leaving light
// trails. Each star has a fixed direction (x0, y0) and a depth z = fract(z0 - loop * speed); with an
// integer speed the depth returns to its start at loop = 1, so the animation loops seamlessly. A
// star's trail is the segment between its projection now and its projection a little further
// back in depth, so every frame is computed on its own. Stars fade in far away and out very near,
// so the wrap from near to far never pops.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { loopAnimation, loopParamSchema } from '../lib/2a88792/animation.ts';
import { defineGenerator } from '../../generator.types.ts';
import { colorParam, paletteParam, parseHex, type Rgb } from '../lib/2a88792/color.ts';
import { subRandom } from '../lib/2a88792/random.ts';

export interface StarfieldParams extends Record<string, unknown> {
  stars: number;
  speed: number;
  trail: number;
  starSize: number;
  palette: string[];
  background: string;
  nebula: number;
  fps: number;
  duration: number;
}

const defaults: StarfieldParams = {
  stars: 700,
  speed: 1,
  trail: 0.5,
  starSize: 1.6,
  palette: ['#ffffff', '#cfe0ff', '#9ec5ff', '#ffe3c2', '#d9c8ff'],
  background: '#04050d',
  nebula: 0.5,
  fps: 24,
  duration: 3,
};

const NEAR = 0.015;

interface Star {
  x: number;
  y: number;
  z0: number;
  color: Rgb;
  brightness: number;
}

function makeStars(p: StarfieldParams, seed: number): Star[] {
  const rnd = subRandom(seed, 'starfield/stars');
  const colors = p.palette.map(parseHex);
  const stars: Star[] = [];
  for (let i = 0; i < p.stars; i++) {
    // Directions uniform over a square that covers the view at far depth; a few stars close to
    // the axis are pushed out so the vanishing point does not collect near-static dots.
    let x = rnd() * 2 - 1;
    let y = rnd() * 2 - 1;
    const r = Math.hypot(x, y);
    if (r < 0.04) {
      x = (x / (r || 1)) * 0.04;
      y = (y / (r || 1)) * 0.04;
    }
    stars.push({ x, y, z0: rnd(), color: colors[Math.floor(rnd() * colors.length)], brightness: 0.55 + 0.45 * rnd() });
  }
  return stars;
}

const smooth = (e0: number, e1: number, x: number) => {
  const t = Math.max(0, Math.min(1, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};

function rgb(c: Rgb, a: number): string {
  return `rgba(${Math.round(c.r)},${Math.round(c.g)},${Math.round(c.b)},${Math.round(a * 1000) / 1000})`;
}

export default defineGenerator<StarfieldParams>({
  slug: 'starfield',
  name: 'Starfield warp',
  description: 'Stars streaming towards the viewer at warp speed with glowing trails over a faint nebula; loops seamlessly.',
  version: '1.0.0',
  animated: true,
  formats: ['gif', 'mp4', 'png', 'webp'],
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      stars: {
        type: 'integer',
        title: 'Stars',
        description: 'Number of stars in the field.',
        minimum: 50,
        maximum: 3000,
        default: defaults.stars,
      },
      speed: {
        type: 'integer',
        title: 'Speed',
        description: 'How many times each star travels the full depth during one loop.',
        minimum: 1,
        maximum: 6,
        default: defaults.speed,
      },
      trail: {
        type: 'number',
        title: 'Trail length',
        description: 'Length of the light streaks behind the stars (0 = points only).',
        minimum: 0,
        maximum: 1,
        default: defaults.trail,
      },
      starSize: {
        type: 'number',
        title: 'Star size',
        description: 'Radius of the nearest stars, in pixels.',
        minimum: 0.5,
        maximum: 5,
        default: defaults.starSize,
      },
      palette: paletteParam('Star colours', 'Tints the stars are picked from.', defaults.palette),
      background: colorParam('Background', 'Colour of deep space.', defaults.background),
      nebula: {
        type: 'number',
        title: 'Nebula',
        description: 'Strength of the soft coloured glow behind the stars (0 = plain background).',
        minimum: 0,
        maximum: 1,
        default: defaults.nebula,
      },
      ...loopParamSchema(defaults),
    },
  },

  animation: loopAnimation,

  draw(ctx: SKRSContext2D, input) {
    const { params: p, width, height, seed, loop } = input;
    const cx = width / 2;
    const cy = height / 2;
    const half = Math.max(width, height) / 2;
    ctx.fillStyle = p.background;
    ctx.fillRect(0, 0, width, height);

    // Nebula: a few very soft glows tinted by the palette, plus a faint light at the vanishing point.
    if (p.nebula > 0) {
      const rnd = subRandom(seed, 'starfield/nebula');
      const colors = p.palette.map(parseHex);
      const tints: Rgb[] = [
        { r: 90, g: 60, b: 200 },
        { r: 30, g: 110, b: 200 },
        { r: 170, g: 60, b: 160 },
      ];
      for (let i = 0; i < 3; i++) {
        const x = width * (0.15 + 0.7 * rnd());
        const y = height * (0.15 + 0.7 * rnd());
        const r = half * (0.6 + 0.6 * rnd());
        const t = tints[Math.floor(rnd() * tints.length)];
        const c = colors[Math.floor(rnd() * colors.length)];
        const tint = { r: (t.r + c.r * 0.3) / 1.3, g: (t.g + c.g * 0.3) / 1.3, b: (t.b + c.b * 0.3) / 1.3 };
        const g = ctx.createRadialGradient(x, y, 0, x, y, r);
        g.addColorStop(0, rgb(tint, 0.34 * p.nebula));
        g.addColorStop(0.45, rgb(tint, 0.13 * p.nebula));
        g.addColorStop(1, rgb(tint, 0));
        ctx.fillStyle = g;
        ctx.fillRect(0, 0, width, height);
      }
      const core = ctx.createRadialGradient(cx, cy, 0, cx, cy, half * 0.45);
      core.addColorStop(0, `rgba(200,215,255,${Math.round(0.16 * p.nebula * 1000) / 1000})`);
      core.addColorStop(1, 'rgba(200,215,255,0)');
      ctx.fillStyle = core;
      ctx.fillRect(0, 0, width, height);
    }

    const stars = makeStars(p, seed);
    const focal = half * 0.9;
    const trailDepth = 0.04 + 0.3 * p.trail;
    ctx.globalCompositeOperation = 'lighter';
    ctx.lineCap = 'round';
    for (const s of stars) {
      const zr = s.z0 - loop * p.speed;
      const z = NEAR + (1 - NEAR) * (zr - Math.floor(zr));
      const alpha = s.brightness * smooth(1, 0.72, z) * smooth(NEAR, NEAR + 0.05, z);
      if (alpha <= 0.01) continue;
      const hx = cx + (s.x * focal) / z;
      const hy = cy + (s.y * focal) / z;
      const rad = p.starSize * Math.min(2, 0.1 / z + 0.2);
      const tz = Math.min(1, z + trailDepth * z); // streaks grow with closeness, in proportion to depth
      const tx = cx + (s.x * focal) / tz;
      const ty = cy + (s.y * focal) / tz;
      const margin = rad + 2;
      const inside = (x: number, y: number) => x > -margin && x < width + margin && y > -margin && y < height + margin;
      if (!inside(hx, hy) && !inside(tx, ty)) continue;
      const len = Math.hypot(hx - tx, hy - ty);
      if (p.trail > 0 && len > 0.75) {
        if (len > 3) {
          const g = ctx.createLinearGradient(tx, ty, hx, hy);
          g.addColorStop(0, rgb(s.color, 0));
          g.addColorStop(1, rgb(s.color, alpha * 0.85));
          ctx.strokeStyle = g;
        } else {
          ctx.strokeStyle = rgb(s.color, alpha * 0.45);
        }
        ctx.lineWidth = Math.max(0.6, rad * 1.3);
        ctx.beginPath();
        ctx.moveTo(tx, ty);
        ctx.lineTo(hx, hy);
        ctx.stroke();
      }
      ctx.fillStyle = rgb(s.color, alpha);
      ctx.beginPath();
      ctx.arc(hx, hy, Math.max(0.45, rad), 0, Math.PI * 2);
      ctx.fill();
    }
    ctx.globalCompositeOperation = 'source-over';
  },
});
