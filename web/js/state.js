// The recipe being edited, shared by the playground and the export page (kept across reloads).
// The recipe's own rules (its body, URL state, file name) are in recipe.js.
const KEY = 'render-service.recipe';

export const state = {
  /** { slug, params, seed, size: {width, height, pixelRatio}, format } */
  recipe: load(),
  /** Headers of the last successful preview: { recipe, hash, cache } */
  last: null,
  /** Hosted mode (set at start-up from GET /v1/auth-config): renders cost credits, so the pages show their price. */
  hosted: false,
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
