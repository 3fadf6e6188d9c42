import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { loadConfig } from '../config/config.ts';
import type { Principal } from './auth.service.ts';
import { createMemoryRateLimiter } from '../adapters/rate-limit.stores.ts';
import { type CounterStore, type RateLimitSettings, StoreRateLimiter, keyBucketId } from './rate-limit.service.ts';

const keyPrincipal = (keyId = 'key_a', workspaceId = 'ws_a'): Principal => ({ workspaceId, method: 'api_key', keyId });
const silent = { warn: () => {} };
/** Rate-limit settings with every policy off (0) but those given. */
const limits = (on: Partial<RateLimitSettings>): RateLimitSettings => ({
  workspacePerMinute: 0,
  keyPerMinute: 0,
  unauthenticatedPerMinute: 0,
  signInPerMinute: 0,
  signedAddressPerMinute: 0,
  signingKeyMissesPerMinute: 0,
  ...on,
});

describe('rate limiter (memory)', () => {
  test('headers name both policies; RateLimit follows the tightest; refusal carries Retry-After', async () => {
    const limiter = createMemoryRateLimiter(limits({ workspacePerMinute: 4, keyPerMinute: 2 }), silent);
    const first = await limiter.consume(keyPrincipal());
    assert.equal(first.allowed, true);
    assert.equal(first.headers['RateLimit-Policy'], '"workspace";q=4;w=60, "key";q=2;w=60');
    assert.match(first.headers.RateLimit, /^"key";r=1;t=(60|59)$/);
    assert.match((await limiter.consume(keyPrincipal())).headers.RateLimit, /^"key";r=0;t=\d+$/);
    const refused = await limiter.consume(keyPrincipal());
    assert.equal(refused.allowed, false);
    assert.equal(refused.exceeded, 'key');
    assert.match(refused.detail!, /key rate limit of 2 requests per 60 seconds/);
    assert.match(refused.headers['Retry-After'], /^\d+$/);
    assert.match(refused.headers.RateLimit, /^"key";r=0;t=\d+$/);
    // A sibling key of the workspace: 2 of 4 used by key_a (its refusal did not count).
    const sibling = await limiter.consume(keyPrincipal('key_b'));
    // Both have 1 left (a tie goes to the longer wait).
    assert.match(sibling.headers.RateLimit, /^"(key|workspace)";r=1;t=\d+$/);
    // The workspace (0 left) is now tighter than key_c (1 left).
    const third = await limiter.consume(keyPrincipal('key_c'));
    assert.match(third.headers.RateLimit, /^"workspace";r=0;t=\d+$/);
    const over = await limiter.consume(keyPrincipal('key_c'));
    assert.equal(over.exceeded, 'workspace');
    await limiter.close();
  });

  test('sessions and the gateway count against the workspace only', async () => {
    const limiter = createMemoryRateLimiter(limits({ workspacePerMinute: 5, keyPerMinute: 2 }), silent);
    const res = await limiter.consume({ workspaceId: 'ws_s', method: 'session' });
    assert.equal(res.headers['RateLimit-Policy'], '"workspace";q=5;w=60');
    assert.match(res.headers.RateLimit, /^"workspace";r=4;t=\d+$/);
  });

  test('0 turns a policy off; both 0 means no headers at all', async () => {
    const noKey = createMemoryRateLimiter(limits({ workspacePerMinute: 5 }), silent);
    assert.equal((await noKey.consume(keyPrincipal())).headers['RateLimit-Policy'], '"workspace";q=5;w=60');
    const none = createMemoryRateLimiter(limits({}), silent);
    for (let i = 0; i < 10; i++) assert.deepEqual(await none.consume(keyPrincipal()), { allowed: true, headers: {} });
  });

  test('sign-in requests have their own per-address bucket, apart from failed authentication', async () => {
    const limiter = createMemoryRateLimiter(limits({ unauthenticatedPerMinute: 1, signInPerMinute: 2 }), silent);
    const first = await limiter.consumeSignIn('203.0.113.1');
    assert.equal(first.headers['RateLimit-Policy'], '"sign-in";q=2;w=60');
    assert.match(first.headers.RateLimit, /^"sign-in";r=1;t=\d+$/);
    assert.equal((await limiter.consumeSignIn('203.0.113.1')).allowed, true);
    const refused = await limiter.consumeSignIn('203.0.113.1');
    assert.equal(refused.allowed, false);
    assert.equal(refused.exceeded, 'sign-in');
    assert.match(refused.detail!, /^Too many sign-in requests from this address \(2 per 60 seconds\)/);
    assert.equal((await limiter.consumeSignIn('203.0.113.2')).allowed, true);
    // The failed-authentication bucket of the same address is untouched.
    assert.equal((await limiter.consumeFailedAuth('203.0.113.1')).allowed, true);
    const off = createMemoryRateLimiter(limits({}), silent);
    for (let i = 0; i < 10; i++) assert.deepEqual(await off.consumeSignIn('203.0.113.1'), { allowed: true, headers: {} });
  });

  test('API_KEYS entries are bucketed by a hash prefix, never the secret', () => {
    const secret = 'svc_local_test_key_0123456789abcdef';
    const id = keyBucketId({ workspaceId: 'ws_local', method: 'api_key' }, `Bearer ${secret}`);
    assert.match(id!, /^local_[0-9a-f]{16}$/);
    assert.ok(!id!.includes(secret));
    assert.equal(keyBucketId({ workspaceId: 'ws_local', method: 'api_key' }, `Bearer ${secret}`), id);
    // The scheme is case-insensitive (RFC 9110 §11.1): the same key is the same bucket.
    assert.equal(keyBucketId({ workspaceId: 'ws_local', method: 'api_key' }, `bearer ${secret}`), id);
    assert.equal(keyBucketId(keyPrincipal('key_x'), `Bearer ${secret}`), 'key_x');
    assert.equal(keyBucketId({ workspaceId: 'ws_local', method: 'local' }), undefined);
  });
});

