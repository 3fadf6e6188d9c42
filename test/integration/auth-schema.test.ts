// Our hand-written migration creates exactly the tables the sign-in library expects, on both
// databases: better-auth's own schema diff finds nothing to create or add.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { getMigrations } from 'better-auth/db/migration';
import pg from 'pg';
import { AUTH_SCHEMA } from '../../src/adapters/better-auth.sign-in.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

for (const engine of ENGINES) {
  describe(`sign-in tables on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
    });
    after(async () => t?.close());

    test('better-auth reports no missing table or column', async () => {
      const settings = t.database.settings;
      const database = settings.client === 'sqlite' ? new Database(settings.filename) : new pg.Pool({ connectionString: settings.url });
      try {
        const diff = await getMigrations({ database, ...AUTH_SCHEMA, telemetry: { enabled: false } } as never);
        assert.deepEqual(
          { created: diff.toBeCreated.length, added: diff.toBeAdded.length },
          { created: 0, added: 0 },
          await diff.compileMigrations(),
        );
      } finally {
        if (database instanceof pg.Pool) await database.end();
        else database.close();
      }
    });
  });
}
