// Every format carries its recipe: rendered through the engine (worker, real sharp and FFmpeg), the
// file's own metadata holds the recipe, extract() reads it back, and decoders still open the file.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { loadConfig } from '../config/config.ts';
import { ALL_GENERATORS } from '../generators/index.ts';
import { createRenderEngine, type RenderEngine } from '../services/render-engine.factory.ts';
import { resolveFfmpeg } from './ffmpeg.ts';
import { GIF_MAX_FPS, gifFramePlan } from './encoders.ts';
import { RECIPE_PNG_KEYWORD, embed, extract } from './recipe-metadata.ts';
import type { OutputFormat } from '../lib/formats.ts';
import { ENGINE_VERSION } from './versions.ts';

const run = promisify(execFile);
const ffmpeg = resolveFfmpeg(process.env.FFMPEG_PATH)!.path;
let engine: RenderEngine;
before(async () => {
  engine = await createRenderEngine({
    ffmpegPath: loadConfig(process.env).ffmpegPath,
    // No time limit to race (2^31 − 1 ms, a timer's longest): the files are tested, not a deadline (a gif
    // took over 60 s at load 19).
    render: { workers: 2, queueLimit: 100, timeoutMs: 2 ** 31 - 1, animationBudgetMs: 2 ** 31 - 1 },
  });
});
after(() => engine?.close());

async function renderFile(format: OutputFormat, params: Record<string, unknown> = {}) {
  const gen = ALL_GENERATORS.find((g) => g.formats.includes(format) && (g.animated || (format !== 'gif' && format !== 'mp4')))!;
  const resolved = engine.service.resolve(gen.slug, {
    format,
    seed: 11,
    size: { width: 96, height: 64 },
    params: gen.animated ? { duration: 1, fps: 10, ...params } : {},
  });
  const { bytes } = await engine.service.render(resolved, { mode: 'job' });
  return { bytes, resolved };
}

/** The frames FFmpeg decodes from a file (one framemd5 line each). */
async function decodedFrames(file: Buffer, format: 'gif' | 'mp4'): Promise<number> {
  const child = run(ffmpeg, [
    '-v',
    'error',
    '-f',
    format === 'gif' ? 'gif' : 'mp4',
    '-i',
    'pipe:0',
    '-vsync',
    'passthrough',
    '-f',
    'framemd5',
    '-',
  ]);
  child.child.stdin!.end(file);
  const { stdout } = await child;
  return stdout.split('\n').filter((l) => l && !l.startsWith('#')).length;
}

for (const format of ['png', 'webp', 'jpeg', 'gif', 'mp4', 'svg', 'css'] as const) {
  test(`a ${format} carries its recipe, hash and engine version, and still opens`, async () => {
    const { bytes, resolved } = await renderFile(format);
    assert.deepEqual(extract(bytes), { format, recipe: resolved.encoded, hash: resolved.hash, engineVersion: ENGINE_VERSION });
    if (format === 'png' || format === 'webp' || format === 'jpeg') {
      const meta = await sharp(bytes).metadata();
      assert.equal(meta.format, format);
      assert.deepEqual([meta.width, meta.height], [96, 64]);
      await sharp(bytes).raw().toBuffer(); // decodes
      if (format === 'png') {
        const text = meta.comments?.find((c) => c.keyword === RECIPE_PNG_KEYWORD)?.text;
        assert.ok(text?.includes(resolved.encoded), 'libpng reads the iTXt chunk');
      } else if (format === 'webp') {
        assert.ok(meta.xmp?.toString('utf8').includes(resolved.encoded), 'libwebp reads the XMP chunk');
      } else {
        // SOI, JFIF's APP0, then the COM segment with the recipe's text.
        assert.equal(bytes.toString('latin1', 6, 11), 'JFIF\0');
        assert.deepEqual([...bytes.subarray(20, 22)], [0xff, 0xfe]);
        assert.ok(bytes.toString('latin1', 24, 24 + bytes.readUInt16BE(22) - 2).startsWith('{"engineVersion"'));
      }
    }
    if (format === 'mp4') assert.equal(await decodedFrames(bytes, format), resolved.frames);
    if (format === 'gif') assert.ok((await decodedFrames(bytes, format)) > 0);
    if (format === 'svg') assert.match(bytes.toString('utf8'), /^[\s\S]*<svg\b[^>]*><metadata id="render-service-recipe">/);
    if (format === 'css') assert.ok(bytes.toString('utf8').startsWith('/* render-service:recipe {'));
  });
}

