// Rate limits on authenticated operations, per workspace and per API key, reported with the IETF
// RateLimit and RateLimit-Policy headers (draft-ietf-httpapi-ratelimit-headers, structured fields):
//
//   RateLimit-Policy: "workspace";q=600;w=60, "key";q=300;w=60
//   RateLimit: "key";r=299;t=60
//
// Each request counts against two fixed 60-second windows: its API key's (API-key requests only)
// and its workspace's (every key, session and the local gateway together). The key is checked
// first and a request its key refuses does not spend the workspace's budget, so a runaway key
// cannot starve its siblings beyond its own limit. `RateLimit` reports the most constrained
// policy; a refusal carries `Retry-After` too.
//
// Counters live in memory (one process: local mode on SQLite) or in the Postgres table
// `rate_limits` (created by migration 0006), so every API process shares them. A failing or slow
// store never takes the API down: the request passes and a (throttled) warning is logged.
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import { bearerToken } from '../lib/bearer.ts';
import type { Principal } from './auth.service.ts';
import { sha256Hex } from '../lib/hashing.ts';

export type RateLimitSettings = Config['rateLimit'];
export type RateLimitPolicyName = 'workspace' | 'key' | 'unauthenticated' | 'sign-in' | 'signed-address' | 'signing-key';

export const RATE_LIMIT_WINDOW_SECONDS = 60;
/** A store that has not answered by then is treated as failed (the request passes). */
const STORE_TIMEOUT_MS = 2_000;
const WARN_EVERY_MS = 10_000;

export interface Decision {
  allowed: boolean;
  /**
   * `RateLimit-Policy` and `RateLimit` (plus `Retry-After` when refused) for the response. Empty
   * when no limit applies; `RateLimit-Policy` only when the store failed.
   */
  headers: Record<string, string>;
  /** The policy that refused the request. */
  exceeded?: RateLimitPolicyName;
  /** Human explanation of a refusal, for the problem detail. */
  detail?: string;
}

export interface RateLimiter {
  /**
   * Counts one request of an authenticated principal. `authorization` is the request's
   * Authorization header: API_KEYS of the local workspace have no key id, so their bucket is
   * named by a prefix of the secret's SHA-256 (never the secret).
   */
  consume(principal: Principal, authorization?: string | string[]): Promise<Decision>;
  /**
   * Counts one request that failed authentication, by client address: a flood of bad or missing
   * credentials (each costing a key lookup) is slowed to 429 without touching anyone's quota.
   */
  consumeFailedAuth(clientAddress: string): Promise<Decision>;
  /**
   * Counts one request to the sign-in routes (/v1/auth), by client address: each may start an
   * OAuth exchange or a session lookup, and a script must not run them in a loop.
   */
  consumeSignIn(clientAddress: string): Promise<Decision>;
  /**
   * Counts one signed-URL request (no workspace or key bucket: a public image must not use up its
   * workspace's API budget), by client address.
   */
  consumeSigned(clientAddress: string): Promise<Decision>;
  /** Counts one signed-URL render that is not cached (a miss, which costs credits), by signing key. */
  consumeSignedMiss(signingKeyId: string): Promise<Decision>;
  /**
   * Makes every count made by this process visible to the others, and the next decision read
   * theirs (a store that counts in process settles in the background, see rate-limit.stores.ts).
   */
  settle(): Promise<void>;
  /** Settles, then stops. */
  close(): Promise<void>;
}

/** The part of a rate-limiter-flexible limiter this module uses: resolves under the limit, rejects with RateLimiterRes over it. */
export interface CounterStore {
  consume(key: string): Promise<RateLimiterRes>;
  /** For a store that counts in process before it writes: write now. */
  settle?(): Promise<void>;
}

interface Bucket {
  name: RateLimitPolicyName;
  quota: number;
  store: CounterStore;
}

/** One bucket per enabled policy (a limit of 0 turns its policy off). */
export type StoreFactory = (name: RateLimitPolicyName, quota: number) => CounterStore;

