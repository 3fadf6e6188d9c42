// Export jobs. Claims and state changes are conditional updates, so two processes can never both
// run one job, and a finished job never changes again. Every change that makes a job runnable
// again takes an `enqueue` step that runs in the same transaction, so the queue's message (pg-boss)
// commits or rolls back with the row.
import { newestFirstPage } from './pages.ts';
import type { Knex } from 'knex';
import { asTransaction, type Database, type Transaction } from '../database.ts';
import { giveBackKeySpending } from './api-keys.repository.ts';
import { nullableNumber } from './columns.ts';

export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/**
 * The statuses a job ends in: a job in one never changes again. The one rule of "is this job
 * finished" — for its webhook, its event stream, the lost-webhook sweep and the API's `finished`.
 */
export const FINISHED_JOB_STATUSES = ['completed', 'failed', 'cancelled'] as const satisfies readonly JobStatus[];
export type FinishedJobStatus = (typeof FINISHED_JOB_STATUSES)[number];

export function isFinishedStatus(status: JobStatus): status is FinishedJobStatus {
  return (FINISHED_JOB_STATUSES as readonly JobStatus[]).includes(status);
}

export interface JobRecord {
  id: string;
  workspaceId: string;
  keyId: string | null;
  slug: string;
  recipe: string;
  recipeHash: string;
  format: string;
  status: JobStatus;
  progress: number;
  attempts: number;
  maxAttempts: number;
  cancelRequested: boolean;
  error: string | null;
  contentType: string | null;
  resultBytes: number | null;
  /** The result's key in the results blob store while it is kept; null before completion, after retention, and for jobs completed before results had their own objects (their bytes are in the render cache). */
  resultKey: string | null;
  webhookUrl: string | null;
  /** The client's own data (string values), returned with the job and its webhooks. */
  metadata: Record<string, string>;
  reservationId: string | null;
  /** The UTC month ('YYYY-MM') the submission counted against its API key's monthly limit in; null when it counted nothing. */
  keySpentMonth: string | null;
  /** What the job counts against its key's month now: its price at submission, 0 once given back (returnKeySpending). */
  keySpentCredits: number;
  lockedBy: string | null;
  lockedUntil: number | null;
  runAfter: number;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  expiresAt: number | null;
}

type Row = Record<string, unknown>;
const toRecord = (r: Row): JobRecord => ({
  id: String(r.id),
  workspaceId: String(r.workspace_id),
  keyId: (r.key_id as string | null) ?? null,
  slug: String(r.slug),
  recipe: String(r.recipe),
  recipeHash: String(r.recipe_hash),
  format: String(r.format),
  status: r.status as JobStatus,
  progress: Number(r.progress),
  attempts: Number(r.attempts),
  maxAttempts: Number(r.max_attempts),
  cancelRequested: Boolean(r.cancel_requested),
  error: (r.error as string | null) ?? null,
  contentType: (r.content_type as string | null) ?? null,
  resultBytes: nullableNumber(r.result_bytes),
  resultKey: (r.result_key as string | null) ?? null,
  webhookUrl: (r.webhook_url as string | null) ?? null,
  metadata: r.metadata ? (JSON.parse(String(r.metadata)) as Record<string, string>) : {},
  reservationId: (r.reservation_id as string | null) ?? null,
  keySpentMonth: (r.key_spent_month as string | null) ?? null,
  keySpentCredits: Number(r.key_spent_credits ?? 0),
  lockedBy: (r.locked_by as string | null) ?? null,
  lockedUntil: nullableNumber(r.locked_until),
  runAfter: Number(r.run_after),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
  finishedAt: nullableNumber(r.finished_at),
  expiresAt: nullableNumber(r.expires_at),
});

export interface NewJob {
  id: string;
  workspaceId: string;
  keyId: string | null;
  slug: string;
  recipe: string;
  recipeHash: string;
  format: string;
  maxAttempts: number;
  webhookUrl: string | null;
  metadata: Record<string, string>;
  createdAt: number;
}

/** Writes the queue's message for a job inside the transaction that made the job runnable. */
export type EnqueueStep = (trx: Transaction) => Promise<void>;

