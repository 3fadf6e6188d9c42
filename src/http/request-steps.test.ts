// The request steps run outside express, on plain inputs: what a second request path would call.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, test } from 'node:test';
import { ProblemError } from '../errors/problem.ts';
import type { AuthResult, Principal } from '../services/auth.service.ts';
import type { Decision } from '../services/rate-limit.service.ts';
import {
  abortOnClientClose,
  authenticateOnce,
  authorizedSteps,
  checkCookieOrigin,
  checkInput,
  RATE_LIMIT_STEP,
  runAuthorizedSteps,
  unauthorizedAnswer,
} from './request-steps.ts';

const problem = (code: string, status: number) => (err: unknown) =>
  err instanceof ProblemError && err.code === code && err.status === status;
const allow: Decision = { allowed: true, headers: { RateLimit: '"workspace";r=9;t=60' } };
const deny: Decision = {
  allowed: false,
  headers: { RateLimit: '"workspace";r=0;t=30', 'Retry-After': '30' },
  detail: 'Too many requests.',
} as Decision;
const session: Principal = {
  workspaceId: 'ws_1',
  method: 'session',
  user: { id: 'u1', name: 'Ada', email: 'ada@example.test' },
} as Principal;
const apiKey: Principal = { workspaceId: 'ws_1', method: 'api_key', keyId: 'key_1' };

describe('checkInput', () => {
  test('names the path parameter that is not percent-encoding, and NUL in a query value or a nested body key', () => {
    assert.throws(
      () => checkInput({ id: '%E0%A4%A' }, {}, undefined),
      (err: unknown) => problem('validation_failed', 400)(err) && (err as ProblemError).detail === 'path.id is not valid percent-encoding',
    );
    assert.throws(() => checkInput({}, { q: 'a\0b' }, undefined), /query\.q must not contain NUL/);
    assert.throws(() => checkInput({}, {}, { params: { ['k\0']: 1 } }), /body\.params must not contain NUL/);
    assert.doesNotThrow(() => checkInput({ id: 'job_%41' }, { q: 'fine' }, { params: { k: 'v' } }));
  });
});

describe('authenticateOnce', () => {
  test('asks once per request object, so every step sees one decision', async () => {
    let calls = 0;
    const authenticate = authenticateOnce(async (_req: object): Promise<AuthResult> => ({
      ok: true,
      principal: { workspaceId: `ws_${++calls}`, method: 'api_key' },
    }));
    const a = {};
    const first = await authenticate(a);
    assert.deepEqual(await authenticate(a), first);
    assert.equal(calls, 1);
    await authenticate({});
    assert.equal(calls, 2);
  });
});

describe('unauthorizedAnswer', () => {
  test('401 with a challenge that says why; 429 once the address has failed too often', async () => {
    const limiter = (decision: Decision) => ({ consumeFailedAuth: async () => decision });
    const missing = await unauthorizedAnswer({ ok: false, reason: 'missing' }, limiter(allow), '127.0.0.1');
    assert.ok(problem('unauthorized', 401)(missing));
    assert.equal(missing.headers?.['WWW-Authenticate'], 'Bearer realm="render-service"');
    const revoked = await unauthorizedAnswer({ ok: false, reason: 'revoked' }, limiter(allow), '127.0.0.1');
    assert.equal(revoked.detail, 'This API key has been revoked.');
    assert.equal(revoked.headers?.['WWW-Authenticate'], 'Bearer realm="render-service", error="invalid_token"');
    assert.equal(revoked.headers?.RateLimit, allow.headers.RateLimit);
    const limited = await unauthorizedAnswer({ ok: false, reason: 'invalid' }, limiter(deny), '127.0.0.1');
    assert.ok(problem('rate_limited', 429)(limited));
    assert.equal(limited.headers?.['Retry-After'], '30');
  });
});

describe('checkCookieOrigin', () => {
  const policy = { allowedOrigins: ['https://app.example.test'], allowSelfLoopback: false };
  test('a signed-in browser that changes something needs an allowed Origin; API keys and safe methods do not', () => {
    assert.throws(() => checkCookieOrigin(policy, 'createKey', 'POST', {}, session), problem('origin_denied', 403));
    assert.throws(
      () => checkCookieOrigin(policy, 'createKey', 'POST', { origin: 'https://evil.example' }, session),
      problem('origin_denied', 403),
    );
    assert.doesNotThrow(() => checkCookieOrigin(policy, 'createKey', 'POST', { origin: 'https://app.example.test' }, session));
    assert.doesNotThrow(() => checkCookieOrigin(policy, 'createKey', 'POST', {}, apiKey));
    assert.doesNotThrow(() => checkCookieOrigin(policy, 'listKeys', 'GET', {}, session));
  });
});

