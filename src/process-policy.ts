// What a process does with an error nothing caught. A dependency going away (the database
// restarting, object storage down) must never end a process: libraries fire calls nobody awaits
// (pg-boss completes and fails its messages that way), and their rejections are logged and the
// process keeps serving; the work they belonged to is recovered by the job leases and sweeps. An
// exception thrown out of the event loop that is not a dependency's connection failure leaves the
// process in a state nobody reasoned about: it drains and exits 1, for its supervisor to restart.
// A dependency's failure is part of an outage, reported to the process's DependencyStatus once it
// exists (which logs the outage once) and written as a warning, not an error.
import type { Logger } from 'pino';
import { unavailableDependency } from './lib/dependency-failure.ts';
import type { DependencyStatus } from './lib/dependency-status.ts';

export function installProcessPolicy(
  logger: Logger,
  fatal: (reason: string) => void,
  dependencies: () => DependencyStatus | undefined = () => undefined,
): void {
  // Node writes process warnings (a library's deprecation or support notice, such as the AWS SDK's
  // on the Node version) to stderr itself, as plain text: they are JSON log lines here instead.
  process.removeAllListeners('warning');
  process.on('warning', (warning) =>
    logger.warn(
      { warning: { name: warning.name, code: (warning as { code?: string }).code, message: warning.message } },
      'process warning',
    ),
  );
  process.on('unhandledRejection', (reason) => {
    const dependency = unavailableDependency(reason);
    if (dependency) dependencies()?.unavailable(dependency, reason);
    logger[dependency ? 'warn' : 'error']({ err: reason, dependency }, 'unhandled rejection: logged, the process keeps serving');
  });
  process.on('uncaughtException', (err, origin) => {
    const dependency = unavailableDependency(err);
    if (dependency) {
      dependencies()?.unavailable(dependency, err);
      logger.warn({ err, origin, dependency }, 'uncaught dependency failure: logged, the process keeps serving');
      return;
    }
    logger.fatal({ err, origin }, 'uncaught exception: draining, then exiting 1');
    fatal('uncaught exception');
  });
}
