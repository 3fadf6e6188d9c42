// Types of share.js for the tests that import it (the web app itself is plain JS).
import type { Generator, Recipe } from './types.js';

export const EXPIRIES: readonly (readonly [string, number])[];
export const DEFAULT_EXPIRY: number;
export const OG_FORMATS: readonly string[];
export function shareFormats(gen: Pick<Generator, 'formats'>, own: string): string[];
export function shareFormat(sizes: Record<string, number>, own: string): string;
export function signBody(
  recipe: Recipe,
  format: string,
  expiresIn: number,
): Omit<Recipe, 'slug'> & { slug: string; extension: true; expiresInSeconds?: number };
export function attr(text: unknown): string;
export function imgTag(url: string, recipe: Recipe, alt: string): string;
export function ogTags(url: string, recipe: Recipe): string;
