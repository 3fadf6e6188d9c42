// A template's sample values (web/js/templates/sample-params.js, plain JS run here in Node): a
// variable's sample is `examples[0]`, else its default; the editor sets and clears it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sampleParams, setSample, type WithVariables } from '../../web/js/templates/sample-params.js';

const template = {
  variables: {
    type: 'object',
    required: ['title'],
    properties: {
      title: { type: 'string', maxLength: 140, examples: ['How we made every render reproducible', 'other'] },
      author: { type: 'string', default: 'The team' },
      logo: { type: 'string' },
      count: { type: 'integer', default: 0, examples: [] },
    },
  },
};

test('examples[0] ?? default, for each variable; none of either: left out', () => {
  assert.deepEqual(sampleParams(template), { title: 'How we made every render reproducible', author: 'The team', count: 0 });
  assert.deepEqual(sampleParams({}), {});
  assert.deepEqual(sampleParams(null), {});
});

test('setting a sample: examples becomes [value]; undefined removes it; the rest untouched', () => {
  const before = structuredClone(template);
  const set = setSample(template, 'logo', 'ast_' + 'a'.repeat(32));
  assert.deepEqual(set.variables.properties!.logo, { type: 'string', examples: ['ast_' + 'a'.repeat(32)] });
  assert.deepEqual(set.variables.required, ['title']);
  assert.equal(sampleParams(set).logo, 'ast_' + 'a'.repeat(32));
  const cleared = setSample(set, 'title', undefined);
  assert.equal('examples' in cleared.variables.properties!.title, false);
  assert.equal(sampleParams(cleared).title, undefined);
  assert.deepEqual(template, before);
  assert.deepEqual(setSample({} as WithVariables, 'x', 'y').variables, {
    type: 'object',
    properties: { x: { type: 'string', examples: ['y'] } },
  });
});
