// Line breaking and font coverage (issue 30): pure JavaScript, with a fixed-width measure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fontsForText, stackFor } from './font-coverage.ts';
import { breakUnits, clampLines, isRightToLeft, wrapText } from './font.ts';

const mono = (s: string) => Array.from(new Intl.Segmenter('und', { granularity: 'grapheme' }).segment(s)).length;

test('wrapText: \\n forces a break, long words are hyphenated, CJK breaks between characters', () => {
  assert.deepEqual(wrapText('one two\nthree', 20, mono), ['one two', 'three']);
  assert.deepEqual(wrapText('abcdefghij', 6, mono), ['abcde-', 'fghij']);
  assert.deepEqual(wrapText('你好世界', 2, mono), ['你好', '世界']);
  // No line starts with closing punctuation.
  assert.ok(wrapText('你好，世界', 2, mono).every((l) => !l.startsWith('，')));
  assert.deepEqual(breakUnits('well-known words'), ['well-', 'known ', 'words']);
});

test('clampLines cuts between graphemes, never inside an emoji', () => {
  const [line] = clampLines(['ab👨‍👩‍👧', 'more'], 1, 3, mono);
  assert.equal(line, 'ab…');
});

test('isRightToLeft follows the first strong letter', () => {
  assert.equal(isRightToLeft('2024 مرحبا'), true);
  assert.equal(isRightToLeft('Hello שלום'), false);
});

test('coverage: every covered script has a bundled face; Hangul and private use are missing', () => {
  const covered = 'Hello Tiếng Ωμέγα Привет مرحبا שלום नमस्ते 你好 こんにちは ❤️ 👍🏽';
  assert.deepEqual(fontsForText(covered, 700, stackFor([covered])).missing, []);
  assert.deepEqual(fontsForText('a한\uE000', 400, stackFor([''])).missing, ['한', '\uE000']);
  // Vietnamese precomposed letters come from the face that has them whole (not base + loose mark).
  const faces = fontsForText('ế', 400, stackFor([''])).faces.map((f) => f.alias);
  assert.deepEqual(faces, ['RS Space Grotesk 400 vietnamese']);
});
