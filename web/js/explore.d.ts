// Types of explore.js for the tests that import it (the web app itself is plain JS).
import type { Generator, ParamSchema, Range, Recipe } from './types.js';

export function seedVariations<R extends Recipe>(base: R, count: number, nextSeed: () => number): R[];
export function nearVariations<R extends Recipe>(base: R, ranges: [string, Range][], count: number, random?: () => number): R[];
export function sweepParams(properties: Record<string, ParamSchema>): string[];
export function sweepRange(param: string, schema?: ParamSchema, value?: number): [number, number | ''];
export function sweepValues(from: number, to: number, n: number, integer: boolean, log: boolean): number[];
export function sweepPlan(
  gen: Generator | undefined,
  slug: string,
  hash: string,
): { error: string } | { error?: undefined; param: string; base: Recipe; n: number; log: boolean; values: number[]; cells: Recipe[] };
