// Requests per minute, per workspace, API key, client address and signing key (0: no limit).
import type { EnvReader } from './env-reader.ts';

export interface RateLimitConfig {
  /** Requests per minute on authenticated operations, per workspace and per API key (0: no limit). */
  readonly rateLimit: {
    readonly workspacePerMinute: number;
    readonly keyPerMinute: number;
    /** Requests per minute per client address that fail authentication (401), before they get 429. */
    readonly unauthenticatedPerMinute: number;
    /** Requests per minute per client address to the sign-in routes under /v1/auth, before they get 429. */
    readonly signInPerMinute: number;
    /** Signed-URL requests per minute per client address (they count against no workspace or key bucket). */
    readonly signedAddressPerMinute: number;
    /** Signed-URL renders that miss the cache (and cost credits) per minute per signing key. */
    readonly signingKeyMissesPerMinute: number;
  };
}

export function parseRateLimits({ int }: EnvReader): RateLimitConfig {
  return {
    rateLimit: {
      workspacePerMinute: int('RATE_LIMIT_WORKSPACE_PER_MINUTE', 600, 0, 1_000_000),
      keyPerMinute: int('RATE_LIMIT_KEY_PER_MINUTE', 300, 0, 1_000_000),
      unauthenticatedPerMinute: int('RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE', 60, 0, 1_000_000),
      signInPerMinute: int('RATE_LIMIT_SIGN_IN_PER_MINUTE', 30, 0, 1_000_000),
      signedAddressPerMinute: int('RATE_LIMIT_SIGNED_ADDRESS_PER_MINUTE', 600, 0, 1_000_000),
      signingKeyMissesPerMinute: int('RATE_LIMIT_SIGNING_KEY_MISSES_PER_MINUTE', 120, 0, 1_000_000),
    },
  };
}
