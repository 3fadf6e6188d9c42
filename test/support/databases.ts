// Every database-backed suite runs on both engines. Each call makes a fresh, empty database:
// a SQLite file in a temp dir, or a new Postgres database on TEST_DATABASE_URL's server.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseSettings } from '../../db/database.ts';

export type EngineName = 'sqlite' | 'postgres';

export interface TestDatabase {
  engine: EngineName;
  settings: DatabaseSettings;
  drop(): Promise<void>;
}

export const ENGINES: readonly EngineName[] = ['sqlite', 'postgres'];

export function postgresAvailable(): boolean {
  return Boolean(process.env.TEST_DATABASE_URL);
}

export async function createTestDatabase(engine: EngineName): Promise<TestDatabase> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'render-service-sqlite-'));
    return {
      engine,
      settings: { client: 'sqlite', filename: path.join(dir, 'test.sqlite') },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set: run tests through `npm test` (it starts an embedded Postgres)');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    engine,
    settings: { client: 'pg', url: url.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
