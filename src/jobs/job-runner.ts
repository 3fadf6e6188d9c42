// Runs export jobs in this process, on both databases, whichever queue delivers them (job-queue.ts).
// A job is claimed with a lease that a heartbeat extends; a sweeper finds jobs whose lease lapsed
// (their process died: SIGKILL, a lost machine) and puts them back on the queue, or ends them when
// they are out of attempts or were cancelled. Cancellation is a flag the runner polls: it aborts
// the render (the worker kills FFmpeg) within CANCEL_POLL_MS. stop() drains: no new claims,
// running jobs are stopped and handed back to the queue, and FFmpeg children are killed.
// A job holds one of the process's slots (JOB_CONCURRENCY) while it renders; a rendered result that
// must wait for its store (object storage down) gives the slot back while it waits, so the jobs
// queued behind it render meanwhile instead of waiting out the outage in turn.
import type { Logger } from 'pino';
import type { JobRecord, JobsRepository } from '../../db/repositories/jobs.repository.ts';
import { ProblemError, isTransientFailure } from '../errors/problem.ts';
import type { Clock } from '../lib/clock.ts';
import { retryWhileUnavailable, unavailableDependency } from '../lib/dependency-failure.ts';
import { type DependencyStatus, logFailure, reasonOf } from '../lib/dependency-status.ts';
import { newId } from '../lib/ids.ts';
import type { MeteredRenderService } from '../services/metered-render.service.ts';
import type { RenderService } from '../services/render.service.ts';
import { RecipesService } from '../services/recipes.service.ts';
import type { UsageService } from '../services/usage.service.ts';
import type { JobLifecycle } from './job-lifecycle.ts';
import type { JobConsumer, JobQueue } from './job-queue.ts';
import { RESULT_RETENTION_MS, type JobResults } from './job-results.ts';

/** A crashed runner's job lapses after this long (default of JOB_LEASE_MS). */
export const DEFAULT_LEASE_MS = 15_000;
/** How often a runner looks for lapsed jobs: a crashed job is queued again within lease + this. */
export const sweepIntervalMs = (leaseMs: number) => Math.min(5_000, Math.max(250, Math.floor(leaseMs / 3)));
/** A single export may run this long (FFmpeg's hard limit inside it). */
export const JOB_TIMEOUT_MS = 10 * 60_000;
const CANCEL_POLL_MS = 500;
const PROGRESS_WRITE_MS = 250;
/** Backoff before retry n (1-based): the first delay (JOB_RETRY_DELAY_MS, 2 s), then 4× longer each time. */
const backoffMs = (firstDelayMs: number, attempt: number) => firstDelayMs * 4 ** (attempt - 1);
/**
 * A job's own writes (claimed, completed, failed, its credits) wait this long for a database that
 * went away (a restart, a failover), retrying every 2 s at most so the job is settled soon after
 * it returns. Past it the runner lets go: the job's lease lapses and a sweep recovers it.
 */
const DATABASE_WAIT_MS = 10 * 60_000;
/** Default of STORAGE_OUTAGE_WAIT_SECONDS: how long a rendered result waits for object storage. */
export const DEFAULT_STORAGE_WAIT_MS = 5 * 60_000;
/**
 * Rendered results waiting for their store, in bytes, beyond which a waiting result keeps its slot:
 * the process renders on while storage is down only as far as it can hold what it made.
 */
export const UPLOAD_BACKLOG_BYTES = 256 * 1024 * 1024;

/** A result that could not be stored within the storage wait: the job fails for good (rendering again would not help: the wait was the retry). */
class ResultNotStored extends ProblemError {
  constructor(waitMs: number, cause: unknown) {
    super('upstream_error', {
      detail: `Object storage was unreachable for ${Math.round(waitMs / 1000)} s, so the result could not be stored. No credits were charged; submit the export again.`,
      cause,
      transient: false,
    });
  }
}

/** What a failed job says: the problem's own words, or which dependency was down, never internals. */
function failureMessage(err: unknown): string {
  if (err instanceof ProblemError) return err.detail ?? err.message;
  const dependency = unavailableDependency(err);
  if (dependency === 'storage') return 'Object storage was unavailable; the export failed.';
  if (dependency === 'database') return 'The database was unavailable; the export failed.';
  return 'The export failed unexpectedly.';
}

