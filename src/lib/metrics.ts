// What an operator watches, in Prometheus's format (prom-client), one registry per runtime. The
// names are listed in docs/metrics.md. Everything is recorded where its rule
// lives — requests where a request ends, renders where usage is recorded, jobs and webhooks from
// their lifecycle events, credits from the ledger's — and read only when scraped
// (src/http/metrics.server.ts; off unless METRICS_PORT is set).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const PREFIX = 'render_service_';

/** Seconds; from a cache hit (well under a millisecond) to a long export. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const JOB_BUCKETS = [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];

export type LedgerEvent = 'reserved' | 'committed' | 'released' | 'granted' | 'deducted';

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'operation' | 'status'>;
  private readonly renders: Histogram<'generator' | 'format' | 'cache'>;
  private readonly jobs: Histogram<'status'>;
  private readonly jobAttempts: Histogram<'status'>;
  private readonly webhooks: Counter<'outcome'>;
  private readonly credits: Counter<'event'>;
  private readonly signedUrlRefusals: Counter<'reason'>;

  constructor() {
    // Process metrics, event-loop delay among them (nodejs_eventloop_lag_*).
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
    const registers = [this.registry];
    this.requests = new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: 'HTTP requests by operationId (or "none" outside the contract) and status, with their duration.',
      labelNames: ['operation', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.renders = new Histogram({
      name: `${PREFIX}render_duration_seconds`,
      help: 'Renders answered (sync, batch items, jobs) by generator, format and cache status (HIT, MISS, COALESCED), with their duration.',
      labelNames: ['generator', 'format', 'cache'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.jobs = new Histogram({
      name: `${PREFIX}job_duration_seconds`,
      help: 'Export jobs that ended, by final status, from submission to the end.',
      labelNames: ['status'],
      buckets: JOB_BUCKETS,
      registers,
    });
    this.jobAttempts = new Histogram({
      name: `${PREFIX}job_attempts`,
      help: 'Attempts an export job took, by final status.',
      labelNames: ['status'],
      buckets: [1, 2, 3, 5, 10],
      registers,
    });
    this.webhooks = new Counter({
      name: `${PREFIX}webhook_deliveries_total`,
      help: 'Webhook deliveries: every attempt (attempted), and each delivery that succeeded (delivered) or ran out of retries (gave_up).',
      labelNames: ['outcome'],
      registers,
    });
    this.credits = new Counter({
      name: `${PREFIX}credits_total`,
      help: 'Credits moved through the ledger by event: reserved, committed, released, granted, deducted.',
      labelNames: ['event'],
      registers,
    });
    this.signedUrlRefusals = new Counter({
      name: `${PREFIX}signed_url_refusals_total`,
      help: "Signed recipe URLs refused, by reason: signature, expired, revoked, limit (the key's monthly limit), balance, rate_limited.",
      labelNames: ['reason'],
      registers,
    });
  }

  signedUrlRefusal(reason: 'signature' | 'expired' | 'revoked' | 'limit' | 'balance' | 'rate_limited'): void {
    this.signedUrlRefusals.inc({ reason });
  }

  request(operation: string, status: number, seconds: number): void {
    this.requests.observe({ operation, status: String(status) }, seconds);
  }

  render(generator: string, format: string, cache: string, seconds: number): void {
    this.renders.observe({ generator, format, cache }, seconds);
  }

  jobEnded(status: string, seconds: number, attempts: number): void {
    this.jobs.observe({ status }, seconds);
    this.jobAttempts.observe({ status }, attempts);
  }

  webhook(outcome: 'attempted' | 'delivered' | 'gave_up'): void {
    this.webhooks.inc({ outcome });
  }

  ledger(event: LedgerEvent, amount: number): void {
    if (amount > 0) this.credits.inc({ event }, amount);
  }

  /** A value read when scraped (queue depths, jobs by status). */
  gauge(name: string, help: string, read: () => number | Promise<number>): void;
  gauge<L extends string>(name: string, help: string, read: () => Promise<Array<[Record<L, string>, number]>>, labelNames: L[]): void;
  gauge(name: string, help: string, read: () => unknown, labelNames: string[] = []): void {
    new Gauge({
      name: `${PREFIX}${name}`,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        const value = await read();
        if (typeof value === 'number') this.set(value);
        else for (const [labels, n] of value as Array<[Record<string, string>, number]>) this.set(labels, n);
      },
    });
  }

  /** A counter kept elsewhere (a monotonically rising number), read when scraped. */
  counter(name: string, help: string, read: () => number): void {
    let reported = 0;
    new Counter({
      name: `${PREFIX}${name}`,
      help,
      registers: [this.registry],
      collect() {
        const now = read();
        if (now > reported) this.inc(now - reported);
        reported = Math.max(reported, now);
      },
    });
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
