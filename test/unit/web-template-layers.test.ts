// The template editor's layer operations (web/js/templates/layers.js, plain JS run here in Node):
// new layers of every kind with unique ids, add, move, remove, set and clear a field, the saved body
// and the preview's draft without the hidden layers. None changes the template it is given.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  KINDS,
  addLayer,
  draftOf,
  fieldOf,
  layerLabel,
  moveLayer,
  newLayer,
  removeLayer,
  uniqueId,
  updateLayer,
  visibleDraft,
  type TemplateDraft,
} from '../../web/js/templates/layers.js';

const size = { width: 1200, height: 600 };
const base = (): TemplateDraft => ({
  name: 'Card',
  size,
  layers: [
    { id: 'bg', kind: 'generator', slug: 'mesh-gradient' },
    { id: 'title', kind: 'text', text: '{{title}}', box: { x: 10, y: 10, width: 500, height: 100 }, fit: { max: 80, min: 40 } },
  ],
});

test('unique ids: the kind, else -2, -3…; only the characters an id may hold', () => {
  const layers = [{ id: 'text' }, { id: 'text-2' }];
  assert.equal(uniqueId(layers, 'text'), 'text-3');
  assert.equal(uniqueId(layers, 'shape'), 'shape');
  assert.equal(uniqueId([], 'my logo!'), 'my-logo-');
  assert.equal(uniqueId([], ''), 'layer');
});

test('new layers: every kind, a box on the canvas, the fields its kind requires', () => {
  const t = base();
  for (const kind of KINDS) {
    const l = newLayer(kind, size, t.layers, { asset: 'ast_' + '0'.repeat(32), slug: 'blob' });
    assert.equal(l.kind, kind);
    assert.ok(l.box && l.box.x >= 0 && l.box.x + l.box.width <= size.width && l.box.y + l.box.height <= size.height, kind);
  }
  const text = newLayer('text', size, t.layers);
  assert.equal(text.id, 'text');
  assert.deepEqual(text.box, { x: 240, y: 240, width: 720, height: 120 }, 'centred');
  assert.equal(newLayer('image', size, t.layers, { asset: '{{logo}}' }).asset, '{{logo}}');
  assert.equal(newLayer('generator', size, t.layers, { slug: 'blob' }).slug, 'blob');
  assert.throws(() => newLayer('video', size, t.layers), /no layer kind/);
});

test('add, move and remove: new templates, the argument untouched', () => {
  const t = base();
  const before = structuredClone(t);
  const added = addLayer(t, newLayer('shape', size, t.layers));
  assert.deepEqual(
    added.layers.map((l) => l.id),
    ['bg', 'title', 'shape'],
    'on top by default',
  );
  assert.deepEqual(
    addLayer(t, { id: 'x', kind: 'fill' }, 0).layers.map((l) => l.id),
    ['x', 'bg', 'title'],
  );
  assert.deepEqual(
    moveLayer(added, 2, 0).layers.map((l) => l.id),
    ['shape', 'bg', 'title'],
  );
  assert.deepEqual(
    moveLayer(added, 0, 99).layers.map((l) => l.id),
    ['title', 'shape', 'bg'],
    'clamped to the end',
  );
  assert.equal(moveLayer(added, 1, 1), added, 'nothing moves: the same template');
  assert.deepEqual(
    removeLayer(added, 'title').layers.map((l) => l.id),
    ['bg', 'shape'],
  );
  assert.deepEqual(t, before);
});

test('update: a field by its path; empty removes it and an object left empty; a new id stays unique', () => {
  const t = base();
  const before = structuredClone(t);
  let u = updateLayer(t, 'title', 'fit.maxLines', 3);
  assert.deepEqual(u.layers[1].fit, { max: 80, min: 40, maxLines: 3 });
  u = updateLayer(u, 'title', 'fit.min', undefined);
  assert.deepEqual(u.layers[1].fit, { max: 80, maxLines: 3 });
  u = updateLayer(u, 'title', 'font.asset', 'ast_1');
  assert.deepEqual(u.layers[1].font, { asset: 'ast_1' });
  u = updateLayer(u, 'title', 'font.asset', '');
  assert.equal('font' in u.layers[1], false);
  u = updateLayer(u, 'title', 'box', { x: 1, y: 2, width: 3, height: 4 });
  assert.deepEqual(fieldOf(u.layers[1], 'box.width'), 3);
  assert.equal(updateLayer(u, 'title', 'id', 'bg').layers[1].id, 'bg-2');
  assert.equal(fieldOf(u.layers[0], 'box.width'), undefined);
  assert.deepEqual(t, before);
});

test('the saved body and the preview’s draft: hidden layers left out, never an empty list', () => {
  const saved = draftOf({ ...base(), id: 'tpl_1', version: 3, versions: [], createdAt: 'x' } as never);
  assert.deepEqual(Object.keys(saved), ['name', 'size', 'variables', 'layers']);
  assert.deepEqual(saved.variables, { type: 'object', properties: {} });
  assert.deepEqual(
    visibleDraft(base(), new Set(['bg'])).layers.map((l) => l.id),
    ['title'],
  );
  const none = visibleDraft(base(), new Set(['bg', 'title']));
  assert.deepEqual(none.layers, [{ id: 'empty', kind: 'fill', color: '#ffffff', opacity: 0 }]);
  assert.equal(layerLabel(base().layers[1]), 'title · “{{title}}”');
  assert.equal(layerLabel(base().layers[0]), 'bg · mesh-gradient');
});
