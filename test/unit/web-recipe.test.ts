// The web app's recipe rules (web/js/recipe.js, formats.js, route.js; plain JS run here in Node): the
// URL state the playground reads and writes, the routes that open a recipe, the one file-name rule of
// Download and Export, and the formats it decides by (the service's own facts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generator, generators } from '../support/web-generators.ts';
import { recipeInHash } from '../support/web-logic.ts';
import { kindOf, stillFormat, thumbFormat } from '../../web/js/formats.js';
import { parseRoute, queryOf } from '../../web/js/route.js';
import {
  DEFAULT_SIZE,
  decodeRecipe,
  encodeRecipe,
  fileName,
  initialRecipe,
  playgroundHref,
  recipeBody,
  recipeOfHash,
  sweepHref,
} from '../../web/js/recipe.js';

const blob = generator('blob');
const recipe = {
  slug: 'blob',
  params: { points: 9, title: 'Hello\nworld 👋' },
  seed: 12345,
  size: { width: 640, height: 360, pixelRatio: 1 },
  format: 'png',
};

test('the URL state: r is base64url (no padding) of the UTF-8 JSON {params, seed, size, format}, read back whole', () => {
  const r = encodeRecipe(recipe);
  assert.match(r, /^[A-Za-z0-9_-]+$/);
  assert.deepEqual(JSON.parse(Buffer.from(r, 'base64url').toString('utf8')), recipeBody(recipe));
  assert.deepEqual(decodeRecipe(r), { params: recipe.params, seed: 12345, size: recipe.size, format: 'png' });
  // The service's own encoding (X-Service-Recipe, a job's recipe) reads the same way.
  const service = Buffer.from(JSON.stringify({ generator: 'blob', version: '1.3.0', ...recipeBody(recipe) })).toString('base64url');
  assert.deepEqual(decodeRecipe(service), { generator: 'blob', version: '1.3.0', ...recipeBody(recipe) });
  assert.equal(decodeRecipe('not base64 json!'), null);
});

test("a jpeg's quality goes in the body and the route; no other format's does (the service would refuse it)", () => {
  const jpeg = { ...recipe, format: 'jpeg', quality: 75 };
  assert.equal(recipeBody(jpeg).quality, 75);
  assert.equal('quality' in recipeBody({ ...jpeg, format: 'png' }), false);
  assert.equal('quality' in recipeBody({ ...jpeg, quality: undefined }), false);
  assert.deepEqual(recipeOfHash(blob, playgroundHref('blob', jpeg)), jpeg);
  assert.equal('quality' in recipeOfHash(blob, playgroundHref('blob', { ...jpeg, format: 'webp' }))!, false);
});

