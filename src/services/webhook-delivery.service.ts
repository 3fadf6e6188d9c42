// Outbound webhooks (job completed / failed / cancelled), delivered in the background.
//
// Each attempt:
//  1. re-checks the URL rule (HTTPS, host in WEBHOOK_ALLOWED_HOSTS);
//  2. resolves the host once (injectable `lookup`, default dns.lookup with all:true) and refuses the
//     delivery when ANY address is not public unicast (see addressBlockReason);
//  3. connects to exactly the address it checked: the request's `lookup` is pinned to it, so there is
//     no second resolution and no DNS-rebinding window; TLS still verifies the certificate against the
//     host name (SNI and Host stay the URL's);
//  4. must receive the whole response within one total deadline (default 5 s; AbortController + timer,
//     not an idle timeout); only 2xx succeeds; redirects are never followed (3xx fails the attempt).
// Payloads are signed per Standard Webhooks (webhook-id / webhook-timestamp / webhook-signature).
// Failed attempts are retried with backoff (default: now, +2 s, +10 s) under the same webhook-id;
// every attempt is recorded in webhook_deliveries. Each message sits in the webhook_outbox table,
// held by the process sending it: a process that stops between attempts (close() at SIGTERM
// releases it; a crash lets its hold lapse) leaves it there, and the sweeper of any process sends
// the remaining attempts when they are due — same id, same bytes.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { promises as dns } from 'node:dns';
import { EventEmitter } from 'node:events';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { isIP, type LookupFunction as NetLookupFunction } from 'node:net';
import type { Logger } from 'pino';
import type { WebhooksRepository } from '../../db/repositories/webhooks.repository.ts';
import { isProblemError } from '../errors/problem.ts';
import { type Clock, systemClock } from '../lib/clock.ts';
import { addressBlockReason, assertWebhookUrlAllowed, normalizedHost, unmapIPv4, type WebhookUrlConfig } from './webhook-url.ts';
import type { WebhookSecretsService } from './webhooks.service.ts';
import { raceSignal } from '../lib/race-signal.ts';

export type WebhookEventType = 'job.completed' | 'job.failed' | 'job.cancelled';

/** What happened; `data` is the event's object (e.g. the Job as GET /v1/jobs/{id} shows it). */
export interface WebhookEvent {
  type: WebhookEventType;
  data: Record<string, unknown>;
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address (dns.promises.lookup with all:true has this shape). */
export type WebhookLookup = (hostname: string, options: { all: true }) => Promise<ResolvedAddress[]>;

export interface WebhookDeliveryOptions {
  repo: WebhooksRepository;
  secrets: WebhookSecretsService;
  config: WebhookUrlConfig;
  logger: Logger;
  clock?: Clock;
  /** Default: dns.lookup with all:true. Tests inject a resolver. */
  lookup?: WebhookLookup;
  /** Total deadline of one attempt: resolution, connection, TLS, request and the whole response. Default 5000. */
  timeoutMs?: number;
  /** Waits before the 2nd, 3rd… attempt. Default [2000, 10000] (3 attempts). */
  retryDelaysMs?: readonly number[];
  /** How long a process holds a message beyond its next attempt before another may take it (default 30 s). */
  holdMs?: number;
  /**
   * Extra CA trusted for loopback receivers only (tests' self-signed receiver). Refused unless the
   * loopback allowance (WEBHOOK_ALLOW_LOOPBACK, local mode only) is on.
   */
  loopbackCa?: string | Buffer;
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

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5_000;
export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [2_000, 10_000];
const DEFAULT_HOLD_MS = 30_000;
const SWEEP_MS = 5_000;
const MAX_RESPONSE_BYTES = 64 * 1024;
const USER_AGENT = 'render-service-webhooks/1';

const defaultLookup: WebhookLookup = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` keyed by the secret's decoded bytes. */
export function signWebhook(secret: string, webhookId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${webhookId}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * Verifies Standard Webhooks headers the way a receiver should: one of the space-separated `v1,`
 * signatures matches and the timestamp is within `toleranceSeconds` of `nowSeconds`.
 */
export function verifyWebhook(
  secret: string,
  headers: { 'webhook-id'?: string; 'webhook-timestamp'?: string; 'webhook-signature'?: string },
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
): boolean {
  const id = headers['webhook-id'];
  const ts = Number(headers['webhook-timestamp']);
  const signatures = headers['webhook-signature'];
  if (!id || !Number.isInteger(ts) || !signatures || Math.abs(nowSeconds - ts) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(secret, id, ts, body));
  return signatures.split(' ').some((s) => {
    const got = Buffer.from(s);
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}

class DeadlineExceeded extends Error {
  constructor(ms: number) {
    super(`no complete response within the ${ms} ms deadline`);
  }
}

/** A net/tls lookup that answers with the address checked before, whatever the host name. */
function pinnedLookup(target: ResolvedAddress): NetLookupFunction {
  return ((_hostname: string, options: unknown, callback: unknown) => {
    const cb = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    if (all) cb(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  }) as NetLookupFunction;
}


const isLoopbackAddress = (address: string) => address === '::1' || /^127\./.test(address);

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
  private readonly clock: Clock;
  private readonly lookup: WebhookLookup;
  private readonly timeoutMs: number;
  private readonly retryDelaysMs: readonly number[];
  private readonly loopbackCa: string | Buffer | undefined;
  private readonly running = new Set<Promise<WebhookDeliveryResult>>();
  private readonly sleepers = new Set<() => void>();
  private closed = false;
  /** This process, as the holder of outbox messages. */
  private readonly owner = `whp_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  private readonly holdMs: number;
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | null = null;

