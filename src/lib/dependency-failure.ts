// The one rule for "a dependency is down, try again shortly": which errors mean the database or the
// object store cannot be reached right now (a restart, a failover, an outage), as opposed to a bug
// or a refusal. Requests answer those with 503 `not_ready` and Retry-After instead of 500, jobs
// wait or retry instead of failing, and the process keeps running (src/process-policy.ts).

import { setTimeout as delay } from 'node:timers/promises';

export type Dependency = 'database' | 'storage';

/** Seconds a client is told to wait (Retry-After) while a dependency is down. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

/** Thrown by an adapter that knows which dependency failed (the S3 blob store). */
export class DependencyUnavailableError extends Error {
  constructor(
    readonly dependency: Dependency,
    cause: unknown,
  ) {
    super(`${dependency === 'storage' ? 'Object storage' : 'The database'} is unavailable: ${messageOf(cause)}`, { cause });
    this.name = 'DependencyUnavailableError';
  }
}

/** Socket-level failures: nothing listening, a connection cut, no route, a name that does not resolve, a time-out. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOTCONN',
]);

/**
 * Postgres SQLSTATEs of a server that is stopping, starting or out of connections: class 08
 * (connection exception), 57P01–57P03 (admin or crash shutdown, cannot connect now), 53300 (too
 * many connections), 58030 (I/O error).
 */
const POSTGRES_UNAVAILABLE = /^(08\d{3}|57P0[1-3]|53300|58030)$/;

/** Messages of node-postgres and knex for a connection lost or never made (they carry no code). */
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'connection terminated',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'Connection ended unexpectedly',
  'timeout exceeded when trying to connect',
  'Timeout acquiring a connection',
  'Cannot use a pool after calling end',
];

/**
 * The dependency `err` says is unavailable, or undefined when it is some other failure. Errors
 * whose origin is unknown but that are connection failures are the database's: every other
 * network dependency (object storage, webhooks) says so itself.
 */
export function unavailableDependency(err: unknown): Dependency | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof DependencyUnavailableError) return e.dependency;
    if (isConnectionFailure(e)) return 'database';
  }
  return undefined;
}

export function isConnectionFailure(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, name, message } = err as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || POSTGRES_UNAVAILABLE.test(code))) return true;
  if (name === 'KnexTimeoutError') return true;
  // AggregateError (a host with several addresses, all refusing) carries the codes in `errors`.
  const errors = (err as { errors?: unknown }).errors;
  if (Array.isArray(errors) && errors.length > 0 && errors.every(isConnectionFailure)) return true;
  return typeof message === 'string' && CONNECTION_MESSAGES.some((m) => message.includes(m));
}

function messageOf(err: unknown): string {
  if (err instanceof Error) return (err as { code?: string }).code ?? err.message;
  return String(err);
}

export interface RetryWhileUnavailableOptions {
  /** Only this dependency's unavailability is waited out (any, without). */
  dependency?: Dependency;
  /** Gives up (rethrows the last failure) once waiting longer would pass this. */
  maxWaitMs: number;
  /** Stops waiting (rethrows the last failure) when it aborts: a cancel, a drain. */
  signal?: AbortSignal;
  firstDelayMs?: number;
  maxDelayMs?: number;
  onRetry?: (err: unknown, attempt: number, delayMs: number) => void;
}

/**
 * Runs `operation` until it succeeds, waiting with backoff (1 s doubling to 15 s by default) while it
 * fails because a dependency is unavailable; any other failure is thrown at once.
 */
export async function retryWhileUnavailable<T>(operation: () => Promise<T>, options: RetryWhileUnavailableOptions): Promise<T> {
  const started = Date.now();
  let delayMs = options.firstDelayMs ?? 1_000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (err) {
      const dependency = unavailableDependency(err);
      const other = !dependency || (options.dependency !== undefined && dependency !== options.dependency);
      if (other || options.signal?.aborted || Date.now() - started + delayMs > options.maxWaitMs) throw err;
      options.onRetry?.(err, attempt, delayMs);
      try {
        await delay(delayMs, undefined, { signal: options.signal });
      } catch {
        throw err; // aborted while waiting: the failure stands
      }
      delayMs = Math.min(options.maxDelayMs ?? 15_000, delayMs * 2);
    }
  }
}
