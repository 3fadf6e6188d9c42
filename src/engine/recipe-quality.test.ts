// A recipe's `quality` (JPEG's alone): in the canonical recipe, and so the hash, only for jpeg — its
// default written in when none was sent, png's canonical form unchanged —; refused with any other
// format, named by where it came from (a body, a batch item, a recipe URL's `q` or its `r`); and a
// recipe URL's `q` and `format` overrides.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProblemError } from '../errors/problem.ts';
import { ALL_GENERATORS } from '../generators/index.ts';
import { GeneratorRegistry } from '../generators/registry.ts';
import { FORMATS, QUALITY_FORMATS, takesQuality } from '../lib/formats.ts';
import { DEFAULT_JPEG_QUALITY, encodeStill, withJfif } from './encoders.ts';
import { QUALITY_FORMAT_ISSUE, recipePaths, recipeTask, resolveEncodedRecipe, resolveRecipe } from './recipe.ts';

const registry = new GeneratorRegistry(ALL_GENERATORS);
const base = { seed: 5, size: { width: 64, height: 48 } };
const decode = (encoded: string) => JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Record<string, unknown>;

/** The issues of the ProblemError `fn` throws. */
function issuesOf(fn: () => unknown): { code: string; issues: string[] } {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ProblemError, String(err));
    return { code: err.code, issues: (err.issues ?? []).map((i) => `${i.path} ${i.message}`) };
  }
  assert.fail('expected a refusal');
}

test('the formats table: jpeg is a still (image/jpeg, .jpg, priced by pixels) and the only format that takes a quality', () => {
  assert.deepEqual(FORMATS.jpeg, {
    contentType: 'image/jpeg',
    extension: 'jpg',
    kind: 'still',
    cost: 'pixels',
    evenSides: false,
    defaultQuality: DEFAULT_JPEG_QUALITY,
  });
  assert.deepEqual(QUALITY_FORMATS, ['jpeg']);
  assert.equal(takesQuality('png'), false);
  assert.equal(QUALITY_FORMAT_ISSUE, 'is taken only with format jpeg');
});

test('every generator that offers png offers jpeg, its picture the same frame', () => {
  for (const gen of ALL_GENERATORS) assert.equal(gen.formats.includes('jpeg'), gen.formats.includes('png'), gen.slug);
});

test("a jpeg recipe holds its quality (the default when none was sent), and it is hashed; png's canonical form has none", () => {
  const png = resolveRecipe(registry, 'blob', { ...base, format: 'png' });
  assert.equal('quality' in png.recipe, false);
  assert.equal(png.canonicalJson.includes('quality'), false);
  const jpeg = resolveRecipe(registry, 'blob', { ...base, format: 'jpeg' });
  assert.equal(jpeg.recipe.quality, DEFAULT_JPEG_QUALITY);
  assert.equal(decode(jpeg.encoded).quality, DEFAULT_JPEG_QUALITY);
  assert.match(jpeg.canonicalJson, /"format":"jpeg","generator":"blob","params":\{.*\},"quality":82,"seed":5,/);
  const explicit = resolveRecipe(registry, 'blob', { ...base, format: 'jpeg', quality: DEFAULT_JPEG_QUALITY });
  assert.equal(explicit.hash, jpeg.hash, 'the default sent or not: one recipe');
  const other = resolveRecipe(registry, 'blob', { ...base, format: 'jpeg', quality: 60 });
  assert.notEqual(other.hash, jpeg.hash);
  assert.equal(recipeTask(other).quality, 60);
  assert.equal('quality' in recipeTask(png), false);
});

