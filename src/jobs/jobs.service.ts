// Durable exports: submit (the job row and its credit reservation commit together), read, list,
// cancel, and the result download. The runner (job-runner.ts) does the work.
import { newId } from '../lib/ids.ts';
import { DEPENDENCY_RETRY_AFTER_SECONDS, DependencyUnavailableError } from '../lib/dependency-failure.ts';
import { type JobRecord, type JobStatus, type JobsRepository, isFinishedStatus } from '../../db/repositories/jobs.repository.ts';
import type { components } from '../../codegen/openapi.ts';
import { type ResolvedRecipe, recipePaths } from '../engine/recipe.ts';
import { ProblemError } from '../errors/problem.ts';
import { decodeCursor, pageOf } from '../lib/page-cursor.ts';
import type { Principal } from '../services/auth.service.ts';
import type { Clock } from '../lib/clock.ts';
import { thumbnailFormat } from '../lib/formats.ts';
import type { CreditsService } from '../services/credits.service.ts';
import type { KeysService } from '../services/keys.service.ts';
import { chargeNow } from '../services/pricing.ts';
import type { JobLifecycle } from './job-lifecycle.ts';
import type { JobQueue } from './job-queue.ts';
import type { RenderResult, RenderService } from '../services/render.service.ts';
import { RecipesService } from '../services/recipes.service.ts';
import { SIZE_LIMITS } from '../config/limits.ts';
import { type JobResults, type ResultLink, resultPath } from './job-results.ts';

/** JobCreate from the contract: a recipe plus `slug` or its alias `generator` (at least one). */
export type JobCreate = components['schemas']['JobCreate'];
type JobView = components['schemas']['Job'];

/** Tries per job: transient failures (encoder, overload) retry with backoff up to this many. */
export const MAX_ATTEMPTS = 3;
/** Longer side of a job's thumbnail, in CSS pixels. */
export const THUMBNAIL_SIDE = 160;
/**
 * The pixel ratios thumbnails are rendered at: any asked ratio is served by the next one up, so
 * ratios that give the same picture (2.99999 and 3) share one free render and one cached object —
 * at most four per job, however many ratios are asked.
 */
export const THUMBNAIL_PIXEL_RATIOS = [1, 1.5, 2, 3] as const;
/** A job's credit hold outlives any queue wait; the sweeper frees it only if everything died. */
const JOB_RESERVATION_TTL_MS = 24 * 60 * 60 * 1000;

const iso = (ms: number) => new Date(ms).toISOString();

/** A completed job whose retention has not ended: its result can be downloaded. */
function isResultReady(job: JobRecord, now: number): boolean {
  return job.status === 'completed' && (job.expiresAt === null || job.expiresAt > now);
}

/**
 * The contract's view of a job. `link` is where its result downloads (JobResults.link: presigned
 * when the store can); without one, the API path — what webhooks carry, since a webhook may be
 * delivered or retried after any presigned URL has expired.
 */
export function jobView(job: JobRecord, now: number, link?: ResultLink): JobView {
  const resultReady = isResultReady(job, now);
  return {
    id: job.id,
    slug: job.slug,
    status: job.status,
    finished: isFinishedStatus(job.status),
    progress: Math.min(1, Math.max(0, job.progress)),
    attempts: job.attempts,
    createdAt: iso(job.createdAt),
    updatedAt: iso(job.updatedAt),
    // True from the moment a cancel is accepted: a running job keeps `running` until its worker
    // has stopped it (FFmpeg killed, hold released), then turns `cancelled`.
    cancelled: job.status === 'cancelled' || (job.cancelRequested && !isFinishedStatus(job.status)),
    resultReady,
    format: job.format as JobView['format'],
    recipeHash: job.recipeHash,
    recipe: job.recipe,
    metadata: job.metadata,
    ...(job.error && job.status !== 'completed' ? { error: job.error } : {}),
    ...(job.contentType ? { contentType: job.contentType } : {}),
    ...(resultReady ? { resultUrl: link?.url ?? resultPath(job.id) } : {}),
    ...(resultReady && link?.expiresAt !== undefined ? { resultUrlExpiresAt: iso(link.expiresAt) } : {}),
    ...(job.expiresAt ? { expiresAt: iso(job.expiresAt) } : {}),
  };
}

export interface JobsServiceOptions {
  repo: JobsRepository;
  queue: JobQueue;
  render: RenderService;
  /** Resolves recipes of the workspace's templates too; generators only unless given. */
  recipes?: RecipesService;
  /** Where completed jobs' files are kept, and how clients reach them. */
  results: JobResults;
  credits: CreditsService;
  /** A job through a persisted API key counts against its monthlyCreditLimit; absent, none are counted. */
  keys?: Pick<KeysService, 'spendIn'> | null;
  clock: Clock;
  /** Told when a job is queued or ends here (a queued job cancelled): job-lifecycle.ts. */
  lifecycle: JobLifecycle;
  /** Checks webhookUrl at submission (HTTPS, allowed host); throws 400. */
  checkWebhookUrl?: (url: string) => void;
  /**
   * True while the store of job results is known to be unreachable (object storage down): a
   * submission is then refused with 503 and Retry-After rather than queued behind an outage.
   */
  resultStoreDown?: () => boolean;
}

