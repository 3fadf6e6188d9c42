// The templates area's pure rules (web/js/templates/*.js, plain JS run here in Node): the bodies it
// posts to POST /v1/templates — blank, from a starter, around the playground's recipe, a duplicate —
// each valid against the contract's TemplateCreate and accepted whole by the service's own check
// (checkTemplate: generators and their params, declared variables, fit sizes); the sample params of
// the thumbnails; the next page of the list; a thumbnail's pixels. The page itself, through the
// service: test/acceptance/web-app.test.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { checkTemplate } from '../../src/templates/check-template.ts';
import type { TemplateSpec } from '../../src/templates/template.types.ts';
import { registry } from '../../scripts/docs/catalogue.ts';
import { starterFile, starterNames } from '../../scripts/docs/starters.ts';
import { ajv, dereferencedDocument, validatorFor } from '../support/contract.ts';
import {
  BLANK_SIZES,
  NAME_MAX,
  SAMPLE_TITLE,
  blankTemplate,
  duplicateTemplate,
  nameOr,
  recipeTemplate,
  starterTemplate,
  templateBody,
  type TemplateBody,
} from '../../web/js/templates/new-template.js';
import { nextLink, thumbSize } from '../../web/js/templates/list-rules.js';
import { sampleParams } from '../../web/js/templates/sample-params.js';

/** createTemplate's request body schema (TemplateCreate), every $ref resolved. */
const createSchema = (
  dereferencedDocument as unknown as {
    paths: Record<string, { post: { requestBody: { content: Record<string, { schema: Record<string, unknown> }> } } }>;
  }
).paths['/v1/templates']!.post.requestBody.content['application/json']!.schema;

/** The body passes the contract's shape and the service's whole-template check. */
function assertCreatable(body: TemplateBody, what: string) {
  const validate = validatorFor(createSchema);
  assert.ok(validate(body), `${what}: ${ajv.errorsText(validate.errors)}`);
  assert.deepEqual(checkTemplate(body as unknown as TemplateSpec, registry), [], what);
}

const starter = (name: string) => {
  const template = JSON.parse(readFileSync(starterFile(name), 'utf8')) as TemplateBody;
  return { id: name, name: template.name, description: 'A starter.', template };
};

describe('a blank template', () => {
  test('each preset size and a custom one is a creatable body: white, one centred title whose sample value shows', () => {
    assert.deepEqual(
      BLANK_SIZES.map(([w, h]) => `${w}x${h}`),
      ['1200x630', '1080x1080', '1920x1080'],
    );
    for (const [width, height] of [...BLANK_SIZES, [300, 2000], [1, 1], [4096, 4096]]) {
      const body = blankTemplate({ name: 'Card', width, height });
      assertCreatable(body, `blank ${width}×${height}`);
      assert.deepEqual(body.size, { width, height });
      assert.equal(body.background, '#ffffff');
      assert.equal(body.layers.length, 1);
      const [title] = body.layers as unknown as {
        kind: string;
        text: string;
        box: { x: number; y: number; width: number; height: number };
      }[];
      assert.equal(title!.kind, 'text');
      assert.equal(title!.text, '{{title}}');
      if (height > 1)
        assert.ok(
          title!.box.x + title!.box.width <= width && title!.box.y + title!.box.height <= height,
          'the title sits inside the canvas',
        );
      assert.deepEqual(sampleParams(body), { title: SAMPLE_TITLE });
    }
  });

  test('the name: trimmed, "Untitled" when empty, cut to the contract’s 200 characters (code points); sides kept within 1–4096', () => {
    assert.equal(blankTemplate({ name: '  Launch  ', width: 10, height: 10 }).name, 'Launch');
    assert.equal(blankTemplate({ name: ' ', width: 10, height: 10 }).name, 'Untitled');
    assert.equal(nameOr('😀'.repeat(250), 'x'), '😀'.repeat(NAME_MAX));
    assert.deepEqual(blankTemplate({ width: '800', height: 99999 }).size, { width: 800, height: 4096 });
    assert.deepEqual(blankTemplate({ width: 0, height: 'x' }).size, { width: 1, height: 1 });
  });
});

test('from a starter: its template as it is, under its name or the one typed; an image variable keeps no sample', () => {
  for (const name of starterNames()) {
    const s = starter(name);
    const body = starterTemplate(s);
    assertCreatable(body, `starter ${name}`);
    assert.deepEqual(body, s.template, `${name}: unchanged`);
    assert.notEqual(body.layers, s.template.layers, 'a copy: editing it leaves the starter alone');
    assert.equal(starterTemplate(s, 'Our launch card').name, 'Our launch card');
  }
  // blog-og-image's logo and photo take an asset id: no sample, so the thumbnail's params leave them out.
  const params = sampleParams(starterTemplate(starter('blog-og-image')));
  assert.equal('logo' in params, false);
  assert.equal('photo' in params, false);
  assert.equal(params.tag, 'Blog', 'a default is a sample');
});

test('from the playground recipe: one generator layer of its slug, params and seed at its size, and a "{{title}}" text layer with a sample value', () => {
  const recipe = {
    slug: 'mesh-gradient',
    params: { points: 5, palette: ['#112233', '#445566', '#778899'] },
    seed: 4242,
    size: { width: 1080, height: 1350, pixelRatio: 2 },
    format: 'png',
  };
  const body = recipeTemplate(recipe);
  assertCreatable(body, 'recipe template');
  assert.equal(body.name, 'mesh-gradient template');
  assert.deepEqual(body.size, { width: 1080, height: 1350 }, 'the recipe’s size, without its pixel ratio');
  assert.deepEqual(body.layers[0], { id: 'background', kind: 'generator', slug: 'mesh-gradient', params: recipe.params, seed: 4242 });
  assert.notEqual((body.layers[0] as { params: unknown }).params, recipe.params, 'a copy of the params');
  assert.equal(body.layers[1]!.kind, 'text');
  assert.equal((body.layers[1] as unknown as { text: string }).text, '{{title}}');
  assert.deepEqual(sampleParams(body), { title: SAMPLE_TITLE });
  assert.equal(recipeTemplate(recipe, 'Hero').name, 'Hero');
  // A recipe with no concrete seed leaves the layer to take the render's.
  assert.equal('seed' in recipeTemplate({ ...recipe, seed: undefined as unknown as number }).layers[0]!, false);
});

