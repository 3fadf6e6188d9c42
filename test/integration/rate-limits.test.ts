// Rate limits through HTTP on both databases: RateLimit / RateLimit-Policy headers on every
// authenticated response, 429 rate_limited with Retry-After past a limit, the key and workspace
// buckets acting independently, public routes unlimited, and (Postgres) counts shared by every
// API process on the database and a failing store failing open. (Settings of 0, the timeout and
// the headers' arithmetic are unit-tested in src/services/rate-limit.service.test.ts.) Requests
// that fail authentication are counted per client address, which TRUST_PROXY decides.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type supertest from 'supertest';
import knex from 'knex';
import { LOCAL_WORKSPACE_ID } from '../../src/services/auth.service.ts';
import { createPostgresRateLimiter } from '../../src/adapters/rate-limit.stores.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

const WORKSPACE_LIMIT = 6;
const KEY_LIMIT = 3;
const ENV = {
  RATE_LIMIT_WORKSPACE_PER_MINUTE: String(WORKSPACE_LIMIT),
  RATE_LIMIT_KEY_PER_MINUTE: String(KEY_LIMIT),
  ALLOWED_ORIGINS: 'https://app.example.test',
};
const BOTH_POLICIES = `"workspace";q=${WORKSPACE_LIMIT};w=60, "key";q=${KEY_LIMIT};w=60`;
const WORKSPACE_POLICY = `"workspace";q=${WORKSPACE_LIMIT};w=60`;

const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

/** Parses `RateLimit: "<policy>";r=<n>;t=<n>`. */
function rateLimit(res: supertest.Response): { policy: string; r: number; t: number } {
  const header = res.headers.ratelimit;
  assert.ok(header, `RateLimit header missing on ${res.status}`);
  const m = /^"(workspace|key)";r=(\d+);t=(\d+)$/.exec(header);
  assert.ok(m, `RateLimit header malformed: ${header}`);
  const parsed = { policy: m[1], r: Number(m[2]), t: Number(m[3]) };
  assert.ok(parsed.t >= 1 && parsed.t <= 60, `t=${parsed.t} outside the 60 s window`);
  return parsed;
}

