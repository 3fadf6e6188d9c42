// Which requests get public answers, and what an anonymous signed-URL caller is told of a problem.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, test } from 'node:test';
import { ProblemError } from '../errors/problem.ts';
import { forAnonymousCaller, isPubliclyCacheable, publicRequestKind } from './public-answer.ts';

const request = (method: string, url: string) => ({ method, url, headers: {} }) as IncomingMessage;
const hash = 'a'.repeat(64);

describe('publicRequestKind', () => {
  test('signed recipe URLs (sig, kid or exp: a signed target, well-formed or not) and the publicly cacheable public operations', () => {
    const cases: Array<[string, string, string | undefined]> = [
      ['GET', `/v1/render/${hash}?r=x&kid=usk_1&sig=${'s'.repeat(43)}`, 'signed'],
      ['HEAD', `/v1/render/${hash}.png?r=x&kid=usk_1&exp=1&sig=${'s'.repeat(43)}`, 'signed'],
      ['GET', `/v1/render/${hash}?r=x&kid=usk_1`, 'signed'],
      ['GET', `/v1/render/${hash}?r=x&w=10`, undefined],
      ['GET', `/v1/render/${hash}?r=x&skid=1`, undefined],
      ['POST', `/v1/render/${hash}?r=x&kid=usk_1&sig=${'s'.repeat(43)}`, undefined],
      ['GET', '/v1/generators', 'open'],
      ['HEAD', '/v1/generators/blob?x=1', 'open'],
      ['GET', '/v1/pricing', 'open'],
      ['GET', '/v1/openapi.json', 'open'],
      ['GET', '/v1/reference', 'open'],
      ['GET', '/v1/generators/blob/more', undefined],
      ['GET', '/v1/openapi_json', undefined],
      ['POST', '/v1/generators', undefined],
      ['GET', '/v1/health', undefined],
      ['GET', '/v1/keys', undefined],
      ['GET', '/', undefined],
    ];
    for (const [method, url, kind] of cases) assert.equal(publicRequestKind(request(method, url)), kind, `${method} ${url}`);
  });
});

test('isPubliclyCacheable: the public directive', () => {
  assert.equal(isPubliclyCacheable('public, max-age=60'), true);
  assert.equal(isPubliclyCacheable('max-age=60, public'), true);
  assert.equal(isPubliclyCacheable('private, max-age=31536000, immutable'), false);
  assert.equal(isPubliclyCacheable('no-store'), false);
  assert.equal(isPubliclyCacheable(undefined), false);
});

test('forAnonymousCaller: the workspace problems in general terms, without their figures; the others as they are', () => {
  const short = new ProblemError('insufficient_credits', {
    detail: 'This costs 3 credits and 1 is available.',
    extra: { cost: 3, balance: { credits: 5, reserved: 4, available: 1 } },
  });
  const told = forAnonymousCaller(short);
  assert.equal(told.code, 'insufficient_credits');
  assert.equal(told.status, 402);
  assert.equal(told.extra, undefined);
  assert.match(told.detail!, /^This image is unavailable/);
  assert.doesNotMatch(JSON.stringify(told.toProblem('id')), /\d+ credits|balance|cost/);
  const limited = forAnonymousCaller(new ProblemError('signing_key_limit_reached', { extra: { limit: 5, spent: 5 } }));
  assert.deepEqual(Object.keys(limited.toProblem()).sort(), ['code', 'detail', 'status', 'title', 'type']);
  for (const problem of [
    new ProblemError('signed_url_expired', { detail: 'This signed URL has expired (exp); sign a new one.' }),
    new ProblemError('rate_limited', { detail: 'Too many.', headers: { 'Retry-After': '5' } }),
  ])
    assert.equal(forAnonymousCaller(problem), problem);
});
