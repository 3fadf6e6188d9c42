import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { renderFrameForTest } from '../lib/render-for-test.ts';
import { mulberry32 } from '../lib/random.ts';
import type { RenderInput } from '../generator.types.ts';
import gen from './waves.generator.ts';

type Params = typeof gen.defaults;

function distinctColors(pixels: Uint8ClampedArray): number {
  const seen = new Set<number>();
  for (let i = 0; i < pixels.length; i += 4) seen.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
  return seen.size;
}

function validator() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat('color', /^#[0-9a-fA-F]{6}$/);
  return ajv.compile(gen.paramSchema);
}

function input(seed: number, params: Partial<Params> = {}, width = 320, height = 180): RenderInput<Params> {
  return { params: { ...gen.defaults, ...params }, seed, width, height, pixelRatio: 1, random: mulberry32(seed) };
}

test('waves: contract fields', () => {
  assert.equal(gen.slug, 'waves');
  assert.equal(gen.version, '1.0.0');
  assert.equal(gen.animated, false);
  assert.deepEqual([...gen.formats], ['png',  'webp',  'svg']);
  assert.equal(typeof gen.svg, 'function');
  assert.equal(typeof gen.css, 'undefined');
});

test('waves: defaults validate against the schema and every property is documented', () => {
  const validate = validator();
  assert.ok(validate(gen.defaults), JSON.stringify(validate.errors));
  assert.equal(gen.paramSchema.type, 'object');
  assert.equal(gen.paramSchema.additionalProperties, false);
  assert.deepEqual(Object.keys(gen.paramSchema.properties).sort(), Object.keys(gen.defaults).sort());
  for (const [key, prop] of Object.entries(gen.paramSchema.properties)) {
    assert.ok(prop.title && prop.description, `${key} needs title and description`);
    assert.deepEqual(prop.default, (gen.defaults as Record<string, unknown>)[key], `${key} default`);
    if (prop.type === 'number' || prop.type === 'integer') assert.ok('minimum' in prop && 'maximum' in prop, key);
  }
  assert.ok(!validate({ ...gen.defaults, ...{'layers':  1} }));
  assert.ok(!validate({ ...gen.defaults, extra: 1 }));
});

test('waves: same seed gives identical pixels', () => {
  const a = renderFrameForTest(gen, { seed: 42 });
  const b = renderFrameForTest(gen, { seed: 42 });
  assert.deepEqual(a.pixels, b.pixels);
});

test('waves: different seeds give different pixels', () => {
  const a = renderFrameForTest(gen, { seed: 1 });
  const b = renderFrameForTest(gen, { seed: 2 });
  assert.notDeepEqual(a.pixels, b.pixels);
});

test('waves: picture is opaque and not blank', () => {
  const { pixels } = renderFrameForTest(gen, { seed: 7, width: 128, height: 96 });
  assert.ok(distinctColors(pixels) >= 4, 'several distinct colours');
  for (let i = 3; i < pixels.length; i += 4) assert.equal(pixels[i], 255);
});

test('waves: params across their range render, also tiny and at pixel ratio 2', () => {
  const validate = validator();
  const variants: Array<Partial<Params>> = [{'shape':  'sine',  'layers':  2,  'shadow':  0},  {'layers':  16,  'frequency':  8,  'amplitude':  1,  'horizon':  0.85}];
  for (const v of variants) {
    const params = { ...gen.defaults, ...v };
    assert.ok(validate(params), JSON.stringify(validate.errors));
    const { pixels } = renderFrameForTest(gen, { seed: 3, params: v });
    assert.ok(distinctColors(pixels) >= 2, JSON.stringify(v));
  }
  const tiny = renderFrameForTest(gen, { seed: 5, width: 16, height: 16 });
  assert.equal(tiny.pixels.length, 16 * 16 * 4);
  const hi = renderFrameForTest(gen, { seed: 5, width: 40, height: 30, pixelRatio: 2 });
  assert.equal(hi.width, 80);
  assert.equal(hi.height, 60);
  for (let i = 3; i < hi.pixels.length; i += 4) assert.equal(hi.pixels[i], 255);
});

test('waves: svg is a compact, standalone, deterministic document', () => {
  const a = gen.svg!(input(9));
  const b = gen.svg!(input(9));
  assert.equal(a, b);
  assert.ok(a.startsWith('<svg'));
  assert.ok(a.includes('xmlns="http://www.w3.org/2000/svg"'));
  assert.ok(a.includes('viewBox="0 0 320 180"'));
  assert.ok(a.endsWith('</svg>'));
  assert.ok(!/undefined|NaN|Infinity/.test(a));
  assert.ok(!/\d\.\d{3,}/.test(a), 'numbers rounded to 2 decimals');
  assert.ok(!/href="(?!#)|url\((?!#)/.test(a), 'no external references');
  assert.notEqual(gen.svg!(input(10)), a);
});
