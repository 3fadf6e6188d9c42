// The one owner of what the rest of the service hears about a job's life:
//  - a job became runnable → the runner of this process (if any) looks at once ('queued');
//  - a job finished (isFinishedStatus: completed, failed, cancelled) → one webhook event, whose type
//    follows the status (JOB_WEBHOOK_EVENTS), under one message id per job (jobWebhookId), so the
//    same job announced twice — a race, the sweep below — is queued once by the outbox;
//  - a job that ended but whose webhook never reached the outbox (its process stopped in between)
//    is announced by the next sweep (announceLost).
// The runner and JobsService both report here; neither knows the other. It is an EventEmitter of
// the job's row at each step in this process — 'started' (claimed), 'retrying' (back in the queue
// after a transient failure), 'finished' (ended and announced), 'lost' (announced by the sweep) —
// so tests wait on these instead of polling.
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { type FinishedJobStatus, type JobRecord, type JobsRepository, isFinishedStatus } from '../../db/repositories/jobs.repository.ts';
import type { WebhookDeliveryService, WebhookEventType } from '../services/webhook-delivery.service.ts';

/** Which webhook event each finished status (isFinishedStatus) produces. */
export const JOB_WEBHOOK_EVENTS: Readonly<Record<FinishedJobStatus, WebhookEventType>> = Object.freeze({
  completed: 'job.completed',
  failed: 'job.failed',
  cancelled: 'job.cancelled',
});

const JOB_WEBHOOK_PREFIX = 'msg_';
/** The Standard Webhooks message id of a job's final event: one per job, the same in every process. */
export const jobWebhookId = (jobId: string): string => `${JOB_WEBHOOK_PREFIX}${jobId}`;

/** How far back the sweep looks for finished jobs whose webhook was never queued. */
const LOST_WEBHOOK_HORIZON_MS = 24 * 3_600_000;
const LOST_BATCH = 50;

export interface JobLifecycleOptions {
  repo: JobsRepository;
  /** Where webhooks go (in the background, with retries and an outbox). */
  webhooks: Pick<WebhookDeliveryService, 'deliver'>;
  /** The job as GET /v1/jobs/{id} shows it: the webhook's `data`. */
  view: (job: JobRecord) => unknown;
  logger: Logger;
}

interface JobLifecycleEvents {
  queued: [];
  started: [job: JobRecord];
  retrying: [job: JobRecord];
  finished: [job: JobRecord];
  lost: [job: JobRecord];
}

export class JobLifecycle extends EventEmitter<JobLifecycleEvents> {
  constructor(private readonly options: JobLifecycleOptions) {
    super();
  }

  /** A job was queued (or made runnable again): a runner of this process looks now. */
  queued(): void {
    this.emit('queued');
  }

  /** A runner of this process claimed the job (`job` is the claimed row). */
  started(job: JobRecord): void {
    this.emit('started', job);
  }

  /** A job went back to the queue after a transient failure (its row says when it runs again). */
  retrying(id: string): void {
    this.reread(id, (job) => this.emit('retrying', job));
  }

  /** A job ended in this process: read its final row and announce it (in the background). */
  ended(id: string): void {
    this.reread(id, (job) => this.finished(job));
  }

  private reread(id: string, then: (job: JobRecord) => void): void {
    void this.options.repo.find(id).then(
      (job) => job && then(job),
      (err: unknown) => this.options.logger.warn({ err, jobId: id }, 'could not read a job to report it'),
    );
  }

  /** A job ended in this process and the caller holds its final row. */
  finished(job: JobRecord): void {
    this.announce(job);
    this.emit('finished', job);
  }

  /**
   * Finished jobs whose webhook never reached the outbox, ended before `until` (a grace period
   * before now, so a message on its way is not taken for a lost one): announced again.
   */
  async announceLost(now: number, until: number): Promise<void> {
    for (const job of await this.options.repo.finishedWithoutWebhook(
      JOB_WEBHOOK_PREFIX,
      now - LOST_WEBHOOK_HORIZON_MS,
      until,
      LOST_BATCH,
    )) {
      this.options.logger.warn({ jobId: job.id, status: job.status }, 'finished job had no webhook queued: announcing it now');
      this.announce(job);
      this.emit('lost', job);
    }
  }

  /** Queues the job's webhook, if it asked for one; idempotent by the message id. */
  private announce(job: JobRecord): void {
    if (!job.webhookUrl || !isFinishedStatus(job.status)) return;
    const data = this.options.view(job) as Record<string, unknown>;
    this.options.webhooks.deliver(
      job.workspaceId,
      job.webhookUrl,
      { type: JOB_WEBHOOK_EVENTS[job.status], data },
      { webhookId: jobWebhookId(job.id) },
    );
  }
}
