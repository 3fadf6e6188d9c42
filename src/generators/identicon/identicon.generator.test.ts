import { test } from 'node:test';
import assert from 'node:assert/strict';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { renderFrameForTest } from '../../../test/unit/generators/render-for-test.ts';
import gen from './identicon.generator.ts';

function distinctColors(pixels: Uint8ClampedArray): number {
  const seen = new Set<number>();
  for (let i = 0; i < pixels.length; i += 4) seen.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
  return seen.size;
}

// Both packages are CommonJS; under NodeNext the default import is module.exports, whose
// `.default` is the class / plugin both at type level and at run time.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

function validator() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('color', /^#[0-9a-fA-F]{6}$/);
  return ajv.compile(gen.paramSchema);
}

test('identicon: contract fields', () => {
  assert.equal(gen.slug, 'identicon');
  assert.equal(gen.version, '1.1.0');
  assert.equal(gen.animated, false);
  assert.deepEqual([...gen.formats], ['png', 'webp', 'jpeg', 'svg']);
  assert.equal(typeof gen.svg, 'function');
});

test('identicon: defaults validate against the schema and every property is documented', () => {
  const validate = validator();
  assert.ok(validate(gen.defaults), JSON.stringify(validate.errors));
  assert.equal(gen.paramSchema.additionalProperties, false);
  for (const [key, prop] of Object.entries(gen.paramSchema.properties)) {
    assert.ok(prop.title && prop.description, `${key} needs title and description`);
    assert.deepEqual(prop.default, (gen.defaults as Record<string, unknown>)[key], `${key} default`);
    if (prop.type === 'number' || prop.type === 'integer') assert.ok('minimum' in prop && 'maximum' in prop, key);
  }
  assert.ok(!validate({ ...gen.defaults, grid: 9 }));
  assert.ok(!validate({ ...gen.defaults, name: 'x'.repeat(65) }));
  assert.ok(!validate({ ...gen.defaults, extra: 1 }));
});

test('identicon: same seed gives identical pixels', () => {
  const a = renderFrameForTest(gen, { seed: 42 });
  const b = renderFrameForTest(gen, { seed: 42 });
  assert.deepEqual(a.pixels, b.pixels);
});

test('identicon: different seeds and different names give different pictures', () => {
  const a = renderFrameForTest(gen, { seed: 1 });
  const b = renderFrameForTest(gen, { seed: 2 });
  assert.notDeepEqual(a.pixels, b.pixels);
  const c = renderFrameForTest(gen, { seed: 1, params: { name: 'alice' } });
  const d = renderFrameForTest(gen, { seed: 1, params: { name: 'bob' } });
  assert.notDeepEqual(a.pixels, c.pixels);
  assert.notDeepEqual(c.pixels, d.pixels);
});

test('identicon: not blank, opaque by default, two main colours', () => {
  const { pixels } = renderFrameForTest(gen, { seed: 7, width: 64, height: 64 });
  for (let i = 3; i < pixels.length; i += 4) assert.equal(pixels[i], 255);
  assert.ok(distinctColors(pixels) >= 2);
  // A pale tinted ground by default; the Background colour covers the corners when tinting is off.
  assert.ok(Math.min(pixels[0], pixels[1], pixels[2]) > 200, 'the tinted ground is pale');
  const plain = renderFrameForTest(gen, { seed: 7, width: 64, height: 64, params: { tinted: false } });
  assert.deepEqual([...plain.pixels.slice(0, 3)], [0xf2, 0xf2, 0xf5]);
});

test('identicon: a wide canvas keeps the glyph large and centred, with a frieze of copies beside it', () => {
  const svg = gen.svg!({ params: gen.defaults, seed: 3, width: 1200, height: 630, pixelRatio: 1, random: () => 0 });
  const fills = [...svg.matchAll(/fill="(#[0-9a-f]{6})"/g)].map((m) => m[1]);
  assert.equal(new Set(fills).size, 3, 'ground, frieze and glyph colours');
  const square = gen.svg!({ params: gen.defaults, seed: 3, width: 256, height: 256, pixelRatio: 1, random: () => 0 });
  assert.equal(new Set([...square.matchAll(/fill="(#[0-9a-f]{6})"/g)].map((m) => m[1])).size, 2, 'a square avatar has no frieze');
});

test('identicon: the pattern is mirror-symmetric', () => {
  for (const seed of [3, 99, 12345]) {
    for (const grid of [4, 5, 8]) {
      const { pixels, width, height } = renderFrameForTest(gen, { seed, width: 80, height: 80, params: { grid, padding: 0 } });
      for (let y = 0; y < height; y += 3) {
        for (let x = 0; x < width / 2; x += 3) {
          const i = (y * width + x) * 4;
          const j = (y * width + (width - 1 - x)) * 4;
          assert.deepEqual([...pixels.slice(i, i + 3)], [...pixels.slice(j, j + 3)], `seed ${seed} grid ${grid} at ${x},${y}`);
        }
      }
    }
  }
});

test('identicon: every cell shape and the rounded background render', () => {
  for (const cellShape of ['square', 'rounded', 'circle'] as const) {
    const { pixels } = renderFrameForTest(gen, { seed: 5, params: { cellShape, rounded: true } });
    assert.ok(distinctColors(pixels) >= 2, cellShape);
    assert.equal(pixels[3], 0, 'rounded corner is transparent');
  }
});

test('identicon: svg is a standalone document with the same colours', () => {
  const svg = gen.svg!({ params: gen.defaults, seed: 42, width: 120, height: 100, pixelRatio: 1, random: () => 0 });
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="120" height="100" viewBox="0 0 120 100">/);
  assert.ok(svg.endsWith('</svg>'));
  assert.ok(!/href|url\(|<text|<image/.test(svg));
  assert.ok(!/\d\.\d{3,}/.test(svg), 'numbers have at most 2 decimals');
  assert.ok(
    gen.svg!({ params: { ...gen.defaults, tinted: false }, seed: 42, width: 120, height: 100, pixelRatio: 1, random: () => 0 }).includes(
      'fill="#f2f2f5"',
    ),
  );
  assert.match(svg, /<path d="M[^"]+" fill="#[0-9a-f]{6}"\/>/);
  const again = gen.svg!({ params: gen.defaults, seed: 42, width: 120, height: 100, pixelRatio: 1, random: () => 0 });
  assert.equal(svg, again);
  for (const cellShape of ['rounded', 'circle'] as const) {
    const s = gen.svg!({
      params: { ...gen.defaults, cellShape, rounded: true },
      seed: 42,
      width: 64,
      height: 64,
      pixelRatio: 1,
      random: () => 0,
    });
    assert.match(s, cellShape === 'circle' ? /<circle / : /<rect x=/);
    assert.match(s, /rx="/);
  }
});
