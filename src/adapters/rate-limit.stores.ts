// Where the rate limiter's counters live (rate-limiter-flexible stores): this process's memory on
// SQLite (one process), the Postgres table `rate_limits` otherwise, shared by every API process.
// The policy (which buckets, what a decision says) is src/services/rate-limit.service.ts.
import { RateLimiterMemory, RateLimiterPostgres } from 'rate-limiter-flexible';
import type { Logger } from 'pino';
import type { Database } from '../../db/database.ts';
import {
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
};

/** Counters in this process's memory (local mode on SQLite: one process). */
export function createMemoryRateLimiter(settings: RateLimitSettings, logger: Pick<Logger, 'warn'>): RateLimiter {
  return new StoreRateLimiter(
    settings,
    (name, quota) => new RateLimiterMemory({ keyPrefix: PREFIXES[name], points: quota, duration: RATE_LIMIT_WINDOW_SECONDS }),
    logger,
  );
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
  return new StoreRateLimiter(
    settings,
    (name, quota) => {
      const store = new RateLimiterPostgres({
        storeClient: db,
        storeType: 'knex',
        tableName: RATE_LIMIT_TABLE,
        tableCreated: true,
        clearExpiredByTimeout: false,
        keyPrefix: PREFIXES[name],
        points: quota,
        duration: RATE_LIMIT_WINDOW_SECONDS,
      });
      stores.push(store);
      return store;
    },
    logger,
    () => clearInterval(sweeper),
  );
}
