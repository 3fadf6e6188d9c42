// The app refuses to start when handlers and the contract disagree, in either direction; when a
// local-mode process is pointed at a database hosted mode uses; and when hosted mode is given
// API_KEYS. A local-mode process also refuses every hosted credential it meets.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ApiKeysRepository } from '../../db/repositories/api-keys.repository.ts';
import { handlers } from '../../handlers/index.ts';
import { ConfigError } from '../../src/config/config.ts';
import { createOperationsRouter } from '../../src/http/operations.router.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { KeysService } from '../../src/services/keys.service.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { HOSTED_ENV, sharedTestApps, startTestApp, type TestApp, workspaceKey } from '../support/harness.ts';
import { runService } from '../support/black-box/server-process.ts';

/** A local-mode app per engine: the handler table's (SQLite), then the hosted-credential suites'. */
const localApp = sharedTestApps();

describe('handler table vs contract', () => {
  let t: TestApp;
  before(async () => {
    t = await localApp('sqlite');
  });

  test('a missing handler fails the start-up', async () => {
    const { getHealth: _omitted, ...rest } = handlers;
    await assert.rejects(
      createOperationsRouter(t.runtime.deps, {
        handlers: rest as never,
        authenticate: t.runtime.deps.services.auth.authenticate,
        authorized: [],
      }),
      /Missing: getHealth/,
    );
  });

  test('a handler for an operation the contract does not have fails the start-up', async () => {
    await assert.rejects(
      createOperationsRouter(t.runtime.deps, {
        handlers: { ...handlers, deleteEverything: () => {} } as never,
        authenticate: t.runtime.deps.services.auth.authenticate,
        authorized: [],
      }),
      /Not in the contract: deleteEverything/,
    );
  });

  test('secrets in request headers never reach the log', async () => {
    const secrets = ['Bearer svc_local_not_a_real_key_but_secret_1', 'session=cookie-secret-2', 't=1,v1=signature-secret-3'];
    await t.request('get', '/v1/me', {
      auth: false,
      headers: { Authorization: secrets[0], Cookie: secrets[1], 'Payment-Signature': secrets[2] },
    });
    await t.request('post', '/v1/billing/webhook', { auth: false, headers: { 'Stripe-Signature': secrets[2] }, body: { id: 'evt' } });
    const log = t.logs.join('\n');
    assert.ok(log.includes('/v1/me'), 'the request itself is logged');
    for (const s of ['svc_local_not_a_real_key_but_secret_1', 'cookie-secret-2', 'signature-secret-3']) assert.ok(!log.includes(s), s);
    for (const line of t.logs) assert.doesNotThrow(() => JSON.parse(line), 'log lines are JSON');
  });
});

for (const engine of ENGINES) {
  describe(`local mode and hosted credentials on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await localApp(engine);
    });

    test('a svc_live_ key in the database is 401 to a local-mode process (it bills nothing)', async () => {
      await t.runtime.deps.services.workspaces.ensure({ id: 'ws_customer', name: 'Customer', kind: 'personal', createdAt: Date.now() });
      // A customer's key, as a hosted process would have issued it into this database.
      const live = await new KeysService({ repo: new ApiKeysRepository(t.runtime.db), clock: systemClock, localMode: false }).create(
        'ws_customer',
        'customer',
      );
      assert.match(live.secret, /^svc_live_/);
      const res = await t.request('post', '/v1/generate/mesh-gradient', {
        auth: false,
        headers: { Authorization: `Bearer ${live.secret}` },
        body: { size: { width: 32, height: 32 } },
      });
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'unauthorized');
      // The local workspace's own keys still work.
      assert.equal((await t.request('get', '/v1/me')).status, 200);
    });

    test('a local-mode process refuses to start on that database, before touching it', async () => {
      // The database now holds a svc_live_ key (previous test).
      const tables = async () => (await t.runtime.db('knex_migrations').count({ n: '*' }).first())?.n;
      const migrations = await tables();
      await assert.rejects(startTestApp(engine, { database: t.database }), (err: unknown) => {
        assert.ok(err instanceof ConfigError, String(err));
        assert.match(
          err.message,
          /SERVICE_LOCAL_MODE=1 refuses this database: it holds hosted data \(0 signed-in users' workspaces, 1 svc_live_ keys\)/,
        );
        return true;
      });
      assert.equal(await tables(), migrations);
    });
  });
}

describe('mode refusals of the real process (postgres)', () => {
  let hosted: TestApp;
  let dataDir: string;
  before(async () => {
    hosted = await startTestApp('postgres', { env: HOSTED_ENV });
    await workspaceKey(hosted, { id: 'ws_hosted_customer', name: 'Customer' }, 'live');
    dataDir = mkdtempSync(path.join(tmpdir(), 'render-service-modes-'));
  });
  after(async () => {
    await hosted?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const url = () => (hosted.database.settings as { url: string }).url;
  const exitOf = async (env: Record<string, string>) => {
    const err = (await runService({ DATA_DIR: dataDir, ...env }).then(
      async (p) => {
        await p.stop();
        assert.fail('the service started');
      },
      (e: unknown) => e,
    )) as { code: number; stderr: string };
    return err;
  };

  test('SERVICE_LOCAL_MODE=1 on a hosted database exits 78 with a clear message, and adds nothing to it', async () => {
    const { code, stderr } = await exitOf({ SERVICE_LOCAL_MODE: '1', DATABASE_URL: url() });
    assert.equal(code, 78);
    assert.match(stderr, /SERVICE_LOCAL_MODE=1 refuses this database: it holds hosted data/);
    assert.equal((await hosted.runtime.db('workspaces').where({ kind: 'local' })).length, 0, 'no local workspace was created in it');
    assert.ok(!existsSync(path.join(dataDir, 'local-api-key')), 'it refused before writing a local API key');
  });

  test('hosted mode with API_KEYS set exits 78, reported with the other invalid settings', async () => {
    const { code, stderr } = await exitOf({ ...HOSTED_ENV, DATABASE_URL: url(), API_KEYS: 'svc_local_0123456789abcdef', PORT: 'eighty' });
    assert.equal(code, 78);
    assert.match(stderr, /API_KEYS is for local mode only/);
    assert.match(stderr, /PORT must be an integer/);
  });
});
