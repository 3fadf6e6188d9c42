// The operator commands' composition root (`render-service admin`): the server's database and its
// account services, no renderer, queue or HTTP. Apart from compose.ts, whose imports load the engine
// (canvas, sharp), the generators and every service: an admin command started in about half the CPU.
import type { Logger } from 'pino';
import { createDatabase, migrateToLatest } from '../db/database.ts';
import { ApiKeysRepository } from '../db/repositories/api-keys.repository.ts';
import { CreditsRepository } from '../db/repositories/credits.repository.ts';
import { JobsRepository } from '../db/repositories/jobs.repository.ts';
import { WorkspacesRepository } from '../db/repositories/workspaces.repository.ts';
import type { Config } from './config/config.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { LOCAL_WORKSPACE_ID } from './services/auth.service.ts';
import { CreditsService } from './services/credits.service.ts';
import { KeysService } from './services/keys.service.ts';

/** What `render-service admin` works with: the server's database and its account services, no renderer, queue or HTTP. */
export interface AdminRuntime {
  config: Config;
  workspaces: WorkspacesRepository;
  credits: CreditsService;
  keys: KeysService;
  jobs: JobsRepository;
  clock: Clock;
  close(): Promise<void>;
}

export async function composeAdmin(config: Config, logger: Logger, clock: Clock = systemClock): Promise<AdminRuntime> {
  const db = createDatabase(config.database, { logger });
  try {
    await migrateToLatest(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  const workspaces = new WorkspacesRepository(db);
  if (config.localMode) await workspaces.ensure({ id: LOCAL_WORKSPACE_ID, name: 'Local workspace', kind: 'local', createdAt: clock.now() });
  // The ledger is kept whatever the mode (local mode only does not charge renders against it).
  const credits = new CreditsService({ repo: new CreditsRepository(db), clock, enabled: true, logger });
  // A revocation here reaches every running server: the repository notifies in the same transaction.
  const keys = new KeysService({
    repo: new ApiKeysRepository(db),
    clock,
    localMode: config.localMode,
    onTouchError: (err) => logger.warn({ err }, 'could not record key use'),
  });
  return { config, workspaces, credits, keys, jobs: new JobsRepository(db), clock, close: () => db.destroy() };
}
