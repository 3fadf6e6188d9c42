// The format table and the size limits are written once in code (formats.ts, limits.ts) and once
// in the hand-written contract; these tests keep the two equal.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SIZE_LIMITS } from '../config/limits.ts';
import { openApiDocument } from './openapi-document.ts';
import { FORMATS, OUTPUT_FORMATS } from './formats.ts';

type Schema = { enum?: string[]; minimum?: number; maximum?: number; properties?: Record<string, Schema>; $ref?: string };
const document = openApiDocument() as unknown as {
  components: { schemas: Record<string, Schema>; parameters?: Record<string, { schema: Schema }> };
  paths: Record<string, Record<string, { parameters?: { name?: string; in?: string; schema?: Schema }[] }>>;
};

test("openapi.yaml's Format enum lists the format table's formats, in its order", () => {
  assert.deepEqual(document.components.schemas.Format!.enum, OUTPUT_FORMATS);
  assert.deepEqual(OUTPUT_FORMATS, Object.keys(FORMATS));
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
