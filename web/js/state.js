// The recipe being edited, shared by the playground and the export page (kept across reloads).
// The recipe's own rules (its body, URL state, file name) are in recipe.js.
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
