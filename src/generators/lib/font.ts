// Text drawn only from fonts bundled with the service (lib/font-coverage.ts says which; all SIL
// Open Font License 1.1), registered with Skia under names of their own ("RS Noto Sans Arabic 700
// arabic"), so an installed font — even one with the same family name — is never chosen, and only
// the files a text needs (a CJK text loads a few of the ~100 small CJK files). Before a text is
// drawn, every grapheme of it is known to be in one of the listed faces, so Skia never falls back
// to the machine's fonts; a text with a character none has is refused by the recipe check (400
// unsupported_characters) and, should one reach here, throws instead of drawing a box.
// Text is drawn with fillText in solid colours; the determinism tier checks it.
import { GlobalFonts } from '@napi-rs/canvas';
import { fontsForText, splitGraphemes, type FontWeight, type stackFor } from './font-coverage.ts';

export type FontStack = ReturnType<typeof stackFor>;

const registered = new Set<string>();

/** Characters the layout may add to a text: a hyphen at a break in a long word, an ellipsis. */
const LAYOUT_CHARACTERS = '-…';

/**
 * The ctx.font family list (quoted aliases, in the order of preference) that draws every grapheme
 * of `text` and the layout's hyphen and ellipsis, registering those font files with Skia first.
 */
export function fontFamilyFor(text: string, weight: FontWeight, stack: FontStack): string {
  const { faces, missing } = fontsForText(text + LAYOUT_CHARACTERS, weight, stack);
  if (missing.length) throw new Error(`no bundled font has ${missing.join(' ')}`);
  for (const face of faces) {
    if (registered.has(face.alias)) continue;
    // Worker threads share Skia's font collection: register each file once per process.
    if (!GlobalFonts.has(face.alias) && !GlobalFonts.registerFromPath(face.file, face.alias))
      throw new Error(`could not register ${face.file}`);
    registered.add(face.alias);
  }
  return faces.map((f) => `"${f.alias}"`).join(', ');
}

/** Right-to-left when the first strongly directional letter is Hebrew or Arabic (Unicode's P2 rule, simplified). */
export function isRightToLeft(text: string): boolean {
  const m = /[\p{L}]/u.exec(text);
  return !!m && /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u.test(m[0]);
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;
/** Not at the start of a line (Japanese kinsoku: closing marks, small kana, the long-vowel mark). */
const NO_START = /^[、。，．,.:;!?！？：；）」』】〕〉》〙〗｝\])}ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶーヽヾゝゞ々…‥・’”]/u;
/** Not at the end of a line (opening brackets and quotes). */
const NO_END = /[（「『【〔〈《〘〖｛[({‘“]$/u;
/** Scripts whose long words take a hyphen where they are broken. */
const HYPHENATED = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]/u;

/**
 * Units a line may break between: a word with the spaces after it, a single CJK character (CJK
 * breaks between characters, keeping closing marks with what precedes them and opening ones with
 * what follows), or a part of a word after a hyphen, dash or slash.
 */
export function breakUnits(paragraph: string): string[] {
  const units: string[] = [];
  let unit = '';
  let prev = '';
  for (const g of splitGraphemes(paragraph)) {
    const space = /^\s+$/u.test(g);
    let breakBefore = false;
    if (unit && !space) {
      if (/\s$/u.test(prev)) breakBefore = true;
      else if ((CJK.test(g) || CJK.test(prev)) && !NO_START.test(g) && !NO_END.test(prev)) breakBefore = true;
      else if (/^[-‐–—/]$/u.test(prev) && /\p{L}/u.test(g) && !/^[-‐–—/]$/u.test(unit)) breakBefore = true;
    }
    if (breakBefore) {
      units.push(unit);
      unit = '';
    }
    unit += g;
    prev = g;
  }
  if (unit) units.push(unit);
  return units;
}

/**
 * Greedy line breaking with measure(text) → width. `\n` (or `\r\n`) forces a line break; a unit
 * wider than the line (a long word) is broken between graphemes, with a hyphen in Latin, Greek and
 * Cyrillic words. Spaces at the ends of lines are dropped. Returns the lines (none for empty text).
 */
export function wrapText(text: string, maxWidth: number, measure: (s: string) => number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.trim().split(/\r\n?|\n/)) {
    const units = breakUnits(paragraph.replace(/\t/g, ' ').trim());
    let line = '';
    for (const unit of units) {
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
      // A word longer than the line: as many graphemes as fit (with a hyphen where the script takes one).
      let rest = splitGraphemes(unit.trimEnd());
      while (rest.length && measure(rest.join('')) > maxWidth) {
        const hyphen = HYPHENATED.test(rest.join('')) ? '-' : '';
        let n = 1;
        while (n < rest.length - 1 && measure(rest.slice(0, n + 1).join('') + hyphen) <= maxWidth) n++;
        // Keep at least two graphemes on each side of a hyphen when the line allows it.
        if (hyphen && n >= 4 && rest.length - n < 2) n = rest.length - 2;
        const head = rest.slice(0, n).join('');
        lines.push(hyphen && /\p{L}$/u.test(head) && /^\p{L}/u.test(rest[n] ?? '') ? head + hyphen : head);
        rest = rest.slice(n);
      }
      line = rest.join('') + (/\s$/u.test(unit) ? ' ' : '');
    }
    if (line.trim()) lines.push(line.trimEnd());
    else if (units.length === 0 && lines.length > 0) lines.push(''); // an empty line between two \n
  }
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Cuts lines to at most `max`, ending the last kept one with an ellipsis that fits maxWidth (cut between graphemes). */
export function clampLines(lines: string[], max: number, maxWidth: number, measure: (s: string) => number): string[] {
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  const last = splitGraphemes(kept[max - 1]);
  while (last.length > 0 && measure(`${last.join('').trimEnd()}…`) > maxWidth) last.pop();
  kept[max - 1] = `${last.join('').trimEnd()}…`;
  return kept;
}
