import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { before, describe, test } from 'node:test';
import { ALL_GENERATORS } from '../generators/index.ts';
import { fontRuns } from '../generators/lib/font-coverage.ts';
import { mulberry32 } from '../generators/lib/random.ts';
import { GeneratorRegistry } from '../generators/registry.ts';
import { BLOG_SPEC, fixtureAssets, FONT_ID, LOGO_ID } from '../../test/golden/templates/template-fixtures.ts';
import { checkTemplate } from './check-template.ts';
import { templateGenerator, templateParamIssues } from './compose-template.ts';
import type { TemplateAsset, TemplateLayer, TemplateSpec, TextLayer } from './template.types.ts';
import { setText, textFaceOf } from './template-text.ts';

const generators = new GeneratorRegistry(ALL_GENERATORS);
let assets: Map<string, TemplateAsset>;
before(async () => {
  assets = await fixtureAssets();
  await templateGenerator({ id: 'tpl_x', version: 1, spec: BLOG_SPEC, assets, generators }).prepare!();
});

const GREY = '#808080';
const VARS: TemplateSpec['variables'] = {
  type: 'object',
  properties: { title: { type: 'string', default: 'Hello' }, logo: { type: 'string', default: LOGO_ID } },
};
const spec = (layers: TemplateLayer[], extra: Partial<TemplateSpec> = {}): TemplateSpec => ({
  size: { width: 1200, height: 630 },
  background: GREY,
  variables: VARS,
  layers,
  ...extra,
});

interface RenderOptions {
  width?: number;
  pixelRatio?: number;
  params?: Record<string, unknown>;
  seed?: number;
  frame?: number;
  assets?: ReadonlyMap<string, TemplateAsset>;
}

/** The template's frame as the engine takes it (pixels()). */
function render(s: TemplateSpec, o: RenderOptions = {}) {
  const gen = templateGenerator({ id: 'tpl_test', version: 1, spec: s, assets: o.assets ?? assets, generators });
  const width = o.width ?? 240;
  const height = (width * s.size.height) / s.size.width;
  const pixelRatio = o.pixelRatio ?? 1;
  const params = { ...gen.defaults, ...o.params };
  const anim = gen.animation?.(params) ?? { fps: 1, frames: 1 };
  const frame = o.frame ?? 0;
  const seed = o.seed ?? 42;
  const device = { width: Math.round(width * pixelRatio), height: Math.round(height * pixelRatio) };
  const data = gen.pixels!(
    {
      params,
      seed,
      width,
      height,
      pixelRatio,
      random: mulberry32(seed),
      frame,
      frameCount: anim.frames,
      time: frame / anim.fps,
      loop: frame / anim.frames,
    },
    device,
  );
  const at = (x: number, y: number) => Array.from(data.subarray((y * device.width + x) * 4, (y * device.width + x) * 4 + 3));
  return { data, ...device, at, gen };
}

/** Bounds [x0, y0, x1, y1) of the pixels that differ from the background colour (grey). */
function inkBounds(r: ReturnType<typeof render>) {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -1,
    y1 = -1;
  for (let y = 0; y < r.height; y++)
    for (let x = 0; x < r.width; x++) {
      const [R, G, B] = r.at(x, y);
      if (R === 128 && G === 128 && B === 128) continue;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x + 1);
      y1 = Math.max(y1, y + 1);
    }
  return [x0, y0, x1, y1];
}

const textLayer = (over: Partial<TextLayer> = {}): TextLayer => ({
  id: 't',
  kind: 'text',
  text: '{{title}}',
  box: { x: 100, y: 100, width: 600, height: 300 },
  color: '#ffffff',
  fit: { max: 120, min: 30, maxLines: 3 },
  ...over,
});

