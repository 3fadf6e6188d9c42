// A recipe as the app carries it: the request body, the playground's URL state, the routes that open
// it and the one file-name rule. No DOM (unit-tested in Node: test/unit/web-recipe.test.ts).
import { defaultQuality, formats, stillFormat } from './formats.js';
import { queryOf } from './route.js';

/** What the playground opens a generator at when it has no size of its own. */
export const DEFAULT_SIZE = { width: 640, height: 360, pixelRatio: 1 };

/** The request body of a render or job for a recipe (slug goes in the path or as `slug`); `quality` only for a format that takes one. */
export function recipeBody(recipe) {
  const body = { params: recipe.params, seed: recipe.seed, size: recipe.size, format: recipe.format };
  if (recipe.quality != null && defaultQuality(recipe.format) != null) body.quality = recipe.quality;
  return body;
}

/** base64url (no padding) of a string's UTF-8 bytes. */
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

/** The playground's URL state: `r` is base64url of the JSON {params, seed, size, format[, quality]}. */
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

/** A generator made for a shape of its own (an avatar, a social card) opens at that size; others at DEFAULT_SIZE. */
export function initialRecipe(gen) {
  const own = gen.suggestedSize && !(gen.suggestedSize.width === 1920 && gen.suggestedSize.height === 1080);
  const size = own ? { ...gen.suggestedSize, pixelRatio: 1 } : { ...DEFAULT_SIZE };
  return { slug: gen.slug, params: structuredClone(gen.defaults ?? {}), seed: 0, size, format: stillFormat(gen) };
}

/** The recipe a route carries (`?r=`), missing fields filled in; null without one. */
export function recipeOfHash(gen, hash) {
  const r = queryOf(hash).get('r');
  const decoded = r && decodeRecipe(r);
  if (!decoded || typeof decoded !== 'object') return null;
  return {
    slug: gen.slug,
    params: decoded.params && typeof decoded.params === 'object' ? decoded.params : {},
    seed: Number.isInteger(decoded.seed) && decoded.seed >= 0 ? decoded.seed : 0,
    size: { ...DEFAULT_SIZE, ...decoded.size },
    format: decoded.format ?? stillFormat(gen),
    ...(Number.isInteger(decoded.quality) ? { quality: decoded.quality } : {}),
  };
}