export class JobsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Inserts the job. In the same transaction, `spend` runs first (what the job counts against its API
   * key's month, recorded on the row; before the credits, in the order a render takes them), then
   * `reserve` (the credit reservation); either may veto the job by throwing. `enqueue` runs last.
   */
  async insert(
    job: NewJob,
    steps: {
      spend?: (trx: Transaction) => Promise<{ month: string; credits: number } | null>;
      reserve?: (trx: Transaction) => Promise<string | null>;
      enqueue?: EnqueueStep;
    } = {},
  ): Promise<JobRecord> {
    return this.db.transaction(async (trx) => {
      const keySpending = steps.spend ? await steps.spend(asTransaction(trx)) : null;
      const reservationId = steps.reserve ? await steps.reserve(asTransaction(trx)) : null;
      await trx('jobs').insert({
        id: job.id,
        workspace_id: job.workspaceId,
        key_id: job.keyId,
        slug: job.slug,
        recipe: job.recipe,
        recipe_hash: job.recipeHash,
        format: job.format,
        status: 'queued',
        progress: 0,
        attempts: 0,
        max_attempts: job.maxAttempts,
        cancel_requested: false,
        webhook_url: job.webhookUrl,
        metadata: Object.keys(job.metadata).length > 0 ? JSON.stringify(job.metadata) : null,
        reservation_id: reservationId,
        key_spent_month: keySpending?.month ?? null,
        key_spent_credits: keySpending?.credits ?? 0,
        run_after: job.createdAt,
        created_at: job.createdAt,
        updated_at: job.createdAt,
      });
      await steps.enqueue?.(asTransaction(trx));
      return toRecord((await trx('jobs').where({ id: job.id }).first()) as Row);
    });
  }

  /** How many jobs are in each of `statuses` now (the metrics' gauge; status is indexed). */
  async countByStatus(statuses: JobStatus[]): Promise<Array<[{ status: string }, number]>> {
    const rows = (await this.db('jobs').whereIn('status', statuses).select('status').count({ n: '*' }).groupBy('status')) as Array<{
      status: string;
      n: unknown;
    }>;
    const counts = new Map(rows.map((r) => [r.status, Number(r.n)]));
    return statuses.map((status) => [{ status }, counts.get(status) ?? 0]);
  }

  async find(id: string): Promise<JobRecord | undefined> {
    const row = (await this.db('jobs').where({ id }).first()) as Row | undefined;
    return row ? toRecord(row) : undefined;
  }

  async findInWorkspace(workspaceId: string, id: string): Promise<JobRecord | undefined> {
    const row = (await this.db('jobs').where({ workspace_id: workspaceId, id }).first()) as Row | undefined;
    return row ? toRecord(row) : undefined;
  }

  /** Newest first; `before` is the (createdAt, id) of the last job of the previous page. */
  async list(
    workspaceId: string,
    options: { status?: JobStatus; limit: number; before?: { createdAt: number; id: string } },
  ): Promise<JobRecord[]> {
    const q = this.db('jobs').where({ workspace_id: workspaceId });
    if (options.status) q.andWhere({ status: options.status });
    const rows = (await newestFirstPage(q, options)) as Row[];
    return rows.map(toRecord);
  }

  /** Claims the oldest queued job that is due (the SQLite queue: the table is the queue). */
  async claimNext(workerId: string, now: number, leaseMs: number): Promise<JobRecord | undefined> {
    for (let tries = 0; tries < 5; tries++) {
      const candidate = (await this.db('jobs')
        .where({ status: 'queued', cancel_requested: false })
        .andWhere('run_after', '<=', now)
        .orderBy('created_at', 'asc')
        .first('id')) as Row | undefined;
      if (!candidate) return undefined;
      const claimed = await this.claim(String(candidate.id), workerId, now, leaseMs);
      if (claimed) return claimed;
    }
    return undefined;
  }

  /**
   * Claims one queued job by id (a queue message named it). Undefined when it is no longer queued:
   * another process claimed it, or it was cancelled or finished — the message is then spent.
   */
  async claim(id: string, workerId: string, now: number, leaseMs: number): Promise<JobRecord | undefined> {
    const claimed = await this.db('jobs')
      .where({ id, status: 'queued', cancel_requested: false })
      .update({
        status: 'running',
        locked_by: workerId,
        locked_until: now + leaseMs,
        attempts: this.db.raw('attempts + 1'),
        updated_at: now,
      });
    return claimed === 1 ? this.find(id) : undefined;
  }

  /** Running jobs whose lease lapsed: the process running them died. */
  async lapsed(now: number, limit: number): Promise<JobRecord[]> {
    const rows = (await this.db('jobs')
      .where({ status: 'running' })
      .andWhere('locked_until', '<', now)
      .orderBy('locked_until', 'asc')
      .limit(limit)) as Row[];
    return rows.map(toRecord);
  }

  /**
   * Finished jobs with a webhookUrl whose message never reached the outbox, finished between `since`
   * and `until`. A job's message id is `messageIdPrefix` + its id (the rule is jobWebhookId in
   * src/jobs/job-lifecycle.ts), so this is an anti-join on the outbox's key.
   */
  async finishedWithoutWebhook(messageIdPrefix: string, since: number, until: number, limit: number): Promise<JobRecord[]> {
    const rows = (await this.db('jobs')
      .select('jobs.*')
      .leftJoin('webhook_outbox', 'webhook_outbox.webhook_id', this.db.raw('? || jobs.id', [messageIdPrefix]))
      .whereIn('jobs.status', FINISHED_JOB_STATUSES)
      .whereNotNull('jobs.webhook_url')
      .where('jobs.finished_at', '>=', since)
      .andWhere('jobs.finished_at', '<', until)
      .whereNull('webhook_outbox.webhook_id')
      .orderBy('jobs.finished_at', 'asc')
      .limit(limit)) as Row[];
    return rows.map(toRecord);
  }

  /** A lapsed job goes back to the queue (once: the update is conditional on the lapse). */
  async requeueLapsed(id: string, now: number, enqueue: EnqueueStep): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const moved = await trx('jobs')
        .where({ id, status: 'running' })
        .andWhere('locked_until', '<', now)
        .update({ status: 'queued', locked_by: null, locked_until: null, run_after: now, updated_at: now });
      if (moved !== 1) return false;
      await enqueue(asTransaction(trx));
      return true;
    });
  }

  /** A lapsed job ends: failed (no attempts left) or cancelled (it had been asked to stop). */
  async endLapsed(id: string, status: 'failed' | 'cancelled', error: string | null, now: number): Promise<boolean> {
    const moved = await this.db('jobs')
      .where({ id, status: 'running' })
      .andWhere('locked_until', '<', now)
      .update({ status, ...(error ? { error } : {}), finished_at: now, updated_at: now, locked_until: null });
    return moved === 1;
  }

  async heartbeat(id: string, workerId: string, lockedUntil: number): Promise<boolean> {
    return (await this.db('jobs').where({ id, locked_by: workerId, status: 'running' }).update({ locked_until: lockedUntil })) === 1;
  }

  /** Progress only rises. */
  async progress(id: string, workerId: string, progress: number, now: number): Promise<void> {
    await this.db('jobs')
      .where({ id, locked_by: workerId, status: 'running' })
      .andWhere('progress', '<', progress)
      .update({ progress, updated_at: now });
  }

  async cancelRequested(id: string): Promise<boolean> {
    const row = (await this.db('jobs').where({ id }).select('cancel_requested').first()) as Row | undefined;
    return Boolean(row?.cancel_requested);
  }

  async complete(
    id: string,
    workerId: string,
    result: { contentType: string; bytes: number; key: string; expiresAt: number },
    now: number,
  ): Promise<boolean> {
    return (
      (await this.db('jobs').where({ id, locked_by: workerId, status: 'running' }).update({
        status: 'completed',
        progress: 1,
        content_type: result.contentType,
        result_bytes: result.bytes,
        result_key: result.key,
        expires_at: result.expiresAt,
        finished_at: now,
        updated_at: now,
        locked_until: null,
      })) === 1
    );
  }

  /** Back to the queue after a transient failure (`retry` holds its time and its enqueue step), or failed for good. */
  async fail(id: string, workerId: string, error: string, now: number, retry?: { at: number; enqueue: EnqueueStep }): Promise<boolean> {
    if (!retry) {
      return (
        (await this.db('jobs')
          .where({ id, locked_by: workerId, status: 'running' })
          .update({ status: 'failed', error, finished_at: now, locked_until: null, updated_at: now })) === 1
      );
    }
    return this.db.transaction(async (trx) => {
      const moved = await trx('jobs')
        .where({ id, locked_by: workerId, status: 'running' })
        .update({ status: 'queued', error, run_after: retry.at, locked_by: null, locked_until: null, updated_at: now });
      if (moved !== 1) return false;
      await retry.enqueue(asTransaction(trx));
      return true;
    });
  }

  /** A running job that stopped because it was asked to. */
  async markCancelled(id: string, workerId: string, now: number): Promise<boolean> {
    return (
      (await this.db('jobs')
        .where({ id, locked_by: workerId, status: 'running' })
        .update({ status: 'cancelled', finished_at: now, updated_at: now, locked_until: null })) === 1
    );
  }

  /**
   * Cancels: a queued job at once ('cancelled'); a running one is flagged for its worker
   * ('requested'); a finished one is left alone ('finished').
   */
  async cancel(workspaceId: string, id: string, now: number): Promise<'cancelled' | 'requested' | 'finished' | 'missing'> {
    return this.db.transaction(async (trx) => {
      const row = (await trx('jobs').where({ workspace_id: workspaceId, id }).first()) as Row | undefined;
      if (!row) return 'missing';
      if (row.status === 'queued') {
        const done = await trx('jobs')
          .where({ id, status: 'queued' })
          .update({ status: 'cancelled', cancel_requested: true, finished_at: now, updated_at: now });
        if (done !== 1) return 'finished';
        // It never ran: what it counted against its key goes back with the cancel, in its transaction.
        await returnKeySpendingIn(trx, id);
        return 'cancelled';
      }
      if (row.status === 'running') {
        await trx('jobs').where({ id, status: 'running' }).update({ cancel_requested: true, updated_at: now });
        return 'requested';
      }
      return 'finished';
    });
  }

  /**
   * Gives back what the job counted against its API key's month (a job that ended without rendering,
   * or whose result came from the cache): once, whichever path calls it, and for the month it was
   * spent in (nothing once that month is over). Returns the credits given back.
   */
  async returnKeySpending(id: string): Promise<number> {
    return this.db.transaction((trx) => returnKeySpendingIn(trx, id));
  }

  /** Jobs whose stored result passed its retention (oldest first): the retention sweep's work list. */
  async expiredResults(now: number, limit: number): Promise<Array<{ id: string; resultKey: string }>> {
    const rows = (await this.db('jobs')
      .whereNotNull('result_key')
      .andWhere('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit)
      .select('id', 'result_key')) as Row[];
    return rows.map((r) => ({ id: String(r.id), resultKey: String(r.result_key) }));
  }

  /** Forgets a deleted result (only if the key is still the one deleted). */
  async forgetResult(id: string, resultKey: string): Promise<void> {
    await this.db('jobs').where({ id, result_key: resultKey }).update({ result_key: null });
  }
}

/** returnKeySpending inside a transaction: the job row's count goes to 0 by a conditional update, and only the update that moved it gives back. */
async function returnKeySpendingIn(trx: Knex.Transaction, id: string): Promise<number> {
  const row = (await trx('jobs').where({ id }).first('key_id', 'key_spent_month', 'key_spent_credits')) as Row | undefined;
  const credits = Number(row?.key_spent_credits ?? 0);
  if (!row?.key_id || !row.key_spent_month || credits <= 0) return 0;
  const moved = await trx('jobs').where({ id, key_spent_credits: credits }).update({ key_spent_credits: 0 });
  if (moved !== 1) return 0;
  await giveBackKeySpending(trx, String(row.key_id), String(row.key_spent_month), credits);
  return credits;
}