/** The stable bucket id of the API key behind a request, or undefined when no key was used. */
export function keyBucketId(principal: Principal, authorization?: string | string[]): string | undefined {
  if (principal.method !== 'api_key') return undefined;
  if (principal.keyId) return principal.keyId;
  const token = bearerToken(authorization);
  return token ? `local_${sha256Hex(token).slice(0, 16)}` : undefined;
}

export interface StoreRateLimiterOptions {
  settings: RateLimitSettings;
  storeFor: StoreFactory;
  logger: Pick<Logger, 'warn'>;
  /** Run by close() after the last settle (stops a store's sweeper). */
  onClose?: () => void | Promise<void>;
  /** A store that has not answered by then is treated as failed; STORE_TIMEOUT_MS unless told. */
  timeoutMs?: number;
}

export class StoreRateLimiter implements RateLimiter {
  private readonly workspace: Bucket | undefined;
  private readonly key: Bucket | undefined;
  private readonly unauthenticated: Bucket | undefined;
  private readonly signIn: Bucket | undefined;
  private readonly signedAddress: Bucket | undefined;
  private readonly signingKey: Bucket | undefined;
  private lastWarnAt = 0;
  private suppressedWarnings = 0;
  private readonly logger: Pick<Logger, 'warn'>;
  private readonly onClose: () => void | Promise<void>;
  private readonly timeoutMs: number;

  constructor(options: StoreRateLimiterOptions) {
    const { settings, storeFor } = options;
    this.logger = options.logger;
    this.onClose = options.onClose ?? (() => {});
    this.timeoutMs = options.timeoutMs ?? STORE_TIMEOUT_MS;
    const bucket = (name: RateLimitPolicyName, quota: number): Bucket | undefined =>
      quota > 0 ? { name, quota, store: storeFor(name, quota) } : undefined;
    this.workspace = bucket('workspace', settings.workspacePerMinute);
    this.key = bucket('key', settings.keyPerMinute);
    this.unauthenticated = bucket('unauthenticated', settings.unauthenticatedPerMinute);
    this.signIn = bucket('sign-in', settings.signInPerMinute);
    this.signedAddress = bucket('signed-address', settings.signedAddressPerMinute);
    this.signingKey = bucket('signing-key', settings.signingKeyMissesPerMinute);
  }

  async consumeSigned(clientAddress: string): Promise<Decision> {
    return this.perAddress(this.signedAddress, clientAddress, 'signed-URL requests');
  }

  async consumeSignedMiss(signingKeyId: string): Promise<Decision> {
    const bucket = this.signingKey;
    if (!bucket) return { allowed: true, headers: {} };
    return this.decide(
      [[bucket, signingKeyId]],
      [bucket],
      // Told to whoever holds a signed URL: the image is unavailable for now, nothing of the key's activity.
      (_b, resetSeconds) =>
        `This image is unavailable for now: the signing key of this URL has rendered as many new images as it may in a minute; retry in ${resetSeconds} s.`,
    );
  }

  async consumeFailedAuth(clientAddress: string): Promise<Decision> {
    return this.perAddress(this.unauthenticated, clientAddress, 'requests without valid credentials');
  }

  async consumeSignIn(clientAddress: string): Promise<Decision> {
    return this.perAddress(this.signIn, clientAddress, 'sign-in requests');
  }

  private perAddress(bucket: Bucket | undefined, clientAddress: string, what: string): Promise<Decision> {
    if (!bucket) return Promise.resolve({ allowed: true, headers: {} });
    return this.decide(
      [[bucket, clientAddress]],
      [bucket],
      (b, resetSeconds) =>
        `Too many ${what} from this address (${b.quota} per ${RATE_LIMIT_WINDOW_SECONDS} seconds); retry in ${resetSeconds} s.`,
    );
  }

