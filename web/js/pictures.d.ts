// Types of pictures.js for the tests that import it (the web app itself is plain JS).
import type { Generator, Recipe, Size } from './types.js';

export const MIN_SIDE: number;
export const PICTURES_AT_ONCE: number;
export function pictureFormat(gen: Pick<Generator, 'formats'>, format: string): string;
export function shownPicture<R extends Pick<Recipe, 'format' | 'size'>>(
  recipe: R,
  box: { width: number; height: number },
  dpr: number | undefined,
): R & { size: Size };
export function columnsThatFit(width: number, minCell: number, gap: number): number;
export function gridColumns(n: number, max: number): number;
export function limiter(max: number): <T>(task: () => T | Promise<T>) => Promise<T>;