export interface JobRunnerOptions {
  repo: JobsRepository;
  queue: JobQueue;
  render: RenderService;
  /** Resolves recipes of the workspace's templates too; generators only unless given. */
  recipes?: RecipesService;
  /** Where a completed job's file is stored. */
  results: JobResults;
  /** Settles a job's credit hold by the rule every render is charged by (settleJob). */
  meteredRender: Pick<MeteredRenderService, 'settleJob'>;
  usage: UsageService;
  clock: Clock;
  logger: Logger;
  /** Jobs this process runs at once. */
  concurrency: number;
  /** Told when a job ends; tells the runner when one is queued (job-lifecycle.ts). */
  lifecycle: JobLifecycle;
  /** A crashed runner's job lapses after this long (JOB_LEASE_MS). */
  leaseMs?: number;
  /** The first retry's backoff (JOB_RETRY_DELAY_MS). */
  retryDelayMs?: number;
  /** How long a rendered result waits for object storage to come back (STORAGE_OUTAGE_WAIT_SECONDS). */
  storageWaitMs?: number;
  /** Told of the database's and storage's outages that the runner meets (logged there once). */
  dependencies?: DependencyStatus;
}

export class JobRunner implements JobConsumer {
  readonly id = newId('runner');
  private running = new Map<string, AbortController>();
  /** The jobs running here, settled when each has ended (stop() waits on them). */
  private readonly executions = new Set<Promise<void>>();
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | null = null;
  private stopping = false;
  /** Aborted when stop() gives up on running jobs: their waits for a dependency end too. */
  private halt = new AbortController();

  private readonly repo: JobsRepository;
  private readonly queue: JobQueue;
  private readonly render: RenderService;
  private readonly recipes: RecipesService;
  private readonly results: JobResults;
  private readonly meteredRender: Pick<MeteredRenderService, 'settleJob'>;
  private readonly usage: UsageService;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly concurrency: number;
  private readonly lifecycle: JobLifecycle;
  private readonly leaseMs: number;
  private readonly retryDelayMs: number;
  private readonly storageWaitMs: number;
  private readonly dependencies: DependencyStatus | undefined;
  private readonly uploadBacklogBytes = UPLOAD_BACKLOG_BYTES;
  /** Bytes of rendered results waiting for their store without a slot (at most uploadBacklogBytes). */
  private waitingBytes = 0;

  constructor(options: JobRunnerOptions) {
    ({
      repo: this.repo,
      queue: this.queue,
      render: this.render,
      results: this.results,
      meteredRender: this.meteredRender,
      usage: this.usage,
      clock: this.clock,
      logger: this.logger,
      concurrency: this.concurrency,
      lifecycle: this.lifecycle,
    } = options);
    this.recipes = options.recipes ?? new RecipesService(options.render, undefined);
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.retryDelayMs = options.retryDelayMs ?? 2_000;
    this.storageWaitMs = options.storageWaitMs ?? DEFAULT_STORAGE_WAIT_MS;
    this.dependencies = options.dependencies;
  }

  /** Bytes of rendered results now waiting for their store without holding a slot. */
  get resultsWaitingBytes(): number {
    return this.waitingBytes;
  }

  /**
   * A write of the job's own state, retried while the database is unavailable (see DATABASE_WAIT_MS).
   * The first retry is a warning; the later ones, every 2 s for as long as the outage lasts, are info.
   */
  private persist<T>(write: () => Promise<T>, log: Logger, what: string): Promise<T> {
    return retryWhileUnavailable(write, {
      dependency: 'database',
      maxWaitMs: DATABASE_WAIT_MS,
      maxDelayMs: 2_000,
      signal: this.halt.signal,
      onRetry: (err, attempt, delayMs) => {
        this.dependencies?.noteFailure(err);
        log[attempt === 1 ? 'warn' : 'info']({ reason: reasonOf(err), attempt, delayMs }, `database unavailable: retrying ${what}`);
      },
    });
  }

  /**
   * Stores the result, waiting out an object-storage outage of up to storageWaitMs (cancel and drain
   * end the wait). Once it has to wait, the job gives its slot back (`releaseSlot`) while the results
   * waiting so stay within uploadBacklogBytes.
   */
  private async storeResult(job: JobRecord, bytes: Uint8Array, signal: AbortSignal, log: Logger, releaseSlot: () => void): Promise<string> {
    let held = 0;
    try {
      return await retryWhileUnavailable(() => this.results.put(job, bytes), {
        maxWaitMs: this.storageWaitMs,
        signal,
        onRetry: (err, attempt, delayMs) => {
          this.dependencies?.noteFailure(err);
          if (held === 0 && this.waitingBytes + bytes.byteLength <= this.uploadBacklogBytes) {
            held = Math.max(1, bytes.byteLength);
            this.waitingBytes += held;
            releaseSlot();
          }
          log[attempt === 1 ? 'warn' : 'info'](
            { reason: reasonOf(err), attempt, delayMs, slotReleased: held > 0 },
            'storage unavailable: retrying the result upload',
          );
        },
      });
    } catch (err) {
      if (unavailableDependency(err) && !signal.aborted) throw new ResultNotStored(this.storageWaitMs, err);
      throw err;
    } finally {
      this.waitingBytes -= held;
    }
  }

