// Any file the service rendered reopens its recipe in the playground (web/js/recipe-file.js, plain JS
// run here in Node): png, webp, jpeg (its COM segment), gif (its comment split into sub-blocks), mp4, svg and css, each
// rendered by the engine (worker, real sharp and FFmpeg) as the service renders them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadConfig } from '../../src/config/config.ts';
import { createRenderEngine, type RenderEngine } from '../../src/services/render-engine.factory.ts';
import type { OutputFormat } from '../../src/lib/formats.ts';
import { generator, generators } from '../support/web-generators.ts';
import { openedFile, recipeOfFile } from '../../web/js/recipe-file.js';
import { recipeOfHash } from '../../web/js/recipe.js';

let engine: RenderEngine;
before(async () => {
  engine = await createRenderEngine({
    ffmpegPath: loadConfig(process.env).ffmpegPath,
    // No time limit to race (2^31 − 1 ms, a timer's longest): the files are tested, not a deadline.
    render: { workers: 2, queueLimit: 100, timeoutMs: 2 ** 31 - 1, animationBudgetMs: 2 ** 31 - 1 },
  });
});
after(() => engine?.close());

/** A file as the service renders it, and the recipe it carries (X-Service-Recipe, decoded). */
async function rendered(
  slug: string,
  format: OutputFormat,
  size: { width: number; height: number; pixelRatio?: number },
  params: Record<string, unknown>,
  seed: number,
  quality?: number,
) {
  const resolved = engine.service.resolve(slug, { format, seed, size, params, quality });
  const { bytes } = await engine.service.render(resolved, { mode: 'job' });
  const carried = JSON.parse(Buffer.from(resolved.encoded, 'base64url').toString('utf8')) as Record<string, unknown>;
  return { bytes, carried };
}

const files = [
  { slug: 'blob', format: 'png', size: { width: 120, height: 80, pixelRatio: 2 }, params: { points: 9 } },
  { slug: 'voronoi', format: 'webp', size: { width: 200, height: 100, pixelRatio: 1 }, params: { cells: 30 } },
  { slug: 'halftone', format: 'jpeg', size: { width: 160, height: 90, pixelRatio: 1 }, params: {}, quality: 67 },
  { slug: 'plasma', format: 'gif', size: { width: 64, height: 48, pixelRatio: 1 }, params: { duration: 1, fps: 10 } },
  { slug: 'plasma', format: 'mp4', size: { width: 64, height: 48, pixelRatio: 1 }, params: { duration: 1, fps: 10, scale: 2 } },
  { slug: 'waves', format: 'svg', size: { width: 300, height: 150, pixelRatio: 1 }, params: { layers: 4 } },
  { slug: 'linear-gradient', format: 'css', size: { width: 320, height: 180, pixelRatio: 1 }, params: { angle: 45 } },
] as const;

test('any rendered file (png, webp, jpeg, gif, mp4, svg, css) gives back its recipe, which the playground opens as it is', async () => {
  await Promise.all(
    files.map(async (f, i) => {
      const { bytes, carried } = await rendered(f.slug, f.format, f.size, f.params, 4242 + i, 'quality' in f ? f.quality : undefined);
      const found = await recipeOfFile(new Blob([new Uint8Array(bytes)]));
      assert.ok(found, f.format);
      const { generator: slug, version, params, seed, size, format, quality } = carried;
      const kept = quality === undefined ? {} : { quality };
      assert.deepEqual(found, { slug, params, seed, size, format, ...kept, version }, f.format);
      if (f.format === 'jpeg') assert.equal(found.quality, 67);
      assert.equal(found.seed, 4242 + i);
      assert.equal(found.format, f.format);
      // Opened by its URL: the playground reads the same recipe (its format included) from the route.
      const { href, message } = openedFile(`picture.${f.format}`, found, generators);
      assert.equal(message, `Opened the recipe of picture.${f.format}`);
      assert.match(href!, new RegExp(`^#/playground/${f.slug}\\?r=`));
      assert.deepEqual(recipeOfHash(generator(f.slug), href!), { slug, params, seed, size, format, ...kept });
    }),
  );
});

test('a file rendered by a superseded version opens with the current one (what the playground edits) and says so', async () => {
  const { bytes } = await rendered('linear-gradient', 'css', { width: 160, height: 90 }, { angle: 30 }, 77);
  const css = bytes.toString('utf8');
  const encoded = /"recipe":"([A-Za-z0-9_-]+)"/.exec(css)![1];
  const old = { ...JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')), version: '1.0.0' };
  const current = generator('linear-gradient').version;
  assert.notEqual(current, old.version);
  const oldCss = css.replace(encoded, Buffer.from(JSON.stringify(old)).toString('base64url'));
  const found = await recipeOfFile(new Blob([oldCss]));
  assert.equal(found?.version, '1.0.0');
  const { href, message } = openedFile('old.css', found, generators);
  assert.equal(
    message,
    `old.css was rendered by linear-gradient 1.0.0; the playground edits the current version, ${current}, whose output differs. Opened its recipe with ${current}.`,
  );
  assert.equal(recipeOfHash(generator('linear-gradient'), href!)?.seed, 77);
});

test('a file without a recipe, or by a generator this service does not offer, opens nothing and says why', async () => {
  assert.equal(await recipeOfFile(new Blob(['hello'])), null);
  assert.deepEqual(openedFile('notes.txt', null, generators), {
    message: 'No recipe in notes.txt: only files this service rendered carry one.',
  });
  const found = { slug: 'gone', params: {}, seed: 1, size: { width: 1, height: 1 }, format: 'png' };
  assert.deepEqual(openedFile('x.png', found, generators), { message: 'x.png was made by "gone", which this service does not offer.' });
  // A recipe that is not one (no generator) is none.
  const fake = `/* render-service:recipe {"recipe":"${Buffer.from('{"seed":1}').toString('base64url')}"} */`;
  assert.equal(await recipeOfFile(new Blob([fake])), null);
});

test("a jpeg whose recipe is split over several COM segments still opens (the segments' heads are dropped)", async () => {
  const { bytes, carried } = await rendered('halftone', 'jpeg', { width: 64, height: 48 }, {}, 9);
  // The engine splits past 65,533 bytes; split this one's text after 40 characters the same way.
  const at = bytes.indexOf(Buffer.from([0xff, 0xfe]));
  const length = bytes.readUInt16BE(at + 2) - 2;
  const text = bytes.subarray(at + 4, at + 4 + length);
  const segment = (piece: Buffer) => Buffer.concat([Buffer.from([0xff, 0xfe, (piece.length + 2) >> 8, (piece.length + 2) & 255]), piece]);
  const split = Buffer.concat([
    bytes.subarray(0, at),
    segment(text.subarray(0, 40)),
    segment(text.subarray(40)),
    bytes.subarray(at + 4 + length),
  ]);
  const found = await recipeOfFile(new Blob([new Uint8Array(split)]));
  assert.equal(found?.seed, carried.seed);
  assert.equal(found?.quality, carried.quality);
});