function assertRateLimited(res: supertest.Response, policy: 'workspace' | 'key'): void {
  assert.equal(res.status, 429);
  assert.equal(res.body.code, 'rate_limited');
  assert.match(res.body.detail, new RegExp(`${policy} rate limit`));
  const retryAfter = Number(res.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${res.headers['retry-after']}`);
  assert.ok(res.headers['ratelimit-policy']);
  const limit = rateLimit(res);
  assert.equal(limit.policy, policy);
  assert.equal(limit.r, 0);
}

for (const engine of ENGINES) {
  describe(`rate limits on ${engine}`, () => {
    let t: TestApp;
    let n = 0;
    /** A fresh workspace (fresh buckets) with `count` API keys. */
    const workspaceWithKeys = async (count: number) => {
      const ws = `ws_rl_${++n}`;
      await t.runtime.deps.services.workspaces.ensure({ id: ws, name: ws, kind: 'personal', createdAt: Date.now() });
      const secrets: string[] = [];
      for (let i = 0; i < count; i++) secrets.push((await t.runtime.deps.services.keys.create(ws, `key ${i}`)).secret);
      return { ws, secrets };
    };
    const me = (secret: string, app: TestApp = t) => app.request('get', '/v1/me', { auth: false, headers: bearer(secret) });

    before(async () => {
      t = await startTestApp(engine, { env: ENV });
    });
    after(async () => t?.close());

    test('every authenticated response carries both policies and a decreasing remaining count', async () => {
      const { ws, secrets } = await workspaceWithKeys(1);
      for (let i = 1; i <= KEY_LIMIT; i++) {
        const res = await me(secrets[0]);
        assert.equal(res.status, 200);
        assert.equal(res.body.workspace.id, ws);
        assert.equal(res.headers['ratelimit-policy'], BOTH_POLICIES);
        // The key (3) is tighter than the workspace (6) throughout.
        assert.deepEqual({ ...rateLimit(res), t: 0 }, { policy: 'key', r: KEY_LIMIT - i, t: 0 });
      }
    });

    test(`request ${KEY_LIMIT + 1} of a key is 429 rate_limited with Retry-After and the headers`, async () => {
      const { secrets } = await workspaceWithKeys(1);
      for (let i = 0; i < KEY_LIMIT; i++) assert.equal((await me(secrets[0])).status, 200);
      const res = await me(secrets[0]);
      assertRateLimited(res, 'key');
      assert.equal(res.headers['ratelimit-policy'], BOTH_POLICIES);
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
      // Still refused, on any authenticated operation.
      assertRateLimited(await t.request('get', '/v1/keys', { auth: false, headers: bearer(secrets[0]) }), 'key');
    });

    test('errors count and carry the headers too (validation failures, 404)', async () => {
      const { secrets } = await workspaceWithKeys(1);
      const invalid = await t.request('post', '/v1/keys', { auth: false, headers: bearer(secrets[0]), body: {} });
      assert.equal(invalid.status, 400);
      assert.deepEqual({ ...rateLimit(invalid), t: 0 }, { policy: 'key', r: KEY_LIMIT - 1, t: 0 });
      const missing = await t.request('delete', '/v1/keys/key_doesnotexist', { auth: false, headers: bearer(secrets[0]) });
      assert.equal(missing.status, 404);
      assert.equal(rateLimit(missing).r, KEY_LIMIT - 2);
    });

    test('keys of one workspace share its bucket; a refused key does not spend it; another workspace is unaffected', async () => {
      const { secrets } = await workspaceWithKeys(3);
      const [a, b, c] = secrets;
      for (let i = 0; i < KEY_LIMIT; i++) assert.equal((await me(a)).status, 200);
      // a is out; its refused requests do not count against the workspace.
      assertRateLimited(await me(a), 'key');
      assertRateLimited(await me(a), 'key');
      // b has its own key budget, drawn from the same workspace (3 of 6 left).
      for (let i = 1; i <= KEY_LIMIT; i++) {
        const res = await me(b);
        assert.equal(res.status, 200);
        assert.equal(rateLimit(res).r, KEY_LIMIT - i);
      }
      // The workspace is now used up: c, untouched, is refused by the workspace limit.
      assertRateLimited(await me(c), 'workspace');
      // Another workspace (and the local one) carries on.
      const other = await workspaceWithKeys(1);
      const res = await me(other.secrets[0]);
      assert.equal(res.status, 200);
      assert.deepEqual({ ...rateLimit(res), t: 0 }, { policy: 'key', r: KEY_LIMIT - 1, t: 0 });
      assert.equal((await t.request('get', '/v1/me')).status, 200);
    });

    test('the workspace policy is reported when it is the tighter one', async () => {
      const { secrets } = await workspaceWithKeys(3);
      for (const s of secrets.slice(0, 2)) for (let i = 0; i < KEY_LIMIT - 1; i++) assert.equal((await me(s)).status, 200);
      // Workspace: 4 of 6 used, 2 left; the third key has 3 left, then 2 after this request, the workspace 1.
      const res = await me(secrets[2]);
      assert.deepEqual({ ...rateLimit(res), t: 0 }, { policy: 'workspace', r: 1, t: 0 });
    });

    test('API_KEYS and the local gateway: a key bucket without the secret, one shared workspace bucket', async () => {
      // The local workspace's own bucket (ws_local) starts fresh in this app: the gateway counts only against it.
      const gateway = await t.request('get', '/v1/me', { auth: false, headers: { 'Sec-Fetch-Site': 'same-origin' } });
      assert.equal(gateway.status, 200);
      assert.equal(gateway.body.workspace.id, LOCAL_WORKSPACE_ID);
      assert.equal(gateway.headers['ratelimit-policy'], WORKSPACE_POLICY);
      const gatewayLeft = rateLimit(gateway);
      assert.equal(gatewayLeft.policy, 'workspace');
      const keyed = await t.request('get', '/v1/me');
      assert.equal(keyed.status, 200);
      assert.equal(keyed.headers['ratelimit-policy'], BOTH_POLICIES);
      const keyedLeft = rateLimit(keyed);
      // Whichever is tighter, the workspace went down by one more.
      assert.ok(keyedLeft.r <= gatewayLeft.r - 1, JSON.stringify({ gatewayLeft, keyedLeft }));
    });

    test('public routes carry no limit', async () => {
      const { secrets } = await workspaceWithKeys(1);
      for (let i = 0; i <= KEY_LIMIT; i++) await me(secrets[0]);
      for (const url of ['/v1/health', '/v1/generators', '/v1/openapi.json']) {
        for (const auth of [false, true]) {
          const res = await t.request('get', url, { auth: false, headers: auth ? bearer(secrets[0]) : {} });
          assert.equal(res.status, 200, url);
          assert.equal(res.headers.ratelimit, undefined, url);
          assert.equal(res.headers['ratelimit-policy'], undefined, url);
        }
      }
      // Unauthenticated requests to protected routes are 401, uncounted and unlabelled.
      const denied = await t.request('get', '/v1/me', { auth: false });
      assert.equal(denied.status, 401);
      assert.equal(denied.headers.ratelimit, undefined);
    });

    test('CORS exposes the headers to listed origins', async () => {
      const res = await t.request('get', '/v1/me', { headers: { Origin: 'https://app.example.test' } });
      assert.equal(res.status, 200);
      const exposed = String(res.headers['access-control-expose-headers']).split(/,\s*/);
      for (const h of ['RateLimit', 'RateLimit-Policy', 'Retry-After']) assert.ok(exposed.includes(h), exposed.join(', '));
    });

    if (engine === 'postgres') {
      test('two API processes on one database share the counts', async () => {
        const second = await startTestApp(engine, { database: t.database, env: ENV });
        try {
          const { secrets } = await workspaceWithKeys(1);
          // Each process counts in memory and settles with Postgres in the background (every 100 ms);
          // settle() does it now, so each step sees the other process's counts.
          const settled = async () => {
            await t.runtime.deps.services.rateLimiter.settle();
            await second.runtime.deps.services.rateLimiter.settle();
          };
          assert.equal(rateLimit(await me(secrets[0], t)).r, 2);
          await settled();
          assert.equal(rateLimit(await me(secrets[0], second)).r, 1);
          await settled();
          assert.equal(rateLimit(await me(secrets[0], t)).r, 0);
          await settled();
          assertRateLimited(await me(secrets[0], second), 'key');
          await settled();
          assertRateLimited(await me(secrets[0], t), 'key');
          await settled();
          const rows = await t.runtime.db('rate_limits').where('key', 'like', 'rl_key:%');
          assert.ok(rows.length > 0);
          assert.ok(!rows.some((r: { key: string }) => secrets.some((s) => r.key.includes(s))));
        } finally {
          await second.close();
        }
      });

      test('a failing store fails open with a warning', async () => {
        // A database nobody listens on: every count fails at once.
        const quiet = { warn() {}, error() {}, debug() {}, deprecate() {} };
        const broken = knex({ client: 'pg', connection: 'postgres://nobody:nothing@127.0.0.1:1/none', log: quiet });
        const original = t.runtime.deps.services.rateLimiter;
        const failing = createPostgresRateLimiter(t.runtime.deps.config.rateLimit, broken, t.runtime.deps.logger);
        t.runtime.deps.services.rateLimiter = failing;
        try {
          const { secrets } = await workspaceWithKeys(1);
          for (let i = 0; i < KEY_LIMIT + 2; i++) {
            const res = await me(secrets[0]);
            assert.equal(res.status, 200);
            assert.equal(res.headers['ratelimit-policy'], BOTH_POLICIES);
            assert.equal(res.headers.ratelimit, undefined);
          }
          // Throttled: one warning for the burst, not one per request.
          const warnings = t.logs.filter((l) => l.includes('rate-limit store failed'));
          assert.equal(warnings.length, 1, warnings.join('\n'));
          assert.equal(JSON.parse(warnings[0]).level, 40);
        } finally {
          t.runtime.deps.services.rateLimiter = original;
          await failing.close();
          await broken.destroy();
        }
      });
    }
  });
}

for (const engine of ENGINES) {
  describe(`failed authentication per client address on ${engine}`, () => {
    const LIMIT = 3;
    const bad = { auth: false as const, headers: bearer('svc_local_not_a_real_key_0000000000000000') };

    test(`${LIMIT} failures from an address are 401, then 429; a valid key from it still works; X-Forwarded-For is not believed by default`, async () => {
      const t = await startTestApp(engine, { env: { RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: String(LIMIT) } });
      try {
        for (let i = 1; i <= LIMIT; i++) {
          const res = await t.request('get', '/v1/me', bad);
          assert.equal(res.status, 401);
          assert.equal(res.headers.ratelimit, `"unauthenticated";r=${LIMIT - i};t=${res.headers.ratelimit.split('t=')[1]}`);
        }
        const refused = await t.request('get', '/v1/me', bad);
        assert.equal(refused.status, 429);
        assert.equal(refused.body.code, 'rate_limited');
        assert.match(refused.body.detail, /without valid credentials/);
        assert.ok(Number(refused.headers['retry-after']) >= 1);
        assert.equal((await t.request('get', '/v1/keys', { auth: false })).status, 429, 'no credentials count the same');
        assert.equal(
          (await t.request('get', '/v1/keys', { auth: false, headers: { ...bad.headers, 'X-Forwarded-For': '198.51.100.7' } })).status,
          429,
          'a claimed address changes nothing',
        );
        assert.equal((await t.request('get', '/v1/me')).status, 200, 'valid credentials are not refused');
      } finally {
        await t.close();
      }
    });

    test('behind a trusted proxy (TRUST_PROXY) each forwarded client has its own count', async () => {
      const t = await startTestApp(engine, { env: { RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: String(LIMIT), TRUST_PROXY: 'loopback' } });
      try {
        const from = (address: string) => ({ ...bad, headers: { ...bad.headers, 'X-Forwarded-For': address } });
        for (let i = 0; i < LIMIT; i++) assert.equal((await t.request('get', '/v1/me', from('203.0.113.1'))).status, 401);
        assert.equal((await t.request('get', '/v1/me', from('203.0.113.1'))).status, 429);
        assert.equal((await t.request('get', '/v1/me', from('203.0.113.2'))).status, 401);
      } finally {
        await t.close();
      }
    });
  });
}
