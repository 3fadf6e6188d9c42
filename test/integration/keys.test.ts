// API keys through HTTP on both databases: create (secret once), list (never secrets or hashes),
// revoke (next use is 401 on every process), workspace isolation and the active-key limit.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { ApiKeysRepository } from '../../db/repositories/api-keys.repository.ts';
import { LOCAL_WORKSPACE_ID } from '../../src/services/auth.service.ts';
import { PgKeyRevocationFeed } from '../../src/adapters/pg-listen.key-revocations.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { KeysService, MAX_ACTIVE_KEYS } from '../../src/services/keys.service.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { armCall, armEvent } from '../support/events.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

for (const engine of ENGINES) {
  describe(`keys on ${engine}`, () => {
    let t: TestApp;
    let second: TestApp;
    before(async () => {
      t = await startTestApp(engine);
      // A second API process on the same database.
      second = await startTestApp(engine, { database: t.database });
    });
    after(async () => {
      await second?.close();
      await t?.close();
    });

    describe('createKey', () => {
      test('201 returns the secret once, with a recognisable prefix and ≥128 random bits', async () => {
        const res = await t.request('post', '/v1/keys', { body: { label: 'ci deploys' } });
        assert.equal(res.status, 201);
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.match(res.body.secret, /^svc_local_[0-9A-Za-z]{32}$/);
        assert.equal(res.body.label, 'ci deploys');
        assert.ok(res.body.secret.startsWith(res.body.prefix));
        assert.equal(res.body.revoked, false);
        assert.equal(res.body.lastUsedAt, null);
        assert.equal(res.headers.location, `/v1/keys/${res.body.id}`);
        // Only the hash is stored.
        const row = await t.runtime.db('api_keys').where({ id: res.body.id }).first();
        assert.equal(row.secret_hash, sha256(res.body.secret));
        assert.ok(!JSON.stringify(row).includes(res.body.secret));
        const again = await t.request('post', '/v1/keys', { body: { label: 'ci deploys' } });
        assert.notEqual(again.body.secret, res.body.secret);
      });

      test('400 names the label when it is missing or too long', async () => {
        for (const body of [{}, { label: '' }, { label: 'x'.repeat(101) }]) {
          const res = await t.request('post', '/v1/keys', { body });
          assert.equal(res.status, 400);
          assert.ok(
            res.body.issues.some((i: { path: string }) => i.path.startsWith('body')),
            JSON.stringify(res.body.issues),
          );
        }
      });

      test('401 without credentials', async () => {
        const res = await t.request('post', '/v1/keys', { body: { label: 'x' }, auth: false });
        assert.equal(res.status, 401);
      });

      test(`409 key_limit_reached past ${MAX_ACTIVE_KEYS} active keys`, async () => {
        const ws = 'ws_limit';
        await t.runtime.deps.services.workspaces.ensure({ id: ws, name: 'Limit', kind: 'personal', createdAt: Date.now() });
        const keys = t.runtime.deps.services.keys;
        const first = await keys.create(ws, 'k0');
        for (let i = 1; i < MAX_ACTIVE_KEYS; i++) await keys.create(ws, `k${i}`);
        const over = await t.request('post', '/v1/keys', { body: { label: 'one more' }, headers: bearer(first.secret), auth: false });
        assert.equal(over.status, 409);
        assert.equal(over.body.code, 'key_limit_reached');
        await keys.revoke(ws, first.id);
        const second = await keys.create(ws, 'room again');
        assert.equal((await t.request('get', '/v1/keys', { headers: bearer(second.secret), auth: false })).status, 200);
      });
    });

    describe('listKeys', () => {
      test('200 lists labels, prefixes, scopes, limits and spending, dates and status; never a secret or a hash', async () => {
        const created = (await t.request('post', '/v1/keys', { body: { label: 'listed' } })).body;
        const res = await t.request('get', '/v1/keys');
        assert.equal(res.status, 200);
        assert.equal(res.headers['cache-control'], 'no-store');
        const listed = res.body.find((k: { id: string }) => k.id === created.id);
        assert.deepEqual(Object.keys(listed).sort(), [
          'createdAt',
          'creditsSpentThisMonth',
          'id',
          'label',
          'lastUsedAt',
          'monthlyCreditLimit',
          'prefix',
          'revoked',
          'revokedAt',
          'scopes',
        ]);
        // Created without scopes or a limit: full access, no limit (docs/accounts-keys-credits-billing.md#scoped-keys).
        assert.deepEqual([listed.scopes, listed.monthlyCreditLimit, listed.creditsSpentThisMonth], [null, null, 0]);
        assert.ok(!res.text.includes(created.secret));
        assert.ok(!res.text.includes(sha256(created.secret)));
        // Newest first.
        const times = res.body.map((k: { createdAt: string }) => Date.parse(k.createdAt));
        assert.deepEqual(
          times,
          [...times].sort((a, b) => b - a),
        );
      });

      test('a created key authenticates and records lastUsedAt', async () => {
        const created = (await t.request('post', '/v1/keys', { body: { label: 'used' } })).body;
        // Authentication writes lastUsedAt without waiting for it; wait for that write.
        const touched = armCall(ApiKeysRepository.prototype, 'touch');
        const me = await t.request('get', '/v1/me', { headers: bearer(created.secret), auth: false });
        assert.equal(me.status, 200);
        assert.equal(me.body.workspace.id, LOCAL_WORKSPACE_ID);
        assert.equal(me.body.authMethod, 'api_key');
        const [keyId] = await touched.wait('the lastUsedAt write');
        assert.equal(keyId, created.id);
        await touched.settled();
        const listed = (await t.request('get', '/v1/keys')).body.find((k: { id: string }) => k.id === created.id);
        assert.ok(listed.lastUsedAt, 'lastUsedAt recorded');
      });
    });

    describe('revokeKey', () => {
      test('200 revokes at once: the very next use is 401 on every process', async () => {
        const created = (await t.request('post', '/v1/keys', { body: { label: 'to revoke' } })).body;
        // Both processes have seen the key work (nothing may be cached past the revocation).
        assert.equal((await t.request('get', '/v1/me', { headers: bearer(created.secret), auth: false })).status, 200);
        assert.equal((await second.request('get', '/v1/me', { headers: bearer(created.secret), auth: false })).status, 200);
        // On Postgres the second process keeps the verified key in memory until the revocation's
        // notification reaches it (sent when the revocation commits); on SQLite it reads the row.
        const heard = armEvent<[string]>(second.runtime.deps.services.keys, 'forgotten', (id) => id === created.id);
        const res = await t.request('delete', `/v1/keys/${created.id}`);
        assert.equal(res.status, 200);
        assert.equal(res.body.revoked, true);
        assert.ok(res.body.revokedAt);
        if (engine === 'postgres') await heard.wait('the revocation heard by the second process');
        else heard.stop();
        for (const app of [t, second]) {
          const denied = await app.request('get', '/v1/me', { headers: bearer(created.secret), auth: false });
          assert.equal(denied.status, 401);
          assert.equal(denied.body.code, 'unauthorized');
          assert.match(denied.body.detail, /revoked/);
        }
        // Revoking twice is harmless and keeps the first time.
        const again = await t.request('delete', `/v1/keys/${created.id}`);
        assert.equal(again.status, 200);
        assert.equal(again.body.revokedAt, res.body.revokedAt);
      });

      test("404 for another workspace's key, indistinguishable from a missing one", async () => {
        await t.runtime.deps.services.workspaces.ensure({ id: 'ws_other', name: 'Other', kind: 'personal', createdAt: Date.now() });
        const foreign = await t.runtime.deps.services.keys.create('ws_other', 'theirs');
        const res = await t.request('delete', `/v1/keys/${foreign.id}`);
        const missing = await t.request('delete', '/v1/keys/key_doesnotexist');
        assert.equal(res.status, 404);
        assert.equal(missing.status, 404);
        assert.equal(res.body.code, missing.body.code);
        assert.equal(res.body.title, missing.body.title);
        assert.ok(!(await t.request('get', '/v1/keys')).body.some((k: { id: string }) => k.id === foreign.id));
        // Still active for its owner.
        assert.equal((await t.request('get', '/v1/me', { headers: bearer(foreign.secret), auth: false })).body.workspace.id, 'ws_other');
      });

      test('401 without credentials', async () => {
        assert.equal((await t.request('delete', '/v1/keys/key_x', { auth: false })).status, 401);
      });
    });

    describe('verified keys in memory (Postgres: revocations heard through LISTEN)', { skip: engine !== 'postgres' }, () => {
      /** Reads of api_keys this process makes while `during` runs. */
      async function keyReads(app: TestApp, during: () => Promise<unknown>): Promise<number> {
        let reads = 0;
        const count = (query: { sql: string }) => {
          if (/^select\b/i.test(query.sql) && query.sql.includes('"api_keys"')) reads++;
        };
        app.runtime.db.on('query', count);
        try {
          await during();
        } finally {
          app.runtime.db.off('query', count);
        }
        return reads;
      }
      const me = (app: TestApp, secret: string) => app.request('get', '/v1/me', { headers: bearer(secret), auth: false });

      test('a verified key is kept: the next request reads no key from the database', async () => {
        const created = (await t.request('post', '/v1/keys', { body: { label: 'kept' } })).body;
        assert.equal(await keyReads(second, () => me(second, created.secret)), 1);
        assert.equal(await keyReads(second, () => me(second, created.secret)), 0);
        // A revoked key, or one that never existed, is never kept.
        await t.request('delete', `/v1/keys/${created.id}`);
        const unknown = 'svc_local_' + 'x'.repeat(32);
        for (const secret of [unknown, unknown])
          assert.equal(await keyReads(t, async () => assert.equal((await me(t, secret)).status, 401)), 1);
      });

      /** A keys service of its own on this database, hearing revocations through a feed that reconnects after `retryMs`. */
      async function keysWithFeed(retryMs: number) {
        const settings = t.database.settings;
        if (settings.client !== 'pg') throw new Error('Postgres only');
        const feed = new PgKeyRevocationFeed(settings.url, () => {}, retryMs);
        const keys = new KeysService({ repo: new ApiKeysRepository(t.runtime.db), clock: systemClock, localMode: true, revocations: feed });
        const listening = armEvent<[boolean]>(keys, 'caching', (on) => on);
        await keys.listenForRevocations();
        await listening.wait('listening');
        return keys;
      }
      /** Postgres ends every listening connection of this database (those of the test apps too, which reconnect). */
      const dropListeners = () =>
        t.runtime.db.raw(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query = 'LISTEN api_key_revoked'",
        );
      const reads = async (keys: { verify(secret: string): Promise<unknown> }, secret: string) => {
        let n = 0;
        const count = (query: { sql: string }) => void (/^select\b/i.test(query.sql) && query.sql.includes('"api_keys"') && n++);
        t.runtime.db.on('query', count);
        try {
          return { check: await keys.verify(secret), reads: n };
        } finally {
          t.runtime.db.off('query', count);
        }
      };

      test('a lost listening connection drops every kept key, and a revocation it could not hear is honoured', async () => {
        const keys = await keysWithFeed(3_600_000); // no reconnect during this test
        try {
          const kept = await keys.create(LOCAL_WORKSPACE_ID, 'kept');
          const revoked = await keys.create(LOCAL_WORKSPACE_ID, 'revoked while deaf');
          for (const secret of [kept.secret, revoked.secret]) await keys.verify(secret);
          assert.equal((await reads(keys, kept.secret)).reads, 0);
          const deaf = armEvent<[boolean]>(keys, 'caching', (on) => !on);
          await dropListeners();
          await deaf.wait('no longer listening');
          // Revoked by another process while this one cannot hear it.
          await t.runtime.deps.services.keys.revoke(LOCAL_WORKSPACE_ID, revoked.id);
          const denied = await reads(keys, revoked.secret);
          assert.deepEqual([denied.check, denied.reads], [{ ok: false, reason: 'revoked' }, 1]);
          // Nothing is kept while deaf: every verification reads the row.
          for (let i = 0; i < 2; i++) assert.equal((await reads(keys, kept.secret)).reads, 1);
        } finally {
          await keys.close();
        }
      });

      test('listening again after a lost connection, it keeps verified keys again', async () => {
        const keys = await keysWithFeed(20);
        try {
          const kept = await keys.create(LOCAL_WORKSPACE_ID, 'kept again');
          const deaf = armEvent<[boolean]>(keys, 'caching', (on) => !on);
          const back = armEvent<[boolean]>(keys, 'caching', (on) => on);
          await dropListeners();
          await deaf.wait('no longer listening');
          await back.wait('listening again');
          assert.equal((await reads(keys, kept.secret)).reads, 1);
          assert.equal((await reads(keys, kept.secret)).reads, 0);
          // And hears the next revocation from another process.
          const heard = armEvent<[string]>(keys, 'forgotten', (id) => id === kept.id);
          await t.runtime.deps.services.keys.revoke(LOCAL_WORKSPACE_ID, kept.id);
          await heard.wait('the revocation heard');
          assert.deepEqual((await reads(keys, kept.secret)).check, { ok: false, reason: 'revoked' });
        } finally {
          await keys.close();
        }
      });
    });
  });
}
