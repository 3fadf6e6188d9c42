// Hosted accounts end to end: browser sign-in through the real better-auth flow against a real
// local OpenID provider, the session cookie, personal workspaces, cookie origin rules, bearer
// precedence and hosted-mode key rules. Hosted mode runs on Postgres only.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import supertest from 'supertest';
import { SESSION_COOKIE } from '../../src/services/auth.service.ts';
import { startTestApp, TEST_LOCAL_KEY, type TestApp } from '../support/harness.ts';
import { CookieJar, driveIdp, startTestIdp, testAccount, type TestIdp } from '../support/oidc-idp.ts';
import { listenOnLoopback } from '../support/black-box/listen.ts';

const APP = 'https://app.example.test';
const AUTH_SECRET = 'test-auth-secret-0123456789abcdef-0123456789';
const SIGNUP_CREDITS = 25;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('hosted accounts on postgres', () => {
  let t: TestApp;
  let idp: TestIdp;
  let server: http.Server;
  let api: string;
  /** Every secret the run handled, checked against the log at the end. */
  const secrets = new Set<string>([AUTH_SECRET, 'github-secret-for-tests', 'google-secret-for-tests']);

  before(async () => {
    server = http.createServer();
    api = `http://127.0.0.1:${await listenOnLoopback(server)}`;
    idp = await startTestIdp(api);
    t = await startTestApp('postgres', {
      // The sign-in limit is on but out of the way here; its own suite below sets it low.
      env: {
        SERVICE_LOCAL_MODE: '0',
        APP_ORIGIN: APP,
        AUTH_SECRET,
        PUBLIC_URL: api,
        LOG_LEVEL: 'debug',
        RATE_LIMIT_SIGN_IN_PER_MINUTE: '1000',
        SIGNUP_CREDITS: String(SIGNUP_CREDITS),
        ...idp.env,
      },
    });
    server.on('request', t.app);
  });
  after(async () => {
    server?.closeAllConnections();
    server?.close();
    await t?.close();
    await idp?.close();
  });

  async function startSignIn(provider: string, callbackURL: string, jar = new CookieJar()) {
    const res = await fetch(`${api}/v1/auth/sign-in/social`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: APP },
      body: JSON.stringify({ provider, callbackURL }),
    });
    jar.store(res);
    return { res, body: (await res.json()) as { url: string; redirect: boolean; code?: string; detail?: string; status?: number }, jar };
  }

  async function callback(url: string, jar: CookieJar) {
    const res = await fetch(url, { headers: { cookie: jar.header(url) }, redirect: 'manual' });
    jar.store(res);
    for (const v of new URL(url).searchParams.values()) secrets.add(v);
    return res;
  }

  async function signIn(provider: 'github' | 'google', login: string) {
    const { res, body, jar } = await startSignIn(provider, `${APP}/app`);
    assert.equal(res.status, 200, JSON.stringify(body));
    const authorizeUrl = new URL(body.url);
    const back = await callback(await driveIdp(idp, body.url, login), jar);
    const cookie = jar.get(SESSION_COOKIE);
    if (cookie) secrets.add(cookie.value);
    return { authorizeUrl, back, jar, cookie: cookie ? `${SESSION_COOKIE}=${cookie.value}` : '' };
  }

  const withCookie = (cookie: string, extra: Record<string, string> = {}) => ({
    auth: false as const,
    headers: { Cookie: cookie, ...extra },
  });

  describe('sign-in', () => {
    test('GitHub: identity scopes only, PKCE, back to APP_ORIGIN with a __Secure- HTTP-only Lax cookie and a personal workspace', async () => {
      const { authorizeUrl, back, jar, cookie } = await signIn('github', 'alice');
      assert.equal(authorizeUrl.origin, idp.issuer);
      assert.equal(authorizeUrl.searchParams.get('scope'), 'read:user user:email');
      assert.ok(!authorizeUrl.searchParams.get('scope')!.includes('repo'));
      assert.equal(authorizeUrl.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(authorizeUrl.searchParams.get('redirect_uri'), `${api}/v1/auth/callback/github`);
      assert.equal(back.status, 302);
      assert.equal(back.headers.get('location'), `${APP}/app`);
      const raw = jar.get(SESSION_COOKIE)!.raw;
      assert.match(raw, /; HttpOnly/i);
      assert.match(raw, /; Secure/i);
      assert.match(raw, /; SameSite=Lax/i);

      const me = await t.request('get', '/v1/me', withCookie(cookie));
      assert.equal(me.status, 200);
      assert.equal(me.headers['cache-control'], 'no-store');
      assert.equal(me.body.authMethod, 'session');
      assert.equal(me.body.user.email, testAccount('alice').email);
      assert.equal(me.body.workspace.kind, 'personal');

      // Signing in again finds the same user and workspace.
      const again = await signIn('github', 'alice');
      const me2 = await t.request('get', '/v1/me', withCookie(again.cookie));
      assert.equal(me2.body.workspace.id, me.body.workspace.id);
      assert.equal((await t.runtime.db('workspaces').where({ owner_user_id: me.body.user.id })).length, 1);
    });

    test('Google: OpenID with a verified id_token gives another user and workspace', async () => {
      const { authorizeUrl, back, cookie } = await signIn('google', 'bob');
      assert.equal(authorizeUrl.searchParams.get('scope'), 'openid email profile');
      assert.ok(authorizeUrl.searchParams.get('nonce'));
      assert.equal(back.status, 302);
      const me = await t.request('get', '/v1/me', withCookie(cookie));
      assert.equal(me.body.user.email, testAccount('bob').email);
      assert.equal(me.body.workspace.kind, 'personal');
    });

    test('a foreign callbackURL is refused, and nothing is set; the client’s mistake is no error line, and nothing reaches the console', async () => {
      const from = t.logs.length;
      const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
      const originals = methods.map((m) => console[m]);
      const printed: string[] = [];
      methods.forEach((m) => (console[m] = (...args: unknown[]) => void printed.push(args.map(String).join(' '))));
      let started;
      try {
        started = await startSignIn('github', 'https://evil.example/steal');
      } finally {
        methods.forEach((m, i) => (console[m] = originals[i]));
      }
      const { res, body, jar } = started;
      assert.deepEqual(printed, [], 'the library wrote nothing to the console');
      const lines = t.logs.slice(from).map((l) => JSON.parse(l) as { level: number; msg: string; component?: string });
      assert.deepEqual(
        lines.filter((l) => l.level >= 50).map((l) => l.msg),
        [],
        'no error line for a client’s mistake',
      );
      const reason = lines.find((l) => l.component === 'sign-in');
      assert.equal(reason?.level, 30, 'the library’s reason is an info line');
      assert.match(reason?.msg ?? '', /Invalid callbackURL/);
      assert.equal(res.status, 403);
      assert.equal(jar.get(SESSION_COOKIE), undefined);
      // The library's error, answered as problem+json from the registry like every other error.
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(body.code, 'forbidden');
      assert.equal(body.status, 403);
      assert.match(body.detail ?? '', /callback/i);
    });

    test('refusals of the library are problem+json: an unknown provider 404, a body without one 400 sign_in_failed', async () => {
      const unknown = await startSignIn('myspace', `${APP}/app`);
      assert.equal(unknown.res.status, 404);
      assert.match(unknown.res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(unknown.body.code, 'not_found');
      const res = await fetch(`${api}/v1/auth/sign-in/social`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: APP },
        body: JSON.stringify({ callbackURL: `${APP}/app` }),
      });
      const body = (await res.json()) as { code: string; status: number; detail?: string };
      assert.equal(res.status, 400);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.deepEqual([body.code, body.status], ['sign_in_failed', 400]);
      assert.ok(body.detail);
    });

    test('a tampered state gives no session', async () => {
      const { body, jar } = await startSignIn('github', `${APP}/app`);
      const cb = new URL(await driveIdp(idp, body.url, 'carol'));
      const state = cb.searchParams.get('state')!;
      cb.searchParams.set('state', (state[0] === 'A' ? 'B' : 'A') + state.slice(1));
      const res = await callback(cb.href, jar);
      assert.equal(res.status, 302);
      assert.ok(res.headers.get('location')!.startsWith(`${APP}/`));
      assert.match(res.headers.get('location')!, /error=/);
      assert.equal(jar.get(SESSION_COOKIE), undefined);
    });

    test('auth-config lists both providers and the current session', async () => {
      const anonymous = await t.request('get', '/v1/auth-config', { auth: false });
      assert.equal(anonymous.body.mode, 'hosted');
      assert.deepEqual(
        anonymous.body.providers.map((p: { id: string }) => p.id),
        ['github', 'google'],
      );
      assert.equal(anonymous.body.session, null);
      assert.equal(anonymous.body.localGateway, false);
      const { cookie } = await signIn('github', 'dave');
      const signedIn = await t.request('get', '/v1/auth-config', withCookie(cookie));
      assert.equal(signedIn.body.session.user.email, testAccount('dave').email);
      assert.ok(Date.parse(signedIn.body.session.expiresAt) > Date.now());
    });

    test('a new personal workspace starts with SIGNUP_CREDITS, as one ledger entry; signing in again grants nothing more', async () => {
      const first = await signIn('github', 'kate');
      const workspaceId = (await t.request('get', '/v1/me', withCookie(first.cookie))).body.workspace.id;
      await signIn('github', 'kate');
      assert.equal((await t.runtime.deps.services.credits.balance(workspaceId)).credits, SIGNUP_CREDITS);
      const entries = await t.runtime.db('credit_entries').where({ workspace_id: workspaceId });
      assert.deepEqual(
        entries.map((e: { kind: string; amount: number; reference: string }) => [e.kind, Number(e.amount), e.reference]),
        [['grant', SIGNUP_CREDITS, 'sign-up']],
      );
    });

    test('signing out ends the session: the cookie then answers 401', async () => {
      const { cookie } = await signIn('github', 'erin');
      const out = await fetch(`${api}/v1/auth/sign-out`, {
        method: 'POST',
        headers: { cookie, origin: APP, 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(out.status, 200);
      assert.equal((await t.request('get', '/v1/me', withCookie(cookie))).status, 401);
    });

    test('outside local mode no gateway adds credentials: a same-origin loopback request without any is 401', async () => {
      const res = await t.request('get', '/v1/me', { auth: false, headers: { 'Sec-Fetch-Site': 'same-origin' } });
      assert.equal(res.status, 401);
    });

    test('an unknown session cookie is 401, not anonymous', async () => {
      assert.equal((await t.request('get', '/v1/me', withCookie(`${SESSION_COOKIE}=forged.value`))).status, 401);
    });
  });

  describe('cookie origin rules', () => {
    test('a cookie mutation needs a listed Origin: missing or null is 403 origin_denied', async () => {
      const { cookie } = await signIn('github', 'frank');
      const ok = await t.request('post', '/v1/keys', { ...withCookie(cookie, { Origin: APP }), body: { label: 'from the browser' } });
      assert.equal(ok.status, 201);
      secrets.add(ok.body.secret);
      for (const origin of [undefined, 'null']) {
        const res = await t.request('post', '/v1/keys', { ...withCookie(cookie, origin ? { Origin: origin } : {}), body: { label: 'x' } });
        assert.equal(res.status, 403, String(origin));
        assert.equal(res.body.code, 'origin_denied');
      }
      // Reads need no Origin.
      assert.equal((await t.request('get', '/v1/keys', withCookie(cookie))).status, 200);
      // The key belongs to the user's workspace.
      const me = await t.request('get', '/v1/me', withCookie(cookie));
      const viaKey = await t.request('get', '/v1/me', { auth: false, headers: { Authorization: `Bearer ${ok.body.secret}` } });
      assert.equal(viaKey.body.workspace.id, me.body.workspace.id);
      assert.equal(viaKey.body.authMethod, 'api_key');
    });

    test('a cookie render must prove it is same-origin: every other variant is 403 origin_denied and spends nothing', async () => {
      const { cookie } = await signIn('github', 'grace');
      const workspaceId = (await t.request('get', '/v1/me', withCookie(cookie))).body.workspace.id;
      await t.runtime.deps.services.credits.add({
        workspaceId: workspaceId,
        amount: 100,
        kind: 'grant',
        id: 'grant_grace',
        reference: 'test',
        description: 'test credits',
      });
      const balance = async () => (await t.runtime.deps.services.credits.balance(workspaceId)).credits;
      const recipe = { slug: 'mesh-gradient', seed: 1, size: { width: 32, height: 32 }, format: 'png' as const };
      const preset = await t.request('post', '/v1/presets', { ...withCookie(cookie, { Origin: APP }), body: { name: 'hero', recipe } });
      assert.equal(preset.status, 201, preset.text);
      const { seed, size, format } = recipe;
      const { hash: recipeHash, encoded: encodedRecipe } = t.runtime.deps.services.render.resolve(recipe.slug, { seed, size, format });
      // Every request asks for a width never rendered before: a refusal is not a free cache hit.
      let width = 100;
      const renderUrl = () => `/v1/render/${recipeHash}?r=${encodedRecipe}&w=${width++}`;
      const refused: Array<[string, Record<string, string>]> = [
        ['no fetch metadata (older browsers)', {}],
        ['a sibling subdomain', { 'Sec-Fetch-Site': 'same-site' }],
        ['another site', { 'Sec-Fetch-Site': 'cross-site' }],
        ['a pasted or bookmarked URL', { 'Sec-Fetch-Site': 'none' }],
        ['a foreign Referer only', { Referer: 'https://evil.example/page' }],
        ['a same-origin Referer only', { Referer: `${APP}/app` }],
      ];
      const before = await balance();
      for (const [what, headers] of refused) {
        for (const url of [renderUrl(), `/v1/presets/${preset.body.id}/render`]) {
          const res = await t.request('get', url, withCookie(cookie, headers));
          assert.equal(res.status, 403, `${what}: ${url}`);
          assert.equal(res.body.code, 'origin_denied', what);
          assert.match(res.body.detail, /same-origin/);
          assert.equal(await balance(), before, `${what} spent credits`);
        }
      }

      // Our own pages' fetch() (Sec-Fetch-Site: same-origin) and listed origins render and pay.
      const sameOrigin = await t.request('get', renderUrl(), withCookie(cookie, { 'Sec-Fetch-Site': 'same-origin' }));
      assert.equal(sameOrigin.status, 200);
      assert.equal(sameOrigin.headers['x-service-cache'], 'MISS');
      assert.equal(await balance(), before - 1);
      const listedOrigin = await t.request('get', renderUrl(), withCookie(cookie, { Origin: APP, 'Sec-Fetch-Site': 'same-site' }));
      assert.equal(listedOrigin.status, 200);
      assert.equal(await balance(), before - 2);
      assert.equal(
        (await t.request('get', `/v1/presets/${preset.body.id}/render`, withCookie(cookie, { 'Sec-Fetch-Site': 'same-origin' }))).status,
        200,
      );
      const afterOk = await balance();
      assert.ok(afterOk < before - 2, 'the preset render was charged');

      // An API key is never sent by a browser on its own: no origin evidence needed.
      const key = await t.request('post', '/v1/keys', { ...withCookie(cookie, { Origin: APP }), body: { label: 'server' } });
      secrets.add(key.body.secret);
      const viaKey = await t.request('get', renderUrl(), {
        auth: false,
        headers: { Authorization: `Bearer ${key.body.secret}`, 'Sec-Fetch-Site': 'cross-site' },
      });
      assert.equal(viaKey.status, 200);
      assert.equal(await balance(), afterOk - 1);
    });
  });

  describe('sign-in rate limit per client address', () => {
    const LIMIT = 5;
    let limited: TestApp;
    before(async () => {
      limited = await startTestApp('postgres', {
        env: {
          SERVICE_LOCAL_MODE: '0',
          APP_ORIGIN: APP,
          AUTH_SECRET,
          PUBLIC_URL: api,
          RATE_LIMIT_SIGN_IN_PER_MINUTE: String(LIMIT),
          TRUST_PROXY: 'loopback',
          ...idp.env,
        },
      });
    });
    after(async () => limited?.close());
    const start = (address: string) =>
      supertest(limited.app)
        .post('/v1/auth/sign-in/social')
        .set({ Origin: APP, 'X-Forwarded-For': address })
        .send({ provider: 'github', callbackURL: `${APP}/app` });

    test(`${LIMIT} sign-in requests from an address pass with RateLimit headers, the next is 429 rate_limited; other addresses are unaffected`, async () => {
      for (let i = 1; i <= LIMIT; i++) {
        const res = await start('203.0.113.7');
        assert.equal(res.status, 200, res.text);
        assert.ok(res.body.url, 'the library answered');
        assert.equal(res.headers['ratelimit-policy'], `"sign-in";q=${LIMIT};w=60`);
        assert.match(res.headers.ratelimit, new RegExp(`^"sign-in";r=${LIMIT - i};t=\\d+$`));
      }
      // Every route under /v1/auth counts: a callback or a session lookup is refused too.
      for (const res of [
        await start('203.0.113.7'),
        await supertest(limited.app).get('/v1/auth/get-session').set('X-Forwarded-For', '203.0.113.7'),
      ]) {
        assert.equal(res.status, 429);
        assert.match(res.headers['content-type'], /^application\/problem\+json/);
        assert.equal(res.body.code, 'rate_limited');
        assert.match(res.body.detail, /sign-in requests from this address/);
        const retryAfter = Number(res.headers['retry-after']);
        assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${res.headers['retry-after']}`);
        assert.match(res.headers.ratelimit, /^"sign-in";r=0;t=\d+$/);
      }
      assert.equal((await start('203.0.113.8')).status, 200);
      // The API's own routes keep their own limits.
      assert.equal(
        (await limited.request('get', '/v1/auth-config', { auth: false, headers: { 'X-Forwarded-For': '203.0.113.7' } })).status,
        200,
      );
    });
  });

  describe('bearer keys in hosted mode', () => {
    test('a revoked or malformed bearer never falls back to the session', async () => {
      const { cookie } = await signIn('github', 'heidi');
      const key = (await t.request('post', '/v1/keys', { ...withCookie(cookie, { Origin: APP }), body: { label: 'soon revoked' } })).body;
      secrets.add(key.secret);
      await t.request('delete', `/v1/keys/${key.id}`, withCookie(cookie, { Origin: APP }));
      for (const authorization of [`Bearer ${key.secret}`, 'Bearer', 'Basic dXNlcjpwYXNz', `Bearer ${key.secret} extra`]) {
        const res = await t.request('get', '/v1/me', withCookie(cookie, { Authorization: authorization }));
        assert.equal(res.status, 401, authorization);
        assert.equal(res.body.code, 'unauthorized');
      }
    });

    test('API_KEYS and local-workspace keys are rejected with 401', async () => {
      const res = await t.request('get', '/v1/me', { auth: false, headers: { Authorization: `Bearer ${TEST_LOCAL_KEY}` } });
      assert.equal(res.status, 401);
      // A local-mode key that found its way into the hosted database is refused too.
      const { cookie } = await signIn('github', 'ivan');
      const me = await t.request('get', '/v1/me', withCookie(cookie));
      const localSecret = 'svc_local_' + 'L'.repeat(32);
      await t.runtime.db('api_keys').insert({
        id: 'key_local_intruder',
        workspace_id: me.body.workspace.id,
        label: 'local',
        prefix: localSecret.slice(0, 16),
        secret_hash: sha256(localSecret),
        created_at: Date.now(),
      });
      assert.equal((await t.request('get', '/v1/me', { auth: false, headers: { Authorization: `Bearer ${localSecret}` } })).status, 401);
    });

    test("one workspace cannot see or revoke another's key (404)", async () => {
      const a = await signIn('github', 'judy');
      const b = await signIn('github', 'mallory');
      const keyA = (await t.request('post', '/v1/keys', { ...withCookie(a.cookie, { Origin: APP }), body: { label: 'judy' } })).body;
      secrets.add(keyA.secret);
      const revoke = await t.request('delete', `/v1/keys/${keyA.id}`, withCookie(b.cookie, { Origin: APP }));
      assert.equal(revoke.status, 404);
      assert.ok(!(await t.request('get', '/v1/keys', withCookie(b.cookie))).body.some((k: { id: string }) => k.id === keyA.id));
      assert.equal((await t.request('get', '/v1/me', { auth: false, headers: { Authorization: `Bearer ${keyA.secret}` } })).status, 200);
    });
  });

  test('no secret, key hash, cookie value, OAuth code or Authorization value reaches the log', () => {
    assert.ok(t.logs.length > 20, 'the run was logged');
    const log = t.logs.join('\n');
    for (const secret of secrets) {
      if (secret.length < 8) continue;
      assert.ok(!log.includes(secret), `log contains a secret (${secret.slice(0, 6)}…)`);
      assert.ok(!log.includes(sha256(secret)), `log contains a key hash (${secret.slice(0, 6)}…)`);
    }
    assert.ok(!/Bearer [A-Za-z0-9]/.test(log), 'log contains an Authorization value');
    assert.ok(!log.includes(`${SESSION_COOKIE}=`), 'log contains a session cookie');
  });
});
