// Where the rate limiter's counters live (rate-limiter-flexible stores): this process's memory on
// SQLite (one process), the Postgres table `rate_limits` otherwise, shared by every API process —
// counted in this process and settled with Postgres in the background (SettlingCounterStore), so
// a request waits on Postgres only when its counter was not seen for a while.
// The policy (which buckets, what a decision says) is src/services/rate-limit.service.ts.
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from 'pino';
import type { Database } from '../../db/database.ts';
import {
  type CounterStore,
  RATE_LIMIT_WINDOW_SECONDS,
  type RateLimiter,
  type RateLimitPolicyName,
  type RateLimitSettings,
  StoreRateLimiter,
} from '../services/rate-limit.service.ts';

export const RATE_LIMIT_TABLE = 'rate_limits';

const PREFIXES: Record<RateLimitPolicyName, string> = {
  workspace: 'rl_ws',
  key: 'rl_key',
  unauthenticated: 'rl_anon',
  'sign-in': 'rl_signin',
  'signed-address': 'rl_signed',
  'signing-key': 'rl_usk',
};

/** Counters in this process's memory (local mode on SQLite: one process). */
export function createMemoryRateLimiter(settings: RateLimitSettings, logger: Pick<Logger, 'warn'>): RateLimiter {
  return new StoreRateLimiter({
    settings,
    storeFor: (name, quota) => new RateLimiterMemory({ keyPrefix: PREFIXES[name], points: quota, duration: RATE_LIMIT_WINDOW_SECONDS }),
    logger,
  });
}

/** Counters in the Postgres table `rate_limits`, shared by every API process on the database. */
export function createPostgresRateLimiter(settings: RateLimitSettings, db: Database, logger: Pick<Logger, 'warn'>): RateLimiter {
  const stores: RateLimiterPostgres[] = [];
  const sweeper = setInterval(() => {
    // Rows whose window ended are reset in place by the next request; this drops idle ones.
    // clearExpired never rejects (it is not critical).
    void (stores[0] as unknown as { clearExpired(before: number): Promise<void> } | undefined)?.clearExpired(
      Date.now() - RATE_LIMIT_WINDOW_SECONDS * 1000,
    );
  }, 5 * 60_000);
  sweeper.unref();
  return new StoreRateLimiter({
    settings,
    storeFor: (name, quota) => {
      const shared = new RateLimiterPostgres({
        storeClient: db,
        storeType: 'knex',
        tableName: RATE_LIMIT_TABLE,
        tableCreated: true,
        clearExpiredByTimeout: false,
        keyPrefix: PREFIXES[name],
        points: quota,
        duration: RATE_LIMIT_WINDOW_SECONDS,
      });
      stores.push(shared);
      return new SettlingCounterStore(shared, quota);
    },
    logger,
    onClose: () => clearInterval(sweeper),
  });
}

/** How often counts made in this process are added to the shared counters (and the shared totals read back). */
export const SETTLE_EVERY_MS = 100;
/** How long a shared total read back is trusted; a counter idle for longer is read from the store again before deciding. */
export const TRUST_MS = 1_000;

/** The part of a rate-limiter-flexible store that SettlingCounterStore needs: add points, get the window's total back. */
export interface SharedCounter {
  penalty(key: string, points: number): Promise<RateLimiterRes>;
}

interface Tally {
  /** The window's total in the shared store when last read (this process's sent counts included). */
  shared: number;
  /** Sent to the store, answer not back yet (not in `shared` yet). */
  sending: number;
  /** Counted here since, not sent yet. */
  unsent: number;
  readAt: number;
  windowEndsAt: number;
}

/**
 * A shared counter (Postgres) counted in this process's memory: a request is decided against the
 * shared total last read plus what this process counted since, and the counts are added to the
 * store every SETTLE_EVERY_MS (each write reads the new total back). So under steady traffic no
 * request waits on the database; only a counter this process has not read within TRUST_MS (or whose
 * window ended) costs a round trip before its decision. The price: a limit is exact within a process
 * and, across processes, can be overrun by what the others counted since their last settle (at
 * most SETTLE_EVERY_MS of their traffic). `settle()` sends everything and forgets the totals, so the
 * next decision reads the store again (tests, and shutdown so no count is lost).
 */
export class SettlingCounterStore implements CounterStore {
  private readonly tallies = new Map<string, Tally>();
  private timer: NodeJS.Timeout | undefined;
  /** The background writes, one batch after another. */
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: SharedCounter,
    private readonly quota: number,
    private readonly now: () => number = Date.now,
  ) {}

  async consume(key: string): Promise<RateLimiterRes> {
    const now = this.now();
    let tally = this.tallies.get(key);
    if (tally && now >= tally.windowEndsAt) {
      // Counts of a window that has ended do not carry into the next one.
      this.tallies.delete(key);
      tally = undefined;
    }
    if (tally && now - tally.readAt <= TRUST_MS) {
      tally.unsent += 1;
      this.schedule();
    } else {
      // Read the store, sending what this counter owes it plus this request.
      tally ??= this.track(key, now);
      await this.write(key, tally, tally.unsent + 1, true);
    }
    const consumed = tally.shared + tally.sending + tally.unsent;
    const msBeforeNext = Math.max(0, tally.windowEndsAt - this.now());
    // As rate-limiter-flexible's consume: a refused request is counted too, and rejects.
    const res = new RateLimiterRes(Math.max(0, this.quota - consumed), msBeforeNext, consumed, false);
    if (consumed > this.quota) throw res;
    return res;
  }

  /** Sends every count made here and forgets the totals read: the next decision of each counter reads the store. */
  async settle(): Promise<void> {
    await this.send();
    for (const tally of this.tallies.values()) tally.readAt = -Infinity;
  }

  private track(key: string, now: number): Tally {
    const tally = { shared: 0, sending: 0, unsent: 0, readAt: -Infinity, windowEndsAt: now + RATE_LIMIT_WINDOW_SECONDS * 1000 };
    this.tallies.set(key, tally);
    return tally;
  }

  /**
   * Adds `points` (this counter's unsent counts, plus one for a request that reads) to the store and
   * takes its total back. Totals only grow within a window, so an answer that arrives after a later
   * one does not lower them; a window that ended starts from the store's new total.
   */
  private async write(key: string, tally: Tally, points: number, reading: boolean): Promise<void> {
    tally.unsent -= reading ? points - 1 : points;
    tally.sending += points;
    let res: RateLimiterRes;
    try {
      res = await this.store.penalty(key, points);
    } catch (err) {
      tally.sending -= points;
      // Kept for the next settle; a reading request fails (open) with the store.
      tally.unsent += reading ? points - 1 : points;
      throw err;
    }
    tally.sending -= points;
    const now = this.now();
    const endsAt = now + res.msBeforeNext;
    tally.shared = endsAt > tally.windowEndsAt + 1_000 ? res.consumedPoints : Math.max(tally.shared, res.consumedPoints);
    tally.windowEndsAt = endsAt;
    tally.readAt = now;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.send();
    }, SETTLE_EVERY_MS);
    this.timer.unref();
  }

  private send(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.writes = this.writes.then(async () => {
      const now = this.now();
      const batch: Array<[string, Tally]> = [];
      for (const [key, tally] of this.tallies) {
        if (tally.unsent > 0) batch.push([key, tally]);
        else if (now >= tally.windowEndsAt && tally.sending === 0) this.tallies.delete(key);
      }
      // A failed write keeps its counts for the next settle (requests fail open meanwhile).
      await Promise.all(batch.map(([key, tally]) => this.write(key, tally, tally.unsent, false).catch(() => {})));
    });
    return this.writes;
  }
}
