// Orbits: a little planetary system seen at a slant. Concentric elliptical orbits around a glowing
// sun, each carrying one to three planets with fading comet trails. Every planet makes a whole
// number of revolutions per loop (inner ones faster), so the animation joins up exactly. Drawn on
// the canvas with solid colours (and plain alpha) only.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { LOOP_DEFAULTS, type LoopParams, loopAnimation, loopParamSchema } from '../lib/1dac23a/animation.ts';
import { defineGenerator } from '../../generator.types.ts';
import { colorParam, mix, paletteParam, parseHex, toHex } from '../lib/1dac23a/color.ts';
import { range, subRandom } from '../lib/3e3ef4b/random.ts';

export interface OrbitsParams extends Record<string, unknown>, LoopParams {
  orbits: number;
  tilt: number;
  trail: number;
  speed: number;
  palette: string[];
  background: string;
}

const defaults: OrbitsParams = {
  orbits: 6,
  tilt: 0.45,
  trail: 0.35,
  speed: 1,
  palette: ['#ffb703', '#fb8500', '#8ecae6', '#219ebc', '#e76f51', '#f1faee'],
  background: '#0b1320',
  ...LOOP_DEFAULTS,
};

const TAU = Math.PI * 2;
const TRAIL_SEGMENTS = 14;

interface Planet {
  phase: number;
  turns: number;
  size: number;
  color: string;
}

interface System {
  cx: number;
  cy: number;
  rot: number;
  radii: number[];
  planets: Planet[][];
  sun: number;
}

function buildSystem(p: OrbitsParams, seed: number, width: number, height: number): System {
  const rnd = subRandom(seed, 'orbits/system');
  const S = Math.min(width, height);
  const cx = width * range(rnd, 0.38, 0.62);
  const cy = height * range(rnd, 0.42, 0.58);
  const rot = range(rnd, -0.5, 0.5);
  const outer = Math.max(width, height) * range(rnd, 0.42, 0.55);
  const sun = S * range(rnd, 0.05, 0.08);
  const radii: number[] = [];
  const planets: Planet[][] = [];
  const planetColors = p.palette.length > 1 ? p.palette.slice(1) : p.palette;
  for (let k = 0; k < p.orbits; k++) {
    const f = (k + 1) / p.orbits;
    radii.push(sun * 1.8 + (outer - sun * 1.8) * f ** 1.15);
    const count = 1 + Math.floor(rnd() * (k < 2 ? 1.6 : 3));
    // Whole turns per loop: inner orbits faster, alternate orbits the other way round.
    const turns = (1 + Math.floor((p.orbits - 1 - k) / 2)) * p.speed * (k % 2 === 0 ? 1 : -1);
    const list: Planet[] = [];
    const start = rnd() * TAU;
    for (let i = 0; i < count; i++) {
      list.push({
        phase: start + (i * TAU) / count + range(rnd, -0.3, 0.3),
        turns: Math.round(turns),
        size: S * range(rnd, 0.008, 0.022) * (i === 0 ? 1.3 : 1),
        color: planetColors[Math.floor(rnd() * planetColors.length) % planetColors.length],
      });
    }
    planets.push(list);
  }
  return { cx, cy, rot, radii, planets, sun };
}

