// The preview's X-Service-Text-Fit header (web/js/templates/text-fit.js, plain JS run here in Node):
// an RFC 8941 list of strings with parameters, one per visible text layer, and the editor's words.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fitText, parseList, parseTextFit } from '../../web/js/templates/text-fit.js';

test('the header: each text layer’s id, size, lines and overflow', () => {
  assert.deepEqual(parseTextFit('"title";size=84;lines=2, "author";size=34.25;lines=1;overflow'), [
    { id: 'title', size: 84, lines: 2, overflow: false },
    { id: 'author', size: 34.25, lines: 1, overflow: true },
  ]);
  assert.deepEqual(parseTextFit('"a\\"b";size=1;lines=1;overflow=?0'), [{ id: 'a"b', size: 1, lines: 1, overflow: false }], 'escapes; ?0');
  assert.deepEqual(parseTextFit('"x";overflow=?1,"y"'), [
    { id: 'x', size: null, lines: null, overflow: true },
    { id: 'y', size: null, lines: null, overflow: false },
  ]);
});

test('absent or unreadable: no items', () => {
  assert.deepEqual(parseTextFit(null), []);
  assert.deepEqual(parseTextFit(''), []);
  assert.deepEqual(parseTextFit('"open'), []);
  assert.deepEqual(parseTextFit('"a" "b"'), []);
  assert.throws(() => parseList('"a";=1'), /bad parameter/);
  assert.deepEqual(parseList('tok;k=v'), [{ value: 'tok', params: { k: 'v' } }]);
});

test('the words: the size and whether it shrank, the lines, a cut', () => {
  const layer = { fit: { max: 96 } };
  assert.equal(fitText({ id: 't', size: 96, lines: 1, overflow: false }, layer), '96 px · 1 line');
  assert.equal(fitText({ id: 't', size: 44.5, lines: 3, overflow: true }, layer), '44.5 px (shrunk from 96) · 3 lines · cut with …');
  assert.equal(fitText({ id: 't', size: 40, lines: 2, overflow: false }, {}), '40 px (shrunk from 48) · 2 lines', 'fit.max defaults to 48');
  assert.equal(fitText(undefined, layer), '');
});
