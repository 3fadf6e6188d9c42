// Types of sizing.js for the tests that import it (the web app itself is plain JS).
import type { Generator, Recipe, Size } from './types.js';

export const SIZE_PRESETS: [number, number, string][];
export function presetValue(width: number | string, height: number | string): string;
export function lockedSide(side: 'width' | 'height', value: number, ratio: number): number;
export function screenRatio(dpr: number | undefined): number;
export function fitSize(size: { width: number; height: number }, box: { width: number; height: number }): { width: number; height: number };
export function shownRatio(width: number, cssWidth: number, dpr: number | undefined): number;
export const ANIMATION_PREVIEW_WIDTH: number;
export function previewRecipe<R extends Pick<Recipe, 'format' | 'size'>>(
  gen: Pick<Generator, 'formats'>,
  recipe: R,
  box: { width: number; height: number },
  dpr: number | undefined,
): R & { size: Size };
export const QUICK_FROM_PIXELS: number;
export function quickRecipe<R extends Pick<Recipe, 'format' | 'size'>>(shown: R): (R & { size: Size }) | null;