export class JobsService {
  private readonly repo: JobsRepository;
  private readonly queue: JobQueue;
  private readonly render: RenderService;
  private readonly recipes: RecipesService;
  private readonly results: JobResults;
  private readonly credits: CreditsService;
  private readonly keys: Pick<KeysService, 'spendIn'> | null;
  private readonly clock: Clock;
  private readonly lifecycle: JobLifecycle;
  private readonly checkWebhookUrl: (url: string) => void;
  private readonly resultStoreDown: () => boolean;

  constructor(options: JobsServiceOptions) {
    ({
      repo: this.repo,
      queue: this.queue,
      render: this.render,
      results: this.results,
      credits: this.credits,
      clock: this.clock,
      lifecycle: this.lifecycle,
    } = options);
    this.recipes = options.recipes ?? new RecipesService(options.render, undefined);
    this.keys = options.keys ?? null;
    this.checkWebhookUrl = options.checkWebhookUrl ?? (() => {});
    this.resultStoreDown = options.resultStoreDown ?? (() => false);
  }

  /**
   * A submission's recipe, checked and resolved as submit checks it, before anything is queued
   * (`at`: where the request holds the job, which issues name: `body.params.x`); POST /v1/quote
   * checks a job by it too.
   */
  async resolveSubmission(principal: Principal, input: JobCreate, at = 'body'): Promise<{ slug: string; resolved: ResolvedRecipe }> {
    const slug = input.slug ?? input.generator!;
    if (input.slug && input.generator && input.slug !== input.generator) {
      throw new ProblemError('validation_failed', {
        detail: '`slug` and `generator` name different generators.',
        issues: [{ path: `${at}.generator`, message: `must equal ${at}.slug`, keyword: 'const' }],
      });
    }
    const { webhookUrl, metadata: _m, slug: _s, generator: _g, ...recipe } = input;
    const resolved = await this.recipes.resolve(principal.workspaceId, slug, recipe, recipePaths(at));
    if (webhookUrl) this.checkWebhookUrl(webhookUrl);
    return { slug, resolved };
  }

  /**
   * What a job of the recipe holds at submission and is charged when it renders: the pricing rule of
   * every render (chargeNow), so a result already in the render cache costs nothing and holds nothing
   * (the runner settles by what the render turned out to be); local mode charges nothing. POST
   * /v1/quote answers this for a job.
   */
  async hold(resolved: ResolvedRecipe): Promise<{ credits: number; cached: boolean }> {
    const cached = (await this.render.cached(resolved)) !== undefined;
    return { credits: this.credits.enabled ? chargeNow(resolved, cached) : 0, cached };
  }

  async submit(principal: Principal, input: JobCreate): Promise<JobRecord> {
    const { slug, resolved } = await this.resolveSubmission(principal, input);
    const { webhookUrl, metadata } = input;
    // Its result could not be stored: say so now, as every request that needs a dependency that is down does.
    if (this.resultStoreDown())
      throw new ProblemError('not_ready', {
        detail: `Object storage is unavailable right now, so an export could not store its result; retry after ${DEPENDENCY_RETRY_AFTER_SECONDS} seconds.`,
        headers: { 'Retry-After': String(DEPENDENCY_RETRY_AFTER_SECONDS) },
        cause: new DependencyUnavailableError('storage', 'known to be down'),
      });
    const now = this.clock.now();
    const id = newId('job');
    const { credits: cost, cached } = await this.hold(resolved);
    // What the job counts against its API key's month: its price, as a render's (local mode, which
    // holds nothing, counts it too); a cached result counts nothing. Given back by returnKeySpending.
    const keyCost = chargeNow(resolved, cached);
    const keyId = principal.method === 'api_key' && this.keys && keyCost > 0 ? principal.keyId : undefined;
    const job = await this.repo.insert(
      {
        id,
        workspaceId: principal.workspaceId,
        keyId: principal.keyId ?? null,
        slug,
        recipe: resolved.encoded,
        recipeHash: resolved.hash,
        format: resolved.recipe.format,
        maxAttempts: MAX_ATTEMPTS,
        webhookUrl: webhookUrl ?? null,
        metadata: metadata ?? {},
        createdAt: now,
      },
      {
        // In the job's own transaction, before its hold: concurrent submissions can never pass the limit,
        // and a refusal (402 signing_key_limit_reached) leaves no row, hold or queue message.
        spend: async (trx) => (keyId ? { month: await this.keys!.spendIn(trx, keyId, keyCost), credits: keyCost } : null),
        reserve: async (trx) =>
          cost === 0
            ? null
            : ((
                await this.credits.reserve(
                  principal.workspaceId,
                  cost,
                  id,
                  `export ${slug} ${resolved.recipe.format}`,
                  JOB_RESERVATION_TTL_MS,
                  trx,
                )
              )?.id ?? null),
        enqueue: this.queue.enqueue(id, now),
      },
    );
    this.lifecycle.queued();
    return job;
  }

