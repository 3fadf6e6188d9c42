// Whether the database and object storage can be reached, as this process has seen them, and the one
// place an outage is logged: a dependency going down is one warn line, its return one info line with
// what was refused and what failed meanwhile. Everything that meets the outage in between — a request
// answered 503, a background sweep, a library's connection error — reports it here and writes at most
// a debug line of its own, so an outage of any length is two lines, not one (with a stack) per request.
//
// Failures are reported by whoever sees them (the request log, the knex pool, the tracked object
// store, the job queue); a recovery by any operation begun after the outage began that succeeds, and
// by a probe this class runs every PROBE_INTERVAL_MS while a dependency is down, so the return is
// noticed without traffic.
import type { Logger } from 'pino';
import { type Clock, systemClock } from './clock.ts';
import { type Dependency, unavailableDependency } from './dependency-failure.ts';

/** While a dependency is down, its probe (when one is registered) runs this often. */
export const PROBE_INTERVAL_MS = 2_000;

const NAMES: Record<Dependency, string> = { database: 'the database', storage: 'object storage' };

interface Outage {
  since: number;
  /** Requests answered 503 because of it. */
  refused: number;
  /** Operations that failed because of it (background work, retries, connection attempts). */
  failures: number;
  probe: NodeJS.Timeout | undefined;
}

export interface DependencyStatusOptions {
  logger: Pick<Logger, 'warn' | 'info' | 'debug'>;
  clock?: Clock;
  /** An operation that succeeds only when the dependency answers; run while it is down (its success is reported by the caller's tracking, or here). */
  probes?: Partial<Record<Dependency, () => Promise<unknown>>>;
  probeIntervalMs?: number;
}

type Level = 'warn' | 'error';
type LineLogger = Pick<Logger, 'warn' | 'error' | 'debug'>;

export class DependencyStatus {
  private readonly outages = new Map<Dependency, Outage>();
  private readonly logger: DependencyStatusOptions['logger'];
  private readonly clock: Clock;
  private readonly probes: NonNullable<DependencyStatusOptions['probes']>;
  private readonly probeIntervalMs: number;
  private closed = false;

  constructor(options: DependencyStatusOptions) {
    this.logger = options.logger;
    this.clock = options.clock ?? systemClock;
    this.probes = options.probes ?? {};
    this.probeIntervalMs = options.probeIntervalMs ?? PROBE_INTERVAL_MS;
  }

  /** Registers (or replaces) the probe run while `dependency` is down. */
  setProbe(dependency: Dependency, probe: () => Promise<unknown>): void {
    this.probes[dependency] = probe;
  }

  isDown(dependency: Dependency): boolean {
    return this.outages.has(dependency);
  }

  /** An operation on `dependency` failed because it could not be reached: the first such failure starts an outage (one warn line). */
  unavailable(dependency: Dependency, cause?: unknown): void {
    const outage = this.outages.get(dependency);
    if (outage) {
      outage.failures++;
      return;
    }
    if (this.closed) return;
    this.outages.set(dependency, { since: this.clock.now(), refused: 0, failures: 1, probe: this.startProbe(dependency) });
    this.logger.warn(
      { dependency, reason: reasonOf(cause) },
      `${capitalized(NAMES[dependency])} is unavailable: requests that need it answer 503 until it is back`,
    );
  }

  /** A request was answered 503 because `dependency` is down (counted for the recovery line). */
  refused(dependency: Dependency, cause?: unknown): void {
    if (!this.outages.has(dependency)) this.unavailable(dependency, cause);
    const outage = this.outages.get(dependency);
    if (outage) outage.refused++;
  }

  /** When an operation starts, by this status's clock: what `available` is told when it succeeds. */
  operationStart(): number {
    return this.clock.now();
  }

  /**
   * An operation on `dependency` succeeded: an outage ends (one info line with its counts). Cheap when
   * none is on. An operation that started (`startedAt`, from `operationStart`) no later than the outage
   * began says nothing about the dependency now — a query already in flight when a fast shutdown began
   * can still be answered — so its success ends nothing.
   */
  available(dependency: Dependency, startedAt?: number): void {
    const outage = this.outages.get(dependency);
    if (!outage) return;
    if (startedAt !== undefined && startedAt <= outage.since) return;
    this.outages.delete(dependency);
    clearInterval(outage.probe);
    this.logger.info(
      { dependency, downForMs: this.clock.now() - outage.since, requestsRefused: outage.refused, failedOperations: outage.failures },
      `${capitalized(NAMES[dependency])} is available again`,
    );
  }

  /**
   * Reports `err` if it says a dependency is unavailable, and returns which one; undefined for any
   * other failure (not reported).
   */
  noteFailure(err: unknown): Dependency | undefined {
    const dependency = unavailableDependency(err);
    if (dependency) this.unavailable(dependency, err);
    return dependency;
  }

  /**
   * Logs a failure of background work at `level` — unless it is a dependency being unavailable: then
   * the outage is reported here (logged once when it starts and once when it ends) and this line is
   * written at debug.
   */
  logFailure(logger: LineLogger, level: Level, fields: { err: unknown } & Record<string, unknown>, msg: string): void {
    if (this.noteFailure(fields.err)) logger.debug(fields, msg);
    else logger[level](fields, msg);
  }

  /** Stops the probes (the process is closing). */
  close(): void {
    this.closed = true;
    for (const outage of this.outages.values()) clearInterval(outage.probe);
  }

  private startProbe(dependency: Dependency): NodeJS.Timeout | undefined {
    const probe = this.probes[dependency];
    if (!probe) return undefined;
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      probe()
        .then(
          () => this.available(dependency),
          (err: unknown) => {
            // Still down (counted); a probe that fails for another reason says nothing about the outage.
            if (unavailableDependency(err) === dependency) this.unavailable(dependency, err);
          },
        )
        .finally(() => (running = false));
    }, this.probeIntervalMs);
    timer.unref();
    return timer;
  }
}

/** Logs `fields`/`msg` at `level`, or through `status` (see DependencyStatus.logFailure) when there is one. */
export function logFailure(
  status: DependencyStatus | undefined,
  logger: LineLogger,
  level: Level,
  fields: { err: unknown } & Record<string, unknown>,
  msg: string,
): void {
  if (status) status.logFailure(logger, level, fields, msg);
  else logger[level](fields, msg);
}

function capitalized(text: string): string {
  return text[0].toUpperCase() + text.slice(1);
}

/** A short reason for a log line (no stack): the error's code (or its cause's), else its message's first line. */
export function reasonOf(cause: unknown): string | undefined {
  if (cause === undefined) return undefined;
  for (let e: unknown = cause, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code) return code;
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  return message.split('\n')[0].slice(0, 300);
}
