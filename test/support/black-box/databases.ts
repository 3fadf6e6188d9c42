// Suites of what differs between the engines (repositories, transactions, queues, rate-limit stores,
// key revocations, the ledger, jobs) run on both (ENGINES); suites of what lies above the
// repositories (HTTP rules, validation, rendering) run on one (ONE_ENGINE). docs/tests.md ("Which
// files run where") lists them. Each call makes a fresh database of its own:
// a SQLite file in a temp dir, or a new Postgres database on TEST_DATABASE_URL's server.
// `migrated: true` starts it from the run's template (test/support/database-templates.ts, made once by
// scripts/run-tests.mjs): a copy of a migrated SQLite file or `CREATE DATABASE … TEMPLATE`, instead of
// every suite migrating from scratch. Without a template (a file run by hand) it is empty and the app migrates it.
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * Where a test database lives, in the shape of the service's own database settings (the harness
 * hands it to the app as config.database, so the type checker compares the two). Written here so
 * the black-box acceptance tier can create databases without importing the product.
 */
export type DatabaseSettings = { readonly client: 'sqlite'; readonly filename: string } | { readonly client: 'pg'; readonly url: string };

export type EngineName = 'sqlite' | 'postgres';

export interface TestDatabase {
  engine: EngineName;
  settings: DatabaseSettings;
  drop(): Promise<void>;
}

export const ENGINES: readonly EngineName[] = ['sqlite', 'postgres'];

/**
 * The engine of suites that exercise nothing below the repositories: SQLite, local mode's default.
 * What such a suite meets in the database (keys, presets, jobs, the render cache) has suites of its
 * own on both engines.
 */
export const ONE_ENGINE: readonly EngineName[] = ['sqlite'];

/** Where scripts/run-tests.mjs passes the run's templates to the test processes. */
export const TEMPLATE_ENV = { sqlite: 'TEST_SQLITE_TEMPLATE', postgres: 'TEST_POSTGRES_TEMPLATE' } as const;

export function postgresAvailable(): boolean {
  return Boolean(process.env.TEST_DATABASE_URL);
}

export async function createTestDatabase(engine: EngineName, options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const template = options.migrated ? process.env[TEMPLATE_ENV[engine]] : undefined;
  if (engine === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'render-service-sqlite-'));
    const filename = path.join(dir, 'test.sqlite');
    if (template) copyFileSync(template, filename);
    return {
      engine,
      settings: { client: 'sqlite', filename },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set: run tests through `npm test` (it starts an embedded Postgres)');
  const name = `t_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, async (admin) => {
    // A file copy of the small template (Postgres 15 and later WAL-log every page of it by default): on
    // the run's embedded Postgres (fsync off, in /dev/shm) 30 clones and drops took 1.1–1.3 s of its CPU, not 2.0–2.4.
    const fileCopy = template && Number((await admin.query('SHOW server_version_num')).rows[0].server_version_num) >= 150000;
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}${fileCopy ? ' STRATEGY FILE_COPY' : ''}`);
  });
  return {
    engine,
    settings: { client: 'pg', url: databaseUrl(adminUrl, name) },
    drop: async () => {
      await withAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** TEST_DATABASE_URL's server, another database. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs statements on the admin connection (CREATE/DROP DATABASE cannot run in another database). */
export async function withAdmin<T>(adminUrl: string, use: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await use(admin);
  } finally {
    await admin.end();
  }
}
