// Small pictures of recipes (a preset's picture, a sweep sheet's cells and its zoom) at the size they
// are shown, and how a page asks for many of them: a few at a time, in a grid without an orphan. No
// DOM: the CSS box and the screen's devicePixelRatio come in as arguments (unit-tested in Node:
// test/unit/web-pictures.test.ts).
import { defaultQuality, kindOf, thumbFormat } from './formats.js';
import { fitSize, shownRatio } from './sizing.js';

/** The API's smallest side (a recipe's width or height, openapi.yaml's Size). */
export const MIN_SIDE = 16;

/** Pictures a page asks the service for at once: enough to keep it busy, few enough to leave it room. */
export const PICTURES_AT_ONCE = 3;

/**
 * The format a small picture of a recipe in `format` is rendered in: a raster still as webp where
 * offered (a jpeg as itself: its quality is what one judges), an animation as its generator's still,
 * svg and css as themselves.
 */
export function pictureFormat(gen, format) {
  const kind = kindOf(format);
  if (kind === 'motion') return thumbFormat(gen);
  if (kind === 'still' && defaultQuality(format) == null && gen.formats.includes('webp')) return 'webp';
  return format;
}

/**
 * A recipe as a picture shown in a CSS `box` on a screen of pixel ratio `dpr`, with no more pixels than
 * the screen shows for it. Where the API's pixel ratio (0.5 at least) can give those pixels, the recipe
 * keeps its size (the same composition, fewer pixels, as the playground's preview); a picture shown
 * smaller is the recipe at a smaller size, fitted to the box's device pixels with its aspect kept, at
 * pixel ratio 1 (never below MIN_SIDE). A 4096×4096 preset shown in 48×27 CSS px at dpr 2 is 54×54,
 * 1 credit (at pixel ratio 0.5 it was 2048×2048, 5). Only a raster still is resized: svg and css cost
 * one credit whatever their size.
 */
export function shownPicture(recipe, box, dpr) {
  if (kindOf(recipe.format) !== 'still') return recipe;
  const d = dpr || 1;
  const { width, height } = recipe.size;
  const shown = fitSize({ width, height }, box);
  if ((shown.width * d) / width >= 0.5) return { ...recipe, size: { width, height, pixelRatio: shownRatio(width, shown.width, d) } };
  const fitted = fitSize({ width, height }, { width: box.width * d, height: box.height * d });
  return { ...recipe, size: { width: Math.max(MIN_SIDE, fitted.width), height: Math.max(MIN_SIDE, fitted.height), pixelRatio: 1 } };
}

/** The columns of a grid `width` CSS px wide whose cells are at least `minCell` wide with `gap` between them (at least 1). */
export const columnsThatFit = (width, minCell, gap) => Math.max(1, Math.floor((width + gap) / (minCell + gap)));

/**
 * The columns of a grid of `n` cells, at most `max`: no orphan — the count divides evenly, or the last
 * row is at least half full — in the fewest rows, then with the fewest columns (the rows balanced,
 * the cells largest): 8 cells in at most 7 columns are 2 rows of 4, not 7 and 1.
 */
export function gridColumns(n, max) {
  let best = 1;
  for (let c = 2; c <= Math.min(n, max); c++) {
    const last = n % c;
    if ((last === 0 || last >= c / 2) && Math.ceil(n / c) < Math.ceil(n / best)) best = c;
  }
  return best;
}

/**
 * A limit of `max` tasks in flight: `run(task)` starts `task()` (a function returning a promise) when
 * fewer than `max` run, else when one ends, in the order asked; it resolves or rejects as the task does.
 */
export function limiter(max) {
  let active = 0;
  const waiting = [];
  const next = () => {
    while (active < max && waiting.length) {
      const { task, resolve, reject } = waiting.shift();
      active++;
      Promise.resolve()
        .then(task)
        .then(resolve, reject)
        .finally(() => {
          active--;
          next();
        });
    }
  };
  return (task) =>
    new Promise((resolve, reject) => {
      waiting.push({ task, resolve, reject });
      next();
    });
}
