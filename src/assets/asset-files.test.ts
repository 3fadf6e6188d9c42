import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { deflateSync } from 'node:zlib';
import type Sharp from 'sharp';
import { ProblemError } from '../errors/problem.ts';
import { animatedWebp, fonts, images, noise, pngChunk, pngWith, withNumGlyphs } from '../../test/support/asset-files.ts';
import {
  DEFAULT_ASSET_LIMITS,
  assetIdOf,
  assetMediaType,
  checkMagic,
  decodeNormalizedImage,
  mediaTypeOf,
  normalizeImage,
  sha256Of,
  sniff,
} from './asset-files.ts';
import { checkFont } from './font-check.ts';

const sharp = createRequire(import.meta.url)('sharp') as typeof Sharp;

/** Runs `fn` and returns the ProblemError it threw. */
async function problemOf(fn: () => unknown): Promise<ProblemError> {
  try {
    await fn();
  } catch (err) {
    assert.ok(err instanceof ProblemError, `not a ProblemError: ${String(err)}`);
    return err;
  }
  assert.fail('expected a ProblemError');
}

const pixel = (rgba: Uint8Array, width: number, x: number, y: number) => [...rgba.subarray((y * width + x) * 4, (y * width + x) * 4 + 4)];

describe('media types and magic numbers', () => {
  test('the Content-Type is read without parameters or case; anything else is 415 naming the header', async () => {
    assert.equal(mediaTypeOf('Image/PNG; charset=binary'), 'image/png');
    assert.equal(mediaTypeOf(undefined), undefined);
    assert.equal(assetMediaType('font/woff2'), 'font/woff2');
    for (const header of [
      undefined,
      '',
      'image/svg+xml',
      'image/gif',
      'font/woff',
      'font/collection',
      'application/json',
      'application/octet-stream',
    ]) {
      const problem = await problemOf(() => assetMediaType(header));
      assert.equal(problem.code, 'unsupported_asset_type');
      assert.equal(problem.status, 415);
      assert.equal(problem.issues?.[0]?.path, 'header.Content-Type');
    }
  });

  test('sniff reads the first bytes', async () => {
    assert.equal(sniff(await images.png()), 'png');
    assert.equal(sniff(await images.jpegOrientation6()), 'jpeg');
    assert.equal(sniff(await images.webp()), 'webp');
    assert.equal(sniff(await fonts.ttf()), 'sfnt');
    assert.equal(sniff(fonts.otf()), 'sfnt');
    assert.equal(sniff(fonts.woff2()), 'woff2');
    assert.equal(sniff(Buffer.from('ttcf....')), 'collection');
    assert.equal(sniff(Buffer.from('  <svg xmlns="…">')), 'svg');
    assert.equal(sniff(Buffer.from('<!DOCTYPE html><html>')), 'html');
    assert.equal(sniff(Buffer.from('PK\x03\x04')), 'zip');
    assert.equal(sniff(noise(64)), undefined);
  });

  test('the bytes must be the declared type: 400 for an empty body, 415 asset_type_mismatch otherwise', async () => {
    const empty = await problemOf(() => checkMagic('image/png', Buffer.alloc(0)));
    assert.deepEqual([empty.status, empty.code, empty.issues?.[0]?.path], [400, 'validation_failed', 'body']);
    for (const [type, bytes] of [
      ['image/png', await images.jpegOrientation6()],
      ['image/jpeg', await images.png()],
      ['font/ttf', fonts.woff2()],
      ['font/woff2', await fonts.ttf()],
      ['font/ttf', Buffer.concat([Buffer.from('ttcf'), noise(40)])],
    ] as const) {
      const problem = await problemOf(() => checkMagic(type, bytes));
      assert.deepEqual([problem.status, problem.code, problem.issues?.[0]?.path], [415, 'asset_type_mismatch', 'body'], type);
    }
    // An OpenType font may hold either outline format whichever name it was given.
    checkMagic('font/ttf', fonts.otf());
    checkMagic('font/otf', await fonts.ttf());
  });

  test('the id is ast_ and the first 32 hex digits of the SHA-256 of the bytes', () => {
    const sha = sha256Of(Buffer.from('abc'));
    assert.equal(sha, 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(assetIdOf(sha), 'ast_ba7816bf8f01cfea414140de5dae2223');
  });
});

describe('images: decoded once into 8-bit sRGB RGBA, stored as a PNG', () => {
  const limits = DEFAULT_ASSET_LIMITS;

  test('a PNG keeps its pixels and its alpha, and the stored PNG decodes to exactly them', async () => {
    const image = await normalizeImage('image/png', await images.png(), limits);
    assert.deepEqual([image.width, image.height], [64, 48]);
    const decoded = await decodeNormalizedImage(image.png);
    assert.deepEqual([decoded.width, decoded.height, decoded.rgba.length], [64, 48, 64 * 48 * 4]);
    assert.deepEqual(pixel(decoded.rgba, 64, 0, 0), [0, 0, 0, 0]);
    assert.deepEqual(pixel(decoded.rgba, 64, 1, 0), [255, 0, 0, 255]);
    const meta = await sharp(image.png).metadata();
    assert.deepEqual([meta.format, meta.channels, meta.depth, meta.space], ['png', 4, 'uchar', 'srgb']);
  });

  test('a JPEG has its EXIF orientation applied: 40×20 with orientation 6 is stored 20×40, turned clockwise', async () => {
    const image = await normalizeImage('image/jpeg', await images.jpegOrientation6(), limits);
    assert.deepEqual([image.width, image.height], [20, 40]);
    const { rgba } = await decodeNormalizedImage(image.png);
    // Stored: green on the left, blue on the right; turned 90° clockwise, green is on top.
    const [r1, g1, b1, a1] = pixel(rgba, 20, 10, 5);
    const [r2, g2, b2] = pixel(rgba, 20, 10, 35);
    assert.ok(g1 > 200 && r1 < 40 && b1 < 40 && a1 === 255, `top is green: ${[r1, g1, b1]}`);
    assert.ok(b2 > 200 && r2 < 40 && g2 < 40, `bottom is blue: ${[r2, g2, b2]}`);
    assert.equal((await sharp(image.png).metadata()).orientation, undefined, 'no orientation is left to apply');
  });

  test('a WebP, a 16-bit PNG and a CMYK JPEG become 8-bit sRGB RGBA', async () => {
    const webp = await normalizeImage('image/webp', await images.webp(), limits);
    assert.deepEqual(pixel((await decodeNormalizedImage(webp.png)).rgba, 30, 3, 3), [0, 0, 255, 128]);
    const png16 = await normalizeImage('image/png', await images.png16(), limits);
    const deep = (await decodeNormalizedImage(png16.png)).rgba;
    assert.deepEqual(pixel(deep, 8, 0, 0), [128, 64, 255, 255]);
    const cmyk = await normalizeImage('image/jpeg', await images.cmykJpeg(), limits);
    const [r, g, b, a] = pixel((await decodeNormalizedImage(cmyk.png)).rgba, 12, 6, 6);
    assert.ok(r > 200 && g > 80 && g < 190 && b < 80 && a === 255, `orange: ${[r, g, b, a]}`);
    for (const png of [webp.png, png16.png, cmyk.png]) {
      const meta = await sharp(png).metadata();
      assert.deepEqual([meta.channels, meta.depth, meta.space], [4, 'uchar', 'srgb']);
    }
  });

  test('the pixel limit is read from the header, before any decode', async () => {
    const bomb = pngWith(100_000, 100_000, deflateSync(Buffer.alloc(100)));
    const problem = await problemOf(() => normalizeImage('image/png', bomb, limits));
    assert.deepEqual([problem.status, problem.code, problem.issues?.[0]?.path], [413, 'image_too_large', 'body']);
    assert.equal(problem.extra?.limit, 40_000_000);
    const small = await problemOf(async () => normalizeImage('image/png', await images.png(), { maxPixels: 64 * 48 - 1 }));
    assert.equal(small.code, 'image_too_large');
    await normalizeImage('image/png', await images.png(), { maxPixels: 64 * 48 });
  });

  test('animated images are refused naming the body; broken ones are invalid_image', async () => {
    for (const [type, bytes] of [
      ['image/webp', await animatedWebp(8, 8, ['#f00', '#00f', '#0f0'])],
      ['image/png', pngWith(2, 2, deflateSync(Buffer.alloc(6)), [pngChunk('acTL', Buffer.from([0, 0, 0, 2, 0, 0, 0, 0]))])],
    ] as const) {
      const problem = await problemOf(() => normalizeImage(type, bytes, limits));
      assert.deepEqual([problem.status, problem.code, problem.issues?.[0]?.path], [400, 'animated_image', 'body'], type);
    }
    const png = await images.png();
    for (const bytes of [
      png.subarray(0, png.length - 30),
      pngWith(100, 100, deflateSync(Buffer.alloc(50))),
      pngWith(0, 5, deflateSync(Buffer.alloc(5))),
    ]) {
      const problem = await problemOf(() => normalizeImage('image/png', bytes, limits));
      assert.deepEqual([problem.status, problem.code], [400, 'invalid_image']);
    }
  });
});

describe('fonts: parsed on a worker thread with limits', () => {
  test('TrueType, CFF and WOFF2 fonts report their family and weight', async () => {
    const ttf = await checkFont('font/ttf', await fonts.ttf());
    assert.deepEqual([ttf.outlines, ttf.weight], ['truetype', 400]);
    assert.match(ttf.family, /^Space Grotesk/);
    assert.ok(ttf.glyphs > 100 && ttf.characters > 100);
    const otf = await checkFont('font/otf', fonts.otf());
    assert.deepEqual([otf.family, otf.outlines, otf.weight], ['Source Code Pro', 'cff', 400]);
    const bold = await checkFont('font/woff2', fonts.woff2Bold());
    assert.equal(bold.weight, 700);
  });

  test('random bytes, truncations and a font without glyphs are invalid_font naming the body', async () => {
    const ttf = await fonts.ttf();
    for (const [type, bytes] of [
      ['font/ttf', Buffer.concat([Buffer.from([0, 1, 0, 0]), noise(3000)])],
      ['font/otf', Buffer.concat([Buffer.from('OTTO'), noise(3000, 2)])],
      ['font/woff2', Buffer.concat([Buffer.from('wOF2'), noise(3000, 3)])],
      ['font/ttf', ttf.subarray(0, 2000)],
      ['font/woff2', fonts.woff2().subarray(0, 3000)],
      ['font/ttf', withNumGlyphs(ttf, 1)],
    ] as const) {
      const problem = await problemOf(() => checkFont(type, bytes));
      assert.deepEqual([problem.status, problem.code, problem.issues?.[0]?.path], [400, 'invalid_font', 'body'], problem.detail);
    }
  });

  test('a check past its CPU budget or its memory ends its thread, not the process; one the machine starved is 503', async () => {
    const ttf = await fonts.ttf();
    // Loading fontkit alone takes more than 1 ms of the thread's CPU: the font is refused, whenever the thread answers.
    const costly = await problemOf(() => checkFont('font/ttf', ttf, { cpuBudgetMs: 1 }));
    assert.equal(costly.code, 'invalid_font');
    assert.match(costly.detail ?? '', /more than 1 ms of CPU/);
    // Out of time on the clock within its CPU budget: the machine's fault, to try again (not the font's).
    const starvedOfCpu = await problemOf(() => checkFont('font/ttf', ttf, { wallLimitMs: 1 }));
    assert.equal(starvedOfCpu.code, 'overloaded');
    assert.equal(starvedOfCpu.status, 503);
    const starved = await problemOf(() =>
      checkFont('font/ttf', ttf, { resourceLimits: { maxOldGenerationSizeMb: 1, maxYoungGenerationSizeMb: 1 } }),
    );
    assert.equal(starved.code, 'invalid_font');
    // And the next check works.
    assert.equal((await checkFont('font/ttf', ttf)).weight, 400);
  });
});
