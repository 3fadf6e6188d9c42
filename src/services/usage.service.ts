// Records every render (cache status, credits, bytes, time) and summarises a period.
import { newId } from '../lib/ids.ts';
import type { Logger } from 'pino';
import {
  HOUR_MS,
  type UsageGranularity,
  type UsageGroupBy,
  type UsageRecord,
  type UsageRepository,
} from '../../db/repositories/usage.repository.ts';
import { ProblemError } from '../errors/problem.ts';
import type { Clock } from '../lib/clock.ts';
import type { Metrics } from '../lib/metrics.ts';
import { unavailableDependency } from '../lib/dependency-failure.ts';
import { reasonOf } from '../lib/dependency-status.ts';

export const MAX_USAGE_DAYS = 366;
/** An hourly series may span at most this many days (744 buckets). */
export const MAX_HOURLY_USAGE_DAYS = 31;
const DAY_MS = 86_400_000;

/**
 * Usage rows are written in batches, and identical renders within a batch share one row (its
 * `renders` count): a cache hit costs neither a database write nor a row of its own.
 */
const FLUSH_EVERY_MS = 1_000;
const FLUSH_AT_ROWS = 200;
/** A failed write is tried again after this, doubling up to RETRY_MAX_MS while the database stays away. */
const RETRY_MAX_MS = 30_000;

type NewUsage = Omit<UsageRecord, 'id' | 'createdAt' | 'renders' | 'keyKind'> & { keyKind?: UsageRecord['keyKind'] };

export interface UsageServiceOptions {
  repo: UsageRepository;
  clock: Clock;
  logger: Logger;
  /** Told of every render recorded; none unless given. */
  metrics?: Pick<Metrics, 'render'>;
}

export class UsageService {
  /** Rows to write, by what makes renders identical. */
  private pending = new Map<string, UsageRecord>();
  /** Rows whose write failed (the database was away), kept with their ids and written again: never dropped. */
  private unsent: UsageRecord[] = [];
  private retryDelayMs = FLUSH_EVERY_MS;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  private readonly repo: UsageRepository;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly metrics: Pick<Metrics, 'render'> | undefined;

  constructor(options: UsageServiceOptions) {
    ({ repo: this.repo, clock: this.clock, logger: this.logger, metrics: this.metrics } = options);
  }

  /** Queues a render (written within FLUSH_EVERY_MS). Never fails the render it describes. */
  record(r: NewUsage): void {
    this.metrics?.render(r.generator, r.format, r.cache, r.durationMs / 1000);
    const now = this.clock.now();
    // Within one hour, so an hourly series counts every render in its own hour.
    const key = `${r.workspaceId}\0${r.keyId ?? ''}\0${r.keyKind ?? ''}\0${r.operation}\0${r.generator}\0${r.format}\0${r.cache}\0${Math.floor(now / HOUR_MS)}`;
    const same = this.pending.get(key);
    if (same) {
      same.renders += 1;
      same.credits += r.credits;
      same.bytes += r.bytes;
      same.durationMs += r.durationMs;
      return;
    }
    this.pending.set(key, { ...r, keyKind: r.keyKind ?? null, renders: 1, id: newId('use'), createdAt: now });
    if (this.pending.size >= FLUSH_AT_ROWS) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_EVERY_MS);
      this.timer.unref();
    }
  }

  /** Writes every queued row (summaries and shutdown call this); rows it cannot write are kept and tried again. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const rows = [...this.unsent, ...this.pending.values()];
    this.unsent = [];
    this.pending = new Map();
    this.flushing = this.flushing.then(async () => {
      if (rows.length === 0) return;
      try {
        await this.repo.insertMany(rows);
        if (this.retryDelayMs > FLUSH_EVERY_MS) this.logger.info({ rows: rows.length }, 'usage recorded again');
        this.retryDelayMs = FLUSH_EVERY_MS;
      } catch (err) {
        this.unsent = [...rows, ...this.unsent];
        // The database away: the first failed write is a warning, later ones (backing off) info, and a
        // short reason stands for the stack (the outage itself is logged once, src/lib/dependency-status.ts).
        const outage = unavailableDependency(err) !== undefined;
        this.logger[outage && this.retryDelayMs > FLUSH_EVERY_MS ? 'info' : 'warn'](
          { ...(outage ? { reason: reasonOf(err) } : { err }), rows: this.unsent.length, retryInMs: this.retryDelayMs },
          'could not record usage: kept, trying again',
        );
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.flush(), this.retryDelayMs);
        this.timer.unref();
        this.retryDelayMs = Math.min(RETRY_MAX_MS, this.retryDelayMs * 2);
      }
    });
    return this.flushing;
  }

  /** Rows not yet written (queued, or kept after a failed write). */
  get unwritten(): number {
    return this.unsent.length + this.pending.size;
  }

  async summary(workspaceId: string, from?: string, to?: string, options: { granularity?: UsageGranularity; groupBy?: UsageGroupBy } = {}) {
    const today = new Date(this.clock.now()).toISOString().slice(0, 10);
    const toDay = to ?? today;
    const fromDay = from ?? new Date(Date.parse(`${toDay}T00:00:00Z`) - 29 * DAY_MS).toISOString().slice(0, 10);
    const span = (Date.parse(`${toDay}T00:00:00Z`) - Date.parse(`${fromDay}T00:00:00Z`)) / DAY_MS + 1;
    if (span < 1)
      throw new ProblemError('validation_failed', {
        detail: '`from` must not be after `to`.',
        issues: [{ path: 'query.from', message: 'must not be after query.to', keyword: 'range' }],
      });
    if (span > MAX_USAGE_DAYS)
      throw new ProblemError('validation_failed', {
        detail: `The period may span at most ${MAX_USAGE_DAYS} days.`,
        issues: [{ path: 'query.from', message: `period must be at most ${MAX_USAGE_DAYS} days`, keyword: 'range' }],
      });
    const { granularity = 'day', groupBy } = options;
    if (granularity === 'hour' && span > MAX_HOURLY_USAGE_DAYS)
      throw new ProblemError('validation_failed', {
        detail: `An hourly series may span at most ${MAX_HOURLY_USAGE_DAYS} days.`,
        issues: [{ path: 'query.granularity', message: `hour needs a period of at most ${MAX_HOURLY_USAGE_DAYS} days`, keyword: 'range' }],
      });
    await this.flush();
    // The answer without `granularity` and `groupBy` is the one this operation always gave; each adds its part.
    return {
      from: fromDay,
      to: toDay,
      ...(await this.repo.summary(workspaceId, fromDay, toDay)),
      ...(granularity === 'hour' ? { byHour: await this.repo.series(workspaceId, fromDay, toDay, 'hour') } : {}),
      ...(granularity === 'month' ? { byMonth: await this.repo.series(workspaceId, fromDay, toDay, 'month') } : {}),
      ...(groupBy ? { groupBy, groups: await this.repo.groups(workspaceId, fromDay, toDay, groupBy) } : {}),
    };
  }
}
