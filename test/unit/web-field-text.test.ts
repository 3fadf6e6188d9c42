// The web app's field text (web/js/field-text.js, plain JS run here in Node): the counter counts what
// the service's maxLength counts, help text loses its Markdown backticks, and an API issue is named
// by its field's title, in plain words, never by its JSON path.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAjv, toIssues } from '../../src/lib/schema-validation.ts';
import { charCount, codePoints, codeSpans, issueLine, plainMessage } from '../../web/js/field-text.js';

test('codePoints counts as the service’s maxLength does: an emoji or a CJK extension character is one, a newline one', () => {
  const validate = createAjv().compile({ type: 'string', maxLength: 3 });
  for (const text of ['👋🏽', '𠀀𠀁𠀂', 'a\nb', 'שלום', 'مرحبا', '']) {
    assert.equal(validate(text), codePoints(text) <= 3, text);
  }
  assert.equal(codePoints('👋👋👋'), 3);
  assert.equal('👋👋👋'.length, 6);
  assert.equal(codePoints('Hello\nworld 👋'), 13);
  assert.equal(codePoints(undefined), 0);
});

test('charCount: "n / max", a warning from 90 % to the limit, an error past it that says by how much', () => {
  assert.deepEqual(charCount('Hello', 80), { text: '5 / 80', state: '' });
  assert.deepEqual(charCount('x'.repeat(71), 80), { text: '71 / 80', state: '' });
  assert.deepEqual(charCount('x'.repeat(72), 80), { text: '72 / 80', state: 'near' });
  assert.deepEqual(charCount('👋'.repeat(80), 80), { text: '80 / 80', state: 'near' });
  assert.deepEqual(charCount('x'.repeat(85), 80), { text: '85 / 80 · 5 too many', state: 'over' });
});

test('codeSpans: Markdown `code` spans come out at odd indexes, and no backtick is left in the text', () => {
  assert.deepEqual(codeSpans('A newline (`\\n`) forces a line break.'), ['A newline (', '\\n', ') forces a line break.']);
  assert.deepEqual(codeSpans('Plain help.'), ['Plain help.']);
  assert.deepEqual(codeSpans('`a` and `b`'), ['', 'a', ' and ', 'b', '']);
  assert.deepEqual(codeSpans('a stray ` backtick'), ['a stray  backtick']);
});

test('issueLine: the nearest field the path names, under its title, never a JSON path', () => {
  const titles = { 'params.title': 'Title', 'params.palette': 'Palette', 'size.width': 'Width', seed: 'Seed' };
  assert.deepEqual(issueLine({ path: 'body.params.title', message: 'must NOT have more than 80 characters' }, titles), {
    field: 'params.title',
    text: 'Title: must be at most 80 characters',
  });
  assert.deepEqual(issueLine({ path: 'body.params.palette.2', message: 'must match format "color"' }, titles), {
    field: 'params.palette',
    text: 'Palette: must match format "color"',
  });
  assert.deepEqual(issueLine({ path: 'body/size/width', message: 'must be >= 16' }, titles), {
    field: 'size.width',
    text: 'Width: must be at least 16',
  });
  // No field of the form owns it: named by its last word, still no path.
  assert.deepEqual(issueLine({ path: 'body.size.pixelRatio', message: 'must be <= 3' }, titles), {
    field: null,
    text: 'Pixel ratio: must be at most 3',
  });
  assert.deepEqual(issueLine({ path: 'body', message: 'must be a JSON object' }), { field: null, text: 'must be a JSON object' });
  assert.doesNotMatch(issueLine({ path: 'body.items.3.params.textColor', message: 'is invalid' }).text, /body|\.|items/);
});

test('the service’s own Ajv issues read plainly: "Title: must be at most 80 characters"', () => {
  const validate = createAjv().compile({
    type: 'object',
    properties: {
      title: { type: 'string', maxLength: 80 },
      label: { type: 'string', minLength: 2 },
      colors: { type: 'array', maxItems: 2 },
    },
  });
  assert.equal(validate({ title: 'x'.repeat(81), label: 'x', colors: [1, 2, 3] }), false);
  const lines = toIssues(validate.errors, 'body.params').map(
    (i) => issueLine(i, { 'params.title': 'Title', 'params.label': 'Label' }).text,
  );
  assert.deepEqual(lines.sort(), [
    'Colors: must have at most 2 items',
    'Label: must be at least 2 characters',
    'Title: must be at most 80 characters',
  ]);
  assert.equal(plainMessage('must be > 0'), 'must be > 0');
  assert.equal(plainMessage(undefined), 'is invalid');
});
