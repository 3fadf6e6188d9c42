// Runs export jobs from the jobs table, in this process, on both databases. A job is claimed
// with a lease that a heartbeat extends; if the process dies (SIGKILL), the lease lapses after
// LEASE_MS and any runner claims the job again. Cancellation is a flag the runner polls: it aborts
// the render (the worker kills FFmpeg) within CANCEL_POLL_MS. stop() drains: no new claims,
// running jobs are stopped and handed back to the queue, and FFmpeg children are killed.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { JobRecord, JobsRepository } from '../../db/repositories/jobs.repository.ts';
import { ProblemError } from '../errors/problem.ts';
import type { Clock } from '../services/clock.ts';
import type { CreditsService } from '../services/credits.service.ts';
import type { RenderService } from '../services/render.service.ts';
import type { UsageService } from '../services/usage.service.ts';
import { RESULT_RETENTION_MS, type JobsNotifier } from './jobs.service.ts';

/** A crashed runner's job is picked up again after at most this long (default of JOB_LEASE_MS). */
export const DEFAULT_LEASE_MS = 15_000;
/** A single export may run this long (FFmpeg's hard limit inside it). */
export const JOB_TIMEOUT_MS = 10 * 60_000;
const CANCEL_POLL_MS = 500;
const PROGRESS_WRITE_MS = 250;
const IDLE_POLL_MS = 1_000;
/** Backoff before retry n (1-based): 2 s, 8 s, … */
const backoffMs = (attempt: number) => 2_000 * 4 ** (attempt - 1);

export interface JobEventSink {
  /** Called after a job finished (completed, failed or cancelled) — outbound webhooks hang here. */
  finished(job: JobRecord): void;
}

export class JobRunner implements JobsNotifier {
  readonly id = `runner_${randomBytes(6).toString('hex')}`;
  private running = new Map<string, AbortController>();
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;
  private started = false;
  private polling: Promise<void> | null = null;

  constructor(
    private readonly repo: JobsRepository,
    private readonly render: RenderService,
    private readonly credits: CreditsService,
    private readonly usage: UsageService,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** Jobs this process runs at once. */
    private readonly concurrency: number,
    private readonly events: JobEventSink = { finished: () => {} },
    private readonly leaseMs = DEFAULT_LEASE_MS,
  ) {}

  start(): void {
    this.started = true;
    this.stopping = false;
    this.schedule(0);
  }

  /** A job was queued: look now instead of at the next poll (only when this process runs jobs). */
  notify(): void {
    if (this.started && !this.stopping) this.schedule(0);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), ms);
    this.timer.unref();
  }

  private poll(): Promise<void> {
    if (this.polling || this.stopping) return this.polling ?? Promise.resolve();
    this.polling = this.claimWhileFree().finally(() => {
      this.polling = null;
      if (!this.stopping) this.schedule(IDLE_POLL_MS);
    });
    return this.polling;
  }

  private async claimWhileFree(): Promise<void> {
    try {
      while (!this.stopping && this.running.size < this.concurrency) {
        const job = await this.repo.claimNext(this.id, this.clock.now(), this.leaseMs);
        if (!job) break;
        void this.execute(job);
      }
    } catch (err) {
      this.logger.error({ err }, 'job claim failed');
    }
  }

  private async execute(job: JobRecord): Promise<void> {
    const controller = new AbortController();
    this.running.set(job.id, controller);
    const log = this.logger.child({ jobId: job.id, attempt: job.attempts });
    const started = performance.now();
    // Three beats per lease: one lost write never lets a live job look dead.
    const heartbeat = setInterval(() => void this.repo.heartbeat(job.id, this.id, this.clock.now() + this.leaseMs).catch(() => {}), this.leaseMs / 3);
    const cancelWatch = setInterval(() => {
      void this.repo.cancelRequested(job.id).then((requested) => requested && controller.abort(new ProblemError('client_closed_request', { detail: 'cancelled' })), () => {});
    }, CANCEL_POLL_MS);
    let lastProgressWrite = 0;
    try {
      if (await this.repo.cancelRequested(job.id)) throw new ProblemError('client_closed_request', { detail: 'cancelled' });
      const resolved = this.render.resolveEncoded(job.recipeHash, job.recipe, {});
      const result = await this.render.render(resolved, {
        mode: 'job',
        timeoutMs: JOB_TIMEOUT_MS,
        signal: controller.signal,
        onProgress: (frame, frames) => {
          const now = Date.now();
          if (now - lastProgressWrite < PROGRESS_WRITE_MS || frame >= frames) return;
          lastProgressWrite = now;
          void this.repo.progress(job.id, this.id, Math.min(0.99, frame / frames), this.clock.now()).catch(() => {});
        },
      });
      const now = this.clock.now();
      if (await this.repo.complete(job.id, this.id, { contentType: result.contentType, bytes: result.bytes.length, expiresAt: now + RESULT_RETENTION_MS }, now)) {
        await this.credits.commitId(job.reservationId);
        void this.usage.record({ workspaceId: job.workspaceId, keyId: job.keyId, operation: 'createJob', generator: job.slug, format: job.format, credits: this.credits.enabled && job.reservationId ? (await this.reservedAmount(job)) : 0, bytes: result.bytes.length, durationMs: performance.now() - started, cache: result.cache });
        log.info({ bytes: result.bytes.length }, 'job completed');
        this.finished(job.id);
      }
    } catch (err) {
      await this.settleFailure(job, err, log);
    } finally {
      clearInterval(heartbeat);
      clearInterval(cancelWatch);
      this.running.delete(job.id);
      if (!this.stopping) this.schedule(0);
    }
  }

  private async reservedAmount(job: JobRecord): Promise<number> {
    return job.reservationId ? (await this.credits.reservationAmount(job.reservationId)) ?? 0 : 0;
  }

  private async settleFailure(job: JobRecord, err: unknown, log: Logger): Promise<void> {
    const now = this.clock.now();
    if (this.stopping && !(await this.repo.cancelRequested(job.id))) {
      // Draining (SIGTERM): hand the job back to the queue, due at once, for another runner.
      await this.repo.fail(job.id, this.id, 'interrupted by a shutdown', now, now);
      log.info('job handed back on shutdown');
      return;
    }
    if (await this.repo.cancelRequested(job.id)) {
      if (await this.repo.markCancelled(job.id, this.id, now)) {
        await this.credits.releaseId(job.reservationId);
        log.info('job cancelled');
        this.finished(job.id);
      }
      return;
    }
    const transient = !(err instanceof ProblemError) || ['upstream_error', 'overloaded', 'render_timeout', 'not_ready'].includes(err.code);
    const message = err instanceof ProblemError ? (err.detail ?? err.message) : 'The export failed unexpectedly.';
    const retryAt = transient && job.attempts < job.maxAttempts ? now + backoffMs(job.attempts) : null;
    if (await this.repo.fail(job.id, this.id, message, retryAt, now)) {
      if (retryAt === null) {
        await this.credits.releaseId(job.reservationId);
        log.warn({ err }, 'job failed');
        this.finished(job.id);
      } else log.warn({ err, retryAt }, 'job will retry');
    }
  }

  private finished(id: string): void {
    void this.repo.find(id).then((job) => job && this.events.finished(job), () => {});
  }

  /** Stops claiming, stops running jobs (they go back to the queue) and waits for them. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    // A claim in flight finishes first, so nothing touches the database after close.
    await this.polling;
    for (const controller of this.running.values()) controller.abort(new ProblemError('not_ready', { detail: 'shutting down' }));
    const deadline = Date.now() + graceMs;
    while (this.running.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  }
}
