// Where lines may break, and greedy line filling, from data pinned with the project's packages
// (unicode-segmenter's graphemes, BudouX's phrase models), never from the runtime's ICU:
// - between words, after the spaces that follow them (Korean too: it breaks at spaces, as
//   typographers set it, never inside a word while the word fits);
// - Japanese and Chinese at phrase boundaries (BudouX), Thai at word boundaries (it has no spaces;
//   BudouX's Thai model), keeping closing marks off a line's start and opening ones off its end;
// - after a hyphen, dash or slash inside a word;
// - inside a unit only when it alone is wider than the line: between graphemes, with a hyphen in
//   Latin, Greek and Cyrillic.
import { createRequire } from 'node:module';
import path from 'node:path';
import { packagePath } from '../../lib/package-root.ts';
import { splitGraphemes } from './graphemes.ts';

const isCjk = (cp: number) =>
  (cp >= 0x2e80 && cp <= 0x2fdf) ||
  (cp >= 0x3000 && cp <= 0x30ff) ||
  (cp >= 0x31c0 && cp <= 0x31ff) ||
  (cp >= 0x3400 && cp <= 0x4dbf) ||
  (cp >= 0x4e00 && cp <= 0x9fff) ||
  (cp >= 0xf900 && cp <= 0xfaff) ||
  (cp >= 0xff00 && cp <= 0xffef) ||
  (cp >= 0x20000 && cp <= 0x3ffff);
const isKana = (cp: number) => (cp >= 0x3040 && cp <= 0x30ff) || (cp >= 0x31f0 && cp <= 0x31ff) || (cp >= 0xff66 && cp <= 0xff9f);
const isThai = (cp: number) => cp >= 0x0e00 && cp <= 0x0e7f;
/** Letters of the scripts whose long words take a hyphen where they are broken. */
const isHyphenatedLetter = (cp: number) =>
  (cp >= 0x41 && cp <= 0x5a) ||
  (cp >= 0x61 && cp <= 0x7a) ||
  (cp >= 0xc0 && cp <= 0x24f && cp !== 0xd7 && cp !== 0xf7) ||
  (cp >= 0x1e00 && cp <= 0x1eff) ||
  (cp >= 0x370 && cp <= 0x3ff) ||
  (cp >= 0x1f00 && cp <= 0x1fff) ||
  (cp >= 0x400 && cp <= 0x52f);
const firstCp = (s: string) => s.codePointAt(0) ?? 0;
const lastCp = (s: string) => Array.from(s).pop()?.codePointAt(0) ?? 0;

