// The Share panel's rules (web/js/share.js, plain JS run here in Node): the expiry choices and the
// signing request they make, the formats offered and the one chosen first, and the <img> and
// og:image tags of the signed URL. The panel itself, through the service: test/acceptance/web-app.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generator } from '../support/web-generators.ts';
import { DEFAULT_EXPIRY, EXPIRIES, OG_FORMATS, attr, imgTag, ogTags, shareFormat, shareFormats, signBody } from '../../web/js/share.js';

const origin = 'http://127.0.0.1:8080';
const chosen = { slug: 'blob', params: { points: 9 }, seed: 77, size: { width: 300, height: 200, pixelRatio: 2 }, format: 'png' };

test('the expiry choices: a day, 30 days, a year (first offered) or never, in seconds as the signing request takes them', () => {
  assert.deepEqual(EXPIRIES, [
    ['1 day', 86_400],
    ['30 days', 2_592_000],
    ['1 year', 31_536_000],
    ['No expiry', 0],
  ]);
  assert.equal(DEFAULT_EXPIRY, 31_536_000);
  // openapi.yaml SignRenderUrlRequest: expiresInSeconds 1 … 315360000; absent, the URL never expires.
  for (const [, seconds] of EXPIRIES.filter(([, s]) => s > 0)) assert.ok(seconds >= 1 && seconds <= 315_360_000);
});

test('the signing request: the recipe in the chosen format (a quality only where one is taken), the path form, expiresInSeconds only when it expires', () => {
  assert.deepEqual(signBody(chosen, 'jpeg', 2_592_000), {
    slug: 'blob',
    params: { points: 9 },
    seed: 77,
    size: { width: 300, height: 200, pixelRatio: 2 },
    format: 'jpeg',
    extension: true,
    expiresInSeconds: 2_592_000,
  });
  const never = signBody(chosen, 'png', 0);
  assert.equal('expiresInSeconds' in never, false, 'no expiry: the field is left out');
  assert.equal(never.format, 'png');
  const jpeg = { ...chosen, format: 'jpeg', quality: 90 };
  assert.equal(signBody(jpeg, 'jpeg', 86_400).quality, 90);
  assert.equal('quality' in signBody(jpeg, 'png', 86_400), false, 'png takes none');
});

test('the formats offered: jpeg, png and webp, then the recipe’s own; first the smallest that every link preview takes (never webp)', () => {
  assert.deepEqual(OG_FORMATS, ['jpeg', 'png', 'webp']);
  assert.deepEqual(shareFormats(generator('blob'), 'png'), ['jpeg', 'png', 'webp']);
  assert.deepEqual(shareFormats(generator('plasma'), 'gif'), ['jpeg', 'png', 'webp', 'gif'], 'an animation: its own format last');
  assert.deepEqual(shareFormats({ formats: ['svg', 'css'] }, 'css'), ['css'], 'no raster format: its own alone');
  assert.equal(shareFormat({ jpeg: 57_000, png: 1_604_695, webp: 41_000 }, 'png'), 'jpeg');
  assert.equal(shareFormat({ jpeg: 9_000, png: 4_000, webp: 2_000 }, 'jpeg'), 'png', 'a flat picture: png is smaller');
  assert.equal(shareFormat({ jpeg: 0, png: 4_000, webp: 2_000 }, 'webp'), 'png', 'not measured: not offered first');
  assert.equal(shareFormat({}, 'gif'), 'gif', 'nothing measured: the recipe’s own format');
});

test('an <img> tag at the recipe’s CSS size, and og:image tags in device pixels with the media type', () => {
  const url = `${origin}/v1/render/${'b'.repeat(64)}.png?r=abc&kid=usk_1&exp=1790000000&sig=xyz`;
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
  assert.match(ogTags(url, { ...chosen, format: 'jpeg' }), /"og:image:type" content="image\/jpeg"/);
  assert.equal(attr('<a href="x">&'), '&lt;a href=&quot;x&quot;>&amp;');
});
