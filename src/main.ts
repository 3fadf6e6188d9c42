// Process entry point: parse config (refuse to start on any invalid setting), listen, wait for the
// database and object store (answering /v1/health meanwhile), compose, then serve the app.
// First, before anything loads the canvas library: its allocator's settings.
import './memory-settings.ts';
import { existsSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createApp, WEB_DIR } from './app.ts';
import { compose, gitRevision } from './compose.ts';
import { ConfigError, loadConfig } from './config/config.ts';
import { probeFfmpegVersion, resolveFfmpeg } from './engine/ffmpeg.ts';
import { rendererVersion } from './engine/versions.ts';
import { ALL_GENERATORS } from './generators/index.ts';
import { createHttpServer } from './http/http-server.ts';
import { startMetricsServer } from './http/metrics.server.ts';
import { startingListener } from './http/starting.listener.ts';
import { createLogger } from './lib/logger.ts';
import type { DependencyStatus } from './lib/dependency-status.ts';
import { installProcessPolicy } from './process-policy.ts';
import { healthReport } from './services/health.service.ts';
import { ensureLocalApiKey } from './services/local-key.ts';
import { drainOnSignals } from './shutdown.ts';
import { type DependencyState, waitForDependenciesOrExit } from './startup.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  // Until the app is up there is nothing to drain: a fatal state exits at once.
  let fatal: (reason: string) => void = () => process.exit(1);
  // Once composed, a dependency's failure nobody caught counts in its outage (logged once).
  const composed: { dependencies?: DependencyStatus } = {};
  installProcessPolicy(
    logger,
    (reason) => fatal(reason),
    () => composed.dependencies,
  );

  // The generated local key is written only once the database is known to be a local one (compose).
  let localKeyNote = '';
  const localKey =
    config.localMode && config.apiKeys.length === 0
      ? () => {
          const local = ensureLocalApiKey(config.dataDir);
          // Printed once, on the console only (never through the logger), so it is easy to copy.
          localKeyNote = local.created
            ? `\nGenerated a local API key (stored in ${local.file}):\n\n  ${local.key}\n\n`
            : `Local API key: see ${local.file}\n`;
          return local.key;
        }
      : undefined;

  // Listen before the dependencies answer: /v1/health says the process is alive, everything else 503.
  const revision = config.revision ?? gitRevision(process.cwd()) ?? 'unknown';
  // Probed once: the health answer while starting and the render engine (compose) share it.
  const ffmpegProbe = probeFfmpegVersion(resolveFfmpeg(config.ffmpegPath));
  const ffmpegVersion = await ffmpegProbe;
  const dependencies: DependencyState = { database: false, blobStore: false };
  let listener: RequestListener = startingListener({
    health: () =>
      healthReport({
        renderer: rendererVersion(ffmpegVersion),
        generators: ALL_GENERATORS.length,
        revision,
        animationBudgetMs: config.render.animationBudgetMs,
      }),
    dependencies,
    ffmpeg: ffmpegVersion !== undefined,
  });
  const server = createHttpServer((req, res) => listener(req, res), config.requestTimeouts).listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  }).catch((err: NodeJS.ErrnoException) => {
    // A busy or forbidden address is a setting to change, not a crash: one line naming it.
    const where = `${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
    if (err.code === 'EADDRINUSE')
      return refuseToStart(
        `Cannot listen on ${where}: the port is already in use. Stop the other process or set PORT (and HOST) to a free address.`,
      );
    if (err.code === 'EACCES')
      return refuseToStart(`Cannot listen on ${where}: permission denied (ports below 1024 need privileges). Set PORT to 1024 or above.`);
    if (err.code === 'EADDRNOTAVAIL')
      return refuseToStart(
        `Cannot listen on ${where}: HOST is not an address of this machine. Set HOST to one of its addresses, e.g. 127.0.0.1.`,
      );
    throw err;
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;

  await waitForDependenciesOrExit(config, logger, dependencies, () =>
    process.stdout.write(`Starting at ${url}: waiting for the database${config.blobStore.kind === 's3' ? ' and object storage' : ''}…\n`),
  );

  const runtime = await compose(config, logger, { localKey, revision, ffmpegVersion: ffmpegProbe });
  composed.dependencies = runtime.deps.dependencies;
  listener = await createApp(runtime.deps);
  process.stdout.write(localKeyNote);
  logger.info({ url, mode: config.localMode ? 'local' : 'hosted', database: config.database.client }, 'listening');
  process.stdout.write(`Render service (${config.localMode ? 'local' : 'hosted'} mode) on ${url}\n  API reference: ${url}/v1/reference\n`);
  if (!existsSync(path.join(WEB_DIR, 'index.html'))) {
    const why =
      'The web app is not built (web/dist is missing): run `npm run build:web` (npm install and npm start do it). The API works without it.';
    logger.warn(why);
    process.stdout.write(`  ${why}\n`);
  }
  if (config.localMode && !config.localGateway) {
    const why = `HOST=${config.host} is not a loopback address, so the local gateway is off: browser requests need an API key. Bind to 127.0.0.1 to use the web app without one.`;
    logger.warn({ host: config.host }, why);
    process.stdout.write(`  ${why}\n`);
  }

  if (config.metrics) {
    const scrape = await startMetricsServer(runtime.metrics, config.metrics);
    const { port: metricsPort } = scrape.address() as AddressInfo;
    logger.info({ host: config.metrics.host, port: metricsPort }, 'metrics at /metrics');
  }
  fatal = drainOnSignals({ runtime, logger, server });
}

function refuseToStart(message: string): never {
  console.error(message);
  process.exit(1);
}

main().catch((err) => {
  // Start-up checks that need the database (compose) refuse like a bad setting.
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(78);
  }
  console.error(err);
  process.exit(1);
});
