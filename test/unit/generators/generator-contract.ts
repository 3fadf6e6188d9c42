// The tests every generator must pass, shared by the colocated generator tests: contract fields,
// a documented and strict paramSchema, determinism, seed sensitivity, opaque non-blank pictures,
// params across their ranges, pixel ratio 2, and (when offered) standalone svg and usable css.
// Animated generators also: a bounded fps × duration spec, frames independent of render order,
// motion, and a seamless loop. A generator's own test file adds what is special about it.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { GeneratorDefinition, RenderInput } from '../../../src/generators/generator.types.ts';
import { mulberry32 } from '../../../src/generators/lib/random.ts';
import { pixelsFrameForTest, renderFrameForTest } from './render-for-test.ts';

// Both packages are CommonJS; under NodeNext the default import is module.exports.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

type AnyGenerator = GeneratorDefinition<Record<string, unknown>>;

export function distinctColors(pixels: Uint8ClampedArray): number {
  const seen = new Set<number>();
  for (let i = 0; i < pixels.length; i += 4) seen.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
  return seen.size;
}

export function meanAbsDiff(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  assert.equal(a.length, b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}

export function paramValidator(gen: { paramSchema: object }) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('color', /^#[0-9a-fA-F]{6}$/);
  // An annotation for forms: a text param whose value may hold line breaks (a textarea).
  ajv.addKeyword({ keyword: 'x-multiline', schemaType: 'boolean' });
  return ajv.compile(gen.paramSchema);
}

export function renderInput<P>(gen: { defaults: P }, seed: number, params: Partial<P> = {}, width = 320, height = 180): RenderInput<P> {
  return { params: { ...gen.defaults, ...params }, seed, width, height, pixelRatio: 1, random: mulberry32(seed) };
}

function schemaIsDocumented(gen: AnyGenerator, invalid: ReadonlyArray<Record<string, unknown>>): void {
  const validate = paramValidator(gen);
  assert.ok(validate(gen.defaults), JSON.stringify(validate.errors));
  assert.equal(gen.paramSchema.type, 'object');
  assert.equal(gen.paramSchema.additionalProperties, false);
  assert.deepEqual(Object.keys(gen.paramSchema.properties).sort(), Object.keys(gen.defaults).sort());
  for (const [key, prop] of Object.entries(gen.paramSchema.properties)) {
    assert.ok(prop.title && prop.description, `${key} needs title and description`);
    assert.deepEqual(prop.default, gen.defaults[key], `${key} default`);
    if (prop.type === 'number' || prop.type === 'integer') assert.ok('minimum' in prop && 'maximum' in prop, key);
  }
  for (const bad of invalid) assert.ok(!validate({ ...gen.defaults, ...bad }), `${JSON.stringify(bad)} must be refused`);
  assert.ok(!validate({ ...gen.defaults, unknownParam: 1 }));
}

function vectorForms(gen: AnyGenerator): void {
  if (gen.svg) {
    test(`${gen.slug}: svg is a compact, standalone, deterministic document`, () => {
      const a = gen.svg!(renderInput(gen, 9));
      assert.equal(a, gen.svg!(renderInput(gen, 9)));
      assert.ok(a.startsWith('<svg'));
      assert.ok(a.includes('xmlns="http://www.w3.org/2000/svg"'));
      assert.ok(a.includes('viewBox="0 0 320 180"'));
      assert.ok(a.endsWith('</svg>'));
      assert.ok(!/undefined|NaN|Infinity/.test(a));
      assert.ok(!/\d\.\d{3,}/.test(a), 'numbers rounded to 2 decimals');
      assert.ok(!/href="(?!#)|url\((?!#)/.test(a), 'no external references');
      assert.notEqual(gen.svg!(renderInput(gen, 10)), a);
    });
  }
  if (gen.css) {
    test(`${gen.slug}: css is a usable stylesheet with the class and custom properties, deterministic`, () => {
      const a = gen.css!(renderInput(gen, 3));
      assert.equal(a, gen.css!(renderInput(gen, 3)));
      assert.ok(a.includes(`.svc-${gen.slug} {`), 'has the class');
      assert.match(a, /--svc-[a-z0-9-]+:\s*[^;]+;/);
      assert.match(a, /var\(--svc-[a-z0-9-]+\)/);
      assert.ok(!/undefined|NaN/.test(a));
      let depth = 0;
      for (const ch of a) {
        if (ch === '{') depth++;
        if (ch === '}') depth--;
        assert.ok(depth >= 0);
      }
      assert.equal(depth, 0, 'balanced braces');
    });
  }
}

export interface StillContract<P> {
  /** Param values the schema must refuse. */
  invalid: ReadonlyArray<Partial<Record<keyof P, unknown>>>;
  /** Valid params across their ranges; each must render. */
  variants: ReadonlyArray<Partial<P>>;
}

/** A generator with pixels() hands the engine exactly what its draw() leaves on a canvas, at any size, ratio and frame. */
function pixelsMatchDraw(gen: AnyGenerator): void {
  if (!gen.pixels) return;
  test(`${gen.slug}: pixels() are the bytes draw() leaves on the canvas`, () => {
    const frames = gen.animation?.(gen.defaults).frames ?? 1;
    const cases = [
      { width: 96, height: 64, pixelRatio: 1, frame: 0 },
      { width: 97, height: 61, pixelRatio: 1.5, frame: Math.floor(frames / 3) },
      { width: 33, height: 20, pixelRatio: 2, frame: frames - 1 },
      { width: 320, height: 180, pixelRatio: 1, frame: 1, seed: 5 },
    ];
    for (const c of cases) {
      const drawn = renderFrameForTest(gen, c);
      const direct = pixelsFrameForTest(gen, c);
      assert.equal(direct.length, drawn.width * drawn.height * 4, JSON.stringify(c));
      assert.ok(
        Buffer.from(direct.buffer, direct.byteOffset, direct.byteLength).equals(Buffer.from(drawn.pixels.buffer)),
        JSON.stringify(c),
      );
    }
  });
}

export function stillGeneratorContract<P extends Record<string, unknown>>(
  definition: GeneratorDefinition<P>,
  spec: StillContract<P>,
): void {
  const gen = definition as unknown as AnyGenerator;
  before(() => definition.prepare?.());
  pixelsMatchDraw(gen);
  test(`${gen.slug}: contract fields`, () => {
    assert.match(gen.version, /^\d+\.\d+\.\d+$/);
    assert.equal(gen.animated, false);
    assert.ok(gen.formats.includes('png') && gen.formats.includes('webp') && gen.formats.includes('jpeg'));
    assert.equal(gen.formats.includes('svg'), typeof gen.svg === 'function');
    assert.equal(gen.formats.includes('css'), typeof gen.css === 'function');
  });
  test(`${gen.slug}: defaults validate against the schema and every property is documented`, () =>
    schemaIsDocumented(gen, spec.invalid as never));
  test(`${gen.slug}: same seed gives identical pixels`, () => {
    assert.deepEqual(renderFrameForTest(gen, { seed: 42 }).pixels, renderFrameForTest(gen, { seed: 42 }).pixels);
  });
  test(`${gen.slug}: different seeds give different pixels`, () => {
    assert.notDeepEqual(renderFrameForTest(gen, { seed: 1 }).pixels, renderFrameForTest(gen, { seed: 2 }).pixels);
  });
  test(`${gen.slug}: picture is opaque and not blank`, () => {
    const { pixels } = renderFrameForTest(gen, { seed: 7, width: 128, height: 96 });
    assert.ok(distinctColors(pixels) >= 4, 'several distinct colours');
    for (let i = 3; i < pixels.length; i += 4) assert.equal(pixels[i], 255);
  });
  test(`${gen.slug}: params across their range render, also tiny and at pixel ratio 2`, () => {
    const validate = paramValidator(gen);
    for (const v of spec.variants as ReadonlyArray<Record<string, unknown>>) {
      assert.ok(validate({ ...gen.defaults, ...v }), JSON.stringify(validate.errors));
      assert.ok(distinctColors(renderFrameForTest(gen, { seed: 3, params: v }).pixels) >= 2, JSON.stringify(v));
    }
    assert.equal(renderFrameForTest(gen, { seed: 5, width: 16, height: 16 }).pixels.length, 16 * 16 * 4);
    const hi = renderFrameForTest(gen, { seed: 5, width: 40, height: 30, pixelRatio: 2 });
    assert.deepEqual([hi.width, hi.height], [80, 60]);
    for (let i = 3; i < hi.pixels.length; i += 4) assert.equal(hi.pixels[i], 255);
  });
  vectorForms(gen);
}

export interface AnimatedContract<P> {
  invalid: ReadonlyArray<Partial<Record<keyof P, unknown>>>;
  /** Other settings whose loop must be seamless too. */
  loops: ReadonlyArray<Partial<P>>;
}

export function animatedGeneratorContract<P extends Record<string, unknown>>(
  definition: GeneratorDefinition<P>,
  spec: AnimatedContract<P>,
): void {
  const gen = definition as unknown as AnyGenerator;
  const frames = gen.animation!(gen.defaults).frames;
  pixelsMatchDraw(gen);
  test(`${gen.slug}: contract fields`, () => {
    assert.match(gen.version, /^\d+\.\d+\.\d+$/);
    assert.equal(gen.animated, true);
    assert.ok(['gif', 'mp4', 'png', 'webp', 'jpeg'].every((f) => gen.formats.includes(f as never)));
    assert.equal(typeof gen.animation, 'function');
  });
  test(`${gen.slug}: defaults validate against the schema and every property is documented`, () =>
    schemaIsDocumented(gen, [{ fps: 60 }, { fps: 24.5 }, { duration: 11 }, ...(spec.invalid as never[])]));
  test(`${gen.slug}: animation spec is bounded and follows fps x duration`, () => {
    const validate = paramValidator(gen);
    for (const fps of [10, 24, 30]) {
      for (const duration of [1, 2.5, 10]) {
        const params = { ...gen.defaults, fps, duration };
        assert.ok(validate(params));
        const s = gen.animation!(params);
        assert.equal(s.fps, fps);
        assert.equal(s.frames, Math.round(fps * duration));
        assert.ok(s.frames >= 10 && s.frames <= 300);
      }
    }
  });
  test(`${gen.slug}: same seed gives identical pixels, even when frames are rendered out of order`, () => {
    const a = renderFrameForTest(gen, { seed: 42, frame: 5 });
    renderFrameForTest(gen, { seed: 42, frame: 40 });
    renderFrameForTest(gen, { seed: 9, frame: 5 });
    assert.deepEqual(a.pixels, renderFrameForTest(gen, { seed: 42, frame: 5 }).pixels);
  });
  test(`${gen.slug}: a different seed gives a different picture`, () => {
    assert.notDeepEqual(renderFrameForTest(gen, { seed: 1 }).pixels, renderFrameForTest(gen, { seed: 2 }).pixels);
  });
  test(`${gen.slug}: not blank and fully opaque`, () => {
    const { pixels } = renderFrameForTest(gen, { seed: 7, frame: 10 });
    for (let i = 3; i < pixels.length; i += 4) assert.equal(pixels[i], 255);
    assert.ok(distinctColors(pixels) >= 16, `only ${distinctColors(pixels)} colours`);
  });
  test(`${gen.slug}: it moves, and the loop is seamless`, () => {
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
  test(`${gen.slug}: seamless for other loop settings too`, () => {
    for (const params of spec.loops as ReadonlyArray<Record<string, unknown>>) {
      const p = { ...gen.defaults, ...params };
      const n = gen.animation!(p).frames;
      const f0 = renderFrameForTest(gen, { seed: 5, params: p, frame: 0 });
      const end = renderFrameForTest(gen, { seed: 5, params: p, frame: n });
      assert.ok(meanAbsDiff(f0.pixels, end.pixels) < 0.25, JSON.stringify(params));
    }
  });
  test(`${gen.slug}: renders at pixelRatio 2 and at a wide size`, () => {
    const hi = renderFrameForTest(gen, { seed: 3, pixelRatio: 2, frame: 3 });
    assert.deepEqual([hi.width, hi.height], [192, 128]);
    assert.ok(distinctColors(hi.pixels) >= 16);
    assert.ok(distinctColors(renderFrameForTest(gen, { seed: 3, width: 200, height: 40, frame: 3 }).pixels) >= 16);
  });
}