  async start(): Promise<void> {
    this.stopping = false;
    this.halt = new AbortController();
    await this.queue.consume(this, this.concurrency);
    this.lifecycle.off('queued', this.wake).on('queued', this.wake);
    this.sweeper = setInterval(() => void this.recoverLapsed(), sweepIntervalMs(this.leaseMs));
    this.sweeper.unref();
  }

  /** A job was queued: look now instead of at the next poll. */
  private readonly wake = (): void => {
    if (!this.stopping) this.queue.wake();
  };

  accepting(): boolean {
    return !this.stopping;
  }

  claim(id?: string): Promise<JobRecord | undefined> {
    const now = this.clock.now();
    return id ? this.repo.claim(id, this.id, now, this.leaseMs) : this.repo.claimNext(this.id, now, this.leaseMs);
  }

  /**
   * Jobs whose process died: back to the queue while attempts remain, otherwise failed; a job
   * that had been asked to stop ends cancelled. Each step is conditional, so of several runners
   * sweeping at once exactly one acts on a job (and credits are released once).
   */
  recoverLapsed(): Promise<void> {
    if (this.sweeping || this.stopping) return this.sweeping ?? Promise.resolve();
    this.sweeping = (async () => {
      try {
        const now = this.clock.now();
        for (const job of await this.repo.lapsed(now, 50)) {
          // Still running here: its lease lapsed while the database was away, and the next heartbeat renews it.
          if (this.running.has(job.id) && job.lockedBy === this.id) continue;
          if (job.cancelRequested) {
            if (await this.repo.endLapsed(job.id, 'cancelled', null, now)) await this.ended(job, 'cancelled');
          } else if (job.attempts >= job.maxAttempts) {
            if (await this.repo.endLapsed(job.id, 'failed', 'The export stopped responding on every attempt.', now))
              await this.ended(job, 'failed');
          } else if (await this.repo.requeueLapsed(job.id, now, this.queue.enqueue(job.id, now))) {
            this.logger.warn({ jobId: job.id, lockedBy: job.lockedBy }, 'job lease lapsed: queued again');
            this.queue.wake();
          }
        }
        // Finished jobs whose webhook never reached the outbox; a lease of grace lets one on its way arrive.
        await this.lifecycle.announceLost(now, now - this.leaseMs);
      } catch (err) {
        logFailure(this.dependencies, this.logger, 'error', { err }, 'lapsed job sweep failed');
      } finally {
        this.sweeping = null;
      }
    })();
    return this.sweeping;
  }

  private async ended(job: JobRecord, status: 'failed' | 'cancelled'): Promise<void> {
    await this.meteredRender.settleJob(job);
    this.logger.warn({ jobId: job.id, status }, 'lapsed job ended');
    this.lifecycle.ended(job.id);
  }

  /**
   * Runs a claimed job; resolves once it no longer needs its slot — at its end, or once its result
   * is rendered and waits for its store (the rest runs on here: idle() and stop() wait for it).
   */
  execute(job: JobRecord): Promise<void> {
    let releaseSlot!: () => void;
    const slotFree = new Promise<void>((resolve) => (releaseSlot = resolve));
    const execution = this.runToEnd(job, releaseSlot);
    this.executions.add(execution);
    const forget = () => void this.executions.delete(execution);
    execution.then(forget, forget);
    return Promise.race([execution, slotFree]);
  }

