// Text without the machine: font coverage, line breaking, bidi and capitals are pure JavaScript
// over pinned data; widths here come from a fixed-width measure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { paragraphDirection, visualOrder } from './bidi.ts';
import { fontRuns, isEmojiGrapheme, stackFor, type TextFace } from './font-coverage.ts';
import { splitGraphemes } from './graphemes.ts';
import { breakUnits, clampLines, toCapitals, wrapParagraph } from './line-break.ts';
import { shaperReady } from './shaper.ts';
import { unsupportedGraphemes } from './text-setter.ts';

await shaperReady();

const mono = (s: string) => splitGraphemes(s).length;
const style = (text: string, weight: 400 | 700 = 400, emoji: 'color' | 'monochrome' = 'color'): TextFace => ({
  weight,
  stack: stackFor([text]),
  emoji,
});

test('wrapParagraph: long words are hyphenated in Latin, not in CJK', () => {
  assert.deepEqual(wrapParagraph('one two three', 7, mono), ['one two', 'three']);
  assert.deepEqual(wrapParagraph('abcdefghij', 6, mono), ['abcde-', 'fghij']);
  assert.deepEqual(wrapParagraph('你好世界你好世界', 2, mono).join('|').includes('-'), false);
  assert.deepEqual(breakUnits('well-known words'), ['well-', 'known ', 'words']);
});

test('breakUnits: Japanese and Chinese at phrase boundaries, Thai at word boundaries, Korean at spaces', () => {
  // Not "決定論的なレンダ / リング": the phrase stays whole.
  const ja = breakUnits('決定論的なレンダリングサービス');
  assert.ok(ja.includes('レンダリングサービス'), ja.join('|'));
  assert.equal(ja.join(''), '決定論的なレンダリングサービス');
  // No line starts with closing punctuation.
  assert.ok(breakUnits('同じレシピから、どのマシンでも。').every((u) => !/^[、。]/u.test(u)));
  const th = breakUnits('สวัสดีชาวโลก');
  assert.ok(th.length > 1 && th.join('') === 'สวัสดีชาวโลก', th.join('|'));
  assert.deepEqual(breakUnits('안녕하세요 세계'), ['안녕하세요 ', '세계']);
});

test('clampLines cuts between graphemes, never inside an emoji', () => {
  const lines = clampLines([{ text: 'ab👨‍👩‍👧' }, { text: 'more' }], 1, 3, (l) => mono(l.text));
  assert.equal(lines[0].text, 'ab…');
});

test('paragraphDirection follows each paragraph’s first strong letter, and the fallback without one', () => {
  assert.equal(paragraphDirection('2024 مرحبا', 'ltr'), 'rtl');
  assert.equal(paragraphDirection('Hello שלום', 'rtl'), 'ltr');
  assert.equal(paragraphDirection('(2024)', 'rtl'), 'rtl');
  assert.equal(paragraphDirection('(2024)', 'ltr'), 'ltr');
});

test('visualOrder reverses right-to-left runs (rule L2)', () => {
  const runs = [
    { level: 1, t: 'a' },
    { level: 2, t: 'b' },
    { level: 1, t: 'c' },
  ];
  assert.deepEqual(
    visualOrder(runs).map((r) => r.t),
    ['c', 'b', 'a'],
  );
  assert.deepEqual(
    visualOrder([
      { level: 0, t: 'x' },
      { level: 1, t: 'y' },
      { level: 1, t: 'z' },
    ]).map((r) => r.t),
    ['x', 'z', 'y'],
  );
});

test('toCapitals: Greek capitals without the tonos, with a diaeresis where the accent split a diphthong', () => {
  assert.equal(toCapitals('Ελληνικά'), 'ΕΛΛΗΝΙΚΑ');
  assert.equal(toCapitals('πλάι'), 'ΠΛΑΪ');
  assert.equal(toCapitals('Μαΐου'), 'ΜΑΪΟΥ');
  assert.equal(toCapitals('café'), 'CAFÉ');
});

test('emoji presentation: U+FE0F asks for colour, sequences are emoji, ❤ alone is text', () => {
  assert.equal(isEmojiGrapheme('❤'), false);
  assert.equal(isEmojiGrapheme('❤️'), true);
  assert.equal(isEmojiGrapheme('🚀'), true);
  assert.equal(isEmojiGrapheme('🚀\uFE0E'), false);
  assert.equal(isEmojiGrapheme('🇫🇷'), true);
  assert.equal(isEmojiGrapheme('#️⃣'), true);
});

test('coverage: every covered script has a bundled face; private use and unknown sequences are refused', () => {
  const covered = 'Hello Tiếng Ωμέγα Привет مرحبا שלום नमस्ते สวัสดี 你好 こんにちは 안녕 ❤️ 👍🏽 👨‍👩‍👧 🏳️‍🌈 🇫🇷 #️⃣ 🏴󠁧󠁢󠁳󠁣󠁴󠁿';
  assert.deepEqual(unsupportedGraphemes(covered, style(covered, 700)), []);
  assert.deepEqual(unsupportedGraphemes('a\uE000', style('')), ['\uE000']);
  // An emoji the font lacks, and a sequence it would draw in pieces (Emoji 15.1's phoenix).
  assert.deepEqual(unsupportedGraphemes('🫩 🐦‍🔥', style('')), ['🫩', '🐦‍🔥']);
  // Vietnamese precomposed letters come from the face that has them whole (not base + loose mark).
  assert.deepEqual(
    fontRuns('ế', style('')).runs.map((r) => r.face.alias),
    ['RS Space Grotesk 400 vietnamese'],
  );
  // Spaces and punctuation stay in the face of the text around them.
  assert.equal(fontRuns('مرحبا، بالعالم', style('')).runs.length, 1);
  // The colour font draws emoji; the monochrome style draws them from Noto Emoji.
  assert.equal(fontRuns('🚀', style('')).runs[0].face.color, true);
  assert.equal(fontRuns('🚀', style('', 400, 'monochrome')).runs[0].face.color, false);
});
