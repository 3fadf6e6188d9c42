// What the playground's copy buttons give (web/js/snippets.js, plain JS run here in Node): the recipe
// URL and the curl command ask for what Download gives (the chosen format and pixel ratio, not the
// preview's). The Share panel's <img> and og:image tags: web-share.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import '../support/web-logic.ts';
import { curlSnippet, recipeUrl, tsSnippet } from '../../web/js/snippets.js';

const origin = 'http://127.0.0.1:8080';
const chosen = { slug: 'blob', params: { points: 9 }, seed: 77, size: { width: 300, height: 200, pixelRatio: 2 }, format: 'png' };
const preview = { ...chosen, format: 'webp', size: { width: 300, height: 200, pixelRatio: 1.5 } };
const last = { recipe: Buffer.from(JSON.stringify({ generator: 'blob', ...preview })).toString('base64url'), hash: 'a'.repeat(64) };

test('the recipe URL is the preview’s, with the chosen format, size and pixel ratio as overrides', () => {
  const url = recipeUrl(origin, last, chosen);
  assert.equal(url, `${origin}/v1/render/${'a'.repeat(64)}?r=${last.recipe}&format=png&pr=2`);
  assert.match(url, /&format=png/, 'the preview is webp; the URL asks for the chosen png');
  assert.match(url, /&pr=2(&|$)/);
  assert.equal(
    recipeUrl(origin, last, { ...chosen, format: 'webp', size: { width: 600, height: 200, pixelRatio: 1.5 } }),
    `${origin}/v1/render/${'a'.repeat(64)}?r=${last.recipe}&w=600`,
  );
  assert.equal(recipeUrl(origin, last, preview), `${origin}/v1/render/${'a'.repeat(64)}?r=${last.recipe}`, 'nothing to override');
});

test('the curl command posts the chosen recipe (quotes escaped for the shell); the TypeScript snippet too', () => {
  const curl = curlSnippet(origin, { ...chosen, params: { title: "it's" } });
  assert.equal(curl.split('\n')[0], `curl -sS -X POST '${origin}/v1/generate/blob' \\`);
  const body = /-d '(.+)' \\$/m.exec(curl)![1];
  assert.deepEqual(JSON.parse(body.replace(/'\\''/g, "'")), {
    params: { title: "it's" },
    seed: 77,
    size: { width: 300, height: 200, pixelRatio: 2 },
    format: 'png',
  });
  assert.match(curl, /-o out\.png$/);
  const ts = tsSnippet(origin, chosen);
  assert.match(ts, new RegExp(`baseUrl: '${origin}'`));
  assert.match(ts, /client\.POST\('\/v1\/generate\/\{slug\}', \{\n {2}params: \{ path: \{ slug: 'blob' \} \},/);
  assert.match(ts, /"format": "png"\n {2}\} as const,/);
});

test("a jpeg's quality: the recipe URL asks for it with q, the curl command posts it and names the file .jpg", () => {
  const jpeg = { ...chosen, format: 'jpeg', quality: 90 };
  assert.equal(recipeUrl(origin, last, jpeg), `${origin}/v1/render/${'a'.repeat(64)}?r=${last.recipe}&format=jpeg&pr=2&q=90`);
  assert.equal(
    recipeUrl(origin, last, { ...jpeg, quality: undefined }),
    `${origin}/v1/render/${'a'.repeat(64)}?r=${last.recipe}&format=jpeg&pr=2`,
    'no quality: the service default',
  );
  assert.equal(
    recipeUrl(origin, last, { ...chosen, quality: 90 }),
    `${origin}/v1/render/${'a'.repeat(64)}?r=${last.recipe}&format=png&pr=2`,
    'png takes none',
  );
  const curl = curlSnippet(origin, jpeg);
  assert.match(curl, /-o out\.jpg$/);
  assert.equal(JSON.parse(/-d '(.+)' \\$/m.exec(curl)![1]).quality, 90);
});
