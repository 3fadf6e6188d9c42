// The database, and the mode it implies: without DATABASE_URL a process runs in local mode on SQLite
// under DATA_DIR; hosted mode needs Postgres. Also how long start-up waits for it.
import path from 'node:path';
import type { EnvReader } from './env-reader.ts';

export interface DatabaseConfig {
  /** Local mode: the explicit local workspace, API_KEYS, no credits, the local gateway. */
  readonly localMode: boolean;
  readonly dataDir: string;
  readonly database: { readonly client: 'sqlite'; readonly filename: string } | { readonly client: 'pg'; readonly url: string };
  /** How long a starting process waits for its database and object store before it gives up (exit 1). */
  readonly startupWaitMs: number;
}

export function parseDatabase({ str, int, bool, problems }: EnvReader, cwd: string): DatabaseConfig {
  const databaseUrl = str('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  // Without a database URL the only sensible mode is local, on SQLite.
  const localMode = bool('SERVICE_LOCAL_MODE') ?? databaseUrl === undefined;
  if (!localMode && databaseUrl === undefined)
    problems.push('DATABASE_URL is required when SERVICE_LOCAL_MODE=0 (hosted mode runs on Postgres)');
  const dataDir = path.resolve(cwd, str('DATA_DIR') ?? 'data');
  return {
    localMode,
    dataDir,
    database:
      databaseUrl !== undefined ? { client: 'pg', url: databaseUrl } : { client: 'sqlite', filename: path.join(dataDir, 'service.sqlite') },
    startupWaitMs: int('STARTUP_WAIT_SECONDS', 300, 0, 3_600) * 1000,
  };
}
