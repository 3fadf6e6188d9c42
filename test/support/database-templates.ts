// Makes the run's template databases once, so suites copy a migrated database instead of migrating
// their own (scripts/run-tests.mjs runs this before the tiers and passes the result on through
// TEMPLATE_ENV). Postgres: a database with the migrations and pg-boss's schema and queue, which
// `CREATE DATABASE … TEMPLATE` clones; SQLite: a migrated file, copied per suite.
//   node --import tsx test/support/database-templates.ts <dir>   prints {"TEST_SQLITE_TEMPLATE": …, …}
//   node --import tsx test/support/database-templates.ts --drop  drops TEST_POSTGRES_TEMPLATE
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createDatabase, migrateToLatest } from '../../db/database.ts';
import { exportQueueOptions, PgBossJobQueue } from '../../src/jobs/pg-boss.queue.ts';
import { TEMPLATE_ENV, databaseUrl, withAdmin } from './black-box/databases.ts';

async function migrate(settings: Parameters<typeof createDatabase>[0]): Promise<void> {
  const db = createDatabase(settings);
  try {
    await migrateToLatest(db);
  } finally {
    // Closing checkpoints SQLite's WAL into the file, so the file alone is the whole database.
    await db.destroy();
  }
}

export async function createTemplates(dir: string, adminUrl: string | undefined): Promise<Record<string, string>> {
  const filename = path.join(dir, 'template.sqlite');
  await migrate({ client: 'sqlite', filename });
  const env: Record<string, string> = { [TEMPLATE_ENV.sqlite]: filename };
  if (!adminUrl) return env;
  const name = `tpl_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = databaseUrl(adminUrl, name);
  await migrate({ client: 'pg', url });
  // The same queue compose() declares, so a clone's first start finds pg-boss installed.
  const queue = new PgBossJobQueue(exportQueueOptions({ connectionString: url, supervise: false }), (err) =>
    console.error('[template pg-boss]', err),
  );
  await queue.open();
  await queue.close();
  // A template must have no sessions when it is cloned; pg-boss may still be closing its pool.
  await withAdmin(adminUrl, (admin) =>
    admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]),
  );
  env[TEMPLATE_ENV.postgres] = name;
  return env;
}

/** Drops the Postgres template (a server of TEST_DATABASE_URL's outlives the run; the embedded one does not). */
export async function dropTemplates(adminUrl: string | undefined): Promise<void> {
  const name = process.env[TEMPLATE_ENV.postgres];
  if (adminUrl && name) await withAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === '--drop') await dropTemplates(process.env.TEST_DATABASE_URL);
  else process.stdout.write(JSON.stringify(await createTemplates(process.argv[2]!, process.env.TEST_DATABASE_URL)));
  process.exit(0);
}
