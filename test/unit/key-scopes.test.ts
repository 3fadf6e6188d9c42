// The scope each operation needs is read from openapi.yaml's security requirements
// (src/services/key-scopes.ts), and the service refuses to start on a contract that leaves an
// operation a key may call without one: it fails closed rather than letting a scoped key through.
// Each operation refused and allowed through HTTP: test/integration/key-scopes.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type OpenApiDocument, openApiDocument } from '../../src/lib/openapi-document.ts';
import { assertOperationScope, holdsScope, operationScopes } from '../../src/services/key-scopes.ts';

const withSecurity = (security: unknown): OpenApiDocument => {
  const doc = structuredClone(openApiDocument());
  (doc.paths['/v1/presets']!.get as { security?: unknown }).security = security;
  return doc;
};

test('the contract: public operations need none, every other names one scope', () => {
  const scopes = operationScopes();
  assert.equal(scopes.get('getHealth'), null);
  assert.equal(scopes.get('renderSigningBase'), null, 'called by a signed URL only');
  assert.equal(scopes.get('generate'), 'render');
  assert.equal(scopes.get('renderRecipe'), 'render');
  assert.equal(scopes.get('createKey'), 'keys:manage');
});

test('an operation a key may call without a scope, with two, an unknown one or different ones per scheme: refused at start', () => {
  for (const security of [
    [{ bearerAuth: [] }, { sessionCookie: [] }],
    [{ bearerAuth: ['presets', 'render'] }, { sessionCookie: ['presets', 'render'] }],
    [{ bearerAuth: ['everything'] }, { sessionCookie: ['everything'] }],
    [{ bearerAuth: ['presets'] }, { sessionCookie: ['render'] }],
  ])
    assert.throws(() => operationScopes(withSecurity(security)), /listPresets/, JSON.stringify(security));
  // Inherited from the root's scope-less requirement: refused too.
  assert.throws(() => operationScopes(withSecurity(undefined)), /listPresets/);
});

test('only a key created with scopes is restricted', () => {
  const scopes = operationScopes();
  assert.doesNotThrow(() => assertOperationScope(scopes, 'listPresets', {}));
  assert.doesNotThrow(() => assertOperationScope(scopes, 'listPresets', null));
  assert.doesNotThrow(() => assertOperationScope(scopes, 'listPresets', { scopes: ['presets'] }));
  assert.throws(
    () => assertOperationScope(scopes, 'listPresets', { scopes: ['render'] }),
    (err: { code: string; extra: { requiredScope: string } }) => err.code === 'insufficient_scope' && err.extra.requiredScope === 'presets',
  );
  assert.equal(holdsScope({}, 'billing'), true);
  assert.equal(holdsScope({ scopes: ['render'] }, 'billing'), false);
});
