import { test } from 'node:test';
import assert from 'node:assert/strict';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { renderFrameForTest } from '../lib/render-for-test.ts';
import gen from './starfield.generator.ts';

// Both packages are CommonJS; under NodeNext the default import is module.exports, whose
// `.default` is the class / plugin both at type level and at run time.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

function distinctColors(pixels: Uint8ClampedArray): number {
  const seen = new Set<number>();
  for (let i = 0; i < pixels.length; i += 4) seen.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
  return seen.size;
}

function meanAbsDiff(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  assert.equal(a.length, b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}

function validator() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('color', /^#[0-9a-fA-F]{6}$/);
  return ajv.compile(gen.paramSchema);
}

const frames = gen.animation!(gen.defaults).frames;

test('starfield: contract fields', () => {
  assert.equal(gen.slug, 'starfield');
  assert.equal(gen.version, '1.0.0');
  assert.equal(gen.animated, true);
  assert.deepEqual([...gen.formats], ['gif', 'mp4', 'png', 'webp']);
  assert.equal(typeof gen.animation, 'function');
});

test('starfield: defaults validate against the schema and every property is documented', () => {
  const validate = validator();
  assert.ok(validate(gen.defaults), JSON.stringify(validate.errors));
  assert.equal(gen.paramSchema.additionalProperties, false);
  for (const [key, prop] of Object.entries(gen.paramSchema.properties)) {
    assert.ok(prop.title && prop.description, `${key} needs title and description`);
    assert.deepEqual(prop.default, (gen.defaults as Record<string, unknown>)[key], `${key} default`);
    if (prop.type === 'number' || prop.type === 'integer') assert.ok('minimum' in prop && 'maximum' in prop, key);
  }
  assert.ok(!validate({ ...gen.defaults, fps: 60 }));
  assert.ok(!validate({ ...gen.defaults, fps: 24.5 }));
  assert.ok(!validate({ ...gen.defaults, duration: 11 }));
  assert.ok(!validate({ ...gen.defaults, unknown: true }));
});

test('starfield: animation spec is bounded and follows fps x duration', () => {
  assert.deepEqual(gen.animation!(gen.defaults), { fps: 24, frames: 72 });
  const validate = validator();
  for (const fps of [10, 24, 30]) {
    for (const duration of [1, 2.5, 10]) {
      const params = { ...gen.defaults, fps, duration };
      assert.ok(validate(params));
      const spec = gen.animation!(params);
      assert.equal(spec.fps, fps);
      assert.equal(spec.frames, Math.round(fps * duration));
      assert.ok(spec.frames >= 10 && spec.frames <= 300);
    }
  }
});

test('starfield: same seed gives identical pixels, even when frames are rendered out of order', () => {
  const a = renderFrameForTest(gen, { seed: 42, frame: 5 });
  renderFrameForTest(gen, { seed: 42, frame: 40 });
  renderFrameForTest(gen, { seed: 9, frame: 5 });
  const b = renderFrameForTest(gen, { seed: 42, frame: 5 });
  assert.deepEqual(a.pixels, b.pixels);
});

test('starfield: a different seed gives a different picture', () => {
  const a = renderFrameForTest(gen, { seed: 1 });
  const b = renderFrameForTest(gen, { seed: 2 });
  assert.notDeepEqual(a.pixels, b.pixels);
});

test('starfield: not blank and fully opaque', () => {
  const { pixels } = renderFrameForTest(gen, { seed: 7, frame: 10 });
  for (let i = 3; i < pixels.length; i += 4) assert.equal(pixels[i], 255);
  assert.ok(distinctColors(pixels) >= 16, `only ${distinctColors(pixels)} colours`);
});

test('starfield: it moves, and the loop is seamless', () => {
  const f0 = renderFrameForTest(gen, { seed: 11, frame: 0 });
  const f1 = renderFrameForTest(gen, { seed: 11, frame: 1 });
  const mid = renderFrameForTest(gen, { seed: 11, frame: Math.floor(frames / 2) });
  const end = renderFrameForTest(gen, { seed: 11, frame: frames });
  assert.notDeepEqual(f0.pixels, f1.pixels);
  assert.ok(meanAbsDiff(f0.pixels, mid.pixels) > 1, 'the middle of the loop looks different');
  const seam = meanAbsDiff(f0.pixels, end.pixels);
  assert.ok(seam < 0.25, `frame ${frames} should equal frame 0 (mean abs diff ${seam})`);
  // The step across the seam is no bigger than an ordinary step between neighbouring frames.
  const last = renderFrameForTest(gen, { seed: 11, frame: frames - 1 });
  assert.ok(meanAbsDiff(last.pixels, f0.pixels) < meanAbsDiff(f0.pixels, f1.pixels) * 3 + 1);
});

test('starfield: seamless for other loop settings too', () => {
  for (const params of [{ speed: 4, trail: 1 }, { fps: 10, duration: 1.05, trail: 0 }]) {
    const p = { ...gen.defaults, ...params };
    const n = gen.animation!(p).frames;
    const f0 = renderFrameForTest(gen, { seed: 5, params: p, frame: 0 });
    const end = renderFrameForTest(gen, { seed: 5, params: p, frame: n });
    assert.ok(meanAbsDiff(f0.pixels, end.pixels) < 0.25, JSON.stringify(params));
  }
});

test('starfield: renders at pixelRatio 2 and at a wide size', () => {
  const hi = renderFrameForTest(gen, { seed: 3, pixelRatio: 2, frame: 3 });
  assert.equal(hi.width, 192);
  assert.equal(hi.height, 128);
  assert.ok(distinctColors(hi.pixels) >= 16);
  const wide = renderFrameForTest(gen, { seed: 3, width: 200, height: 40, frame: 3 });
  assert.ok(distinctColors(wide.pixels) >= 16);
});

test('starfield: more stars make a brighter sky', () => {
  const lum = (px: Uint8ClampedArray) => px.reduce((s, v, i) => (i % 4 === 3 ? s : s + v), 0);
  const few = renderFrameForTest(gen, { seed: 4, params: { stars: 50, nebula: 0 }, frame: 6 });
  const many = renderFrameForTest(gen, { seed: 4, params: { stars: 2000, nebula: 0 }, frame: 6 });
  assert.ok(lum(many.pixels) > lum(few.pixels));
});
