// The data layer on both engines: one set of migrations, and SQLite set up for concurrent writers.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, test } from 'node:test';
import { createDatabase, migrateToLatest } from '../../db/database.ts';
import { WorkspacesRepository } from '../../db/repositories/workspaces.repository.ts';
import { DependencyStatus } from '../../src/lib/dependency-status.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { ENGINES, createTestDatabase } from '../support/black-box/databases.ts';
import { ROOT } from '../support/black-box/server-process.ts';

for (const engine of ENGINES) {
  describe(`database on ${engine}`, () => {
    test('migrations apply once and are idempotent', async () => {
      const testDb = await createTestDatabase(engine);
      const db = createDatabase(testDb.settings);
      try {
        const first = await migrateToLatest(db);
        assert.ok(first.length >= 1);
        assert.deepEqual(await migrateToLatest(db), []);
        assert.ok(await db.schema.hasTable('workspaces'));
        assert.ok(await db.schema.hasTable('api_keys'));
        const repo = new WorkspacesRepository(db);
        const created = await repo.ensure({ id: 'ws_a', name: 'A', kind: 'personal', createdAt: 1_700_000_000_123 });
        assert.deepEqual(created, { id: 'ws_a', name: 'A', kind: 'personal', createdAt: 1_700_000_000_123, ownerUserId: null });
        const again = await repo.ensure({ id: 'ws_a', name: 'changed', kind: 'personal', createdAt: 1 });
        assert.equal(again.name, 'A', 'ensure never overwrites');
      } finally {
        await db.destroy();
        await testDb.drop();
      }
    });
  });
}

test('SQLite runs in WAL mode with a busy timeout, and write transactions from concurrent processes all commit', async () => {
  const testDb = await createTestDatabase('sqlite');
  const db = createDatabase(testDb.settings);
  try {
    await migrateToLatest(db);
    const [mode] = await db.raw('PRAGMA journal_mode');
    assert.equal(mode.journal_mode, 'wal');
    const [timeout] = await db.raw('PRAGMA busy_timeout');
    assert.equal(timeout.timeout, 5000);
    await db.destroy();
    // Read-then-write transactions are the ones that die with SQLITE_BUSY under a deferred BEGIN.
    // better-sqlite3 is synchronous, so real contention needs separate processes.
    const filename = (testDb.settings as { filename: string }).filename;
    const writers = ['a', 'b', 'c'].map(
      (prefix) =>
        new Promise<number | null>((resolve) => {
          const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/sqlite-writer.ts', filename, prefix, '60'], {
            cwd: ROOT,
            stdio: ['ignore', 'ignore', 'inherit'],
          });
          child.once('exit', resolve);
        }),
    );
    assert.deepEqual(await Promise.all(writers), [0, 0, 0]);
    const check = createDatabase(testDb.settings);
    const total = await check('workspaces').count({ n: '*' }).first();
    assert.equal(Number(total?.n), 180);
    await check.destroy();
  } finally {
    await testDb.drop();
  }
});

test('a query already in flight when the database went away does not count it back; the next query that answers does', async () => {
  // Each reading of the clock is a later millisecond, so "started before" and "after" are never a tie.
  let now = 0;
  const logged: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void logged.push((JSON.parse(line) as { msg: string }).msg) });
  const status = new DependencyStatus({ logger, clock: { now: () => ++now } });
  const db = createDatabase({ client: 'sqlite', filename: ':memory:' }, { dependencies: status });
  try {
    // The outage begins once this query is on its way (as a fast shutdown can begin).
    db.once('query', () => status.unavailable('database', 'ECONNREFUSED'));
    await db.raw('select 1');
    assert.ok(status.isDown('database'), 'an answer to a query sent before the outage ends nothing');
    await assert.rejects(db.raw('select * from no_such_table'));
    assert.ok(status.isDown('database'), 'a failure for another reason says nothing');
    await db.raw('select 1');
    assert.equal(status.isDown('database'), false);
    assert.deepEqual(logged, [
      'The database is unavailable: requests that need it answer 503 until it is back',
      'The database is available again',
    ]);
  } finally {
    status.close();
    await db.destroy();
  }
});
