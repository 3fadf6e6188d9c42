// Types of estimate.js for the tests that import it (the web app itself is plain JS).
import type { Generator, Recipe } from './types.js';

export const GIF_WARN_MB: number;
export function gifMegabytes(recipe: Pick<Recipe, 'format' | 'size' | 'params'>, gen: Pick<Generator, 'defaults'>): number;
export function gifQuestion(mb: number, what: string): string;
export function exportQuestion(seconds: number): string;
export function tooLongText(): string;
