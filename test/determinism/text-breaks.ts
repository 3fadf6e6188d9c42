// Grapheme segmentation and line breaking of a fixed set of strings, by the project's own text
// functions, for the Node-versions tier (node-versions.test.ts): it compares them between the
// machine's Node and the official Node 22 and 24 builds, because Intl.Segmenter, RegExp's \p{…}
// and String.prototype.normalize follow the ICU and Unicode tables of whichever Node runs them
// (Unicode 15.1 changed how Indic conjuncts cluster), so text leaning on them could break elsewhere
// on another runtime. render-digests.ts --text-breaks prints the digests beside the renders'.
//   node --import tsx test/determinism/text-breaks.ts      prints every string's results as JSON
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// ---- The text functions under test: when src/generators/lib renames or moves them, adjust here
// (these imports and breaksOf below) and nowhere else.
import { splitGraphemes } from '../../src/generators/lib/graphemes.ts';
import { breakUnits, paragraphsOf, wrapParagraph } from '../../src/generators/lib/line-break.ts';

/** Line widths for wrapParagraph, measured in code points: a measure that is the same everywhere. */
const WIDTHS = [4, 8, 16];
const measure = (s: string) => [...s].length;

async function breaksOf(text: string): Promise<unknown> {
  return {
    graphemes: splitGraphemes(text),
    units: paragraphsOf(text).map(breakUnits),
    lines: Object.fromEntries(WIDTHS.map((width) => [width, paragraphsOf(text).map((p) => wrapParagraph(p, width, measure))])),
  };
}
// ---- End of the text functions under test.

/** Strings whose segmentation differs between Unicode versions or leans on script-specific rules. */
export const TEXT_BREAK_STRINGS: Readonly<Record<string, string>> = {
  // Unicode 15.1's Indic conjunct rule (GB9c): a consonant, virama, consonant is one grapheme.
  'devanagari-conjunct': 'क्षत्रिय',
  devanagari: 'क्षत्रिय श्रृंखला द्वितीय — हर मशीन पर वही बाइट्स।',
  'bengali-conjunct': 'ক্ষমা রক্তিম',
  'gujarati-conjunct': 'ક્ષત્રિય',
  'malayalam-conjunct': 'ക്ഷേത്രം',
  // ZWJ sequences: family, astronaut with a skin tone, rainbow flag, heart on fire, phoenix (15.1).
  'emoji-zwj': '👨‍👩‍👧‍👦 🧑🏽‍🚀 🏳️‍🌈 ❤️‍🔥 🐦‍🔥 🧑‍🧑‍🧒',
  'emoji-modifiers': 'Ship it 🚀 ❤️ ❤ 👍🏽👋🏿 #️⃣ ☕ 🫩',
  // Regional-indicator pairs (and a lone one), and a tag sequence (Scotland).
  flags: '🇫🇷🇩🇪🇯🇵🇺🇳 \u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} 🇫🇷🇩',
  // No spaces between words; SARA AM and tone marks cluster with their consonant.
  thai: 'ภาษาไทยง่ายนิดเดียว น้ำใจ กำลัง',
  // Breaks between characters, with closing marks and small kana kept off a line's start.
  japanese: '「こんにちは」、世界。カタカナー（漢字）とひらがなっ…',
  chinese: '你好，世界！确定性渲染服务。',
  // Precomposed syllables and conjoining jamo (L V T).
  korean: '한국어 텍스트 \u1100\u1161\u11A8',
  arabic: 'مَرْحَبًا بِالْعَالَمِ — 2024',
  hebrew: 'שָׁלוֹם עוֹלָם',
  // A ZWNJ inside a Persian word.
  persian: 'می\u200Cخواهم',
  // Combining marks, composed and decomposed.
  latin: 'café cafe\u0301 naïve Z\u0351\u036B\u0343\u036A a\u20DD Tiếng Việt Tie\u0302\u0301ng',
  // Variation selectors (an ideographic one, text and emoji presentation).
  'variation-selectors': '葛\u{E0100} ↔\uFE0E ✌\uFE0F ✌\uFE0E',
  hyphenated: 'state-of-the-art A/B testing, well‐known Donaudampfschifffahrtsgesellschaftskapitänsmütze',
  // CR LF is one grapheme (GB3); a blank line and a tab.
  'line-breaks': 'first line\r\nsecond\n\nthird\tafter a tab',
};

/** Each string's segmentation and line breaks. */
export async function textBreaks(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [label, text] of Object.entries(TEXT_BREAK_STRINGS)) out[label] = await breaksOf(text);
  return out;
}

/** Each string's results as a SHA-256 of their JSON. */
export async function textBreakDigests(): Promise<Record<string, string>> {
  const breaks = await textBreaks();
  return Object.fromEntries(
    Object.entries(breaks).map(([label, result]) => [label, createHash('sha256').update(JSON.stringify(result)).digest('hex')]),
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void textBreaks().then((breaks) => process.stdout.write(JSON.stringify(breaks, null, 2) + '\n'));
}
