// Migrations in order. An explicit list (instead of a directory scan) works the same under tsx,
// in tests and in `npm run migrate`, and one list runs on both SQLite and Postgres.
import type { Knex } from 'knex';
import * as initial from './20261123_0001_initial.ts';
import * as blobs from './20261123_0002_blobs.ts';
import * as accounts from './20261123_0003_accounts.ts';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

const migrations: ReadonlyArray<readonly [string, Migration]> = [
  ['20261123_0001_initial', initial],
  ['20261123_0002_blobs', blobs],
  ['20261123_0003_accounts', accounts],
];

export const migrationSource: Knex.MigrationSource<readonly [string, Migration]> = {
  getMigrations: async () => [...migrations],
  getMigrationName: ([name]) => name,
  getMigration: async ([, migration]) => migration,
};
