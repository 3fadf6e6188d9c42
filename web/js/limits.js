// The service's limits, read from GET /v1/health (`limits` and `animationBudgetMs`) and nowhere else:
// the sides and pixel ratio a recipe may have, its most pixels, the frame rate a gif plays at, and how
// long a direct animation render may take. api.js sets them with the generators, before any page is
// drawn; the app repeats none of them. No DOM (unit-tested in Node: test/unit/web-limits.test.ts).

/** { minSide, maxSide, minPixelRatio, maxPixelRatio, maxFramePixels, maxAnimationPixels, gifMaxFps, animationBudgetMs }. */
export let limits = {};

/** Keeps what GET /v1/health serves. */
export function setLimits(health) {
  limits = { ...health?.limits, animationBudgetMs: health?.animationBudgetMs };
}

/** A pixel ratio kept within the service's range. */
export const clampRatio = (ratio) => Math.min(limits.maxPixelRatio, Math.max(limits.minPixelRatio, ratio));

/** The frames a gif keeps of `frames` at `fps` (the engine keeps every second one above gifMaxFps, every third above twice it, …). */
export const gifFrames = (fps, frames) => Math.ceil(frames / Math.max(1, Math.ceil(fps / limits.gifMaxFps)));

/** The attributes of a size input (width or height): the service's range. */
export const sideRange = () => ({ min: limits.minSide, max: limits.maxSide });

/** The attributes of a pixel ratio input: the service's range, in steps of a quarter. */
export const ratioRange = () => ({ min: limits.minPixelRatio, max: limits.maxPixelRatio, step: 0.25 });
