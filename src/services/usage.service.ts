// Records every render (cache status, credits, bytes, time) and summarises a period.
import { newId } from '../lib/ids.ts';
import type { Logger } from 'pino';
import type { UsageRecord, UsageRepository } from '../../db/repositories/usage.repository.ts';
import { ProblemError } from '../errors/problem.ts';
import type { Clock } from '../lib/clock.ts';

export const MAX_USAGE_DAYS = 366;
const DAY_MS = 86_400_000;

/** Usage rows are written in batches: a cache hit must not cost a database write of its own. */
const FLUSH_EVERY_MS = 1_000;
const FLUSH_AT_ROWS = 200;

export class UsageService {
  private pending: UsageRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly repo: UsageRepository,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Queues a row (written within FLUSH_EVERY_MS). Never fails the render it describes. */
  record(r: Omit<UsageRecord, 'id' | 'createdAt'>): void {
    this.pending.push({ ...r, id: newId('use'), createdAt: this.clock.now() });
    if (this.pending.length >= FLUSH_AT_ROWS) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_EVERY_MS);
      this.timer.unref();
    }
  }

  /** Writes every queued row (summaries and shutdown call this). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const rows = this.pending;
    this.pending = [];
    this.flushing = this.flushing.then(async () => {
      if (rows.length === 0) return;
      try {
        await this.repo.insertMany(rows);
      } catch (err) {
        this.logger.error({ err, rows: rows.length }, 'could not record usage');
      }
    });
    return this.flushing;
  }

  async summary(workspaceId: string, from?: string, to?: string) {
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
    await this.flush();
    return { from: fromDay, to: toDay, ...(await this.repo.summary(workspaceId, fromDay, toDay)) };
  }
}
