// Scoped API keys and their monthly credit limit (docs/accounts-keys-credits-billing.md#scoped-keys).
//  1. Every operation of openapi.yaml that a key may call, walked twice: with a key holding every
//     scope but the one the operation names (403 insufficient_scope naming it, in `requiredScope` and
//     `detail`, before the body is read or validated) and with a key holding only that scope (not
//     403). The requests are built from the contract's own examples (path parameters and bodies).
//     The check sits above the repositories: one engine.
//  2. Creating keys: scopes and the limit are listed; a scoped key cannot create a wider key.
//  3. A key's monthly limit under concurrent cache misses is never exceeded, on both databases (local
//     mode on SQLite, which reserves nothing but counts the key's spending; hosted mode on Postgres,
//     where the ledger reserves credits in the same transaction).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listOperations } from '../../src/lib/openapi-document.ts';
import { LOCAL_WORKSPACE_ID } from '../../src/services/auth.service.ts';
import { KEY_SCOPES, type KeyScope, operationScopes, SCOPE_NAMES } from '../../src/services/key-scopes.ts';
import { dereferencedDocument } from '../support/contract.ts';
import { ENGINES, ONE_ENGINE, postgresAvailable } from '../support/black-box/databases.ts';
import { HOSTED_ENV, startTestApp, type TestApp, workspaceKey } from '../support/harness.ts';

type Json = Record<string, unknown>;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
interface ParameterObject {
  name: string;
  in: string;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface OperationObject {
  parameters?: ParameterObject[];
  requestBody?: { content?: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }> };
}

const bearer = (secret: string) => ({ auth: false, headers: { Authorization: `Bearer ${secret}` } });
const firstExample = (holder: { example?: unknown; examples?: Record<string, { value: unknown }> } | undefined) =>
  holder?.example !== undefined ? holder.example : holder?.examples ? Object.values(holder.examples)[0]?.value : undefined;

/** An operation's request from its examples: path parameters filled, the first JSON body example. */
function exampleRequest(method: string, path: string): { url: string; body: unknown } {
  const paths = (dereferencedDocument as unknown as { paths: Record<string, Json> }).paths;
  const item = paths[path]!;
  const op = item[method.toLowerCase()] as OperationObject;
  const parameters = [...((item.parameters as ParameterObject[] | undefined) ?? []), ...(op.parameters ?? [])];
  let url = path;
  for (const p of parameters) if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(firstExample(p) ?? 'x')));
  return { url, body: firstExample(op.requestBody?.content?.['application/json']) };
}

const scopes = operationScopes();
const scoped = listOperations().filter((o) => scopes.get(o.operationId));

