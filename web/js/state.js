// The recipe being edited, shared by the playground and the export page (kept across reloads).
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

/** The request body of a render or job for a recipe (slug goes in the path or as `slug`). */
export function recipeBody(recipe) {
  return { params: recipe.params, seed: recipe.seed, size: recipe.size, format: recipe.format };
}

/** A still format for previews of a generator: png when offered, else the first non-animated one. */
export function stillFormat(gen) {
  if (gen.formats.includes('png')) return 'png';
  return gen.formats.find((f) => f !== 'gif' && f !== 'mp4') ?? gen.formats[0];
}
