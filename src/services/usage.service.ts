// Records every render (cache status, credits, bytes, time) and summarises a period.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { UsageRecord, UsageRepository } from '../../db/repositories/usage.repository.ts';
import { ProblemError } from '../errors/problem.ts';
import type { Clock } from './clock.ts';

export const MAX_USAGE_DAYS = 366;
const DAY_MS = 86_400_000;

export class UsageService {
  constructor(
    private readonly repo: UsageRepository,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Never fails the render it describes: a lost usage row is logged, not thrown. */
  async record(r: Omit<UsageRecord, 'id' | 'createdAt'>): Promise<void> {
    try {
      await this.repo.insert({ ...r, id: `use_${randomBytes(12).toString('base64url')}`, createdAt: this.clock.now() });
    } catch (err) {
      this.logger.error({ err, workspaceId: r.workspaceId }, 'could not record usage');
    }
  }

  async summary(workspaceId: string, from?: string, to?: string) {
    const today = new Date(this.clock.now()).toISOString().slice(0, 10);
    const toDay = to ?? today;
    const fromDay = from ?? new Date(Date.parse(`${toDay}T00:00:00Z`) - 29 * DAY_MS).toISOString().slice(0, 10);
    const span = (Date.parse(`${toDay}T00:00:00Z`) - Date.parse(`${fromDay}T00:00:00Z`)) / DAY_MS + 1;
    if (span < 1) throw new ProblemError('validation_failed', { detail: '`from` must not be after `to`.', issues: [{ path: 'query.from', message: 'must not be after query.to', keyword: 'range' }] });
    if (span > MAX_USAGE_DAYS) throw new ProblemError('validation_failed', { detail: `The period may span at most ${MAX_USAGE_DAYS} days.`, issues: [{ path: 'query.from', message: `period must be at most ${MAX_USAGE_DAYS} days`, keyword: 'range' }] });
    return { from: fromDay, to: toDay, ...(await this.repo.summary(workspaceId, fromDay, toDay)) };
  }
}
