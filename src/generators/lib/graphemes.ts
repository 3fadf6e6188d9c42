// Grapheme clusters from unicode-segmenter's tables (Unicode 17, pinned with the package), not
// Intl.Segmenter: that one follows the ICU of whichever Node runs it (Node 20, 22 and 24 builds
// carry different ones, and Unicode 15.1 changed how Indic conjuncts cluster), and the same text
// must break the same way on every runtime.
import { splitGraphemes as segment } from 'unicode-segmenter/grapheme';

/** The user-perceived characters of a text (extended grapheme clusters). */
export function splitGraphemes(text: string): string[] {
  return [...segment(text)];
}
