// The sign-in library's error answers become problem+json (sign-in.ts authErrorAsProblem), and its
// log lines take the level their request's answer gives them (libraryLineLevel).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { authErrorAsProblem, libraryLineLevel } from './better-auth.sign-in.ts';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

test('a 4xx keeps its status, gets a registry code and carries the library reason in detail; other headers survive', async () => {
  const res = await authErrorAsProblem(
    json(403, { code: 'INVALID_CALLBACK_URL', message: 'Invalid callbackURL' }, { 'Set-Cookie': 'a=b' }),
  );
  assert.equal(res.status, 403);
  assert.equal(res.headers.get('content-type'), 'application/problem+json');
  assert.equal(res.headers.get('set-cookie'), 'a=b');
  assert.deepEqual(await res.json(), {
    type: '/v1/reference#problem-forbidden',
    status: 403,
    code: 'forbidden',
    title: 'Not allowed',
    detail: 'INVALID_CALLBACK_URL: Invalid callbackURL',
  });
});

test('a status without its own code becomes 400 sign_in_failed; an empty body still gets a problem', async () => {
  const res = await authErrorAsProblem(new Response(null, { status: 422 }));
  assert.equal(res.status, 400);
  assert.equal(((await res.json()) as { code: string }).code, 'sign_in_failed');
});

test('a 5xx says nothing of its cause', async () => {
  const res = await authErrorAsProblem(json(500, { message: 'password authentication failed for user "svc"' }));
  const body = (await res.json()) as Record<string, unknown>;
  assert.equal(res.status, 500);
  assert.equal(body.code, 'internal_error');
  assert.equal(body.detail, undefined);
  assert.doesNotMatch(JSON.stringify(body), /password/);
});

test('redirects and successes pass through untouched', async () => {
  const redirect = new Response(null, { status: 302, headers: { Location: 'https://app.example/' } });
  assert.equal(await authErrorAsProblem(redirect), redirect);
  const ok = json(200, { url: 'https://github.com/login' });
  assert.equal(await authErrorAsProblem(ok), ok);
});

test("the library's warnings and errors in a request answered 4xx are the client's mistake: info; otherwise its own level", () => {
  assert.equal(libraryLineLevel('error', 403), 'info');
  assert.equal(libraryLineLevel('warn', 404), 'info');
  assert.equal(libraryLineLevel('debug', 400), 'debug');
  assert.equal(libraryLineLevel('error', 500), 'error');
  assert.equal(libraryLineLevel('error', 302), 'error');
  assert.equal(libraryLineLevel('warn', undefined), 'warn');
});
