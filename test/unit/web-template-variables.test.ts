// The template editor's variables (web/js/templates/variables.js, plain JS run here in Node): define,
// rename (with their {{uses}}), remove, which feed image layers, and where an API issue belongs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  imageVariables,
  issueTarget,
  removeVariable,
  renameVariable,
  setVariable,
  unusedName,
  variablesOf,
  wholeVariable,
} from '../../web/js/templates/variables.js';
import type { TemplateDraft } from '../../web/js/templates/layers.js';

const t = (): TemplateDraft => ({
  name: 'Card',
  size: { width: 100, height: 100 },
  variables: { type: 'object', required: ['title'], properties: { title: { type: 'string' }, logo: { type: 'string' } } },
  layers: [
    { id: 'title', kind: 'text', text: 'Read {{ title }} and {{title}}, not {{titles}}', box: { x: 0, y: 0, width: 1, height: 1 } },
    { id: 'logo', kind: 'image', asset: '{{logo}}', box: { x: 0, y: 0, width: 1, height: 1 } },
  ],
});

test('define, rename with every {{use}}, remove (and from required)', () => {
  const before = t();
  const added = setVariable(t(), 'author', { type: 'string', maxLength: 60 });
  assert.deepEqual(
    variablesOf(added).map(([k]) => k),
    ['title', 'logo', 'author'],
  );
  const renamed = renameVariable(t(), 'title', 'headline');
  assert.deepEqual(
    variablesOf(renamed).map(([k]) => k),
    ['headline', 'logo'],
    'in the same place',
  );
  assert.deepEqual(renamed.variables!.required, ['headline']);
  assert.equal(renamed.layers[0].text, 'Read {{ headline }} and {{headline}}, not {{titles}}');
  const x = t();
  assert.equal(renameVariable(x, 'title', 'logo'), x, 'a taken name: unchanged');
  assert.equal(renameVariable(x, 'title', '1bad'), x, 'an invalid name: unchanged');
  const removed = removeVariable(t(), 'title');
  assert.deepEqual(
    variablesOf(removed).map(([k]) => k),
    ['logo'],
  );
  assert.deepEqual(removed.variables!.required, []);
  assert.deepEqual(t(), before);
});

test('image variables and free names', () => {
  assert.deepEqual([...imageVariables(t())], ['logo']);
  assert.equal(wholeVariable('{{ logo }}'), 'logo');
  assert.equal(wholeVariable('a {{logo}}'), null);
  assert.equal(unusedName(t(), 'title'), 'title2');
  assert.equal(unusedName(t(), 'text'), 'text');
});

test('where an API issue belongs', () => {
  assert.deepEqual(issueTarget('body.template.layers.2.box.width'), { layer: 2, field: 'box.width' });
  assert.deepEqual(issueTarget('template.layers.0.text'), { layer: 0, field: 'text' });
  assert.deepEqual(issueTarget('body.layers.1'), { layer: 1, field: '' });
  assert.deepEqual(issueTarget('body.params.title'), { variable: 'title' });
  assert.deepEqual(issueTarget('body.variables.properties.logo.type'), { variable: 'logo' });
  assert.deepEqual(issueTarget('body.name'), { field: 'name' });
  assert.deepEqual(issueTarget('/body/size/width'), { field: 'size.width' });
  assert.deepEqual(issueTarget(undefined), { field: '' });
});
