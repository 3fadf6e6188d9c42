// The format table and the size limits are written once in code (formats.ts, limits.ts) and once
// in the hand-written contract; these tests keep the two equal, and the format facts clients (the
// web app) read from GET /v1/health equal to the table.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SIZE_LIMITS } from '../config/limits.ts';
import { healthReport } from '../services/health.service.ts';
import { openApiDocument } from './openapi-document.ts';
import { FORMATS, OUTPUT_FORMATS, QUALITY_LIMITS } from './formats.ts';
import { QUALITY_FORMAT_ISSUE } from '../engine/recipe.ts';

type Schema = {
  enum?: string[];
  minimum?: number;
  maximum?: number;
  properties?: Record<string, Schema>;
  $ref?: string;
  description?: string;
};
const document = openApiDocument() as unknown as {
  components: { schemas: Record<string, Schema>; parameters?: Record<string, { schema: Schema }> };
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name?: string; in?: string; schema?: Schema }[];
        responses?: Record<string, { content?: Record<string, { example?: Record<string, unknown> }> }>;
      }
    >
  >;
};

test("openapi.yaml's Format enum lists the format table's formats, in its order", () => {
  assert.deepEqual(document.components.schemas.Format!.enum, OUTPUT_FORMATS);
  assert.deepEqual(OUTPUT_FORMATS, Object.keys(FORMATS));
});

test("GET /v1/health names every format of the table, in its order, with its row's content type, extension, kind and default quality", () => {
  const { formats } = healthReport({ renderer: 'r', generators: 0, revision: 'x', animationBudgetMs: 100 });
  assert.deepEqual(Object.keys(formats), OUTPUT_FORMATS);
  for (const format of OUTPUT_FORMATS) {
    const { contentType, extension, kind, defaultQuality } = FORMATS[format];
    assert.deepEqual(formats[format], { contentType, extension, kind, defaultQuality }, format);
  }
  const example = document.paths['/v1/health']!.get!.responses!['200']!.content!['application/json']!.example!;
  assert.deepEqual(example.formats, formats, "the contract's example");
  const kinds = document.components.schemas.FormatFacts!.properties!.kind!.enum;
  assert.deepEqual(kinds, [...new Set(Object.values(FORMATS).map((f) => f.kind))], "FormatFacts' kinds");
});

test("the contract's size limits (the Size schema, PixelRatio and the recipe URL's w, h and pr) are limits.ts's", () => {
  const { Size, PixelRatio } = document.components.schemas;
  for (const side of ['width', 'height'])
    assert.deepEqual(
      [Size!.properties![side]!.minimum, Size!.properties![side]!.maximum],
      [SIZE_LIMITS.minSide, SIZE_LIMITS.maxSide],
      `Size.${side}`,
    );
  assert.deepEqual([PixelRatio!.minimum, PixelRatio!.maximum], [SIZE_LIMITS.minPixelRatio, SIZE_LIMITS.maxPixelRatio]);
  const overrides = Object.values(document.paths)
    .flatMap((item) => Object.values(item).flatMap((op) => op.parameters ?? []))
    .filter((p) => p.in === 'query' && ['w', 'h', 'pr'].includes(p.name ?? ''));
  assert.ok(overrides.length >= 3, 'the recipe URL declares w, h and pr');
  for (const p of overrides) {
    const expected = p.name === 'pr' ? [SIZE_LIMITS.minPixelRatio, SIZE_LIMITS.maxPixelRatio] : [SIZE_LIMITS.minSide, SIZE_LIMITS.maxSide];
    assert.deepEqual([p.schema!.minimum, p.schema!.maximum], expected, `query.${p.name}`);
  }
});

// That quality is JPEG's alone is the engine's rule (recipe.ts: 400 naming the field, whichever path
// the recipe came by); the contract says it in Quality's description. A schema-level if/then said it
// too, but schema tools (redocly's example check) misread it: 68 false warnings.
test("the contract's quality is the table's: 1–100 in every recipe body, the recipe URL's q, and says the engine's rule", () => {
  const { schemas } = document.components;
  assert.deepEqual([schemas.Quality!.minimum, schemas.Quality!.maximum], [QUALITY_LIMITS.min, QUALITY_LIMITS.max]);
  assert.match(String(schemas.Quality!.description), /JPEG's alone/);
  assert.ok(QUALITY_FORMAT_ISSUE.length > 0);
  for (const name of ['RecipeInput', 'BatchItem', 'JobCreate', 'SignRenderUrlRequest', 'PresetRecipe']) {
    const schema = schemas[name]!;
    assert.equal(schema.properties!.quality!.$ref, '#/components/schemas/Quality', name);
  }
  const q = document.paths['/v1/render/{recipeHash}']!.get!.parameters!.find((p) => p.name === 'q');
  assert.equal(q?.schema?.$ref, '#/components/schemas/Quality');
});
