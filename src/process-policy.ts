// What a process does with an error nothing caught. A dependency going away (the database
// restarting, object storage down) must never end a process: libraries fire calls nobody awaits
// (pg-boss completes and fails its messages that way), and their rejections are logged and the
// process keeps serving; the work they belonged to is recovered by the job leases and sweeps. An
// exception thrown out of the event loop that is not a dependency's connection failure leaves the
// process in a state nobody reasoned about: it drains and exits 1, for its supervisor to restart.
import type { Logger } from 'pino';
import { unavailableDependency } from './lib/dependency-failure.ts';

export function installProcessPolicy(logger: Logger, fatal: (reason: string) => void): void {
  process.on('unhandledRejection', (reason) => {
    const dependency = unavailableDependency(reason);
    logger.error({ err: reason, dependency }, 'unhandled rejection: logged, the process keeps serving');
  });
  process.on('uncaughtException', (err, origin) => {
    const dependency = unavailableDependency(err);
    if (dependency) {
      logger.error({ err, origin, dependency }, 'uncaught dependency failure: logged, the process keeps serving');
      return;
    }
    logger.fatal({ err, origin }, 'uncaught exception: draining, then exiting 1');
    fatal('uncaught exception');
  });
}