describe('rate limiter store failures', () => {
  const settings = limits({ workspacePerMinute: 10, keyPerMinute: 5 });

  test('an erroring store fails open, with one warning per burst', async () => {
    const warnings: unknown[] = [];
    const failing: CounterStore = { consume: async () => Promise.reject(new Error('connection refused')) };
    const limiter = new StoreRateLimiter({
      settings,
      storeFor: () => failing,
      logger: { warn: (...args: unknown[]) => void warnings.push(args) } as never,
    });
    for (let i = 0; i < 3; i++) {
      const d = await limiter.consume(keyPrincipal());
      assert.equal(d.allowed, true);
      assert.deepEqual(d.headers, { 'RateLimit-Policy': '"workspace";q=10;w=60, "key";q=5;w=60' });
    }
    assert.equal(warnings.length, 1);
  });

  test('a store that hangs fails open after the timeout', async () => {
    const hanging: CounterStore = { consume: () => new Promise(() => {}) };
    const limiter = new StoreRateLimiter({ settings, storeFor: () => hanging, logger: silent, timeoutMs: 30 });
    // Without the limiter's own timeout this await would never return (the store never answers).
    assert.equal((await limiter.consume(keyPrincipal())).allowed, true);
  });

  test('a refusal from the store is a refusal, not a failure', async () => {
    const full: CounterStore = { consume: async () => Promise.reject(new RateLimiterRes(0, 12_300, 6)) };
    const limiter = new StoreRateLimiter({ settings, storeFor: () => full, logger: silent });
    const d = await limiter.consume(keyPrincipal());
    assert.equal(d.allowed, false);
    assert.equal(d.exceeded, 'key');
    assert.equal(d.headers['Retry-After'], '13');
    assert.equal(d.headers.RateLimit, '"key";r=0;t=13');
  });
});

describe('rate limit settings', () => {
  test('defaults 600 / 300 / 60 (signed URLs: 600 per address, 120 misses per signing key); invalid values are reported with the others', () => {
    assert.deepEqual(loadConfig({}).rateLimit, {
      workspacePerMinute: 600,
      keyPerMinute: 300,
      unauthenticatedPerMinute: 60,
      signInPerMinute: 30,
      signedAddressPerMinute: 600,
      signingKeyMissesPerMinute: 120,
    });
    assert.deepEqual(loadConfig({ RATE_LIMIT_WORKSPACE_PER_MINUTE: '0', RATE_LIMIT_KEY_PER_MINUTE: '7' }).rateLimit, {
      workspacePerMinute: 0,
      keyPerMinute: 7,
      unauthenticatedPerMinute: 60,
      signInPerMinute: 30,
      signedAddressPerMinute: 600,
      signingKeyMissesPerMinute: 120,
    });
    assert.throws(
      () => loadConfig({ RATE_LIMIT_WORKSPACE_PER_MINUTE: '-1', RATE_LIMIT_KEY_PER_MINUTE: 'lots', PORT: 'x' }),
      (err: Error & { problems?: string[] }) => {
        assert.equal(err.problems?.length, 3);
        assert.ok(err.problems?.some((p) => p.startsWith('RATE_LIMIT_WORKSPACE_PER_MINUTE')));
        assert.ok(err.problems?.some((p) => p.startsWith('RATE_LIMIT_KEY_PER_MINUTE')));
        return true;
      },
    );
  });
});
