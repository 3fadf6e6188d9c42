// One golden case, in a module of its own: the golden sets (golden-recipes.ts and its text set,
// golden-recipes.text.ts) both name it, and neither imports the other for it.
import type { RecipeInput } from '../../src/engine/recipe.ts';

export interface GoldenCase {
  id: string;
  slug: string;
  input: RecipeInput;
  /** A superseded version's case: rendered from a recipe URL that pins it (the current version's otherwise). */
  version?: string;
}
