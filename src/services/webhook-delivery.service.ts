// Outbound webhooks (job completed / failed / cancelled), delivered in the background.
//
// Each attempt:
//  1. re-checks the URL rule (HTTPS, host in WEBHOOK_ALLOWED_HOSTS); then the client
//     (src/adapters/pinned-https.client.ts):
//  2. resolves the host once (injectable `lookup`, default dns.lookup with all:true) and refuses the
//     delivery when ANY address is not public unicast (see addressBlockReason);
//  3. connects to exactly the address it checked: the request's `lookup` is pinned to it, so there is
//     no second resolution and no DNS-rebinding window; TLS still verifies the certificate against the
//     host name (SNI and Host stay the URL's);
//  4. must receive the whole response within one total deadline (default 5 s; AbortController + timer,
//     not an idle timeout); only 2xx succeeds; redirects are never followed (3xx fails the attempt).
// Payloads are signed per Standard Webhooks (webhook-signature.ts).
// Failed attempts are retried with backoff (default: now, +2 s, +10 s) under the same webhook-id;
// every attempt is recorded in webhook_deliveries. Each message sits in the webhook_outbox table,
// held by the process sending it: a process that stops between attempts (close() at SIGTERM
// releases it; a crash lets its hold lapse) leaves it there, and the sweeper of any process sends
// the remaining attempts when they are due — same id, same bytes.
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { WebhooksRepository } from '../../db/repositories/webhooks.repository.ts';
import { isProblemError } from '../errors/problem.ts';
import { type Clock, systemClock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { type DependencyStatus, logFailure } from '../lib/dependency-status.ts';
import { assertWebhookUrlAllowed, type WebhookUrlConfig } from './webhook-url.ts';
import type { WebhookSecretsService } from './webhook-secrets.service.ts';
import { signWebhook } from './webhook-signature.ts';

export type WebhookEventType = 'job.completed' | 'job.failed' | 'job.cancelled' | 'budget.threshold_crossed';

/** What happened; `data` is the event's object (e.g. the Job as GET /v1/jobs/{id} shows it). */
export interface WebhookEvent {
  type: WebhookEventType;
  data: Record<string, unknown>;
}

export interface WebhookDeliveryOptions {
  repo: WebhooksRepository;
  secrets: WebhookSecretsService;
  config: WebhookUrlConfig;
  logger: Logger;
  /** Told when the database is away (the outbox sweep's failures then are part of an outage logged there once). */
  dependencies?: DependencyStatus;
  clock?: Clock;
  /** Sends one attempt: SSRF-safe, pinned, under one deadline (src/adapters/pinned-https.client.ts). */
  client: WebhookHttpClient;
  /** Waits before the 2nd, 3rd… attempt. Default [2000, 10000] (3 attempts). */
  retryDelaysMs?: readonly number[];
  /** How long a process holds a message beyond its next attempt before another may take it (default 30 s). */
  holdMs?: number;
}

/** What one attempt's POST came to: the receiver's status, or why there was none. */
export type WebhookPostOutcome = { statusCode: number; error?: undefined } | { statusCode: null; error: string; retryable: boolean };

/**
 * Sends one webhook POST to `url` (already allowed by the URL rule) and reads the whole answer;
 * `headers` is called once the destination is checked, just before sending (the signature's time).
 */
export interface WebhookHttpClient {
  post(url: URL, body: string, headers: () => Record<string, string>): Promise<WebhookPostOutcome>;
}

export interface WebhookDeliveryResult {
  webhookId: string;
  delivered: boolean;
  attempts: number;
  /** Status of the last attempt's response, when one arrived. */
  statusCode: number | null;
  /** Why the last attempt failed. */
  error: string | null;
}

export interface WebhookDeliveryHandle {
  /** The Standard Webhooks message id (`webhook-id`), the same on every attempt. */
  webhookId: string;
  /** Settles when the delivery succeeded, gave up or was cancelled by close(); never rejects. */
  done: Promise<WebhookDeliveryResult>;
}

interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  /** False when trying again cannot help (the URL or its addresses are not allowed). */
  retryable: boolean;
}

export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [2_000, 10_000];
const DEFAULT_HOLD_MS = 30_000;
const SWEEP_MS = 5_000;
const USER_AGENT = 'render-service-webhooks/1';

/**
 * Events: 'attempted' after each recorded attempt; 'delivered' and 'gave-up' (no attempt left, or
 * the message may not be sent) end a message; 'settled' fires for every delivery this process ran,
 * whatever its end (also one left in the outbox at close()). Tests wait on them, not on timers.
 */
interface WebhookDeliveryEvents {
  /** An attempt was made and recorded (webhook_deliveries and the outbox); `attempts` is its number. */
  attempted: [result: WebhookDeliveryResult];
  delivered: [result: WebhookDeliveryResult];
  'gave-up': [result: WebhookDeliveryResult];
  settled: [result: WebhookDeliveryResult];
}

