// Types of snippets.js for the tests that import it (the web app itself is plain JS).
import type { Recipe } from './types.js';

export function recipeUrl(origin: string, last: { recipe: string; hash: string }, chosen: Recipe): string;
export function curlSnippet(origin: string, recipe: Recipe): string;
export function tsSnippet(origin: string, recipe: Recipe): string;