test('a duplicate: the template’s TemplateCreate fields alone, named "<name> copy" within 200 characters', () => {
  const saved = {
    ...starterTemplate(starter('product-announcement')),
    id: 'tpl_5Zq1xW8yT3nB0cV7mK2r',
    version: 3,
    createdAt: '2026-11-29T07:10:12.354Z',
    updatedAt: '2026-11-29T07:31:40.101Z',
    versions: [{ version: 1, name: 'x', createdAt: '2026-11-29T07:10:12.354Z' }],
  };
  const copy = duplicateTemplate(saved);
  assertCreatable(copy, 'duplicate');
  assert.equal(copy.name, `${saved.name} copy`);
  assert.deepEqual(Object.keys(copy).sort(), ['background', 'layers', 'name', 'size', 'variables']);
  assert.deepEqual(copy.layers, saved.layers);
  assert.deepEqual(templateBody(saved).variables, saved.variables);
  const long = duplicateTemplate({ ...saved, name: 'n'.repeat(200) });
  assert.equal(long.name.length, 200);
  assert.match(long.name, /n copy$/);
  assert.equal('background' in templateBody({ ...saved, background: undefined }), false, 'no background: none sent');
});

test('sample params: each variable’s examples[0], else its default; neither: left out', () => {
  assert.deepEqual(
    sampleParams({
      variables: {
        properties: {
          title: { examples: ['A title', 'Another'], default: 'ignored' },
          tag: { default: 'Blog' },
          logo: {},
          empty: { examples: [''] },
          count: { examples: [0] },
        },
      },
    }),
    { title: 'A title', tag: 'Blog', empty: '', count: 0 },
  );
  assert.deepEqual(sampleParams({}), {});
});

test('the next page of GET /v1/templates: the rel="next" target of Link, as a same-origin path', () => {
  assert.equal(nextLink('<http://127.0.0.1:8080/v1/templates?limit=24&cursor=abc>; rel="next"'), '/v1/templates?limit=24&cursor=abc');
  assert.equal(nextLink('</v1/templates?cursor=x%2By>; rel=next'), '/v1/templates?cursor=x%2By');
  assert.equal(
    nextLink('<https://a.test/first>; rel="prev", <https://a.test/v1/templates?cursor=2>; type="x"; rel="last next"'),
    '/v1/templates?cursor=2',
  );
  assert.equal(nextLink('<https://a.test/v1/templates?cursor=2>; rel="prev"'), null);
  assert.equal(nextLink(null), null);
  assert.equal(nextLink(''), null);
});

test('a thumbnail: the template fitted to its frame with its aspect ratio to the nearest pixel, at the screen’s pixel ratio (the pixels shown)', () => {
  /** The service's rule for a template's size (src/engine/recipe.ts sameAspect). */
  const sameAspect = (s: { width: number; height: number }, of: { width: number; height: number }) =>
    s.height === Math.round((s.width * of.height) / of.width) || s.width === Math.round((s.height * of.width) / of.height);
  // 1200×630 in a 320×180 box: 320 wide; at 2x, 640×336 device pixels.
  assert.deepEqual(thumbSize({ width: 1200, height: 630 }, 2), { width: 320, height: 168, pixelRatio: 2 });
  // A square fits by its height; a 256 px template is enlarged to the frame (a template draws sharp at any size).
  assert.deepEqual(thumbSize({ width: 1080, height: 1080 }, 1), { width: 180, height: 180, pixelRatio: 1 });
  assert.deepEqual(thumbSize({ width: 256, height: 256 }, 1.5, { width: 296, height: 166 }), { width: 166, height: 166, pixelRatio: 1.5 });
  // The preview's bounds: 16 px a side at least, a pixel ratio of 0.5–3.
  assert.deepEqual(thumbSize({ width: 4096, height: 64 }, 1), { width: 1024, height: 16, pixelRatio: 1 });
  assert.equal(thumbSize({ width: 100, height: 100 }, 4).pixelRatio, 3);
  assert.equal(thumbSize({ width: 100, height: 100 }, 0.25).pixelRatio, 0.5);
  assert.equal(thumbSize({ width: 100, height: 100 }, undefined).pixelRatio, 1);
  // Any size that can render at 16 px a side, in any frame, keeps the aspect the service asks for (1000×1 cannot: its preview is refused, a placeholder).
  for (const [w, h] of [
    [1200, 630],
    [1500, 500],
    [1080, 1350],
    [333, 777],
    [4096, 17],
  ])
    for (const box of [
      { width: 296, height: 166 },
      { width: 320, height: 180 },
      { width: 211, height: 119 },
    ]) {
      const size = thumbSize({ width: w, height: h }, 2, box);
      assert.ok(sameAspect(size, { width: w, height: h }), `${w}×${h} in ${box.width}×${box.height}: ${size.width}×${size.height}`);
      if (Math.min(w, h) * Math.min(box.width / w, box.height / h) >= 16)
        assert.ok(size.width <= box.width && size.height <= box.height, `${w}×${h} fits ${box.width}×${box.height}`);
    }
});