  async consume(principal: Principal, authorization?: string | string[]): Promise<Decision> {
    const keyId = this.key ? keyBucketId(principal, authorization) : undefined;
    const checks: Array<[Bucket, string]> = [];
    if (this.key && keyId !== undefined) checks.push([this.key, keyId]);
    if (this.workspace) checks.push([this.workspace, principal.workspaceId]);
    if (checks.length === 0) return { allowed: true, headers: {} };
    const policies = [this.workspace, keyId !== undefined ? this.key : undefined].filter((b): b is Bucket => b !== undefined);
    return this.decide(checks, policies, (b, resetSeconds) => {
      const what = b.name === 'key' ? 'this API key' : 'this workspace';
      return `The ${b.name} rate limit of ${b.quota} requests per ${RATE_LIMIT_WINDOW_SECONDS} seconds is used up for ${what}; retry in ${resetSeconds} s.`;
    });
  }

  /**
   * Takes one request from each (bucket, id) in order; the first bucket that is used up decides
   * (429 with its detail). Under every limit, RateLimit reports the most constrained one.
   */
  private async decide(
    checks: Array<[Bucket, string]>,
    policies: Bucket[],
    exceededDetail: (bucket: Bucket, resetSeconds: number) => string,
  ): Promise<Decision> {
    const policy = policies.map((b) => `"${b.name}";q=${b.quota};w=${RATE_LIMIT_WINDOW_SECONDS}`).join(', ');
    const states: Array<{ bucket: Bucket; remaining: number; resetSeconds: number }> = [];
    try {
      for (const [bucket, id] of checks) {
        const outcome = await this.take(bucket.store, id);
        const resetSeconds = Math.max(1, Math.ceil(outcome.res.msBeforeNext / 1000));
        if (!outcome.allowed) {
          return {
            allowed: false,
            exceeded: bucket.name,
            detail: exceededDetail(bucket, resetSeconds),
            headers: {
              'RateLimit-Policy': policy,
              RateLimit: `"${bucket.name}";r=0;t=${resetSeconds}`,
              'Retry-After': String(resetSeconds),
            },
          };
        }
        states.push({ bucket, remaining: outcome.res.remainingPoints, resetSeconds });
      }
    } catch (err) {
      this.warn(err);
      return { allowed: true, headers: { 'RateLimit-Policy': policy } };
    }
    // The most constrained policy: fewest requests left, then the longest wait.
    const tightest = states.reduce((a, b) =>
      b.remaining < a.remaining || (b.remaining === a.remaining && b.resetSeconds > a.resetSeconds) ? b : a,
    );
    return {
      allowed: true,
      headers: { 'RateLimit-Policy': policy, RateLimit: `"${tightest.bucket.name}";r=${tightest.remaining};t=${tightest.resetSeconds}` },
    };
  }

  async settle(): Promise<void> {
    const stores = [this.workspace, this.key, this.unauthenticated, this.signIn, this.signedAddress, this.signingKey].map((b) => b?.store);
    await Promise.all(stores.map((store) => store?.settle?.()));
  }

  async close(): Promise<void> {
    try {
      await this.settle();
    } catch (err) {
      this.warn(err);
    }
    await this.onClose();
  }

  private async take(store: CounterStore, id: string): Promise<{ allowed: boolean; res: RateLimiterRes }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`rate-limit store did not answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      return { allowed: true, res: await Promise.race([store.consume(id), timeout]) };
    } catch (err) {
      // rate-limiter-flexible rejects with a RateLimiterRes over the limit, with an Error when the store fails.
      if (err instanceof RateLimiterRes) return { allowed: false, res: err };
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Fail open, loudly but not once per request. */
  private warn(err: unknown): void {
    const now = Date.now();
    if (now - this.lastWarnAt < WARN_EVERY_MS) {
      this.suppressedWarnings++;
      return;
    }
    this.logger.warn({ err, suppressed: this.suppressedWarnings }, 'rate-limit store failed: request allowed without counting it');
    this.lastWarnAt = now;
    this.suppressedWarnings = 0;
  }
}