export class WebhookDeliveryService extends EventEmitter<WebhookDeliveryEvents> {
  private readonly repo: WebhooksRepository;
  private readonly secrets: WebhookSecretsService;
  private readonly config: WebhookUrlConfig;
  private readonly logger: Logger;
  private readonly dependencies: DependencyStatus | undefined;
  private readonly clock: Clock;
  private readonly client: WebhookHttpClient;
  private readonly retryDelaysMs: readonly number[];
  private readonly running = new Set<Promise<WebhookDeliveryResult>>();
  private readonly sleepers = new Set<() => void>();
  private closed = false;
  /** This process, as the holder of outbox messages. */
  private readonly owner = newId('whp');
  private readonly holdMs: number;
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | null = null;

  constructor(options: WebhookDeliveryOptions) {
    super();
    this.repo = options.repo;
    this.secrets = options.secrets;
    this.config = options.config;
    this.logger = options.logger;
    this.dependencies = options.dependencies;
    this.clock = options.clock ?? systemClock;
    this.client = options.client;
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS;
    this.holdMs = options.holdMs ?? DEFAULT_HOLD_MS;
  }

  /** Sends, every few seconds, the outbox messages that are due and held by no live process. */
  startSweeper(intervalMs = SWEEP_MS): void {
    this.sweeper = setInterval(() => void this.resumeDue(), intervalMs);
    this.sweeper.unref();
  }

  /** One sweep: claims the due, unheld messages and sends their remaining attempts (in the background). */
  resumeDue(): Promise<void> {
    if (this.closed || this.sweeping) return this.sweeping ?? Promise.resolve();
    this.sweeping = (async () => {
      try {
        const now = this.clock.now();
        for (const m of await this.repo.claimDueOutbox(this.owner, now, now + this.holdMs, 20)) {
          this.logger.info({ webhookId: m.webhookId, workspaceId: m.workspaceId, attempts: m.attempts }, 'webhook resumed from the outbox');
          this.track(m.webhookId, this.run(m.workspaceId, m.url, m.eventType, m.webhookId, m.body, m.attempts));
        }
      } catch (err) {
        logFailure(this.dependencies, this.logger, 'warn', { err }, 'webhook outbox sweep failed');
      } finally {
        this.sweeping = null;
      }
    })();
    return this.sweeping;
  }

  private track(webhookId: string, delivery: Promise<WebhookDeliveryResult>): Promise<WebhookDeliveryResult> {
    const done = delivery.catch((err: unknown): WebhookDeliveryResult => {
      this.logger.error({ err, webhookId }, 'webhook delivery crashed');
      return { webhookId, delivered: false, attempts: 0, statusCode: null, error: 'internal error' };
    });
    this.running.add(done);
    void done.then((result) => {
      this.running.delete(done);
      this.emit('settled', result);
    });
    return done;
  }

  /**
   * Sends `event` to `url`, signed with the workspace's secret, in the background: returns at once.
   * Never throws; the outcome is in the log, in webhook_deliveries and in `done`. The caller should
   * have checked the URL at submission with assertWebhookUrlAllowed (it is checked again here).
   * A `webhookId` derived from what the event is about (one per job) makes queueing idempotent: if a
   * message with that id is already in the outbox, it is not sent again from here.
   */
  deliver(workspaceId: string, url: string, event: WebhookEvent, options: { webhookId?: string } = {}): WebhookDeliveryHandle {
    const webhookId = options.webhookId ?? newId('msg');
    if (this.closed) {
      this.logger.warn({ webhookId, workspaceId, event: event.type }, 'webhook not sent: the delivery service is closed');
      return {
        webhookId,
        done: Promise.resolve({ webhookId, delivered: false, attempts: 0, statusCode: null, error: 'the delivery service is closed' }),
      };
    }
    // The body is fixed once, so every attempt carries the same bytes under the same id.
    const now = this.clock.now();
    const body = JSON.stringify({ type: event.type, timestamp: new Date(now).toISOString(), data: event.data });
    const persisted = this.repo
      .insertOutbox({ webhookId, workspaceId, url, eventType: event.type, body, nextAttemptAt: now }, this.owner, now + this.holdMs, now)
      .catch((err: unknown) => {
        // Unrecorded, it is still sent from memory; only its survival across a restart is lost.
        this.logger.error({ err, webhookId, workspaceId }, 'could not store a webhook in the outbox');
        return true;
      });
    const done = this.track(
      webhookId,
      persisted.then((queued): Promise<WebhookDeliveryResult> | WebhookDeliveryResult => {
        if (queued) return this.run(workspaceId, url, event.type, webhookId, body, 0);
        this.logger.info({ webhookId, workspaceId, event: event.type }, 'webhook already queued; not sent again');
        return { webhookId, delivered: false, attempts: 0, statusCode: null, error: 'already queued' };
      }),
    );
    return { webhookId, done };
  }

