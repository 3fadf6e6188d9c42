// Types of formats.js for the tests that import it (the web app itself is plain JS).
import type { FormatFacts, Generator } from './types.js';

export let formats: Record<string, FormatFacts>;
export function setFormats(facts: Record<string, FormatFacts> | undefined): void;
export function kindOf(format: string): FormatFacts['kind'] | undefined;
export function defaultQuality(format: string): number | null;
export function stillFormat(gen: Pick<Generator, 'formats'>): string;
export function thumbFormat(gen: Pick<Generator, 'formats'>): string;
