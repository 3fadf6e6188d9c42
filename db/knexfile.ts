// knex settings derived from the same Config the service uses (for tooling that expects a knexfile).
import { loadConfig } from '../src/config/config.ts';
import { createDatabase } from './database.ts';

export function databaseFromEnvironment() {
  return createDatabase(loadConfig(process.env).database);
}
