// The Unicode Bidirectional Algorithm (UAX #9) from bidi-js, whose character tables are pinned
// with the package (not the runtime's ICU), so a line of mixed Hebrew, Arabic and Latin orders the
// same way on every Node version.
import { createRequire } from 'node:module';
import type { Bidi } from 'bidi-js';

// A CommonJS factory whose typings declare an ES default export: required, as Node loads it.
const bidi = (createRequire(import.meta.url)('bidi-js') as () => Bidi)();

export type Direction = 'ltr' | 'rtl';

const ISOLATE_START = new Set(['LRI', 'RLI', 'FSI']);

/**
 * A paragraph's direction: that of its first strong character outside isolates (Unicode's P2 and
 * P3), or `fallback` when it has none (digits and punctuation alone follow what is around them).
 */
export function paragraphDirection(text: string, fallback: Direction): Direction {
  let isolates = 0;
  for (const ch of text) {
    const type = bidi.getBidiCharTypeName(ch);
    if (ISOLATE_START.has(type)) isolates++;
    else if (type === 'PDI') isolates = Math.max(0, isolates - 1);
    else if (isolates === 0 && type === 'L') return 'ltr';
    else if (isolates === 0 && (type === 'R' || type === 'AL')) return 'rtl';
  }
  return fallback;
}

/** The embedding level of each UTF-16 unit of one line set in `direction` (odd: right to left). */
export function embeddingLevels(text: string, direction: Direction): Uint8Array {
  return bidi.getEmbeddingLevels(text, direction).levels;
}

/**
 * The visual order of runs of one level each (rule L2): from the highest level down to the lowest
 * odd one, every stretch of runs at that level or above is reversed.
 */
export function visualOrder<T extends { level: number }>(runs: readonly T[]): T[] {
  const order = [...runs];
  const levels = order.map((r) => r.level);
  const highest = Math.max(0, ...levels);
  const lowestOdd = Math.min(...levels.filter((l) => l % 2 === 1), highest + 1);
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < order.length;) {
      if (order[i].level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < order.length && order[j].level >= level) j++;
      order.splice(i, j - i, ...order.slice(i, j).reverse());
      i = j;
    }
  }
  return order;
}
