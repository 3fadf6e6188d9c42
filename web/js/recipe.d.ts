// Types of recipe.js for the tests that import it (the web app itself is plain JS).
import type { Generator, Recipe, RecipeBody } from './types.js';

export const DEFAULT_SIZE: { width: number; height: number; pixelRatio: number };
export function recipeBody(recipe: RecipeBody): RecipeBody;
export function decodeRecipe(encoded: string): unknown;
export function encodeRecipe(recipe: RecipeBody): string;
export function playgroundHref(slug: string, recipe: RecipeBody | string): string;
export function sweepHref(slug: string, recipe: RecipeBody, query: Record<string, string | number>): string;
export function fileName(slug: string, recipe: Pick<Recipe, 'seed' | 'size' | 'format'>): string;
export function initialRecipe(gen: Generator): Recipe;
export function recipeOfHash(gen: Generator, hash: string): Recipe | null;