test('the same recipe gives the same bytes, metadata included', async () => {
  for (const format of ['png', 'webp', 'jpeg', 'gif', 'mp4'] as const) {
    const [a, b] = await Promise.all([renderFile(format), renderFile(format)]);
    assert.ok(a.bytes.equals(b.bytes), format);
  }
});

test('a gif plays at most GIF_MAX_FPS: a 24 fps recipe keeps every second frame, mp4 keeps all', async () => {
  assert.deepEqual(gifFramePlan(24, 6), { fps: 12, frames: [0, 2, 4] });
  assert.deepEqual(gifFramePlan(GIF_MAX_FPS, 3), { fps: GIF_MAX_FPS, frames: [0, 1, 2] });
  assert.deepEqual(gifFramePlan(30, 5), { fps: 15, frames: [0, 2, 4] });
  const gif = await renderFile('gif', { fps: 24 });
  assert.equal(gif.resolved.frames, 24);
  // The same 12 frames as a 12 fps recipe of the same second (FFmpeg's gif demuxer may merge a frame that does not change).
  const at12 = await renderFile('gif', { fps: 12 });
  assert.equal(await decodedFrames(gif.bytes, 'gif'), await decodedFrames(at12.bytes, 'gif'));
  assert.equal(
    JSON.parse(Buffer.from(extract(gif.bytes)!.recipe, 'base64url').toString('utf8')).params.fps,
    24,
    'the recipe keeps its fps',
  );
  const mp4 = await renderFile('mp4', { fps: 24 });
  assert.equal(await decodedFrames(mp4.bytes, 'mp4'), 24);
});

test('a file without a recipe, or not a file of ours, gives undefined', async () => {
  const plain = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#123456' } })
    .png()
    .toBuffer();
  assert.equal(extract(plain), undefined);
  assert.equal(extract(await sharp(plain).webp().toBuffer()), undefined);
  assert.equal(extract(await sharp(plain).jpeg().toBuffer()), undefined);
  assert.equal(extract(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>')), undefined);
  assert.equal(extract(Buffer.from('body { color: red }')), undefined);
  assert.equal(extract(Buffer.alloc(0)), undefined);
  // A truncated png: no exception, no recipe.
  const meta = { recipe: 'e30', hash: 'a'.repeat(64), engineVersion: ENGINE_VERSION };
  const embedded = embed('png', plain, meta);
  assert.equal(extract(embedded)?.recipe, 'e30');
  assert.equal(extract(embedded.subarray(0, 40)), undefined);
});

test('a recipe of the largest allowed length fits every format', async () => {
  const meta = { recipe: 'A'.repeat(16_384), hash: 'b'.repeat(64), engineVersion: ENGINE_VERSION };
  const png = await sharp({ create: { width: 3, height: 5, channels: 4, background: '#12345680' } })
    .png()
    .toBuffer();
  const webp = await sharp(png).webp().toBuffer();
  const webpLossless = await sharp(png).webp({ lossless: true }).toBuffer();
  const gif = await sharp(png).gif().toBuffer();
  const jpeg = await sharp(png).jpeg().toBuffer();
  for (const [format, bytes] of [
    ['png', png],
    ['webp', webp],
    ['webp', webpLossless],
    ['jpeg', jpeg],
    ['gif', gif],
  ] as const) {
    const out = embed(format, bytes, meta);
    assert.equal(extract(out)?.recipe, meta.recipe, format);
    if (format !== 'gif') assert.deepEqual((await sharp(out).metadata()).width, 3, `${format} still opens`);
    else assert.ok((await decodedFrames(out, 'gif')) > 0);
  }
});

test('a jpeg recipe longer than one segment holds is split over COM segments in a row and read back whole', async () => {
  const meta = { recipe: 'B'.repeat(150_000), hash: 'c'.repeat(64), engineVersion: ENGINE_VERSION };
  const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
    .jpeg()
    .toBuffer();
  const out = embed('jpeg', jpeg, meta);
  let comments = 0;
  for (let at = out.indexOf(Buffer.from([0xff, 0xfe])); at >= 0; at = out.indexOf(Buffer.from([0xff, 0xfe]), at + 2)) comments++;
  assert.equal(comments, 3);
  assert.equal(extract(out)?.recipe, meta.recipe);
  assert.deepEqual((await sharp(out).metadata()).width, 8, 'still opens');
  assert.equal(extract(out.subarray(0, 100)), undefined, 'truncated: no recipe, no exception');
});
