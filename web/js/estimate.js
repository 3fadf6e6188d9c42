// Estimates made before a file is asked for, so that the page asks before rather than fails after.
// No DOM (unit-tested in Node: test/unit/web-estimate.test.ts). A render's time and price are the
// service's (POST /v1/quote); a gif's size stays here, an instant answer asked of no one. The frame
// rule and the budget are the service's (limits.js, from GET /v1/health).
import { kindOf } from './formats.js';
import { gifFrames, limits } from './limits.js';

/** Above this a gif asks first and points to mp4; GIF_BYTES_PER_PIXEL_FRAME is the worst generator's at its defaults (npm run bench:gif). */
export const GIF_WARN_MB = 5;
const GIF_BYTES_PER_PIXEL_FRAME = 0.3;
/** Frames of an animated recipe as the engine encodes them (1 for a still). */
function frames(recipe, gen) {
  if (kindOf(recipe.format) !== 'motion') return 1;
  const p = { ...gen.defaults, ...recipe.params };
  const fps = Number(p.fps) || limits.gifMaxFps;
  const all = Math.ceil((Number(p.duration) || 1) * fps);
  return recipe.format === 'gif' ? gifFrames(fps, all) : all;
}

const devicePixels = ({ width = 0, height = 0, pixelRatio = 1 }) => width * height * pixelRatio ** 2;

/** An upper estimate of a gif recipe's size in MB (0 for other formats). */
export function gifMegabytes(recipe, gen) {
  if (recipe.format !== 'gif') return 0;
  return (devicePixels(recipe.size) * frames(recipe, gen) * GIF_BYTES_PER_PIXEL_FRAME) / 1e6;
}

/** The question asked before a gif that may pass GIF_WARN_MB. */
export const gifQuestion = (mb, what) =>
  `This gif may be up to ${Math.round(mb)} MB. An mp4 of the same recipe is about a tenth of that. ${what} the gif anyway?`;

/**
 * The question asked before a download that may take longer than a direct render may (`seconds`: the
 * service's estimate, `estimatedMs` of POST /v1/quote, which owns the render-time model; the budget
 * is the service's `animationBudgetMs`).
 */
export const exportQuestion = (seconds) =>
  `This may take about ${Math.ceil(seconds)} s to render, longer than a direct download allows (${budgetSeconds()} s). Export it as a job instead?`;

/** What a download too long to render directly says, beside the one-click Export it offers instead. */
export const tooLongText = () =>
  `Too long to render directly (the service allows ${budgetSeconds()} s): export it as a job you can follow instead.`;

const budgetSeconds = () => Math.round(limits.animationBudgetMs / 100) / 10;