export default defineGenerator<OrbitsParams>({
  slug: 'orbits',
  name: 'Orbits',
  description:
    'A little planetary system at a slant: planets with comet trails circling a glowing sun on concentric orbits, looping seamlessly.',
  version: '1.0.0',
  animated: true,
  formats: ['gif', 'mp4', 'png', 'webp'],
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      orbits: {
        type: 'integer',
        title: 'Orbits',
        description: 'Number of orbits around the sun.',
        minimum: 2,
        maximum: 12,
        default: defaults.orbits,
      },
      tilt: {
        type: 'number',
        title: 'Tilt',
        description: 'How far the system is tipped away from the viewer (0 = seen from above).',
        minimum: 0,
        maximum: 0.85,
        default: defaults.tilt,
      },
      trail: {
        type: 'number',
        title: 'Trail',
        description: 'Length of the planets\u2019 trails, as a fraction of a turn.',
        minimum: 0,
        maximum: 0.9,
        default: defaults.trail,
      },
      speed: {
        type: 'integer',
        title: 'Speed',
        description: 'Multiplies the whole turns each planet makes per loop.',
        minimum: 1,
        maximum: 3,
        default: defaults.speed,
      },
      palette: paletteParam('Palette', 'The first colour is the sun; planets take the others.', defaults.palette),
      background: colorParam('Background', 'Colour of space.', defaults.background),
      ...loopParamSchema(defaults),
    },
  },

  animation: loopAnimation,

  draw(ctx: SKRSContext2D, input) {
    const { params: p, width, height, seed, loop } = input;
    const sys = buildSystem(p, seed, width, height);
    const bg = parseHex(p.background);
    const sunColor = parseHex(p.palette[0]);
    const squash = 1 - p.tilt;
    const cr = Math.cos(sys.rot),
      sr = Math.sin(sys.rot);
    const at = (r: number, a: number): [number, number] => {
      const x = r * Math.cos(a),
        y = r * Math.sin(a) * squash;
      return [sys.cx + x * cr - y * sr, sys.cy + x * sr + y * cr];
    };
    const S = Math.min(width, height);

    ctx.fillStyle = p.background;
    ctx.fillRect(0, 0, width, height);

    // Faint background dust, static.
    const dust = subRandom(seed, 'orbits/dust');
    ctx.fillStyle = toHex(mix(bg, parseHex('#ffffff'), 0.35));
    const nDust = Math.round((width * height) / 2500);
    for (let i = 0; i < nDust; i++) {
      const x = dust() * width,
        y = dust() * height,
        r = S * 0.0012 * (0.5 + dust());
      ctx.fillRect(x - r, y - r, 2 * r, 2 * r);
    }

    // Orbits.
    ctx.lineWidth = Math.max(0.5, S * 0.0018);
    ctx.strokeStyle = toHex(mix(bg, sunColor, 0.22));
    for (const r of sys.radii) {
      ctx.beginPath();
      ctx.ellipse(sys.cx, sys.cy, r, r * squash, sys.rot, 0, TAU);
      ctx.stroke();
    }

    // Sun with halos.
    for (let i = 4; i >= 1; i--) {
      ctx.fillStyle = toHex(mix(bg, sunColor, 0.12 + 0.06 * (4 - i)));
      ctx.beginPath();
      ctx.arc(sys.cx, sys.cy, sys.sun * (1 + 0.32 * i), 0, TAU);
      ctx.fill();
    }
    ctx.fillStyle = toHex(sunColor);
    ctx.beginPath();
    ctx.arc(sys.cx, sys.cy, sys.sun, 0, TAU);
    ctx.fill();
    ctx.fillStyle = toHex(mix(sunColor, parseHex('#ffffff'), 0.45));
    ctx.beginPath();
    ctx.arc(sys.cx - sys.sun * 0.25, sys.cy - sys.sun * 0.25, sys.sun * 0.45, 0, TAU);
    ctx.fill();

    // Planets and trails.
    ctx.lineCap = 'round';
    for (let k = 0; k < sys.radii.length; k++) {
      const r = sys.radii[k];
      for (const pl of sys.planets[k]) {
        const a = pl.phase + TAU * pl.turns * loop;
        const dir = Math.sign(pl.turns);
        const color = parseHex(pl.color);
        if (p.trail > 0) {
          const len = TAU * p.trail;
          ctx.lineWidth = Math.max(0.5, pl.size * 0.9);
          for (let s = 0; s < TRAIL_SEGMENTS; s++) {
            const a0 = a - dir * len * (1 - s / TRAIL_SEGMENTS);
            const a1 = a - dir * len * (1 - (s + 1) / TRAIL_SEGMENTS);
            ctx.strokeStyle = toHex(mix(bg, color, ((s + 1) / TRAIL_SEGMENTS) ** 1.6 * 0.85));
            ctx.beginPath();
            const steps = 4;
            for (let q = 0; q <= steps; q++) {
              const [x, y] = at(r, a0 + ((a1 - a0) * q) / steps);
              if (q === 0) ctx.moveTo(x, y);
              else ctx.lineTo(x, y);
            }
            ctx.stroke();
          }
        }
        const [x, y] = at(r, a);
        ctx.fillStyle = p.background;
        ctx.beginPath();
        ctx.arc(x, y, pl.size * 1.45, 0, TAU);
        ctx.fill();
        ctx.fillStyle = pl.color;
        ctx.beginPath();
        ctx.arc(x, y, pl.size, 0, TAU);
        ctx.fill();
      }
    }
  },
});
