// Types of param-values.js for the tests that import it (the web app itself is plain JS).
import type { ParamSchema, Range } from './types.js';

export function paramType(schema: ParamSchema): string | undefined;
export function enumValue<T>(values: T[], text: string): T | undefined;
export function numberValue(text: string): number | undefined;
export function jsonValue(text: string): unknown;
export function jsonText(value: unknown): string;
export function niceStep(min: number, max: number, integer?: boolean): number;
export function isLogRange(min: number | undefined, max: number | undefined): boolean;
export function sliderScale(range: Range): {
  log: boolean;
  step: number;
  toSlider: (value: number) => number;
  fromSlider: (track: number) => number;
};
export function shuffledNumber(name: string, range: Range, random?: () => number): number;
export function parseHex(text: string): string[];
export function typedColor(text: string): string | null;
export const PALETTES: Record<string, string[]>;
export const SHUFFLE_PALETTES: string[][];
export function shufflePalette(random?: () => number): string[];
export function shuffledColor(name: string, palette: string[], random?: () => number): string;
export function shuffledColors(palette: string[], count: number, random?: () => number): string[];
export function fitColors(colors: string[], min: number, max: number): string[];
export function presetColors(name: string, count: number, min: number): string[];