describe('templateGenerator', () => {
  test('a template is a generator: its id, version, variables, defaults, formats and animation', () => {
    const still = templateGenerator({ id: 'tpl_abc', version: 3, spec: spec([]), assets, generators });
    assert.equal(still.slug, 'tpl_abc');
    assert.equal(still.version, '3');
    assert.equal(still.animated, false);
    assert.deepEqual(still.formats, ['png', 'webp', 'jpeg']);
    assert.deepEqual(still.defaults, { title: 'Hello', logo: LOGO_ID });
    assert.equal(still.paramSchema, VARS);
    const moving = templateGenerator({
      id: 'tpl_anim',
      version: 1,
      spec: spec([{ id: 'bg', kind: 'generator', slug: 'plasma', params: { duration: 1, fps: 10 } }]),
      assets,
      generators,
    });
    assert.equal(moving.animated, true);
    assert.deepEqual(moving.formats, ['gif', 'mp4', 'png', 'webp', 'jpeg']);
    assert.deepEqual(moving.animation!(moving.defaults), { fps: 10, frames: 10 });
  });

  test('every layer kind at 240×126 from a 1200×630 spec; the same inputs twice give the same bytes', () => {
    const a = render(BLOG_SPEC);
    const b = render(BLOG_SPEC);
    assert.equal(a.width, 240);
    assert.equal(a.height, 126);
    assert.deepEqual(a.data, b.data);
    // Opaque everywhere.
    for (let i = 3; i < a.data.length; i += 4) assert.equal(a.data[i], 255);
    // The background's seed is the layer's own (7): the render's seed does not move it; a variable changes the text.
    assert.deepEqual(render(BLOG_SPEC, { seed: 43 }).data, a.data);
    assert.notDeepEqual(render(BLOG_SPEC, { params: { title: 'Short' } }).data, a.data);
    const unseeded = { ...BLOG_SPEC, layers: BLOG_SPEC.layers.map((l) => (l.kind === 'generator' ? { ...l, seed: undefined } : l)) };
    assert.notDeepEqual(render(unseeded, { seed: 43 }).data, render(unseeded).data, "without its own seed, the render's");
  });

  test('the frames of an animated template move, and each frame is the same however it is reached', () => {
    const s = spec([
      { id: 'bg', kind: 'generator', slug: 'plasma', params: { duration: 1, fps: 10 }, box: { x: 0, y: 0, width: 600, height: 630 } },
      { id: 'title', kind: 'text', text: '{{title}}', box: { x: 650, y: 100, width: 500, height: 200 }, fit: { max: 80 } },
    ]);
    const gen = templateGenerator({ id: 'tpl_anim', version: 1, spec: s, assets, generators });
    const frame = (n: number) =>
      gen.pixels!(
        {
          params: gen.defaults,
          seed: 1,
          width: 240,
          height: 126,
          pixelRatio: 1,
          random: mulberry32(1),
          frame: n,
          frameCount: 10,
          time: n / 10,
          loop: n / 10,
        },
        { width: 240, height: 126 },
      );
    const f0 = Uint8ClampedArray.from(frame(0));
    const f3 = Uint8ClampedArray.from(frame(3));
    assert.notDeepEqual(f0, f3);
    assert.deepEqual(frame(0), f0);
    assert.deepEqual(render(s, { frame: 3, seed: 1 }).data, f3, 'a fresh render of frame 3 equals frame 3 after frame 0');
  });

  test('opacity blends to the exact expected level', () => {
    const r = render(spec([{ id: 'f', kind: 'fill', color: '#ff2000', opacity: 0.5, box: { x: 0, y: 0, width: 600, height: 630 } }]));
    const o = Math.round(0.5 * 255);
    const mix = (c: number, d: number) => Math.round((c * o + d * (255 - o)) / 255);
    assert.deepEqual(r.at(60, 60), [mix(255, 128), mix(0x20, 128), mix(0, 128)]);
    assert.deepEqual(r.at(180, 60), [128, 128, 128], 'outside the box');
    // #rrggbbaa: the colour's alpha and the layer's opacity multiply.
    const r2 = render(spec([{ id: 'f', kind: 'fill', color: '#0000ff80', opacity: 0.5 }]));
    const k = 0x80 * o;
    assert.equal(r2.at(10, 10)[2], Math.round((255 * k + 128 * (255 * 255 - k)) / (255 * 255)));
  });

  test('a linear gradient runs at its CSS angle, end colours at the box edges', () => {
    const r = render(
      spec([
        {
          id: 'g',
          kind: 'fill',
          gradient: {
            type: 'linear',
            angle: 90,
            stops: [
              { offset: 0, color: '#000000' },
              { offset: 1, color: '#ffffff' },
            ],
          },
        },
      ]),
    );
    assert.ok(r.at(0, 60)[0] <= 2 && r.at(239, 60)[0] >= 253, 'left to right');
    assert.deepEqual(r.at(120, 0), r.at(120, 125), 'the same down a column');
    assert.ok(Math.abs(r.at(120, 60)[0] - 128) <= 2);
  });

  test('a radial gradient in a box: the first stop at its centre, the last at its corners, nothing outside', () => {
    const r = render(
      spec([
        {
          id: 'g',
          kind: 'fill',
          box: { x: 200, y: 100, width: 400, height: 400 },
          gradient: {
            type: 'radial',
            stops: [
              { offset: 0, color: '#ffffff' },
              { offset: 1, color: '#000000' },
            ],
          },
        },
      ]),
      { width: 1200 },
    );
    assert.ok(r.at(400, 300)[0] >= 253, 'white at the centre (the pixel centre is half a pixel off it)');
    assert.ok(r.at(201, 101)[0] <= 6, `corner ${r.at(201, 101)}`);
    assert.ok(Math.abs(r.at(400, 101)[0] - r.at(201, 300)[0]) <= 1, 'round: the same at the middle of each edge');
    assert.deepEqual(r.at(199, 300), [128, 128, 128]);
  });

  test('text fits its box: the ink stays inside it, and longer text is set smaller, then cut with an ellipsis', () => {
    const layer = textLayer();
    const s = spec([layer]);
    const r = render(s, { width: 600, params: { title: 'Deterministic renders on every machine' } });
    const [x0, y0, x1, y1] = inkBounds(r);
    // The box at 600/1200 = 0.5: x 50..350, y 50..200.
    assert.ok(x0 >= 50 && y0 >= 50 && x1 <= 350 && y1 <= 200, `ink ${[x0, y0, x1, y1]} outside the box`);
    assert.ok(x1 - x0 > 250, 'the text fills the width it was fitted to');

    const setFor = (text: string, l: TextLayer = layer) => setText(l, text, textFaceOf(l, text, {}, assets));
    const short = setFor('Hello');
    const longer = setFor('Hello there, this is a much longer title');
    const longest = setFor('Hello there, this is a much longer title that goes on and on and on and on and on past every line');
    assert.equal(short.size, 120, 'short text at the largest size');
    assert.ok(longer.size < short.size && longest.size < longer.size, `${short.size} > ${longer.size} > ${longest.size}`);
    assert.ok(longer.lines.length <= 3 && !longer.overflow);
    assert.equal(longer.size % 0.25, 0, 'sizes on the quarter-pixel grid');
    const cut = setFor('word '.repeat(80), { ...layer, fit: { max: 60, min: 40, maxLines: 2 } });
    assert.equal(cut.overflow, true);
    assert.equal(cut.lines.length, 2);
    assert.ok(cut.lines[1].text.endsWith('…'));
    assert.equal(cut.size, 40);
  });

  test('align and valign place the lines in the box', () => {
    const ink = (over: Partial<TextLayer>) => inkBounds(render(spec([textLayer({ fit: { max: 40 }, ...over })]), { width: 600 }));
    const left = ink({ align: 'left' });
    const right = ink({ align: 'right' });
    const center = ink({ align: 'center' });
    assert.ok(left[0] <= 52 && right[2] >= 348, `${left} ${right}`);
    assert.ok(Math.abs((center[0] + center[2]) / 2 - 200) <= 2);
    const top = ink({ valign: 'top' });
    const bottom = ink({ valign: 'bottom' });
    const middle = ink({ valign: 'middle' });
    assert.ok(top[1] < middle[1] && middle[1] < bottom[1]);
    assert.ok(bottom[3] <= 200 && bottom[3] >= 190);
  });

  test('a text refused on overflow is named by its variable before rendering', () => {
    const s = spec([textLayer({ fit: { max: 60, min: 50, maxLines: 1, overflow: 'error' } })]);
    assert.deepEqual(templateParamIssues(s, { title: 'Short' }, assets, generators), []);
    const issues = templateParamIssues(s, { title: 'A title far too long for one line at fifty pixels' }, assets, generators);
    assert.equal(issues.length, 1);
    assert.equal(issues[0].param, 'title');
    assert.equal(issues[0].keyword, 'overflow');
    const gen = templateGenerator({ id: 'tpl', version: 1, spec: s, assets, generators });
    assert.equal(gen.checkParams!({ title: 'A title far too long for one line at fifty pixels' }).length, 1);
  });

  test('variables: assets by "{{name}}", missing assets and invalid generator params are named', () => {
    const s = spec([
      { id: 'i', kind: 'image', asset: '{{logo}}', box: { x: 0, y: 0, width: 100, height: 100 } },
      {
        id: 'g',
        kind: 'generator',
        slug: 'mesh-gradient',
        params: { palette: '{{title}}' },
        box: { x: 600, y: 0, width: 100, height: 100 },
      },
    ]);
    const issues = templateParamIssues(s, { logo: 'ast_nope', title: 'not a palette' }, assets, generators);
    assert.deepEqual(
      issues.map((i) => i.param),
      ['logo', 'title'],
    );
    assert.deepEqual(
      templateParamIssues(s, { logo: FONT_ID, title: 'x' }, assets, generators).map((i) => i.message.slice(0, 20)),
      ['names a font asset, ', 'must be array (param'],
    );
  });

  test('unsupported characters are named by the variable they came from, or by the layer', () => {
    const s = spec([textLayer({ text: 'Hi {{title}}' }), textLayer({ id: 'u', text: 'Fixed \u{E000}' })]);
    const gen = templateGenerator({ id: 'tpl', version: 1, spec: s, assets, generators });
    assert.deepEqual(gen.unsupportedText!({ title: 'ok \u{E001}' }), [
      { param: 'title', graphemes: ['\u{E001}'] },
      { param: 'layers.1.text', graphemes: ['\u{E000}'] },
    ]);
  });

  test('an uploaded font draws what it has; the bundled fonts draw the rest', () => {
    const layer = textLayer({ font: { asset: FONT_ID } });
    const face = textFaceOf(layer, 'Omega Ω 日本', {}, assets);
    const runs = fontRuns('Omega Ω 日本', face).runs;
    assert.equal(runs[0].face.file, 'asset:fixture-font');
    assert.ok(
      runs.some((r) => r.face.file.includes('noto-sans-sc') || r.face.file.includes('noto-sans-jp')),
      'Han from the bundled stack',
    );
    const withFont = render(spec([layer]), { width: 600 });
    const bundled = render(spec([textLayer()]), { width: 600 });
    assert.notDeepEqual(withFont.data, bundled.data);
    // The same font uploaded as WOFF2 draws the same pixels.
    const require = createRequire(import.meta.url);
    const woff2 = readFileSync(require.resolve('@fontsource/noto-sans/files/noto-sans-latin-800-italic.woff2'));
    const viaWoff2 = new Map(assets).set(FONT_ID, { kind: 'font', sha256: 'fixture-font-woff2', data: new Uint8Array(woff2) });
    assert.deepEqual(render(spec([layer]), { width: 600, assets: viaWoff2 }).data, withFont.data);
  });

  test('weights: a bold title is heavier than a regular one', () => {
    const inkCount = (weight: number) => {
      const r = render(spec([textLayer({ font: { weight }, fit: { max: 60 } })]), { width: 600 });
      let n = 0;
      for (let i = 0; i < r.data.length; i += 4) n += r.data[i] - 128;
      return n;
    };
    assert.ok(inkCount(700) > inkCount(400) * 1.2);
  });

  // A 200×100 image: red on the left half, blue on the right, a white column in the middle.
  const wide: TemplateAsset = {
    kind: 'image',
    sha256: 'wide',
    width: 200,
    height: 100,
    rgba: Uint8Array.from({ length: 200 * 100 * 4 }, (_, i) => {
      const x = (i >> 2) % 200;
      const c = i & 3;
      if (c === 3) return 255;
      if (x >= 96 && x < 104) return 255;
      return x < 100 ? [255, 0, 0][c] : [0, 0, 255][c];
    }),
  };
  const withWide = () => new Map(assets).set('ast_wide', wide);
  const box = { x: 400, y: 100, width: 400, height: 400 };

  test('contain letterboxes: the image whole and centred, the rest of the box empty', () => {
    const r = render(spec([{ id: 'i', kind: 'image', asset: 'ast_wide', box, fit: 'contain' }]), { width: 1200, assets: withWide() });
    // Box y 100..500; the image 400×200 centred: y 200..400.
    assert.deepEqual(r.at(600, 150), [128, 128, 128], 'the band above the image is the background');
    assert.deepEqual(r.at(600, 450), [128, 128, 128], 'and below');
    assert.deepEqual(r.at(410, 300), [255, 0, 0], 'left edge: red');
    assert.deepEqual(r.at(790, 300), [0, 0, 255], 'right edge: blue');
    assert.deepEqual(r.at(600, 201), r.at(600, 398));
  });

  test('cover fills the box and crops the sides, centred', () => {
    const r = render(spec([{ id: 'i', kind: 'image', asset: 'ast_wide', box, fit: 'cover' }]), { width: 1200, assets: withWide() });
    // Scaled ×4 to 800×400: 200 px cut on each side; the white column (x 96..104 → 384..416, minus 200) at 584..616.
    assert.deepEqual(r.at(401, 101), [255, 0, 0]);
    assert.deepEqual(r.at(798, 498), [0, 0, 255]);
    assert.deepEqual(r.at(600, 300), [255, 255, 255]);
    assert.deepEqual(r.at(399, 300), [128, 128, 128], 'nothing outside the box');
    assert.deepEqual(r.at(600, 501), [128, 128, 128]);
  });

  test('a radius rounds the corners: transparent to the background there, the picture inside', () => {
    const r = render(spec([{ id: 'i', kind: 'image', asset: 'ast_wide', box, fit: 'cover', radius: 200 }]), {
      width: 1200,
      assets: withWide(),
    });
    assert.deepEqual(r.at(402, 102), [128, 128, 128], 'a circle: the corner shows the background');
    assert.deepEqual(r.at(600, 300), [255, 255, 255]);
    assert.deepEqual(r.at(420, 300), [255, 0, 0], 'the left of the circle');
  });

  test('no halo: a logo whose transparent pixels are green shows no green when scaled', () => {
    const r = render(spec([{ id: 'i', kind: 'image', asset: LOGO_ID, box: { x: 100, y: 100, width: 230, height: 230 } }]), { width: 600 });
    for (let i = 0; i < r.data.length; i += 4) {
      const [R, G, B] = [r.data[i], r.data[i + 1], r.data[i + 2]];
      // Grey, orange (255,122,48), white and their mixes: green never exceeds red.
      assert.ok(G <= Math.max(R, 128) + 1 && G >= B - 1, `a green pixel ${[R, G, B]}`);
    }
  });

  test('shapes: a rounded rectangle with a stroke inside its box, an ellipse', () => {
    const r = render(
      spec([
        {
          id: 'r',
          kind: 'shape',
          shape: 'rectangle',
          box: { x: 100, y: 100, width: 400, height: 200 },
          radius: 40,
          fill: '#ffffff',
          stroke: { color: '#000000', width: 20 },
        },
        { id: 'e', kind: 'shape', shape: 'ellipse', box: { x: 700, y: 100, width: 400, height: 200 }, fill: '#ff0000' },
      ]),
      { width: 1200 },
    );
    assert.deepEqual(r.at(300, 200), [255, 255, 255], 'fill');
    assert.deepEqual(r.at(300, 105), [0, 0, 0], 'stroke inside the top edge');
    assert.deepEqual(r.at(300, 98), [128, 128, 128], 'nothing outside it');
    assert.deepEqual(r.at(102, 102), [128, 128, 128], 'the rounded corner');
    assert.deepEqual(r.at(900, 200), [255, 0, 0]);
    assert.deepEqual(r.at(705, 105), [128, 128, 128], 'outside the ellipse');
  });

  test('the pixel-ratio rule: half the size is the full-size picture with fewer pixels', () => {
    const full = render(BLOG_SPEC, { width: 480 });
    const half = render(BLOG_SPEC, { width: 240 });
    const ratio = render(BLOG_SPEC, { width: 240, pixelRatio: 2 });
    assert.deepEqual(ratio.data, full.data, 'width 240 at pixelRatio 2 is width 480 at 1');
    let sum = 0;
    for (let y = 0; y < half.height; y++)
      for (let x = 0; x < half.width; x++)
        for (let c = 0; c < 3; c++) {
          const q = (yy: number, xx: number) => full.data[(yy * full.width + xx) * 4 + c];
          const down = (q(2 * y, 2 * x) + q(2 * y, 2 * x + 1) + q(2 * y + 1, 2 * x) + q(2 * y + 1, 2 * x + 1)) / 4;
          sum += Math.abs(down - half.data[(y * half.width + x) * 4 + c]);
        }
    const drift = sum / (half.width * half.height * 3);
    console.log(`pixel-ratio drift of the blog template: ${drift.toFixed(2)}`);
    assert.ok(drift < 3, `mean |Δ| ${drift.toFixed(2)} between half size and the full size downscaled`);
  });
});

