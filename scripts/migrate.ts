// `npm run migrate`: applies pending migrations to the configured database (the service also
// migrates at start-up).
import { createDatabase, migrateToLatest } from '../db/database.ts';
import { ConfigError, loadConfig } from '../src/config/config.ts';

try {
  const config = loadConfig(process.env);
  const db = createDatabase(config.database);
  const applied = await migrateToLatest(db);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Already up to date.');
  await db.destroy();
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