  /** Cancels the pending retries and waits for the attempts in flight (each bounded by the deadline). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    await this.sweeping;
    for (const wake of this.sleepers) wake();
    await Promise.allSettled([...this.running]);
  }

  /** Sends the attempts after the first `done` ones (a resumed message starts with its next attempt, at once). */
  private async run(
    workspaceId: string,
    url: string,
    eventType: string,
    webhookId: string,
    body: string,
    done: number,
  ): Promise<WebhookDeliveryResult> {
    const maxAttempts = this.retryDelaysMs.length + 1;
    let last: AttemptOutcome = { statusCode: null, error: null, retryable: true };
    let attempt = done;
    if (done >= maxAttempts) {
      // Resumed after the retry policy shrank: nothing is left to try.
      await this.repo
        .recordOutboxAttempt(
          webhookId,
          this.owner,
          { attempts: done, status: 'failed', nextAttemptAt: this.clock.now(), lockedUntil: null },
          this.clock.now(),
        )
        .catch(() => {});
      return this.ended('gave-up', { webhookId, delivered: false, attempts: done, statusCode: null, error: 'no attempts left' });
    }
    while (attempt < maxAttempts) {
      if (attempt > done && !(await this.sleep(this.retryDelaysMs[attempt - 1]!))) {
        // Shutting down: another process sends the rest when it is due.
        await this.repo
          .releaseOutbox(webhookId, this.owner, this.clock.now())
          .catch((err: unknown) => this.logger.warn({ err, webhookId }, 'could not release a webhook'));
        return {
          webhookId,
          delivered: false,
          attempts: attempt,
          statusCode: last.statusCode,
          error: `${last.error ?? 'failed'}; retries cancelled at shutdown (left in the outbox)`,
        };
      }
      attempt++;
      const createdAt = this.clock.now();
      const started = performance.now();
      last = await this.attempt(workspaceId, url, webhookId, body);
      const durationMs = Math.round(performance.now() - started);
      const host = safeHost(url);
      const log = { webhookId, workspaceId, event: eventType, host, attempt, statusCode: last.statusCode, durationMs };
      if (last.error === null) this.logger.info(log, 'webhook delivered');
      else this.logger.warn({ ...log, error: last.error }, 'webhook attempt failed');
      try {
        await this.repo.insertDelivery({
          id: newId('whd'),
          workspaceId,
          webhookId,
          url,
          eventType,
          attempt,
          statusCode: last.statusCode,
          error: last.error,
          durationMs,
          createdAt,
        });
      } catch (err) {
        this.logger.warn({ err, webhookId, attempt }, 'could not record a webhook attempt');
      }
      const now = this.clock.now();
      const final = last.error === null || !last.retryable || attempt >= maxAttempts;
      const delay = final ? 0 : this.retryDelaysMs[attempt - 1]!;
      await this.repo
        .recordOutboxAttempt(
          webhookId,
          this.owner,
          {
            attempts: attempt,
            status: last.error === null ? 'delivered' : final ? 'failed' : 'pending',
            nextAttemptAt: now + delay,
            lockedUntil: now + delay + this.holdMs,
          },
          now,
        )
        .catch((err: unknown) => this.logger.warn({ err, webhookId, attempt }, 'could not update the webhook outbox'));
      this.emit('attempted', {
        webhookId,
        delivered: last.error === null,
        attempts: attempt,
        statusCode: last.statusCode,
        error: last.error,
      });
      if (last.error === null)
        return this.ended('delivered', { webhookId, delivered: true, attempts: attempt, statusCode: last.statusCode, error: null });
      if (final) break;
    }
    return this.ended('gave-up', { webhookId, delivered: false, attempts: attempt, statusCode: last.statusCode, error: last.error });
  }

  private ended(event: 'delivered' | 'gave-up', result: WebhookDeliveryResult): WebhookDeliveryResult {
    this.emit(event, result);
    return result;
  }

  /** Waits `ms`; false when close() cut the wait short. */
  private sleep(ms: number): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.sleepers.delete(wake);
        resolve(true);
      }, ms);
      this.sleepers.add(wake);
    });
  }

  private async attempt(workspaceId: string, rawUrl: string, webhookId: string, body: string): Promise<AttemptOutcome> {
    let url: URL;
    try {
      url = assertWebhookUrlAllowed(rawUrl, this.config);
    } catch (err) {
      return { statusCode: null, error: isProblemError(err) ? (err.detail ?? err.message) : String(err), retryable: false };
    }
    // Read before the client's deadline starts: the deadline is the receiver's, not our database's.
    const { secret } = await this.secrets.current(workspaceId);
    const answer = await this.client.post(url, body, () => {
      // Signed at the moment of sending (after the address checks), so the timestamp is fresh.
      const timestamp = Math.floor(this.clock.now() / 1000);
      return {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': USER_AGENT,
        'webhook-id': webhookId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(secret, webhookId, timestamp, body),
      };
    });
    if (answer.statusCode === null) return answer;
    const { statusCode } = answer;
    if (statusCode >= 200 && statusCode < 300) return { statusCode, error: null, retryable: true };
    if (statusCode >= 300 && statusCode < 400) return { statusCode, error: `redirect (${statusCode}) not followed`, retryable: true };
    return { statusCode, error: `receiver answered ${statusCode}`, retryable: true };
  }
}

function safeHost(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
