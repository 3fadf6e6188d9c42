// Every generator × format against its committed output hash (test/golden/goldens.json), and the
// canvas cases at larger sizes against test/golden/canvas-sizes.json: rendered once, natively. The
// determinism tier renders the same under emulated CPUs and as arm64 and compares with the same files.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { canvasCases, goldenCases, supersededGoldenCases } from '../golden/golden-recipes.ts';
import { renderGoldens, startGoldenEngine } from '../golden/render-golden.ts';
import { renderTemplateGoldens, templateGoldenIds } from '../golden/templates/template-goldens.ts';

const committed = JSON.parse(readFileSync(new URL('../golden/goldens.json', import.meta.url), 'utf8')) as Record<
  string,
  { recipeHash: string; sha256: string }
>;
const committedCanvas = JSON.parse(readFileSync(new URL('../golden/canvas-sizes.json', import.meta.url), 'utf8')) as Record<string, string>;
const committedTemplates = JSON.parse(readFileSync(new URL('../golden/template-goldens.json', import.meta.url), 'utf8')) as Record<
  string,
  string
>;
const UPDATE = 'run `npm run goldens:update` after adding a generator or format (and bump versions for changed output)';

// One engine (one render thread, as the API renders) for the goldens and the template files' goldens.
let engine: ReturnType<typeof startGoldenEngine>;
let rendered: ReturnType<typeof renderGoldens>;
let templates: ReturnType<typeof renderTemplateGoldens>;
before(() => {
  engine = startGoldenEngine();
  rendered = engine.then((e) => renderGoldens([...goldenCases(), ...supersededGoldenCases(), ...canvasCases()], e));
  rendered.catch(() => undefined); // reported by the tests that await it
  templates = engine.then((e) => renderTemplateGoldens(undefined, undefined, e));
  templates.catch(() => undefined);
});
after(async () => {
  await Promise.allSettled([rendered, templates]);
  await (await engine.catch(() => undefined))?.close();
});

test('the golden set covers every released version × format (current and superseded), and the canvas set every canvas case at every size', () => {
  assert.deepEqual(Object.keys(committed).sort(), [...goldenCases(), ...supersededGoldenCases()].map((c) => c.id).sort(), UPDATE);
  assert.deepEqual(
    Object.keys(committedCanvas).sort(),
    canvasCases()
      .map((c) => c.id)
      .sort(),
    UPDATE,
  );
});

test('every golden renders to its committed bytes', async () => {
  const got = await rendered;
  const drift: string[] = [];
  for (const [id, expected] of Object.entries(committed)) {
    const r = got.get(id);
    assert.ok(r, `missing golden ${id}`);
    assert.equal(r.recipeHash, expected.recipeHash, `${id}: the recipe itself changed`);
    if (r.sha256 !== expected.sha256) drift.push(id);
  }
  assert.deepEqual(drift, [], 'output drifted; a generator whose output changes must bump its version');
});

test('the canvas cases at 640×360 and 1200×630 render to their committed bytes', async () => {
  const got = await rendered;
  const drift = Object.keys(committedCanvas).filter((id) => got.get(id)?.sha256 !== committedCanvas[id]);
  assert.deepEqual(drift, [], 'canvas output drifted at a larger size; a generator whose output changes must bump its version');
});

test("the compositor's goldens (every layer kind, an animated template; uploaded JPEG and WebP, gif and mp4) render to their committed bytes", async () => {
  assert.deepEqual(Object.keys(committedTemplates).sort(), templateGoldenIds().sort(), UPDATE);
  const got = await templates;
  const drift = Object.keys(committedTemplates).filter((id) => got.get(id) !== committedTemplates[id]);
  assert.deepEqual(drift, [], 'template output drifted (src/templates, or a generator, font or encoder it uses)');
});