  private async runToEnd(job: JobRecord, releaseSlot: () => void): Promise<void> {
    const controller = new AbortController();
    this.running.set(job.id, controller);
    this.lifecycle.started(job);
    const log = this.logger.child({ jobId: job.id, attempt: job.attempts });
    log.info('job started');
    const started = performance.now();
    // Three beats per lease: one lost write never lets a live job look dead.
    const heartbeat = setInterval(
      () => void this.repo.heartbeat(job.id, this.id, this.clock.now() + this.leaseMs).catch(() => {}),
      this.leaseMs / 3,
    );
    const cancelWatch = setInterval(() => {
      void this.repo.cancelRequested(job.id).then(
        (requested) => requested && controller.abort(new ProblemError('client_closed_request', { detail: 'cancelled' })),
        () => {},
      );
    }, CANCEL_POLL_MS);
    let lastProgressWrite = 0;
    try {
      if (await this.persist(() => this.repo.cancelRequested(job.id), log, 'the cancel check'))
        throw new ProblemError('client_closed_request', { detail: 'cancelled' });
      const resolved = await this.recipes.resolveEncoded(job.workspaceId, job.recipeHash, job.recipe, {});
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
      // Stored before the job says completed, so a completed job's result is always there to read.
      const key = await this.storeResult(job, result.bytes, controller.signal, log, releaseSlot);
      const now = this.clock.now();
      const completed = await this.persist(
        () =>
          this.repo.complete(
            job.id,
            this.id,
            { contentType: result.contentType, bytes: result.bytes.length, key, expiresAt: now + RESULT_RETENTION_MS },
            now,
          ),
        log,
        'the completion',
      );
      if (completed) {
        const credits = await this.persist(() => this.meteredRender.settleJob(job, { resolved, cache: result.cache }), log, 'the charge');
        void this.usage.record({
          workspaceId: job.workspaceId,
          keyId: job.keyId,
          // A job is submitted with an API key or a session (its key id is null then).
          keyKind: job.keyId ? 'api_key' : null,
          operation: 'createJob',
          generator: job.slug,
          format: job.format,
          credits,
          bytes: result.bytes.length,
          durationMs: performance.now() - started,
          cache: result.cache,
        });
        log.info({ bytes: result.bytes.length }, 'job completed');
        this.lifecycle.ended(job.id);
      } else await this.discardResult(job, key, log);
    } catch (err) {
      await this.settleFailure(job, err, log).catch((settleErr: unknown) =>
        // The database stayed away: the job keeps its state and lease, and a sweep settles it once the lease lapses.
        log.error({ err: settleErr, cause: err }, 'could not record how the job ended: a sweep will recover it'),
      );
    } finally {
      clearInterval(heartbeat);
      clearInterval(cancelWatch);
      this.running.delete(job.id);
    }
  }

  /**
   * The job was taken from this runner while it uploaded (its lease lapsed). If the sweep ended it
   * (failed or cancelled) it will never complete, so nothing would ever point to — or delete — the
   * object just written. A job queued again keeps it: its next runner writes the same key.
   */
  private async discardResult(job: JobRecord, key: string, log: Logger): Promise<void> {
    const current = await this.repo.find(job.id);
    if (current?.status !== 'failed' && current?.status !== 'cancelled') return;
    await this.results
      .delete(key)
      .catch((err: unknown) => log.warn({ err, key }, 'could not delete the result of a job that ended elsewhere'));
  }

  private async settleFailure(job: JobRecord, err: unknown, log: Logger): Promise<void> {
    const now = this.clock.now();
    const cancelRequested = await this.persist(() => this.repo.cancelRequested(job.id), log, 'the cancel check');
    if (this.stopping && !cancelRequested) {
      // Draining (SIGTERM): hand the job back to the queue, due at once, for another runner.
      await this.persist(
        () => this.repo.fail(job.id, this.id, 'interrupted by a shutdown', now, { at: now, enqueue: this.queue.enqueue(job.id, now) }),
        log,
        'the hand-back',
      );
      log.info('job handed back on shutdown');
      return;
    }
    if (cancelRequested) {
      if (await this.persist(() => this.repo.markCancelled(job.id, this.id, now), log, 'the cancellation')) {
        await this.persist(() => this.meteredRender.settleJob(job), log, 'the credit release');
        log.info('job cancelled');
        this.lifecycle.ended(job.id);
      }
      return;
    }
    const message = failureMessage(err);
    const retryAt = isTransientFailure(err) && job.attempts < job.maxAttempts ? now + backoffMs(this.retryDelayMs, job.attempts) : null;
    const recorded = await this.persist(
      () =>
        this.repo.fail(
          job.id,
          this.id,
          message,
          now,
          retryAt === null ? undefined : { at: retryAt, enqueue: this.queue.enqueue(job.id, retryAt) },
        ),
      log,
      'the failure',
    );
    if (recorded) {
      if (retryAt === null) {
        await this.persist(() => this.meteredRender.settleJob(job), log, 'the credit release');
        log.warn({ err }, 'job failed');
        this.lifecycle.ended(job.id);
      } else {
        log.warn({ err, retryAt }, 'job will retry');
        this.lifecycle.retrying(job.id);
      }
    }
  }

  /** Resolves when every job running here now has ended (tests wait on this instead of on time). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.executions]);
  }

  /** Stops claiming, stops running jobs (they go back to the queue) and waits for them. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    this.lifecycle.off('queued', this.wake);
    clearInterval(this.sweeper);
    // A claim or sweep in flight finishes first, so nothing touches the database after close.
    await this.queue.stopConsuming();
    await this.sweeping;
    for (const controller of this.running.values()) controller.abort(new ProblemError('not_ready', { detail: 'shutting down' }));
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.allSettled([...this.executions]), grace]).finally(() => clearTimeout(timer));
    this.halt.abort();
  }
}
