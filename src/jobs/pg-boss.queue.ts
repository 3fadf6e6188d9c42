// The Postgres queue: pg-boss carries one message per runnable job. The message is written through
// the same transaction as the job row (submission, retry, hand-back, lapse recovery), so a job is
// never runnable without its message nor announced without its row. pg-boss delivers; the jobs
// table decides: a message whose job is no longer queued (claimed elsewhere, cancelled, finished)
// is simply spent. pg-boss's own retries cover delivery only — a message that reaches a draining
// process, or whose claim hits a database error, comes back a second later (with backoff). Attempts
// of the export itself, leases and crash recovery stay in the jobs table (job-runner.ts).
import { EventEmitter } from 'node:events';
import PgBoss from 'pg-boss';
import { transactionExecutor } from '../../db/database.ts';
import { retryWhileUnavailable } from '../lib/dependency-failure.ts';
import type { JobConsumer, JobQueue } from './job-queue.ts';
import { JOB_TIMEOUT_MS } from './job-runner.ts';

export const EXPORT_QUEUE = 'export-jobs';
/**
 * A delivered message's claim and completion wait this long for a database that went away, so the
 * message is not left active (and its job stranded until pg-boss expires it, minutes later).
 */
const DATABASE_WAIT_MS = 10 * 60_000;

export interface PgBossQueueOptions {
  connectionString: string;
  /** A handler this old is failed by pg-boss (and the message retried); longer than any export. */
  expireInSeconds: number;
  /** How often an idle worker asks for a message (a job queued by this process wakes it at once). */
  pollingIntervalSeconds: number;
  /** Whether this process runs pg-boss maintenance (expiry, archiving); processes that run jobs do. */
  supervise: boolean;
}

/**
 * The export queue's settings, the same wherever it is declared (the composition root, the test
 * run's template database): a handler lapses 2 minutes after the longest an export may run, and
 * an idle worker asks for a message every second.
 */
export function exportQueueOptions({
  connectionString,
  supervise,
}: Pick<PgBossQueueOptions, 'connectionString' | 'supervise'>): PgBossQueueOptions {
  return { connectionString, expireInSeconds: Math.ceil(JOB_TIMEOUT_MS / 1000) + 120, pollingIntervalSeconds: 1, supervise };
}

export class PgBossJobQueue implements JobQueue {
  readonly kind = 'pg-boss';
  private readonly boss: PgBoss;
  private workerIds: string[] = [];
  private readonly claims = new Set<Promise<unknown>>();
  /** Aborted by stopConsuming: a claim waiting for the database gives up (the message comes back later). */
  private draining = new AbortController();
  /** `completed` (job id) once a message is marked done in pg-boss. */
  readonly messages = new EventEmitter<{ completed: [jobId: string] }>();

  constructor(
    private readonly options: PgBossQueueOptions,
    private readonly onError: (err: unknown) => void,
  ) {
    this.boss = new PgBoss({
      connectionString: options.connectionString,
      application_name: 'render-service-queue',
      max: 4,
      supervise: options.supervise,
      schedule: false,
      migrate: true,
      // Messages are a delivery log, not the record (that is the jobs table): keep them briefly.
      archiveCompletedAfterSeconds: 3_600,
      archiveFailedAfterSeconds: 3_600,
      deleteAfterDays: 2,
    });
    // pg-boss reports polling and maintenance failures as events; unhandled, they would end the process.
    this.boss.on('error', onError);
  }

  async open(): Promise<void> {
    await this.boss.start();
    // Idempotent: every process declares the queue it uses.
    await this.boss.createQueue(EXPORT_QUEUE, {
      name: EXPORT_QUEUE,
      policy: 'standard',
      retryLimit: 20,
      retryDelay: 1,
      retryBackoff: true,
      expireInSeconds: this.options.expireInSeconds,
    });
  }

  enqueue(id: string, runAt: number) {
    return async (trx: Parameters<typeof transactionExecutor>[0]) => {
      const startAfter = runAt > Date.now() ? new Date(runAt) : undefined;
      const messageId = await this.boss.send(
        EXPORT_QUEUE,
        { jobId: id },
        { db: transactionExecutor(trx), ...(startAfter ? { startAfter } : {}) },
      );
      // A standard queue refuses a message only when the queue is missing: fail the transaction, or the job would never run.
      if (!messageId) throw new Error(`pg-boss refused the message for ${id}: queue ${EXPORT_QUEUE} is missing`);
    };
  }

  async consume(consumer: JobConsumer, slots: number): Promise<void> {
    this.draining = new AbortController();
    // One pg-boss worker per slot: each holds one message while its export runs (until its render is
    // done when the result then waits for object storage: the job row and its lease carry it on).
    for (let i = 0; i < slots; i++) {
      const id = await this.boss.work<{ jobId: string }>(
        EXPORT_QUEUE,
        { batchSize: 1, pollingIntervalSeconds: this.options.pollingIntervalSeconds },
        async ([message]) => {
          // Thrown, the message fails and pg-boss delivers it again shortly (to another process).
          if (!consumer.accepting()) throw new Error('draining');
          const claiming = this.untilDatabaseAnswers(() => consumer.claim(message.data.jobId));
          this.claims.add(claiming);
          const job = await claiming.finally(() => this.claims.delete(claiming));
          if (job) await consumer.execute(job);
          // Completed here, awaited: pg-boss completes a message after its handler returns without
          // waiting for the write, so `completed` would otherwise come before the message is done.
          // (Its own completion afterwards finds the message no longer active and changes nothing.)
          await this.untilDatabaseAnswers(() => this.boss.complete(EXPORT_QUEUE, message.id));
          this.messages.emit('completed', message.data.jobId);
        },
      );
      this.workerIds.push(id);
    }
  }

  private untilDatabaseAnswers<T>(operation: () => Promise<T>): Promise<T> {
    return retryWhileUnavailable(operation, {
      dependency: 'database',
      maxWaitMs: DATABASE_WAIT_MS,
      maxDelayMs: 2_000,
      signal: this.draining.signal,
      onRetry: (err, attempt) => attempt === 1 && this.onError(err),
    });
  }

  wake(): void {
    for (const id of this.workerIds) this.boss.notifyWorker(id);
  }

  async stopConsuming(): Promise<void> {
    this.draining.abort();
    if (this.workerIds.length > 0) await this.boss.offWork(EXPORT_QUEUE);
    this.workerIds = [];
    await Promise.allSettled([...this.claims]);
  }

  async close(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: 5_000, close: true });
  }
}