/** Not at the start of a line (Japanese kinsoku: closing marks, small kana, the long-vowel mark). */
const NO_START = /^[、。，．,.:;!?！？：；）」』】〕〉》〙〗｝\])}ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶーヽヾゝゞ々…‥・’”]/u;
/** Not at the end of a line (opening brackets and quotes). */
const NO_END = /[（「『【〔〈《〘〖｛[({‘“]$/u;
const SPACE = /^\s+$/u;
const DASH = /^[-‐–—/]$/u;

type PhraseModel = Record<string, Record<string, number>>;
const require = createRequire(import.meta.url);
/** The models' folder, found from the package root: a build (dist/) runs this module from elsewhere. */
const BUDOUX_DIR = packagePath('src', 'generators', 'lib', 'budoux');

/**
 * BudouX's phrase-break scoring (google/budoux, Apache License 2.0): a boundary falls before
 * position i when the model's weights for the characters, pairs and triples around it sum above
 * zero. Its models for Japanese, Simplified Chinese and Thai are copied from the npm package
 * (0.9.2) into ./budoux/ as JSON, so the breaks change only with a commit here: the package itself
 * brings a DOM library and cloud-auth packages for an HTML processor this service does not use.
 * Integer weights: the sums are exact on every machine.
 */
class PhraseBreaker {
  private readonly groups: ReadonlyMap<string, ReadonlyMap<string, number>>;
  private readonly base: number;

  constructor(model: PhraseModel) {
    this.groups = new Map(Object.entries(model).map(([k, v]) => [k, new Map(Object.entries(v))]));
    let total = 0;
    for (const group of this.groups.values()) for (const w of group.values()) total += w;
    this.base = -0.5 * total;
  }

  /** UTF-16 offsets at which a phrase ends, as BudouX's Parser.parseBoundaries gives them. */
  boundaries(s: string): number[] {
    const w = (group: string, from: number, to: number) => this.groups.get(group)?.get(s.substring(from, to)) ?? 0;
    const out: number[] = [];
    for (let i = 1; i < s.length; i++) {
      const score =
        this.base +
        w('UW1', i - 3, i - 2) +
        w('UW2', i - 2, i - 1) +
        w('UW3', i - 1, i) +
        w('UW4', i, i + 1) +
        w('UW5', i + 1, i + 2) +
        w('UW6', i + 2, i + 3) +
        w('BW1', i - 2, i) +
        w('BW2', i - 1, i + 1) +
        w('BW3', i, i + 2) +
        w('TW1', i - 3, i) +
        w('TW2', i - 2, i + 1) +
        w('TW3', i - 1, i + 2) +
        w('TW4', i, i + 3);
      if (score > 0) out.push(i);
    }
    return out;
  }
}

const breakers = new Map<string, PhraseBreaker>();
function phraseBreaker(kind: 'ja' | 'zh' | 'th'): PhraseBreaker {
  let b = breakers.get(kind);
  if (!b) {
    b = new PhraseBreaker(require(path.join(BUDOUX_DIR, `${kind === 'zh' ? 'zh-hans' : kind}.json`)) as PhraseModel);
    breakers.set(kind, b);
  }
  return b;
}

/** Splits a stretch of CJK or Thai into phrases (BudouX), at grapheme boundaries only. */
function phrases(text: string, kind: 'ja' | 'zh' | 'th'): string[] {
  const boundaries = new Set<number>();
  let at = 0;
  for (const g of splitGraphemes(text)) boundaries.add((at += g.length));
  const out: string[] = [];
  let from = 0;
  for (const at of phraseBreaker(kind).boundaries(text))
    if (boundaries.has(at)) {
      out.push(text.slice(from, at));
      from = at;
    }
  out.push(text.slice(from));
  return out;
}

/**
 * Units a line may break between, in order; joined they are the paragraph. A unit is a word with
 * the spaces after it, a phrase of Japanese, Chinese or Thai, or a part of a word after a hyphen,
 * dash or slash.
 */
export function breakUnits(paragraph: string): string[] {
  const japanese = Array.from(paragraph).some((c) => isKana(c.codePointAt(0)!));
  // 1. Words with their trailing spaces; a break after a dash inside a word.
  const words: string[] = [];
  let unit = '';
  let prev = '';
  for (const g of splitGraphemes(paragraph)) {
    const space = SPACE.test(g);
    if (unit && !space && (SPACE.test(prev) || (DASH.test(prev) && !DASH.test(g) && !DASH.test(unit) && isHyphenatedLetter(firstCp(g))))) {
      words.push(unit);
      unit = '';
    }
    unit += g;
    prev = g;
  }
  if (unit) words.push(unit);
  // 2. Inside a word, stretches of CJK or Thai break into phrases; a break also falls where such
  //    a stretch meets other letters.
  const units: string[] = [];
  for (const word of words) {
    let stretch = '';
    let kind: 'ja' | 'zh' | 'th' | 'other' | undefined;
    const flush = () => {
      if (!stretch) return;
      if (kind === 'other') units.push(stretch);
      else units.push(...phrases(stretch, kind!));
      stretch = '';
    };
    for (const g of splitGraphemes(word)) {
      const cp = firstCp(g);
      const k = isThai(cp) ? 'th' : isCjk(cp) ? (japanese ? 'ja' : 'zh') : SPACE.test(g) && kind ? kind : 'other';
      if (k !== kind) flush();
      kind = k;
      stretch += g;
    }
    flush();
  }
  // 3. Kinsoku: a closing mark stays with what precedes it, an opening one with what follows.
  const kept: string[] = [];
  for (const u of units) {
    const last = kept.length - 1;
    if (last >= 0 && (NO_START.test(u) || (NO_END.test(kept[last]) && !SPACE.test(kept[last].slice(-1))))) kept[last] += u;
    else kept.push(u);
  }
  return kept;
}

/**
 * Greedy line breaking of one paragraph with measure(text) → width. A unit wider than the line (a
 * long word) is broken between graphemes, with a hyphen in Latin, Greek and Cyrillic words. Spaces
 * at the ends of lines are dropped. Returns the lines (none for an empty paragraph).
 */
export function wrapParagraph(paragraph: string, maxWidth: number, measure: (s: string) => number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const unit of breakUnits(paragraph.replace(/\t/g, ' ').trim())) {
    const candidate = line + unit;
    if (measure(candidate.trimEnd()) <= maxWidth) {
      line = candidate;
      continue;
    }
    if (line.trim()) lines.push(line.trimEnd());
    line = '';
    if (measure(unit.trimEnd()) <= maxWidth) {
      line = unit;
      continue;
    }
    // A unit longer than the line: as many graphemes as fit (with a hyphen where the script takes one).
    let rest = splitGraphemes(unit.trimEnd());
    while (rest.length && measure(rest.join('')) > maxWidth) {
      const hyphen = isHyphenatedLetter(firstCp(rest.join(''))) ? '-' : '';
      let n = 1;
      while (n < rest.length - 1 && measure(rest.slice(0, n + 1).join('') + hyphen) <= maxWidth) n++;
      // Keep at least two graphemes on each side of a hyphen when the line allows it.
      if (hyphen && n >= 4 && rest.length - n < 2) n = rest.length - 2;
      const head = rest.slice(0, n).join('');
      const between = isHyphenatedLetter(lastCp(head)) && isHyphenatedLetter(firstCp(rest[n] ?? ''));
      lines.push(hyphen && between ? head + hyphen : head);
      rest = rest.slice(n);
    }
    line = rest.join('') + (/\s$/u.test(unit) ? ' ' : '');
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines;
}

/** A text's paragraphs: `\n` (or `\r\n`) forces a line break. */
export function paragraphsOf(text: string): string[] {
  return text.trim().split(/\r\n?|\n/);
}

/** Cuts lines to at most `max`, ending the last kept one with an ellipsis that fits maxWidth (cut between graphemes). */
export function clampLines<L extends { text: string }>(lines: L[], max: number, maxWidth: number, measure: (line: L) => number): L[] {
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  const last = kept[max - 1];
  const graphemes = splitGraphemes(last.text);
  const withEllipsis = () => ({ ...last, text: `${graphemes.join('').trimEnd()}…` });
  while (graphemes.length > 0 && measure(withEllipsis()) > maxWidth) graphemes.pop();
  kept[max - 1] = withEllipsis();
  return kept;
}

/** Accents and breathings Greek capitals drop: varia, oxia/tonos, perispomeni, psili, dasia, ypogegrammeni. */
const GREEK_ACCENTS = new Set([0x300, 0x301, 0x342, 0x313, 0x314, 0x345]);
const isGreek = (cp: number) => (cp >= 0x370 && cp <= 0x3ff) || (cp >= 0x1f00 && cp <= 0x1fff);
/** Α, Ε, Η, Ο: with ι or υ after them they make a diphthong, unless a diaeresis splits it. */
const DIPHTHONG_FIRST = new Set([0x391, 0x395, 0x397, 0x39f]);
const isMark = (cp: number) => cp >= 0x300 && cp <= 0x36f;

/**
 * Capitals for a label: Greek capitals drop their accents and breathings (ΕΛΛΗΝΙΚΑ, not
 * ΕΛΛΗΝΙΚΆ), and a vowel that lost its accent before ι or υ gives that letter a diaeresis (πλάι →
 * ΠΛΑΪ), as Greek typographers set all caps.
 */
export function toCapitals(text: string): string {
  const cps = Array.from(text.toUpperCase().normalize('NFD'), (c) => c.codePointAt(0)!);
  const out: number[] = [];
  let base = 0;
  let accentLeftVowel = false;
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i];
    if (isMark(cp)) {
      if (isGreek(base) && GREEK_ACCENTS.has(cp)) accentLeftVowel = DIPHTHONG_FIRST.has(base);
      else out.push(cp);
      continue;
    }
    out.push(cp);
    const bare = !isMark(cps[i + 1] ?? 0);
    if (accentLeftVowel && (cp === 0x399 || cp === 0x3a5) && bare) out.push(0x308);
    accentLeftVowel = false;
    base = cp;
  }
  return String.fromCodePoint(...out).normalize('NFC');
}
