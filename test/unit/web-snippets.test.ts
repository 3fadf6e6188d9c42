// What the playground's copy buttons give (web/js/snippets.js, plain JS run here in Node): the recipe
// URL and the curl command ask for what Download gives (the chosen format and pixel ratio, not the
// preview's), and the <img> and og:image tags describe the signed image.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import '../support/web-logic.ts';
import { OG_FORMATS, attr, curlSnippet, imgTag, ogFormat, ogTags, recipeUrl, tsSnippet } from '../../web/js/snippets.js';

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

test('an <img> tag at the recipe’s CSS size, and og:image tags in device pixels with the media type', () => {
  const url = `${origin}/v1/render/${'b'.repeat(64)}?r=abc&kid=usk_1&sig=xyz`;
  const img = imgTag(url, chosen, 'Blob "organic"');
  const m = /^<img src="([^"]+)" width="300" height="200" alt="([^"]*)">$/.exec(img);
  assert.ok(m, img);
  assert.equal(m[1].replace(/&amp;/g, '&'), url);
  assert.equal(m[2], 'Blob &quot;organic&quot;');
  const og = ogTags(url, chosen);
  assert.equal(og.split('\n').length, 6, og);
  const tags = Object.fromEntries(
    [...og.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)].map((t) => [t[1], t[2].replace(/&amp;/g, '&')]),
  );
  assert.deepEqual(tags, {
    'og:image': url,
    'og:image:width': '600',
    'og:image:height': '400',
    'og:image:type': 'image/png',
    'twitter:card': 'summary_large_image',
    'twitter:image': url,
  });
  assert.equal(attr('<a href="x">&'), '&lt;a href=&quot;x&quot;>&amp;');
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

test('og:image offers jpeg, png and webp, and first the smallest that every link preview takes (never webp)', () => {
  assert.deepEqual(OG_FORMATS, ['jpeg', 'png', 'webp']);
  assert.equal(ogFormat({ jpeg: 57_000, png: 1_604_695, webp: 41_000 }), 'jpeg');
  assert.equal(ogFormat({ jpeg: 9_000, png: 4_000, webp: 2_000 }), 'png', 'a flat picture: png is smaller');
  assert.equal(ogFormat({ jpeg: 0, png: 4_000, webp: 2_000 }), 'png', 'not measured: not offered first');
  assert.equal(ogFormat({}), undefined);
});