describe('checkTemplate', () => {
  test('the fixture template has no problems', () => {
    assert.deepEqual(checkTemplate(BLOG_SPEC, generators), []);
  });

  test('names each problem by its field', () => {
    const bad: TemplateSpec = {
      size: { width: 1200, height: 630 },
      background: '#00000080',
      variables: { type: 'object', properties: { title: { type: 'string' } } },
      layers: [
        { id: 'a', kind: 'generator', slug: 'plasma' },
        { id: 'a', kind: 'generator', slug: 'aurora', params: { palette: '{{colours}}', nope: 1 } },
        { id: 'c', kind: 'generator', slug: 'no-such' },
        { id: 'd', kind: 'generator', slug: 'mesh-gradient', params: { palette: ['#12345', '#123456'] }, seed: '{{title}}' },
        {
          id: 'e',
          kind: 'fill',
          gradient: {
            type: 'linear',
            angle: 0,
            stops: [
              { offset: 0.5, color: '#fff' },
              { offset: 0.2, color: 'red' },
            ],
          },
          box: { x: 0, y: 0, width: 0, height: 10 },
        },
        {
          id: 'f',
          kind: 'text',
          text: 'Hi {{name}}',
          box: { x: 0, y: 0, width: 10, height: 40 },
          font: { family: 'Comic Sans' },
          fit: { max: 20, min: 30 },
        },
        { id: 'h', kind: 'text', text: 'Hi', box: { x: 0, y: 0, width: 100, height: 20 }, fit: { max: 40, min: 20 } },
        { id: 'g', kind: 'image', asset: 'logo.png', box: { x: 0, y: 0, width: 10, height: 10 } },
      ],
    };
    const paths = [...new Set(checkTemplate(bad, generators).map((p) => p.path))];
    assert.deepEqual(paths, [
      'body.background',
      'body.layers.1.id',
      'body.layers.1.slug',
      'body.layers.1.params.palette',
      'body.layers.1.params.nope',
      'body.layers.2.slug',
      'body.layers.3.params.palette.0',
      'body.layers.4.box.width',
      'body.layers.4.gradient.stops.1.offset',
      'body.layers.4.gradient.stops.1.color',
      'body.layers.5.text',
      'body.layers.5.font.family',
      'body.layers.5.fit.min',
      'body.layers.6.box.height',
      'body.layers.7.asset',
    ]);
  });
});