  async get(workspaceId: string, id: string): Promise<JobRecord> {
    const job = await this.repo.findInWorkspace(workspaceId, id);
    if (!job) throw new ProblemError('not_found', { detail: `No job ${id} in this workspace.` });
    return job;
  }

  async list(workspaceId: string, options: { status?: JobStatus; limit?: number; cursor?: string }) {
    const limit = options.limit ?? 20;
    const before = decodeCursor(options.cursor);
    const { page, next } = pageOf(await this.repo.list(workspaceId, { status: options.status, limit: limit + 1, before }), limit);
    return { jobs: page, next };
  }

  async cancel(workspaceId: string, id: string): Promise<JobRecord> {
    const outcome = await this.repo.cancel(workspaceId, id, this.clock.now());
    if (outcome === 'missing') throw new ProblemError('not_found', { detail: `No job ${id} in this workspace.` });
    const job = (await this.repo.find(id))!;
    if (outcome === 'finished') throw new ProblemError('job_not_cancellable', { detail: `The job has already ended (${job.status}).` });
    // A queued job never ran: its hold goes back now (what it counted against its key went back in the
    // cancel's transaction). A running one is released by its worker.
    if (outcome === 'cancelled') {
      await this.credits.releaseId(job.reservationId);
      this.lifecycle.finished(job);
    }
    return job;
  }

  /**
   * A still of a completed job's recipe, at most THUMBNAIL_SIDE CSS pixels on its longer side
   * (frame 0 of an animation), webp when offered: free (the job paid) and cached like any render.
   */
  async thumbnail(workspaceId: string, id: string, pixelRatio = 1): Promise<RenderResult> {
    const job = await this.completed(workspaceId, id);
    const full = await this.recipes.resolveEncoded(job.workspaceId, job.recipeHash, job.recipe, {});
    const { width, height } = full.recipe.size;
    const scale = Math.min(1, THUMBNAIL_SIDE / Math.max(width, height));
    const side = (n: number) => Math.max(SIZE_LIMITS.minSide, Math.round(n * scale));
    const format = thumbnailFormat(full.generator.formats);
    return this.render.render(
      await this.recipes.resolveEncoded(job.workspaceId, job.recipeHash, job.recipe, {
        format,
        w: side(width),
        h: side(height),
        pr: THUMBNAIL_PIXEL_RATIOS.find((ratio) => ratio >= pixelRatio) ?? 3,
      }),
    );
  }

  /** The job, if it completed: 409 job_has_no_result (failed, cancelled) or job_not_ready (queued, running) else. */
  private async completed(workspaceId: string, id: string): Promise<JobRecord> {
    const job = await this.get(workspaceId, id);
    // A failed or cancelled job will never have one: say so, so a client stops polling.
    if (job.status === 'failed' || job.status === 'cancelled') {
      const why = job.status === 'failed' ? `failed${job.error ? ` (${job.error.replace(/\.$/, '')})` : ''}` : 'was cancelled';
      throw new ProblemError('job_has_no_result', {
        detail: `The job ${why}; it has no result and never will. Submit it again to render it.`,
      });
    }
    if (job.status !== 'completed')
      throw new ProblemError('job_not_ready', { detail: `The job is ${job.status}; its result is not ready yet.` });
    return job;
  }

  /** The result bytes of a completed job: its own object, or (jobs completed before results had one) the render cache's. */
  async result(workspaceId: string, id: string): Promise<{ job: JobRecord; bytes: Buffer }> {
    const job = await this.completed(workspaceId, id);
    if (!isResultReady(job, this.clock.now()))
      throw new ProblemError('result_expired', { detail: 'The result passed its retention period. Submit the job again.' });
    const bytes = job.resultKey
      ? await this.results.get(job.resultKey)
      : await this.render.cached(await this.recipes.resolveEncoded(job.workspaceId, job.recipeHash, job.recipe, {}));
    if (!bytes) throw new ProblemError('result_expired', { detail: 'The result is no longer stored. Submit the job again.' });
    return { job, bytes };
  }

  /** The view clients get: with a ready result, where to download it (presigned when the store can). */
  async view(job: JobRecord): Promise<JobView> {
    const now = this.clock.now();
    return jobView(job, now, isResultReady(job, now) ? await this.results.link(job) : undefined);
  }
}