describe('authorizedSteps', () => {
  /** A response that records each call's headers as one entry of `seen` (the rate limit sets them together). */
  const recorder = (seen: Record<string, string>[]) => {
    let current: Record<string, string> | undefined;
    return {
      setHeader(name: string, value: string) {
        if (!current || name in current) seen.push((current = {}));
        current[name] = value;
        return this as never;
      },
    };
  };
  const policy = { allowedOrigins: ['https://app.example.test'], allowSelfLoopback: false };
  const counting = (decision: Decision) => {
    const limiter = { calls: 0, consume: async () => (limiter.calls++, decision), consumeSigned: async () => (limiter.calls++, decision) };
    return limiter;
  };
  const request = (principal: Principal | null, seen: Record<string, string>[], headers = {}) => ({
    request: {},
    operationId: 'renderRecipe' as const,
    method: 'GET',
    headers,
    principal,
    clientAddress: '127.0.0.1',
    response: recorder(seen),
  });

  test("the key's scope, the cookie origin, then the rate limit: a refused cookie render is not counted", async () => {
    const limiter = counting(allow);
    const steps = authorizedSteps({ policy, rateLimiter: limiter });
    assert.deepEqual(
      steps.map((s) => s.name),
      ['scope', 'cookie origin', RATE_LIMIT_STEP],
    );
    await assert.rejects(runAuthorizedSteps(steps, request(session, [])), problem('origin_denied', 403));
    assert.equal(limiter.calls, 0);
  });

  test('sets the RateLimit headers, refuses over the limit with 429, and counts nothing without a principal', async () => {
    const seen: Record<string, string>[] = [];
    await runAuthorizedSteps(authorizedSteps({ policy, rateLimiter: counting(allow) }), request(apiKey, seen));
    assert.deepEqual(seen, [allow.headers]);
    let refusedSigned = 0;
    const denying = authorizedSteps({ policy, rateLimiter: counting(deny), onSignedUrlRefused: () => refusedSigned++ });
    await assert.rejects(runAuthorizedSteps(denying, request(apiKey, seen)), problem('rate_limited', 429));
    assert.deepEqual(seen.at(-1), deny.headers);
    assert.equal(refusedSigned, 0);
    const signed = { workspaceId: 'ws_1', method: 'signed_url' } as Principal;
    await assert.rejects(runAuthorizedSteps(denying, request(signed, seen)), problem('rate_limited', 429));
    assert.equal(refusedSigned, 1, 'a signed URL refused by the rate limit is counted for the refusals metric');
    const limiter = counting(deny);
    await runAuthorizedSteps(authorizedSteps({ policy, rateLimiter: limiter }), request(null, seen));
    assert.equal(limiter.calls, 0);
  });

  test('a request is counted once however often the steps run for it (the lean path, then the full path)', async () => {
    const limiter = counting(allow);
    const steps = authorizedSteps({ policy, rateLimiter: limiter });
    const seen: Record<string, string>[] = [];
    const one = request(apiKey, seen);
    await runAuthorizedSteps(steps, one);
    await runAuthorizedSteps(steps, { ...one, response: recorder(seen) });
    assert.equal(limiter.calls, 1);
    assert.deepEqual(seen, [allow.headers, allow.headers], 'each path still sets the headers');
    await runAuthorizedSteps(steps, request(apiKey, seen));
    assert.equal(limiter.calls, 2, 'another request is counted');
  });
});

describe('abortOnClientClose', () => {
  const response = () => Object.assign(new EventEmitter(), { writableFinished: false });
  test('aborts with 499 when the connection closes before the response is finished, and not after', () => {
    const leaving = response();
    const signal = abortOnClientClose(leaving);
    assert.equal(signal.aborted, false);
    leaving.emit('close');
    assert.ok(problem('client_closed_request', 499)(signal.reason));
    const finished = response();
    const kept = abortOnClientClose(finished);
    finished.writableFinished = true;
    finished.emit('close');
    assert.equal(kept.aborted, false);
  });
});
