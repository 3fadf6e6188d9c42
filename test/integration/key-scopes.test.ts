// Scoped API keys and their monthly credit limit (docs/accounts-keys-credits-billing.md#scoped-keys).
//  1. Every operation of openapi.yaml that a key may call, walked twice: with a key holding every
//     scope but the one the operation names (403 insufficient_scope naming it, in `requiredScope` and
//     `detail`, before the body is read or validated) and with a key holding only that scope (not
//     403). The requests are built from the contract's own examples (path parameters and bodies).
//     The check sits above the repositories: one engine.
//  2. Creating keys: scopes and the limit are listed; a scoped key cannot create a wider key.
//  3. A key's monthly limit under concurrent cache misses is never exceeded, on both databases (local
//     mode on SQLite, which reserves nothing but counts the key's spending; hosted mode on Postgres,
//     where the ledger reserves credits in the same transaction). Export jobs count against it too,
//     in the transaction that inserts, queues and holds the job: concurrent submissions never pass it,
//     a refused one leaves nothing behind, and a job gives its spending back — for the month it was
//     spent in — when it is cancelled while queued or settles without paying (its result was cached).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listOperations } from '../../src/lib/openapi-document.ts';
import { LOCAL_WORKSPACE_ID } from '../../src/services/auth.service.ts';
import { KEY_SCOPES, type KeyScope, operationScopes, SCOPE_NAMES } from '../../src/services/key-scopes.ts';
import { dereferencedDocument } from '../support/contract.ts';
import { ENGINES, ONE_ENGINE, postgresAvailable } from '../support/black-box/databases.ts';
import { armEvent } from '../support/events.ts';
import { HOSTED_ENV, startTestApp, type TestApp, workspaceKey } from '../support/harness.ts';
import type { JobRecord } from '../../db/repositories/jobs.repository.ts';

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
/** An export of a blob png: 64×64 costs one credit, 1200×1000 (1.2 million pixels) two. */
const exportOf = (seed: number, credits: 1 | 2) => ({
  slug: 'blob',
  seed,
  size: credits === 1 ? { width: 64, height: 64 } : { width: 1200, height: 1000 },
  format: 'png',
});
/** The first moment of the next UTC month, and an hour: where the app's clock moves to turn the month. */
function nextMonthShift(): number {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 1) - now.getTime();
}

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
      let owner: string | undefined;
      /** Added to the app's clock: the month-turn test moves it to the next UTC month. */
      let shift = 0;
      const ws = hosted ? 'ws_key_limit' : LOCAL_WORKSPACE_ID;
      before(async () => {
        // Jobs wait in the queue until a test starts the runner.
        t = await startTestApp(engine, {
          env: { ...(hosted ? HOSTED_ENV : {}), RUN_JOBS: '0' },
          compose: { clock: { now: () => Date.now() + shift } },
        });
        owner = hosted ? await workspaceKey(t, { id: ws, name: 'Limits' }, 'owner') : undefined;
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

      /** A new key of the workspace that may export (and render) within LIMIT credits a month. */
      const exportKey = async (label: string): Promise<{ id: string; secret: string }> => {
        const created = await t.request('post', '/v1/keys', {
          ...(owner ? bearer(owner) : {}),
          body: { label, scopes: ['jobs', 'render'], monthlyCreditLimit: LIMIT },
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        return created.body;
      };
      const spentBy = async (id: string) => (await t.runtime.deps.services.keys.list(ws)).find((k) => k.id === id)!.creditsSpentThisMonth;
      /** Job rows and, on Postgres, pg-boss's messages of the export queue: a refused job adds to neither. */
      const queued = async () => ({
        rows: Number((await t.runtime.db('jobs').count({ n: '*' }).first())!.n),
        messages: hosted
          ? Number((await t.runtime.db.raw(`SELECT count(*) AS n FROM pgboss.job WHERE name = 'export-jobs'`)).rows[0].n)
          : 0,
      });
      const balance = async () => (hosted ? t.runtime.deps.services.credits.balance(ws) : undefined);
      const submit = (secret: string, body: unknown) => t.request('post', '/v1/jobs', { ...bearer(secret), body });

      test(`${CONCURRENT} concurrent export jobs of 1 credit against a limit of ${LIMIT}: ${LIMIT} are queued, the rest are 402 and leave nothing behind`, async () => {
        const key = await exportKey('concurrent exports');
        const [was, before] = [await queued(), await balance()];
        const responses = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => submit(key.secret, exportOf(9300 + i, 1))));
        const accepted = responses.filter((r) => r.status === 202);
        assert.equal(accepted.length, LIMIT, responses.map((r) => `${r.status} ${r.body?.code ?? ''}`).join(', '));
        for (const r of responses.filter((r) => r.status !== 202)) {
          assert.equal(r.status, 402);
          assert.equal(r.body.code, 'signing_key_limit_reached');
        }
        assert.equal(await spentBy(key.id), LIMIT);
        assert.deepEqual(await queued(), { rows: was.rows + LIMIT, messages: hosted ? was.messages + LIMIT : 0 });
        if (hosted)
          assert.deepEqual(await balance(), { ...before!, reserved: before!.reserved + LIMIT, available: before!.available - LIMIT });
      });

      let exporter: { id: string; secret: string };
      let firstJob: string;
      let secondJob: string;

      test('an export job that would pass the limit is refused: 402 with the figures, nothing queued, held or counted', async () => {
        exporter = await exportKey('exports');
        const first = await submit(exporter.secret, exportOf(9400, 2));
        assert.equal(first.status, 202, JSON.stringify(first.body));
        firstJob = first.body.id;
        assert.equal(await spentBy(exporter.id), 2);
        const [was, before] = [await queued(), await balance()];
        const refused = await submit(exporter.secret, exportOf(9401, 2));
        assert.equal(refused.status, 402, JSON.stringify(refused.body));
        assert.equal(refused.body.code, 'signing_key_limit_reached');
        assert.deepEqual([refused.body.cost, refused.body.monthlyCreditLimit, refused.body.creditsSpentThisMonth], [2, LIMIT, 2]);
        assert.match(refused.body.detail, new RegExp(`export costs 2 credits .* monthly limit of ${LIMIT} \\(2 spent`));
        assert.deepEqual(await queued(), was);
        assert.deepEqual(await balance(), before);
        assert.equal(await spentBy(exporter.id), 2);
      });

      test("cancelling a queued job gives its key's spending back: a job of the same cost then fits", async () => {
        const before = await balance();
        const cancelled = await t.request('post', `/v1/jobs/${firstJob}/cancel`, bearer(exporter.secret));
        assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
        assert.equal(cancelled.body.status, 'cancelled');
        assert.equal(await spentBy(exporter.id), 0);
        if (hosted) assert.equal((await balance())!.reserved, before!.reserved - 2);
        const second = await submit(exporter.secret, exportOf(9401, 2));
        assert.equal(second.status, 202, JSON.stringify(second.body));
        secondJob = second.body.id;
        assert.equal(await spentBy(exporter.id), 2);
      });

      test('a job whose result is in the render cache by the time it runs gives its spending back; one that renders keeps it', async () => {
        assert.ok(secondJob, 'the previous test queued a job of 2 credits');
        const cached = await submit(exporter.secret, exportOf(9402, 1));
        assert.equal(cached.status, 202, JSON.stringify(cached.body));
        assert.equal(await spentBy(exporter.id), LIMIT);
        // The same recipe rendered synchronously by another credential (the workspace's owner, or the local key) before the job runs.
        const sync = await t.request('post', '/v1/generate/blob', {
          ...(owner ? bearer(owner) : {}),
          body: { seed: 9402, size: { width: 64, height: 64 }, format: 'png' },
        });
        assert.equal(sync.headers['x-service-cache'], 'MISS');
        const finished = [secondJob, cached.body.id as string].map((id) =>
          armEvent(t.runtime.jobs.lifecycle, 'finished', (job: JobRecord) => job.id === id, 60_000),
        );
        await t.runtime.jobs.runner.start();
        for (const f of finished) await f.wait();
        // The job that rendered (2) stays counted; the one answered from the cache (1) went back.
        assert.equal(await spentBy(exporter.id), 2);
        const rows = await t.runtime.db('jobs').whereIn('id', [secondJob, cached.body.id]).select('id', 'status', 'key_spent_credits');
        assert.deepEqual(Object.fromEntries(rows.map((r) => [r.id, [r.status, Number(r.key_spent_credits)]])), {
          [secondJob]: ['completed', 2],
          [cached.body.id]: ['completed', 0],
        });
        await t.runtime.jobs.runner.stop();
      });

      test('a job gives its spending back to the month it was spent in, not to the month it ends in', async () => {
        const key = await exportKey('month turn');
        const old = await submit(key.secret, exportOf(9500, 2));
        assert.equal(old.status, 202, JSON.stringify(old.body));
        shift = nextMonthShift();
        // A new month starts from zero: a job of 2 fits again beside the last month's 2.
        const current = await submit(key.secret, exportOf(9501, 2));
        assert.equal(current.status, 202, JSON.stringify(current.body));
        assert.equal(await spentBy(key.id), 2);
        // Last month's job cancelled now gives back nothing to this month's spending.
        assert.equal((await t.request('post', `/v1/jobs/${old.body.id}/cancel`, bearer(key.secret))).status, 200);
        assert.equal(await spentBy(key.id), 2);
        assert.equal((await t.request('post', `/v1/jobs/${current.body.id}/cancel`, bearer(key.secret))).status, 200);
        assert.equal(await spentBy(key.id), 0);
      });
    },
  );
}
