// The recipe being edited, shared by the playground and the export page (kept across reloads).
import { formats } from './api.js';

const KEY = 'render-service.recipe';

export const state = {
  /** { slug, params, seed, size: {width, height, pixelRatio}, format } */
  recipe: load(),
  /** Headers of the last successful preview: { recipe, hash, cache } */
  last: null,
};

function load() {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) || 'null');
  } catch {
    return null;
  }
}

export function saveRecipe(recipe) {
  state.recipe = recipe;
  try {
    sessionStorage.setItem(KEY, JSON.stringify(recipe));
  } catch {
    /* storage unavailable */
  }
}

/** The screen's pixel ratio in the service's steps (0.25), 1–3: gallery and history thumbnails are rendered at it. */
export const screenRatio = () => Math.min(3, Math.max(1, Math.round((window.devicePixelRatio || 1) * 4) / 4));

/** The CSS size a recipe is shown at in a box: its own size, scaled down to fit (never up). */
export function fitSize({ width, height }, box) {
  const scale = Math.min(1, box.width / width, box.height / height);
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}

/**
 * The pixel ratio whose pixels are the ones a screen shows for a recipe `width` wide drawn `cssWidth`
 * CSS pixels wide: rounded down to 0.05 (a few steps, so a resize or a variation hits the cache),
 * within the API's 0.5–3 (below 0.5 the browser scales the picture down further).
 */
export function shownRatio(width, cssWidth, dpr = window.devicePixelRatio || 1) {
  return Math.min(3, Math.max(0.5, Math.floor(((cssWidth * dpr) / width) * 20 + 1e-9) / 20));
}

/** The request body of a render or job for a recipe (slug goes in the path or as `slug`). */
export function recipeBody(recipe) {
  return { params: recipe.params, seed: recipe.seed, size: recipe.size, format: recipe.format };
}

/** A format's kind as the service names it: `still` (one raster frame), `motion` or `text` (svg, css). */
export const kindOf = (format) => formats[format]?.kind;

/** A still format for previews of a generator: png when offered, else the first non-animated one. */
export function stillFormat(gen) {
  if (gen.formats.includes('png')) return 'png';
  return gen.formats.find((f) => kindOf(f) !== 'motion') ?? gen.formats[0];
}

/** A small picture's format (a gallery card, a preset's picture): a raster still as webp when offered (lighter). */
export function thumbFormat(gen) {
  const still = stillFormat(gen);
  return kindOf(still) === 'still' && gen.formats.includes('webp') ? 'webp' : still;
}

/** base64url (no padding) of a string's UTF-8 bytes, and back. */
function toBase64url(text) {
  let bin = '';
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * A recipe inside an encoded one (base64url of its UTF-8 JSON), or null. Reads the service's own
 * encoding (X-Service-Recipe, a job's `recipe`) as well as the playground's URL state.
 */
export function decodeRecipe(encoded) {
  try {
    const base64 = encoded.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
}

/** The playground's URL state: `r` is base64url of the JSON {params, seed, size, format}. */
export function encodeRecipe(recipe) {
  return toBase64url(JSON.stringify(recipeBody(recipe)));
}

/** The playground route that opens a recipe (a plain recipe, or an encoded one such as a job's). */
export function playgroundHref(slug, recipe) {
  const r = typeof recipe === 'string' ? recipe : encodeRecipe(recipe);
  return `#/playground/${encodeURIComponent(slug)}?r=${r}`;
}

/** The sweep sheet's route: a recipe and `query` {param, from, to, n}, empty values left to the sheet's defaults. */
export function sweepHref(slug, recipe, query) {
  const q = new URLSearchParams(Object.entries({ r: encodeRecipe(recipe), ...query }).filter(([, v]) => v !== ''));
  return `#/sweep/${encodeURIComponent(slug)}?${q}`;
}

/** The one file-name rule of Download and Export: <slug>-<seed>-<w>x<h>[@<pr>x].<ext>. */
export function fileName(slug, recipe) {
  const pr = recipe.size.pixelRatio ?? 1;
  return `${slug}-${recipe.seed}-${recipe.size.width}x${recipe.size.height}${pr === 1 ? '' : `@${pr}x`}.${formats[recipe.format].extension}`;
}
