// How long a render takes, estimated before it runs: the model POST /v1/quote answers `estimatedMs`
// and `fitsSyncBudget` by (and the web app asks it, rather than keeping a model of its own). It is an
// estimate: a fixed part plus the pixel-frames pricing counts (pricing.ts pixelFrames) times a rate
// per format, both the slowest generator's measured on the 2-core development machine
// (`npm run bench:estimate`, docs/benchmarks.md#render-time-estimates). Most generators render
// faster; a loaded machine renders slower.
import type { ResolvedRecipe } from '../engine/recipe.ts';
import { FORMATS, type FormatKind, type OutputFormat } from '../lib/formats.ts';
import { pixelFrames } from './pricing.ts';

export interface RenderRate {
  /** Milliseconds of any render of the format, whatever its size (a worker's hand-over, FFmpeg's start). */
  baseMs: number;
  /** Milliseconds per million output pixel-frames. */
  msPerMegapixel: number;
}

/**
 * Measured by `npm run bench:estimate` (2026-11-29, the shared 2-core machine at load average 9–13):
 * the slowest generator of each format, in CPU milliseconds, rounded up (to 10 ms, what the CPU clock
 * counts). Other work on that machine made them slow: on a quiet one a render takes a fraction of it.
 */
export const RENDER_RATES: { readonly [F in OutputFormat]?: RenderRate } = {
  png: { baseMs: 70, msPerMegapixel: 310 },
  webp: { baseMs: 70, msPerMegapixel: 440 },
  gif: { baseMs: 580, msPerMegapixel: 80 },
  mp4: { baseMs: 590, msPerMegapixel: 110 },
  svg: { baseMs: 10, msPerMegapixel: 40 },
  css: { baseMs: 10, msPerMegapixel: 10 },
};

/** A format without a measured rate of its own takes its kind's slowest. */
function rateOf(format: OutputFormat): RenderRate {
  const own = RENDER_RATES[format];
  if (own) return own;
  const kind: FormatKind = FORMATS[format].kind;
  const same = (Object.keys(RENDER_RATES) as OutputFormat[]).filter((f) => FORMATS[f].kind === kind).map((f) => RENDER_RATES[f]!);
  return {
    baseMs: Math.max(0, ...same.map((r) => r.baseMs)),
    msPerMegapixel: Math.max(0, ...same.map((r) => r.msPerMegapixel)),
  };
}

/** Estimated milliseconds to render the recipe (not counting a wait for a free worker), rounded up. */
export function estimateRenderMs(resolved: ResolvedRecipe): number {
  const { baseMs, msPerMegapixel } = rateOf(resolved.recipe.format);
  return Math.ceil(baseMs + (msPerMegapixel * pixelFrames(resolved)) / 1_000_000);
}
