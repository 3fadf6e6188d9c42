// A worker process: runs export jobs from the shared database, serves no HTTP. Start any number
// (`npm run worker`) on any machine that reaches the database. SIGTERM drains: no new claims,
// running jobs stop (their FFmpeg children are killed) and go back to the queue for another worker.
// It waits for its database at start-up (src/startup.ts) and outlives its outages (process-policy.ts).
// It keeps no render cache in memory (compose's `role`): it would only hold the results it wrote.
// First, before anything loads the canvas library: its allocator's settings.
import './memory-settings.ts';
import { compose } from './compose.ts';
import { ConfigError, loadConfig } from './config/config.ts';
import { createLogger } from './lib/logger.ts';
import type { DependencyStatus } from './lib/dependency-status.ts';
import { startMetricsServer } from './http/metrics.server.ts';
import { installProcessPolicy } from './process-policy.ts';
import { drainOnSignals } from './shutdown.ts';
import { waitForDependenciesOrExit } from './startup.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig({ ...process.env, RUN_JOBS: '1' });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  let fatal: (reason: string) => void = () => process.exit(1);
  // Once composed, a dependency's failure nobody caught counts in its outage (logged once).
  const composed: { dependencies?: DependencyStatus } = {};
  installProcessPolicy(
    logger,
    (reason) => fatal(reason),
    () => composed.dependencies,
  );

  await waitForDependenciesOrExit(config, logger, { database: false, blobStore: false });

  const runtime = await compose(config, logger, { role: 'worker' }).catch((err: unknown) => {
    // Start-up checks that need the database refuse like a bad setting.
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78);
    }
    throw err;
  });
  composed.dependencies = runtime.deps.dependencies;
  if (config.metrics) await startMetricsServer(runtime.metrics, config.metrics);
  logger.info({ concurrency: config.jobs.concurrency, database: config.database.client }, 'worker started');
  fatal = drainOnSignals({ runtime, logger });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
