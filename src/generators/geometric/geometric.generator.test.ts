import { test } from 'node:test';
import assert from 'node:assert/strict';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { renderFrameForTest } from '../../../test/unit/generators/render-for-test.ts';
import type { RenderInput } from '../generator.types.ts';
import gen, { PATTERNS } from './geometric.generator.ts';

// Both packages are CommonJS; under NodeNext the default import is module.exports, whose
// `.default` is the class / plugin both at type level and at run time.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

type Params = typeof gen.defaults;

function distinctColors(pixels: Uint8ClampedArray): number {
  const seen = new Set<number>();
  for (let i = 0; i < pixels.length; i += 4) seen.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
  return seen.size;
}

function validator() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('color', /^#[0-9a-fA-F]{6}$/);
  return ajv.compile(gen.paramSchema);
}

function input(seed: number, params: Partial<Params> = {}, width = 320, height = 180): RenderInput<Params> {
  return { params: { ...gen.defaults, ...params }, seed, width, height, pixelRatio: 1, random: () => 0 };
}

test('geometric: contract fields', () => {
  assert.equal(gen.slug, 'geometric');
  assert.equal(gen.version, '1.2.0');
  assert.equal(gen.animated, false);
  assert.deepEqual([...gen.formats], ['png', 'webp', 'jpeg', 'svg', 'css']);
  assert.equal(typeof gen.svg, 'function');
  assert.equal(typeof gen.css, 'function');
});

test('geometric: defaults validate against the schema and every property is documented', () => {
  const validate = validator();
  assert.ok(validate(gen.defaults), JSON.stringify(validate.errors));
  assert.equal(gen.paramSchema.additionalProperties, false);
  for (const [key, prop] of Object.entries(gen.paramSchema.properties)) {
    assert.ok(prop.title && prop.description, `${key} needs title and description`);
    assert.deepEqual(prop.default, (gen.defaults as Record<string, unknown>)[key], `${key} default`);
    if (prop.type === 'number' || prop.type === 'integer') assert.ok('minimum' in prop && 'maximum' in prop, key);
  }
  assert.ok(!validate({ ...gen.defaults, pattern: 'stars' }));
  assert.ok(!validate({ ...gen.defaults, size: 4 }));
  assert.ok(!validate({ ...gen.defaults, palette: ['#ffffff'] }));
});

for (const pattern of PATTERNS) {
  test(`geometric/${pattern}: deterministic, seed-dependent, opaque and colourful`, () => {
    const a = renderFrameForTest(gen, { seed: 42, params: { pattern } });
    const b = renderFrameForTest(gen, { seed: 42, params: { pattern } });
    assert.deepEqual(a.pixels, b.pixels);
    const c = renderFrameForTest(gen, { seed: 43, params: { pattern } });
    assert.notDeepEqual(a.pixels, c.pixels);
    for (let i = 3; i < a.pixels.length; i += 4) assert.equal(a.pixels[i], 255);
    assert.ok(distinctColors(a.pixels) >= 4, `${pattern}: ${distinctColors(a.pixels)} colours`);
  });

  test(`geometric/${pattern}: renders at pixelRatio 2 and with no gap`, () => {
    const r = renderFrameForTest(gen, { seed: 3, params: { pattern, gap: 0, size: 12 }, pixelRatio: 2 });
    assert.equal(r.width, 192);
    assert.ok(distinctColors(r.pixels) >= 4);
  });

  test(`geometric/${pattern}: svg is a standalone document`, () => {
    const svg = gen.svg!(input(42, { pattern }));
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="320" height="180" viewBox="0 0 320 180">/);
    assert.ok(svg.endsWith('</svg>'));
    assert.ok(!/href|url\(|<text|<image/.test(svg));
    assert.ok(!/\d\.\d{3,}/.test(svg), 'numbers have at most 2 decimals');
    assert.ok(svg.includes(`fill="${gen.defaults.background}"`));
    assert.equal(svg, gen.svg!(input(42, { pattern })));
    assert.notEqual(svg, gen.svg!(input(43, { pattern })));
  });

  test(`geometric/${pattern}: css is a self-contained stylesheet built from gradients`, () => {
    const css = gen.css!(input(42, { pattern }));
    assert.match(css, /\.svc-geometric \{/);
    assert.match(css, /--svc-geometric-size: 48px;/);
    assert.match(css, new RegExp(`--svc-geometric-bg: ${gen.defaults.background};`));
    gen.defaults.palette.forEach((c, i) => assert.ok(css.includes(`--svc-geometric-c${i + 1}: ${c};`)));
    assert.match(css, /background-image:\s*(linear|conic|radial)-gradient\(/);
    assert.ok(!/url\(/.test(css));
    // Balanced braces and parentheses, and as many positions as image layers.
    assert.equal((css.match(/\{/g) ?? []).length, (css.match(/\}/g) ?? []).length);
    assert.equal((css.match(/\(/g) ?? []).length, (css.match(/\)/g) ?? []).length);
    const images = css.match(/background-image:([\s\S]*?);/)![1];
    const positions = css.match(/background-position:([\s\S]*?);/)![1];
    const layers = (images.match(/-gradient\(/g) ?? []).length;
    assert.ok(layers >= 4);
    assert.equal(positions.split(',').length, layers);
    // Every colour reference is a declared custom property.
    for (const m of css.matchAll(/var\((--[\w-]+)\)/g)) assert.ok(css.includes(`${m[1]}:`), m[1]);
    assert.equal(css, gen.css!(input(42, { pattern })));
  });
}

test('geometric/auto: the seed picks the shape and the scale; every tile is faceted', () => {
  const shapeOf = (seed: number) => gen.css!(input(seed)).match(/Geometric pattern \((\w+)\)/)![1];
  assert.equal(new Set([0, 1, 2, 3].map(shapeOf)).size, 4, 'four seeds in a block show all four shapes');
  assert.equal(new Set([1, 2, 3].map((seed) => gen.css!(input(seed)).match(/--svc-geometric-size: (\d+)px/)![1])).size > 1, true);
  for (const pattern of PATTERNS) {
    const svg = gen.svg!(input(7, { pattern }));
    const fills = new Set([...svg.matchAll(/<g fill="(#[0-9a-f]{6})"/g)].map((m) => m[1]));
    assert.ok(
      [...fills].some((f) => !gen.defaults.palette.includes(f)),
      `${pattern}: lit or shaded facets`,
    );
    assert.match(gen.css!(input(7, { pattern })), /--svc-geometric-l1: color-mix\(in srgb,var\(--svc-geometric-c1\) 84%,#fff\);/);
  }
});
