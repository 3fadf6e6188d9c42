// `npm run migrate`: applies pending migrations to the configured database (the service also
// migrates at start-up).
import { createDatabase, migrateToLatest } from '../db/database.ts';
import { ConfigError, loadConfig } from '../src/config/config.ts';
import { createLogger } from '../src/lib/logger.ts';

try {
  const config = loadConfig(process.env);
  // knex's own messages as JSON log lines (on stderr), never its console output.
  const db = createDatabase(config.database, { logger: createLogger(config.logLevel, process.stderr) });
  const applied = await migrateToLatest(db);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Already up to date.');
  await db.destroy();
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
