// Types of recipe-file.js for the tests that import it (the web app itself is plain JS).
import type { Generator, Recipe } from './types.js';

export function recipeOfFile(file: Blob): Promise<(Recipe & { version?: string }) | null>;
export function openedFile(
  name: string,
  found: (Recipe & { version?: string }) | null,
  generators: Pick<Generator, 'slug' | 'version'>[],
): { href?: string; message: string };