for (const engine of ONE_ENGINE) {
  describe(`scoped keys on ${engine}: every operation asks its scope`, () => {
    let t: TestApp;
    /** A key with every scope but the one named, and a key with only it, for each scope. */
    const without = new Map<KeyScope, string>();
    const only = new Map<KeyScope, string>();
    before(async () => {
      t = await startTestApp(engine);
      const keys = t.runtime.deps.services.keys;
      for (const scope of SCOPE_NAMES) {
        without.set(
          scope,
          (await keys.create(LOCAL_WORKSPACE_ID, `all but ${scope}`, { scopes: SCOPE_NAMES.filter((s) => s !== scope) })).secret,
        );
        only.set(scope, (await keys.create(LOCAL_WORKSPACE_ID, `only ${scope}`, { scopes: [scope] })).secret);
      }
    });
    after(() => t?.close());

    test('the contract names a known scope for every operation a key may call, and each scope has operations', () => {
      // operationScopes throws at boot otherwise; here: no operation the API serves to keys escapes it.
      for (const o of listOperations().filter((op) => op.secured && op.operationId !== 'renderSigningBase'))
        assert.ok(scopes.get(o.operationId), `${o.operationId} names no scope`);
      for (const scope of SCOPE_NAMES)
        assert.ok(
          scoped.some((o) => scopes.get(o.operationId) === scope),
          `${scope} (${KEY_SCOPES[scope]}) is named by no operation`,
        );
    });

    for (const o of scoped) {
      const scope = scopes.get(o.operationId)!;
      test(`${o.operationId} (${o.method} ${o.path}) needs "${scope}": refused without it, allowed with only it`, async () => {
        const { url, body } = exampleRequest(o.method, o.path);
        const method = o.method.toLowerCase() as Method;
        const refused = await t.request(method, url, { ...bearer(without.get(scope)!), body });
        assert.equal(refused.status, 403, JSON.stringify(refused.body));
        assert.equal(refused.body.code, 'insufficient_scope');
        assert.equal(refused.body.requiredScope, scope);
        assert.ok(refused.body.detail.includes(`"${scope}"`), refused.body.detail);
        // Refused before the body is read or validated: a body the contract refuses is 403 too.
        if (method !== 'get' && method !== 'delete') {
          const invalid = await t.request(method, url, { ...bearer(without.get(scope)!), body: { notAField: true } });
          assert.equal(invalid.status, 403);
        }
        // A key with only keys:manage may create keys within that scope alone (the next suite's test).
        const allowedBody = o.operationId === 'createKey' ? { label: 'within', scopes: [scope] } : body;
        const allowed = await t.request(method, url, { ...bearer(only.get(scope)!), body: allowedBody });
        assert.notEqual(allowed.status, 403, JSON.stringify(allowed.body));
        assert.notEqual(allowed.status, 401);
      });
    }

    test('public operations need no credentials and no scope', async () => {
      for (const o of listOperations().filter((op) => !op.secured && op.method === 'GET')) {
        const res = await t.request('get', exampleRequest(o.method, o.path).url, bearer(only.get('render')!));
        assert.notEqual(res.status, 403, o.operationId);
      }
    });

    test('keys list their scopes, limit and spending; a key without scopes is full access (scopes: null)', async () => {
      const created = await t.request('post', '/v1/keys', { body: { label: 'ci', scopes: ['render', 'jobs'], monthlyCreditLimit: 50 } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(created.body.scopes, ['render', 'jobs']);
      assert.equal(created.body.monthlyCreditLimit, 50);
      assert.equal(created.body.creditsSpentThisMonth, 0);
      const full = await t.request('post', '/v1/keys', { body: { label: 'full' } });
      assert.equal(full.body.scopes, null);
      assert.equal(full.body.monthlyCreditLimit, null);
      const listed = (await t.request('get', '/v1/keys')).body as Array<{ id: string; scopes: unknown }>;
      assert.deepEqual(listed.find((k) => k.id === created.body.id)!.scopes, ['render', 'jobs']);
      assert.equal(listed.find((k) => k.id === full.body.id)!.scopes, null);
      // The key works within its scopes and not beyond them.
      const secret = created.body.secret as string;
      assert.equal((await t.request('get', '/v1/jobs', bearer(secret))).status, 200);
      const presets = await t.request('get', '/v1/presets', bearer(secret));
      assert.equal(presets.status, 403);
      assert.equal(presets.body.requiredScope, 'presets');
      // An unknown scope is the contract's 400.
      const unknown = await t.request('post', '/v1/keys', { body: { label: 'x', scopes: ['everything'] } });
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.code, 'validation_failed');
    });

    test('a scoped key with keys:manage creates keys only within its own scopes', async () => {
      const admin = (await t.runtime.deps.services.keys.create(LOCAL_WORKSPACE_ID, 'admin', { scopes: ['keys:manage', 'render'] })).secret;
      const narrower = await t.request('post', '/v1/keys', { ...bearer(admin), body: { label: 'renders', scopes: ['render'] } });
      assert.equal(narrower.status, 201, JSON.stringify(narrower.body));
      const wider = await t.request('post', '/v1/keys', { ...bearer(admin), body: { label: 'wider', scopes: ['render', 'billing'] } });
      assert.equal(wider.status, 403);
      assert.equal(wider.body.code, 'insufficient_scope');
      assert.equal(wider.body.requiredScope, 'billing');
      // Without scopes the new key would have them all: refused, naming the first it lacks.
      const everything = await t.request('post', '/v1/keys', { ...bearer(admin), body: { label: 'all' } });
      assert.equal(everything.status, 403);
      assert.equal(everything.body.requiredScope, 'jobs');
    });
  });
}

/** A png recipe that costs one credit (under a million pixels) and is a miss: a seed of its own. */
const recipe = (seed: number) => ({ seed, size: { width: 64, height: 64 }, format: 'png' });
const LIMIT = 3;
const CONCURRENT = 8;

for (const engine of ENGINES) {
  const hosted = engine === 'postgres';
  describe(
    `a key's monthly credit limit on ${engine} (${hosted ? 'hosted' : 'local'} mode): never exceeded by concurrent misses`,
    { skip: engine === 'postgres' && !postgresAvailable() },
    () => {
      let t: TestApp;
      let secret: string;
      let keyId: string;
      let renderedSeed = 0;
      const ws = hosted ? 'ws_key_limit' : LOCAL_WORKSPACE_ID;
      before(async () => {
        t = await startTestApp(engine, hosted ? { env: HOSTED_ENV } : {});
        const owner = hosted ? await workspaceKey(t, { id: ws, name: 'Limits' }, 'owner') : undefined;
        if (hosted)
          await t.runtime.deps.services.credits.add({
            workspaceId: ws,
            amount: 100,
            kind: 'grant',
            id: 'g1',
            reference: 'g1',
            description: 'test grant',
          });
        const created = await t.request('post', '/v1/keys', {
          ...(owner ? bearer(owner) : {}),
          body: { label: 'capped', scopes: ['render'], monthlyCreditLimit: LIMIT },
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        ({ secret, id: keyId } = created.body);
      });
      after(() => t?.close());

      test(`${CONCURRENT} concurrent misses of 1 credit against a limit of ${LIMIT}: ${LIMIT} render, the rest are 402 signing_key_limit_reached`, async () => {
        const before = hosted ? await t.runtime.deps.services.credits.balance(ws) : undefined;
        const responses = await Promise.all(
          Array.from({ length: CONCURRENT }, (_, i) =>
            t.request('post', '/v1/generate/blob', { ...bearer(secret), body: recipe(9100 + i) }),
          ),
        );
        const ok = responses.filter((r) => r.status === 200);
        renderedSeed = 9100 + responses.findIndex((r) => r.status === 200);
        const refused = responses.filter((r) => r.status === 402);
        assert.equal(ok.length, LIMIT, responses.map((r) => `${r.status} ${r.body?.code ?? ''}`).join(', '));
        assert.equal(refused.length, CONCURRENT - LIMIT);
        for (const r of ok) assert.equal(r.headers['x-service-cache'], 'MISS');
        for (const r of refused) {
          assert.equal(r.body.code, 'signing_key_limit_reached');
          assert.match(r.body.detail, new RegExp(`monthly limit of ${LIMIT}`));
        }
        const listed = (await t.request('get', '/v1/keys', { ...bearer(secret), auth: false })).status;
        assert.equal(listed, 403, 'a render key may not list keys');
        const key = (await t.runtime.deps.services.keys.list(ws)).find((k) => k.id === keyId)!;
        assert.equal(key.creditsSpentThisMonth, LIMIT);
        if (hosted) {
          // The workspace paid exactly what the key spent: nothing reserved or charged for the refusals.
          const after = await t.runtime.deps.services.credits.balance(ws);
          assert.deepEqual(after, { credits: before!.credits - LIMIT, reserved: 0, available: before!.available - LIMIT });
          for (const r of ok) assert.equal(r.headers['x-service-credits'], '1');
        }
      });

      test('a hit costs nothing and still answers past the limit', async () => {
        const hit = await t.request('post', '/v1/generate/blob', { ...bearer(secret), body: recipe(renderedSeed) });
        assert.equal(hit.status, 200);
        assert.equal(hit.headers['x-service-cache'], 'HIT');
      });
    },
  );
}