test('the playground route carries the recipe: #/playground/<slug>?r=…, and a route read back gives it with missing fields filled in', () => {
  const href = playgroundHref('blob', recipe);
  assert.match(href, /^#\/playground\/blob\?r=[A-Za-z0-9_-]+$/);
  const inUrl = recipeInHash(href) as typeof recipe;
  assert.equal(inUrl.params.points, 9);
  assert.equal(inUrl.seed, 12345);
  assert.deepEqual(recipeOfHash(blob, href), recipe);
  // An encoded recipe (a job's) goes in as it is.
  assert.equal(playgroundHref('blob', 'abc_-'), '#/playground/blob?r=abc_-');
  // Only params, seed, size and format are read; the rest is filled in.
  const partial = `#/playground/blob?r=${Buffer.from(JSON.stringify({ seed: -1, size: { width: 300 } })).toString('base64url')}`;
  assert.deepEqual(recipeOfHash(blob, partial), {
    slug: 'blob',
    params: {},
    seed: 0,
    size: { ...DEFAULT_SIZE, width: 300 },
    format: 'png',
  });
  assert.equal(recipeOfHash(blob, '#/playground/blob'), null);
  assert.equal(recipeOfHash(blob, '#/playground/blob?r=%%%'), null);
});

test('the sweep route: the recipe and the query, empty values left to the sheet', () => {
  const href = sweepHref('blob', recipe, { param: 'points', from: '3', to: '10', n: '8' });
  assert.match(href, /^#\/sweep\/blob\?r=[\w-]+&param=points&from=3&to=10&n=8$/);
  assert.deepEqual(recipeOfHash(blob, href), recipe);
  assert.match(sweepHref('blob', recipe, { param: 'seed', from: 100, to: '', n: 6 }), /\?r=[\w-]+&param=seed&from=100&n=6$/);
});

test('one file-name rule for Download and Export: <slug>-<seed>-<w>x<h>[@<pr>x].<extension>', () => {
  assert.equal(fileName('blob', { seed: 4, size: { width: 1200, height: 630, pixelRatio: 1 }, format: 'png' }), 'blob-4-1200x630.png');
  assert.equal(fileName('mesh-gradient', { seed: 3, size: { width: 1200, height: 630 }, format: 'png' }), 'mesh-gradient-3-1200x630.png');
  assert.equal(fileName('plasma', { seed: 5, size: { width: 640, height: 360, pixelRatio: 1 }, format: 'gif' }), 'plasma-5-640x360.gif');
  assert.equal(fileName('plasma', { seed: 7, size: { width: 96, height: 64, pixelRatio: 2 }, format: 'mp4' }), 'plasma-7-96x64@2x.mp4');
  assert.equal(fileName('waves', { seed: 1, size: { width: 10, height: 10, pixelRatio: 0.5 }, format: 'svg' }), 'waves-1-10x10@0.5x.svg');
});

test('a generator opens at its defaults with seed 0, at its own shape or 640×360, in a still format', () => {
  assert.deepEqual(initialRecipe(blob), {
    slug: 'blob',
    params: blob.defaults,
    seed: 0,
    size: { width: 640, height: 360, pixelRatio: 1 },
    format: 'png',
  });
  assert.notEqual(initialRecipe(blob).params, blob.defaults, 'a copy: editing it leaves the defaults alone');
  assert.deepEqual(initialRecipe(generator('social-card')).size, { width: 1200, height: 630, pixelRatio: 1 });
  assert.equal(initialRecipe(generator('plasma')).format, 'png');
});

test('formats as the service names them: stills for previews, webp for small pictures where offered', () => {
  assert.deepEqual(['png', 'webp', 'gif', 'mp4', 'svg', 'css'].map(kindOf), ['still', 'still', 'motion', 'motion', 'text', 'text']);
  for (const gen of generators) {
    assert.notEqual(kindOf(stillFormat(gen)), 'motion', gen.slug);
    assert.equal(thumbFormat(gen), gen.formats.includes('webp') ? 'webp' : stillFormat(gen), gen.slug);
  }
  assert.equal(thumbFormat(generator('voronoi')), 'webp');
  assert.equal(stillFormat({ formats: ['gif', 'mp4', 'svg'] }), 'svg');
  assert.equal(thumbFormat({ formats: ['css'] }), 'css');
});

test('routes: the page name, its argument and its query', () => {
  assert.deepEqual(parseRoute(''), { name: '', arg: undefined });
  assert.deepEqual(parseRoute('#/'), { name: '', arg: undefined });
  assert.deepEqual(parseRoute('#/playground/blob?r=abc'), { name: 'playground', arg: 'blob' });
  assert.deepEqual(parseRoute('#/sweep/mesh-gradient?param=seed&n=4'), { name: 'sweep', arg: 'mesh-gradient' });
  assert.deepEqual(parseRoute('#/account?checkout=success'), { name: 'account', arg: undefined });
  assert.deepEqual(parseRoute('#export'), { name: 'export', arg: undefined });
  assert.equal(queryOf('#/account?checkout=success').get('checkout'), 'success');
  assert.equal(queryOf('#/account').get('checkout'), null);
});