  constructor(options: WebhookDeliveryOptions) {
    super();
    if (options.loopbackCa !== undefined && !options.config.webhookAllowLoopback) {
      throw new Error('loopbackCa is only accepted with WEBHOOK_ALLOW_LOOPBACK (tests in local mode)');
    }
    this.repo = options.repo;
    this.secrets = options.secrets;
    this.config = options.config;
    this.logger = options.logger;
    this.clock = options.clock ?? systemClock;
    this.lookup = options.lookup ?? defaultLookup;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS;
    this.loopbackCa = options.loopbackCa;
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
        this.logger.warn({ err }, 'webhook outbox sweep failed');
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
    const webhookId = options.webhookId ?? `msg_${randomUUID().replaceAll('-', '')}`;
    if (this.closed) {
      this.logger.warn({ webhookId, workspaceId, event: event.type }, 'webhook not sent: the delivery service is closed');
      return { webhookId, done: Promise.resolve({ webhookId, delivered: false, attempts: 0, statusCode: null, error: 'the delivery service is closed' }) };
    }
    // The body is fixed once, so every attempt carries the same bytes under the same id.
    const now = this.clock.now();
    const body = JSON.stringify({ type: event.type, timestamp: new Date(now).toISOString(), data: event.data });
    const persisted = this.repo.insertOutbox({ webhookId, workspaceId, url, eventType: event.type, body, nextAttemptAt: now }, this.owner, now + this.holdMs, now).catch((err: unknown) => {
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
  private async run(workspaceId: string, url: string, eventType: string, webhookId: string, body: string, done: number): Promise<WebhookDeliveryResult> {
    const maxAttempts = this.retryDelaysMs.length + 1;
    let last: AttemptOutcome = { statusCode: null, error: null, retryable: true };
    let attempt = done;
    if (done >= maxAttempts) {
      // Resumed after the retry policy shrank: nothing is left to try.
      await this.repo.recordOutboxAttempt(webhookId, this.owner, { attempts: done, status: 'failed', nextAttemptAt: this.clock.now(), lockedUntil: null }, this.clock.now()).catch(() => {});
      return this.ended('gave-up', { webhookId, delivered: false, attempts: done, statusCode: null, error: 'no attempts left' });
    }
    while (attempt < maxAttempts) {
      if (attempt > done && !(await this.sleep(this.retryDelaysMs[attempt - 1]!))) {
        // Shutting down: another process sends the rest when it is due.
        await this.repo.releaseOutbox(webhookId, this.owner, this.clock.now()).catch((err: unknown) => this.logger.warn({ err, webhookId }, 'could not release a webhook'));
        return { webhookId, delivered: false, attempts: attempt, statusCode: last.statusCode, error: `${last.error ?? 'failed'}; retries cancelled at shutdown (left in the outbox)` };
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
        await this.repo.insertDelivery({ id: `whd_${randomUUID().replaceAll('-', '')}`, workspaceId, webhookId, url, eventType, attempt, statusCode: last.statusCode, error: last.error, durationMs, createdAt });
      } catch (err) {
        this.logger.warn({ err, webhookId, attempt }, 'could not record a webhook attempt');
      }
      const now = this.clock.now();
      const final = last.error === null || !last.retryable || attempt >= maxAttempts;
      const delay = final ? 0 : this.retryDelaysMs[attempt - 1]!;
      await this.repo
        .recordOutboxAttempt(webhookId, this.owner, { attempts: attempt, status: last.error === null ? 'delivered' : final ? 'failed' : 'pending', nextAttemptAt: now + delay, lockedUntil: now + delay + this.holdMs }, now)
        .catch((err: unknown) => this.logger.warn({ err, webhookId, attempt }, 'could not update the webhook outbox'));
      this.emit('attempted', { webhookId, delivered: last.error === null, attempts: attempt, statusCode: last.statusCode, error: last.error });
      if (last.error === null) return this.ended('delivered', { webhookId, delivered: true, attempts: attempt, statusCode: last.statusCode, error: null });
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
    const host = normalizedHost(url);
    // Read before the clock starts: the deadline is the receiver's, not our database's.
    const { secret } = await this.secrets.current(workspaceId);

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DeadlineExceeded(this.timeoutMs)), this.timeoutMs);
    try {
      let target: ResolvedAddress;
      if (isIP(host) !== 0) {
        target = { address: host, family: isIP(host) };
      } else {
        let addresses: ResolvedAddress[];
        try {
          addresses = await raceSignal(this.lookup(host, { all: true }), controller.signal);
        } catch (err) {
          if (err instanceof DeadlineExceeded) throw err;
          return { statusCode: null, error: `could not resolve ${host}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, retryable: true };
        }
        if (addresses.length === 0) return { statusCode: null, error: `${host} has no address`, retryable: true };
        // Every address must be public: a host that also resolves to a private one is refused whole.
        for (const a of addresses) {
          const reason = addressBlockReason(a.address, this.config.webhookAllowLoopback);
          if (reason) return { statusCode: null, error: `${host} resolves to a ${reason} address (${a.address}); not delivered`, retryable: false };
        }
        target = addresses[0]!;
      }
      const mapped = unmapIPv4(target.address);
      if (mapped) target = { address: mapped, family: 4 };
      const blocked = addressBlockReason(target.address, this.config.webhookAllowLoopback);
      if (blocked) return { statusCode: null, error: `${host} is a ${blocked} address; not delivered`, retryable: false };

      const timestamp = Math.floor(this.clock.now() / 1000);
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': USER_AGENT,
        'webhook-id': webhookId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(secret, webhookId, timestamp, body),
        host: url.host,
      };
      const statusCode = await this.post(url, host, target, headers, body, controller.signal);
      if (statusCode >= 200 && statusCode < 300) return { statusCode, error: null, retryable: true };
      if (statusCode >= 300 && statusCode < 400) return { statusCode, error: `redirect (${statusCode}) not followed`, retryable: true };
      return { statusCode, error: `receiver answered ${statusCode}`, retryable: true };
    } catch (err) {
      if (err instanceof DeadlineExceeded || controller.signal.aborted) return { statusCode: null, error: (controller.signal.reason as Error).message, retryable: true };
      const e = err as NodeJS.ErrnoException;
      return { statusCode: null, error: e.code ? `${e.code}: ${e.message}` : String(e.message ?? e), retryable: true };
    } finally {
      clearTimeout(timer);
    }
  }

  /** One POST to the pinned address; resolves with the status once the whole response arrived. */
  private post(url: URL, host: string, target: ResolvedAddress, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const useLoopbackCa = this.loopbackCa !== undefined && this.config.webhookAllowLoopback && isLoopbackAddress(target.address);
      const req = https.request({
        method: 'POST',
        // The URL's host name (not the address) so TLS verifies the certificate against it.
        host: isIP(host) !== 0 ? target.address : host,
        port: url.port === '' ? 443 : Number(url.port),
        path: `${url.pathname}${url.search}`,
        headers,
        // Connect to exactly the checked address: no second resolution.
        lookup: pinnedLookup(target),
        family: target.family,
        servername: isIP(host) !== 0 ? undefined : host,
        agent: false,
        ...(useLoopbackCa ? { ca: this.loopbackCa } : {}),
      });
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        fn();
      };
      const onAbort = () => {
        req.destroy(signal.reason as Error);
        finish(() => reject(signal.reason));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      req.on('error', (err) => finish(() => reject(err)));
      req.on('response', (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          // Enough: the receiver has answered; the rest of a large body is not needed.
          if (received > MAX_RESPONSE_BYTES) {
            finish(() => resolve(status));
            req.destroy();
          }
        });
        res.on('end', () => finish(() => resolve(status)));
        res.on('error', (err) => finish(() => reject(err)));
        res.on('aborted', () => finish(() => reject(new Error('the receiver closed the connection mid-response'))));
      });
      req.end(body);
    });
  }
}

function safeHost(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
