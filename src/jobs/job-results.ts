// A completed export's file: one object per job in the results blob store (files, Postgres or S3),
// kept RESULT_RETENTION_MS and then deleted by the retention sweep below — the service enforces the
// retention itself, whatever rules a bucket has. Where the store can presign (S3), `resultUrl` is a
// short-lived URL straight to the object; elsewhere it is the authenticated API path.
import type { Logger } from 'pino';
import type { BlobStore } from '../blob/blob-store.ts';
import type { JobRecord, JobsRepository } from '../../db/repositories/jobs.repository.ts';
import type { Clock } from '../lib/clock.ts';
import { extensionOf } from '../lib/formats.ts';

/** How long a completed job's result stays downloadable. */
export const RESULT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** How often a process that runs jobs deletes results past their retention. */
export const RESULT_SWEEP_INTERVAL_MS = 10 * 60_000;
const SWEEP_BATCH = 100;

/** The API path that serves a job's result to its workspace's credentials. */
export const resultPath = (jobId: string) => `/v1/jobs/${jobId}/result`;

/** The name a download is saved under: generator, recipe hash prefix, extension. */
export const resultFilename = (job: Pick<JobRecord, 'slug' | 'recipeHash' | 'format'>) =>
  `${job.slug}-${job.recipeHash.slice(0, 12)}.${extensionOf(job.format)}`;

/**
 * A job's object key: its id's random bytes in hex (blob keys are lowercase, so base64url ids
 * could collide on case-insensitive file systems) and the format's extension.
 */
export function resultKey(jobId: string, format: string): string {
  const random = Buffer.from(jobId.replace(/^job_/, ''), 'base64url').toString('hex');
  return `job_${random}.${extensionOf(format)}`;
}

export interface ResultLink {
  url: string;
  /** When a presigned URL stops working; absent for the API path. */
  expiresAt?: number;
}

export interface JobResultsOptions {
  /** The results blob store (files, Postgres or S3). */
  store: BlobStore;
  repo: JobsRepository;
  clock: Clock;
  logger: Logger;
  /** Lifetime of a presigned URL (RESULT_URL_TTL_SECONDS). */
  urlTtlSeconds: number;
}

export class JobResults {
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | null = null;
  private readonly store: BlobStore;
  private readonly repo: JobsRepository;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly urlTtlSeconds: number;

  constructor(options: JobResultsOptions) {
    ({ store: this.store, repo: this.repo, clock: this.clock, logger: this.logger, urlTtlSeconds: this.urlTtlSeconds } = options);
  }

  /** Stores a finished render as the job's result; idempotent (a retried attempt writes the same bytes to the same key). */
  async put(job: Pick<JobRecord, 'id' | 'format'>, bytes: Uint8Array): Promise<string> {
    const key = resultKey(job.id, job.format);
    await this.store.put(key, bytes);
    return key;
  }

  async get(key: string): Promise<Buffer | undefined> {
    return this.store.get(key);
  }

  async delete(key: string): Promise<void> {
    await this.store.delete(key);
  }

  /** Where the client downloads a ready result: presigned when the store can, else the API path. */
  async link(job: JobRecord): Promise<ResultLink> {
    if (!job.resultKey || !this.store.presignGet) return { url: resultPath(job.id) };
    // Signatures carry whole seconds: signed at this second, the URL stops working exactly at
    // signedAt + its lifetime, which is what the view says (not up to a second later).
    const signedAt = Math.floor(this.clock.now() / 1000) * 1000;
    const expiresInSeconds = this.urlTtlSeconds;
    try {
      const url = await this.store.presignGet(job.resultKey, {
        expiresInSeconds,
        contentType: job.contentType ?? undefined,
        filename: resultFilename(job),
        now: new Date(signedAt),
      });
      // A URL never outlives the result it points to.
      return { url, expiresAt: Math.min(signedAt + expiresInSeconds * 1000, job.expiresAt ?? Infinity) };
    } catch (err) {
      // Presigning needs credentials (the SDK's chain may fail to find any): the API path still works.
      this.logger.warn({ err, jobId: job.id }, 'could not presign a result URL; answering the API path');
      return { url: resultPath(job.id) };
    }
  }

  start(): void {
    this.sweeper = setInterval(() => void this.sweep(), RESULT_SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.sweeper);
    await this.sweeping;
  }

  /**
   * Deletes every stored result past its retention, in batches; resolves with how many. Any number
   * of processes may sweep at once: deletes are idempotent and a key is forgotten only once deleted.
   */
  sweep(): Promise<number> {
    this.sweeping ??= (async () => {
      let deleted = 0;
      try {
        for (;;) {
          const expired = await this.repo.expiredResults(this.clock.now(), SWEEP_BATCH);
          for (const { id, resultKey: key } of expired) {
            await this.store.delete(key);
            await this.repo.forgetResult(id, key);
            deleted++;
          }
          if (expired.length < SWEEP_BATCH) break;
        }
        if (deleted > 0) this.logger.info({ deleted }, 'deleted job results past their retention');
      } catch (err) {
        this.logger.warn({ err, deleted }, 'job result retention sweep failed; the next one continues');
      } finally {
        this.sweeping = null;
      }
      return deleted;
    })();
    return this.sweeping;
  }
}
