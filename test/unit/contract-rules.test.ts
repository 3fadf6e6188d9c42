// The contract's own rules, checked on openapi.yaml itself: no inline `default` in a request body's
// schema (docs/clients.md; the same function is Spectral's rule `no-inline-request-default` in
// `npm run lint:openapi`), and exclusions written as schema, so any validator (Prism, a client's Ajv)
// refuses what the service refuses.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import noInlineRequestDefault from '../../scripts/spectral/noInlineRequestDefault.js';
import { openApiDocument } from '../../src/lib/openapi-document.ts';
import { dereferencedDocument, validatorFor } from '../support/contract.ts';

type Json = Record<string, unknown>;
const schemas = (doc: Json) => (doc.components as { schemas: Record<string, Json> }).schemas;
const properties = (schema: Json) => schema.properties as Record<string, Json>;

test('openapi.yaml: every default in a request body schema is at the top of a named schema', () => {
  assert.deepEqual(
    noInlineRequestDefault(openApiDocument()).map((r) => r.message),
    [],
  );
});

test('the check finds an inline default wherever a request body reaches it, and leaves named schemas and responses alone', () => {
  const doc = structuredClone(openApiDocument()) as unknown as Json;
  const named = schemas(doc);
  properties(named.UrlSigningKeyCreate!).label!.default = 'unnamed';
  // A default beside a $ref is inline too: openapi-typescript reads the property's own schema.
  properties(named.SignRenderUrlRequest!).seed = { $ref: '#/components/schemas/Seed', default: 7 };
  // Deeper, through $refs: PresetCreate → PresetRecipe → Size.
  properties(named.Size!).width!.default = 1200;
  // A response schema is not a request schema; a named schema's own default is where defaults belong.
  properties(named.UrlSigningKey!).label!.default = 'fine';
  const found = noInlineRequestDefault(doc).map((r) => r.path.join('/'));
  assert.deepEqual(found.sort(), [
    'components/schemas/SignRenderUrlRequest/properties/seed/default',
    'components/schemas/Size/properties/width/default',
    'components/schemas/UrlSigningKeyCreate/properties/label/default',
  ]);
  for (const name of ['Seed', 'Format', 'Params', 'PixelRatio', 'SignedMaxAgeSeconds', 'SignedUrlExtension'])
    assert.ok('default' in named[name]!, `${name} keeps its default`);
});

test('SignRenderUrlRequest: expiresAt and expiresInSeconds exclude each other in the schema itself', () => {
  const validate = validatorFor(schemas(dereferencedDocument as unknown as Json).SignRenderUrlRequest as never);
  const base = { slug: 'social-card' };
  assert.equal(validate(base), true);
  assert.equal(validate({ ...base, expiresAt: '2030-01-01T00:00:00Z' }), true);
  assert.equal(validate({ ...base, expiresInSeconds: 3600 }), true);
  assert.equal(validate({ ...base, expiresAt: '2030-01-01T00:00:00Z', expiresInSeconds: 3600 }), false);
});