test('a quality with another format, or out of 1–100, is refused naming the field where it was sent', () => {
  assert.deepEqual(
    issuesOf(() => resolveRecipe(registry, 'blob', { ...base, quality: 80 })),
    { code: 'validation_failed', issues: ['body.quality is taken only with format jpeg'] },
    'no format is png',
  );
  assert.deepEqual(
    issuesOf(() => resolveRecipe(registry, 'blob', { ...base, format: 'webp', quality: 80 }, recipePaths('body.items.2'))),
    {
      code: 'validation_failed',
      issues: ['body.items.2.quality is taken only with format jpeg'],
    },
  );
  for (const quality of [0, 101, 80.5])
    assert.deepEqual(issuesOf(() => resolveRecipe(registry, 'blob', { ...base, format: 'jpeg', quality })).issues, [
      'body.quality must be an integer from 1 to 100',
    ]);
});

test("a recipe URL: q overrides a jpeg's quality, a format override away from jpeg leaves it behind, q with another format is refused", () => {
  const jpeg = resolveRecipe(registry, 'blob', { ...base, format: 'jpeg', quality: 70 });
  assert.equal(resolveEncodedRecipe(registry, jpeg.hash, jpeg.encoded).hash, jpeg.hash);
  assert.equal(resolveEncodedRecipe(registry, jpeg.hash, jpeg.encoded, { q: 90 }).recipe.quality, 90);
  const asWebp = resolveEncodedRecipe(registry, jpeg.hash, jpeg.encoded, { format: 'webp' });
  assert.equal(asWebp.hash, resolveRecipe(registry, 'blob', { ...base, format: 'webp' }).hash);
  const png = resolveRecipe(registry, 'blob', { ...base, format: 'png' });
  const asJpeg = resolveEncodedRecipe(registry, png.hash, png.encoded, { format: 'jpeg', q: 70 });
  assert.equal(asJpeg.hash, jpeg.hash);
  assert.equal(resolveEncodedRecipe(registry, png.hash, png.encoded, { format: 'jpeg' }).recipe.quality, DEFAULT_JPEG_QUALITY);
  assert.deepEqual(issuesOf(() => resolveEncodedRecipe(registry, png.hash, png.encoded, { q: 70 })).issues, [
    'query.q is taken only with format jpeg',
  ]);
  // An `r` no service wrote: a png recipe with a quality.
  const odd = Buffer.from(JSON.stringify({ ...decode(png.encoded), quality: 70 })).toString('base64url');
  assert.deepEqual(issuesOf(() => resolveEncodedRecipe(registry, undefined, odd)).issues, [
    'query.r.quality is taken only with format jpeg',
  ]);
  const outOfRange = Buffer.from(JSON.stringify({ ...decode(jpeg.encoded), quality: 0 })).toString('base64url');
  assert.equal(issuesOf(() => resolveEncodedRecipe(registry, undefined, outOfRange)).code, 'invalid_recipe');
});

test('the JPEG encoder: a baseline JFIF file, 4:2:0, whose quality changes the bytes and nothing else does', async () => {
  const width = 48;
  const height = 32;
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) rgba.set([(i * 7) & 255, (i * 3) & 255, (i >> 3) & 255, 255], 4 * i);
  const a = await encodeStill(rgba, width, height, 'jpeg');
  const b = await encodeStill(rgba, width, height, 'jpeg', { quality: DEFAULT_JPEG_QUALITY });
  assert.ok(a.equals(b));
  assert.ok(!a.equals(await encodeStill(rgba, width, height, 'jpeg', { quality: 50 })));
  assert.equal(a.toString('latin1', 6, 11), 'JFIF\0', 'JFIF APP0 right after SOI');
  assert.ok(withJfif(a).equals(a), 'added once');
  // The frame header: SOF0 (baseline), 3 components, luma sampled 2×2 and chroma 1×1 (4:2:0).
  const sof = a.indexOf(Buffer.from([0xff, 0xc0]));
  assert.ok(sof > 0, 'baseline (SOF0), not progressive');
  assert.equal(a.indexOf(Buffer.from([0xff, 0xc2])), -1);
  assert.equal(a[sof + 9], 3);
  assert.deepEqual([a[sof + 11], a[sof + 14], a[sof + 17]], [0x22, 0x11, 0x11]);
});
