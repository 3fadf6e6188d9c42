// The drain sequence of every process (main.ts serves HTTP, worker.ts does not). On SIGTERM/SIGINT,
// in this order: stop accepting connections; end event streams (a final `reconnect` event, so
// EventSource clients reconnect to another process); close idle keep-alive sockets; stop claiming
// jobs and hand running ones back to the queue, their FFmpeg children killed; give requests in
// flight a short grace, then close every remaining connection; release the rest (pool, queue,
// database) and exit 0. server.close() alone waits for every open connection, so one idle
// keep-alive socket or one open stream used to hold the process until the forced exit, with the
// job still `running` and FFmpeg left behind.
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { Runtime } from './compose.ts';

/** Requests in flight (a synchronous render) may finish within this; then their connections are closed. */
export const REQUEST_GRACE_MS = 5_000;
/** A drain that hangs anyway (a database that never answers) ends the process with code 1 after this. */
export const FORCED_EXIT_MS = 30_000;

export interface DrainOptions {
  runtime: Pick<Runtime, 'endStreams' | 'stopJobs' | 'close'>;
  logger: Logger;
  /** The HTTP server; absent in a worker process. */
  server?: Server;
  requestGraceMs?: number;
}

export async function drain({ runtime, logger, server, requestGraceMs = REQUEST_GRACE_MS }: DrainOptions): Promise<void> {
  const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
  await runtime.endStreams();
  server?.closeIdleConnections();
  await runtime.stopJobs();
  logger.info('jobs handed back; waiting for requests in flight');
  server?.closeIdleConnections();
  let timer: NodeJS.Timeout | undefined;
  const graceOver = await Promise.race([
    closed.then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), requestGraceMs))),
  ]);
  clearTimeout(timer);
  if (graceOver) {
    logger.warn({ requestGraceMs }, 'requests still open after the grace: closing their connections');
    server?.closeAllConnections();
    await closed;
  }
  await runtime.close();
}

/**
 * Exits once the log lines written so far have left the process: pino writes to stdout
 * asynchronously, and an exit while a write is in flight lost the drain's last lines (seen at load 20:
 * the fatal line, then nothing). A stream that does not flush within a second is not waited for.
 */
function exitAfterLogs(logger: Logger, code: number): void {
  const exit = () => process.exit(code);
  process.exitCode = code;
  setTimeout(exit, 1_000); // kept referenced: the process must not end by itself before it says its code
  try {
    logger.flush(() => exit());
  } catch {
    exit();
  }
}

/**
 * Drains on SIGTERM and SIGINT, then exits 0 (1 if the drain fails or outlasts FORCED_EXIT_MS).
 * Returns the same drain for a fatal state (process-policy.ts), which exits 1 when it is done.
 */
export function drainOnSignals(options: DrainOptions): (reason: string) => void {
  let stopping = false;
  const shutdown = (reason: string, exitCode: number) => {
    if (stopping) return;
    stopping = true;
    options.logger.info({ reason }, 'draining');
    setTimeout(() => {
      options.logger.error({ forcedExitMs: FORCED_EXIT_MS }, 'drain did not finish: exiting');
      process.exit(1);
    }, FORCED_EXIT_MS).unref();
    drain(options).then(
      () => exitAfterLogs(options.logger, exitCode),
      (err) => {
        options.logger.error({ err }, 'drain failed');
        exitAfterLogs(options.logger, 1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM', 0));
  process.on('SIGINT', () => shutdown('SIGINT', 0));
  return (reason) => shutdown(reason, 1);
}
