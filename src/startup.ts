// Start-up that rides out dependencies which are not there yet (a database still starting, a
// failover, an orchestrator that starts every container at once): the process waits for its
// database and, with BLOB_STORE=s3, its bucket, with backoff, for at most STARTUP_WAIT_SECONDS. An
// API process listens meanwhile (src/http/starting.listener.ts): /v1/health answers 200, /v1/ready
// and every other request 503 with Retry-After. Past the limit it exits 1 for its supervisor.
import { setTimeout as pause } from 'node:timers/promises';
import type { Logger } from 'pino';
import { createDatabase } from '../db/database.ts';
import { SystemRepository } from '../db/repositories/system.repository.ts';
import { BLOB_STORE_PROBE_KEY, createBlobStores } from './compose.ts';
import type { Config } from './config/config.ts';

export interface DependencyState {
  database: boolean;
  blobStore: boolean;
}

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 5_000;
/** While waiting, a line every so often says so (the first failure and the recovery are always logged). */
const STILL_WAITING_LOG_MS = 30_000;

class StartupTimeoutError extends Error {}

/**
 * Resolves once the database answers a query and the blob store a read; `state` shows the last
 * findings as they come. Rejects with StartupTimeoutError after `config.startupWaitMs`, or with the
 * signal's reason when it aborts (a SIGTERM while waiting).
 */
export async function waitForDependencies(
  config: Config,
  logger: Logger,
  state: DependencyState,
  signal?: AbortSignal,
  /** Called once, at the first failed attempt. */
  onWaiting?: () => void,
): Promise<void> {
  // knex's failed connection attempts go to debug: this loop says what it waits for (warn, then every 30 s).
  const db = createDatabase(config.database, { logger });
  const system = new SystemRepository(db);
  const blobs = await createBlobStores(config.blobStore, db);
  const started = Date.now();
  let delay = FIRST_RETRY_MS;
  let lastLog = 0;
  try {
    for (let attempt = 1; ; attempt++) {
      const databaseFailure = await system.pingFailure();
      // A database-backed store has no probe of its own: the database's answer is its answer.
      const blobFailure =
        config.blobStore.kind === 's3'
          ? await blobs.results.get(BLOB_STORE_PROBE_KEY).then(
              () => undefined,
              (err: unknown) => (err instanceof Error ? err.message : String(err)),
            )
          : undefined;
      state.database = databaseFailure === undefined;
      state.blobStore = blobFailure === undefined && (config.blobStore.kind !== 'database' || state.database);
      if (state.database && state.blobStore) {
        if (attempt > 1) logger.info({ attempt, waitedMs: Date.now() - started }, 'dependencies reachable: starting');
        return;
      }
      const waited = Date.now() - started;
      if (waited >= config.startupWaitMs)
        throw new StartupTimeoutError(
          `Gave up after ${Math.round(waited / 1000)} s (STARTUP_WAIT_SECONDS): ${[
            databaseFailure && `the database is unreachable (${databaseFailure})`,
            blobFailure && `object storage is unreachable (${blobFailure})`,
          ]
            .filter(Boolean)
            .join('; ')}.`,
        );
      if (attempt === 1) onWaiting?.();
      if (attempt === 1 || Date.now() - lastLog >= STILL_WAITING_LOG_MS) {
        lastLog = Date.now();
        logger.warn(
          { attempt, databaseFailure, blobStoreFailure: blobFailure, waitLimitSeconds: config.startupWaitMs / 1000 },
          'waiting for dependencies',
        );
      }
      await pause(Math.min(delay, config.startupWaitMs - waited), undefined, { signal });
      delay = Math.min(MAX_RETRY_MS, delay * 2);
    }
  } finally {
    blobs.close();
    await db.destroy();
  }
}

/**
 * The entry points' wait (src/main.ts, src/worker.ts): waitForDependencies, where a stop signal
 * meanwhile exits 0 (there is nothing to drain yet) and running out of STARTUP_WAIT_SECONDS exits 1
 * with one line naming what could not be reached.
 */
export async function waitForDependenciesOrExit(
  config: Config,
  logger: Logger,
  state: DependencyState,
  onWaiting?: () => void,
): Promise<void> {
  const startup = new AbortController();
  const stopStarting = () => startup.abort(new Error('stopped while starting'));
  process.once('SIGTERM', stopStarting).once('SIGINT', stopStarting);
  try {
    await waitForDependencies(config, logger, state, startup.signal, onWaiting);
  } catch (err) {
    if (startup.signal.aborted) process.exit(0);
    if (err instanceof StartupTimeoutError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  } finally {
    process.off('SIGTERM', stopStarting).off('SIGINT', stopStarting);
  }
}
