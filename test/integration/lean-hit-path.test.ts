// The lean path (src/http/lean-hit.path.ts) answers recipe URLs held in memory in front of express.
// Every case here runs against two apps on one database: one with the lean path (the default) and
// one without (LEAN_HIT_PATH=0, express's full path only). Both must answer alike — status,
// headers, body and the request's log line — and the lean app must have answered the cases a lean
// path is for itself (its log line says path "lean"), so a security step it skipped would show.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import supertest from 'supertest';
import http from 'node:http';
import { LOCAL_WORKSPACE_ID, SESSION_COOKIE } from '../../src/services/auth.service.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { listenOnLoopback } from '../support/black-box/listen.ts';
import { signInThroughIdp, startTestIdp, type TestIdp } from '../support/oidc-idp.ts';
import { HOSTED_ENV, startTestApp, type LogEntry, type TestApp, workspaceKey } from '../support/harness.ts';
import { signTarget, signingKeyOf } from '../../src/lib/url-signature.ts';

const KEY_LIMIT = 4;
/** A listed origin: a site whose scripts may read the answers. */
const LISTED = 'https://blog.example.test';
const SETUPS = [
  ...ENGINES.map((engine) => ({ name: `local mode on ${engine}`, engine, hosted: false })),
  { name: 'hosted mode on postgres', engine: 'postgres' as const, hosted: true },
];
/** Headers that differ between any two responses. */
const VOLATILE = new Set(['date', 'x-request-id', 'connection', 'keep-alive']);

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  log: LogEntry;
}

let requests = 0;

for (const setup of SETUPS) {
  describe(`the lean path and the full path answer alike: ${setup.name}`, () => {
    let lean: TestApp;
    let full: TestApp;
    let recipeUrl: string;
    /** recipeUrl signed with a URL signing key of the workspace (both apps share the database). */
    let signedUrl: string;
    // Hosted mode: a signed-in browser's session (signed in through the lean app; both apps share its database and secret).
    let idp: TestIdp | undefined;
    let publicServer: http.Server | undefined;
    let session = '';
    const workspace = setup.hosted ? { id: 'ws_lean', name: 'Lean' } : { id: LOCAL_WORKSPACE_ID, name: 'Local' };

    before(async () => {
      let env: Record<string, string> = { RATE_LIMIT_KEY_PER_MINUTE: String(KEY_LIMIT), ALLOWED_ORIGINS: LISTED };
      if (setup.hosted) {
        publicServer = http.createServer();
        const api = `http://127.0.0.1:${await listenOnLoopback(publicServer)}`;
        idp = await startTestIdp(api);
        env = { ...env, ...HOSTED_ENV, PUBLIC_URL: api, ...idp.env };
      }
      lean = await startTestApp(setup.engine, { env });
      full = await startTestApp(setup.engine, { env: { ...env, LEAN_HIT_PATH: '0' }, database: lean.database });
      if (setup.hosted) {
        publicServer!.on('request', lean.app);
        session = await signInThroughIdp(new URL(env.PUBLIC_URL).origin, idp!, 'lean', HOSTED_ENV.APP_ORIGIN, SESSION_COOKIE);
        await lean.runtime.deps.services.workspaces.ensure({ ...workspace, kind: 'personal', createdAt: Date.now() });
        await lean.runtime.deps.services.credits.add({
          workspaceId: workspace.id,
          amount: 1_000,
          kind: 'grant',
          id: 'grant_lean',
          reference: 'test',
          description: 'test credits',
        });
      }
      const { hash, encoded } = lean.runtime.deps.services.render.resolve('mesh-gradient', {
        seed: 7,
        size: { width: 48, height: 32 },
        format: 'png',
      });
      recipeUrl = `/v1/render/${hash}?r=${encoded}`;
      const signing = await lean.runtime.deps.services.urlSigningKeys.create(workspace.id, { label: 'lean' });
      signedUrl = signTarget(signingKeyOf(signing.secret), recipeUrl, signing.id, null);
      // Rendered once by each app: the lean app then holds it in memory.
      for (const app of [lean, full]) {
        const key = await workspaceKey(app, workspace, 'warm-up');
        const res = await app.request('get', recipeUrl, { auth: false, headers: { Authorization: `Bearer ${key}` } });
        assert.equal(res.status, 200, res.text);
      }
    });
    after(async () => {
      publicServer?.closeAllConnections();
      publicServer?.close();
      await full?.close();
      await lean?.close();
      await idp?.close();
    });

    /** One request to one app, with its log line (found by its request id). */
    async function ask(app: TestApp, method: 'get' | 'head', url: string, headers: Record<string, string>): Promise<Answer> {
      // Of one length: a problem names it, so its Content-Length counts its digits.
      const requestId = `lean-test-${String(++requests).padStart(6, '0')}`;
      const res =
        method === 'head'
          ? await supertest(app.app).head(url).set(headers).set('X-Request-Id', requestId)
          : await app.request('get', url, { auth: false, headers: { ...headers, 'X-Request-Id': requestId } });
      // An answer a shared cache may keep carries no request id (public-answer.ts); the log line has it.
      const shared = /\bpublic\b/.test(String(res.headers['cache-control'] ?? ''));
      assert.equal(res.headers['x-request-id'], shared ? undefined : requestId);
      const log = await app.waitForLog((e) => (e.req as { id?: string } | undefined)?.id === requestId && e.res !== undefined);
      const kept = Object.entries(res.headers as Record<string, string>).filter(([name]) => !VOLATILE.has(name));
      // A problem's `instance` names the request id; a 429 says in how many seconds its window ends.
      // On Postgres the two apps share their workspace's counter, so its remaining count moves on too.
      let body = Buffer.isBuffer(res.body) ? res.body.toString('base64') : JSON.stringify(res.body).replaceAll(requestId, 'ID');
      const answered = Object.fromEntries(kept);
      if (res.status === 429) {
        body = body.replace(/\d+/g, '#');
        delete answered['content-length'];
      }
      // The seconds left in a window (t=, Retry-After) move on between the two requests too, and so does
      // a signed URL's count by client address on Postgres.
      if (answered.ratelimit)
        answered.ratelimit = answered.ratelimit.replace(/"(workspace|signed-address)";r=\d+/, '"$1";r=#').replace(/;t=\d+/, ';t=#');
      if (answered['retry-after']) answered['retry-after'] = '#';
      return { status: res.status, headers: answered, body, log };
    }

    interface Case {
      name: string;
      /** Served by the lean app's lean path (else by its full path too). */
      servedLean: boolean;
      status: number;
      method?: 'get' | 'head';
      url?: () => string;
      /** Headers of the request, given a fresh key of the workspace (one per app and case). */
      headers: (key: { id: string; secret: string }, app: TestApp) => Record<string, string> | Promise<Record<string, string>>;
      /** Compare only status, X-Service-Cache and the path (a miss: each app renders a size of its own). */
      statusOnly?: boolean;
      /** Requests sent before the compared one (with the same headers). */
      before?: number;
    }
    const bearer = (key: { secret: string }) => ({ Authorization: `Bearer ${key.secret}` });
    const cases: Case[] = [
      { name: 'a hit with an API key', servedLean: true, status: 200, headers: bearer },
      { name: 'HEAD of a hit', servedLean: true, status: 200, method: 'head', headers: bearer },
      { name: 'an unknown query parameter', servedLean: false, status: 400, url: () => `${recipeUrl}&utm=x`, headers: bearer },
      { name: 'over the key rate limit: 429 with Retry-After', servedLean: true, status: 429, headers: bearer, before: KEY_LIMIT },
      { name: 'no credentials', servedLean: false, status: 401, headers: () => ({}) },
      { name: 'an unknown key', servedLean: false, status: 401, headers: () => bearer({ secret: 'svc_not_a_key_0123456789abcdef0123' }) },
      { name: 'a malformed Authorization header', servedLean: false, status: 401, headers: () => ({ Authorization: 'Basic abc' }) },
      {
        name: 'a revoked key',
        servedLean: false,
        status: 401,
        headers: async (key, app) => {
          await app.runtime.deps.services.keys.revoke(workspace.id, key.id);
          return bearer(key);
        },
      },
      {
        name: 'a conditional request that matches',
        servedLean: false,
        status: 304,
        headers: (key) => ({ ...bearer(key), 'If-None-Match': `"${recipeUrl.slice(11, 75)}"` }),
      },
      {
        name: 'a hit from a listed Origin (CORS takes the full path)',
        servedLean: false,
        status: 200,
        headers: (key) => ({ ...bearer(key), Origin: LISTED }),
      },
      // A signed URL always takes the full path; its answers are public, the same with or without a listed Origin.
      { name: 'a signed URL of a hit', servedLean: false, status: 200, url: () => signedUrl, headers: () => ({}) },
      {
        name: 'a signed URL from a listed Origin',
        servedLean: false,
        status: 200,
        url: () => signedUrl,
        headers: () => ({ Origin: LISTED }),
      },
      { name: 'a signed URL with a key beside it (ignored)', servedLean: false, status: 200, url: () => signedUrl, headers: bearer },
      {
        name: 'a tampered signed URL',
        servedLean: false,
        status: 401,
        url: () => signedUrl.replace('&kid=', '&w=40&kid='),
        headers: () => ({ Origin: LISTED }),
      },
      {
        name: 'a signed URL from an Origin that is not listed',
        servedLean: false,
        status: 403,
        url: () => signedUrl,
        headers: () => ({ Origin: 'https://evil.example' }),
      },
      {
        name: 'an Origin that is not listed',
        servedLean: false,
        status: 403,
        headers: (key) => ({ ...bearer(key), Origin: 'https://evil.example' }),
      },
      {
        name: 'a miss (a width never rendered)',
        servedLean: false,
        status: 200,
        url: () => `${recipeUrl}&w=${40 + requests}`,
        headers: bearer,
        statusOnly: true,
      },
      // Signed URLs are the full path's, in every spelling; only the service's own spelling is accepted.
      { name: 'a signed URL', servedLean: false, status: 200, url: () => signedUrl, headers: () => ({}) },
      {
        name: "a signed URL with the signature's name percent-encoded, and an API key",
        servedLean: false,
        status: 401,
        url: () => signedUrl.replace('&sig=', '&%73ig='),
        headers: bearer,
      },
      {
        name: 'a signed URL with a character of the signature percent-encoded',
        servedLean: false,
        status: 401,
        url: () => `${signedUrl.slice(0, -1)}%${signedUrl.charCodeAt(signedUrl.length - 1).toString(16)}`,
        headers: () => ({}),
      },
      {
        name: "kid's name percent-encoded, no sig, and an API key",
        servedLean: false,
        status: 401,
        url: () => signedUrl.replace('&kid=', '&%6Bid=').replace(/&sig=.*$/, ''),
        headers: bearer,
      },
      { name: 'NUL in a query value', servedLean: false, status: 400, url: () => `${recipeUrl}&format=png%00`, headers: bearer },
      { name: 'a parameter given twice', servedLean: false, status: 400, url: () => `${recipeUrl}&w=20&w=30`, headers: bearer },
      { name: 'a width over the limit', servedLean: false, status: 400, url: () => `${recipeUrl}&w=99999`, headers: bearer },
      {
        name: 'a hash that does not match the recipe',
        servedLean: false,
        status: 400,
        url: () => recipeUrl.replace(/render\/(.)/, (_, c: string) => `render/${c === '0' ? '1' : '0'}`),
        headers: bearer,
      },
      ...(setup.hosted
        ? [
            {
              name: 'a session from our own pages (same-origin)',
              servedLean: true,
              status: 200,
              headers: () => ({ Cookie: session, 'Sec-Fetch-Site': 'same-origin' }),
            },
            // Refused by the cookie-origin step, which both paths run in the same place (request-steps.ts).
            {
              name: 'a session from another site',
              servedLean: true,
              status: 403,
              headers: () => ({ Cookie: session, 'Sec-Fetch-Site': 'cross-site' }),
            },
            { name: 'a session without fetch metadata', servedLean: true, status: 403, headers: () => ({ Cookie: session }) },
            {
              name: 'a session cookie that is not valid',
              servedLean: false,
              status: 401,
              headers: () => ({ Cookie: `${SESSION_COOKIE}=forged.value`, 'Sec-Fetch-Site': 'same-origin' }),
            },
          ]
        : [
            {
              name: 'the local gateway: a same-origin loopback request',
              servedLean: true,
              status: 200,
              headers: () => ({ 'Sec-Fetch-Site': 'same-origin' }),
            },
            {
              name: 'the local gateway refuses a cross-site request',
              servedLean: false,
              status: 401,
              headers: () => ({ 'Sec-Fetch-Site': 'cross-site' }),
            },
          ]),
    ];

    test('one list of request steps: the lean path is the step just before the operations router', () => {
      const leanSteps = (lean.app as unknown as { steps: string[] }).steps;
      const fullSteps = (full.app as unknown as { steps: string[] }).steps;
      assert.deepEqual(leanSteps.slice(-2), ['lean path', 'operations']);
      assert.deepEqual(
        leanSteps.filter((step) => step !== 'lean path'),
        fullSteps,
        'every other step runs in front of both paths, in the same order',
      );
    });

    for (const c of cases) {
      test(c.name, async () => {
        const answers: Answer[] = [];
        const sameUrl = c.url?.() ?? recipeUrl;
        for (const app of [lean, full]) {
          const key = await app.runtime.deps.services.keys.create(workspace.id, c.name.slice(0, 40));
          const headers = await c.headers(key, app);
          const url = c.statusOnly ? (c.url?.() ?? recipeUrl) : sameUrl;
          for (let i = 0; i < (c.before ?? 0); i++) await ask(app, 'get', url, headers);
          answers.push(await ask(app, c.method ?? 'get', url, headers));
        }
        const [viaLean, viaFull] = answers;
        assert.equal(viaLean.status, c.status, JSON.stringify(viaLean));
        assert.equal(viaFull.log.path, undefined, 'LEAN_HIT_PATH=0 answers everything on the full path');
        assert.equal(viaLean.log.path, c.servedLean ? 'lean' : undefined, 'which path answered');
        if (c.statusOnly) {
          assert.equal(viaFull.status, c.status);
          assert.equal(viaLean.headers['x-service-cache'], viaFull.headers['x-service-cache']);
          return;
        }
        assert.deepEqual(viaLean.headers, viaFull.headers);
        assert.equal(viaLean.status, viaFull.status);
        assert.equal(viaLean.body, viaFull.body);
        const { path: _path, responseTime: _a, time: _b, ...leanLog } = viaLean.log;
        const { responseTime: _c, time: _d, ...fullLog } = viaFull.log;
        const withoutId = (entry: Record<string, unknown>) => ({ ...entry, req: { ...(entry.req as object), id: undefined } });
        assert.deepEqual(withoutId(leanLog), withoutId(fullLog), 'the same log line');
        assert.doesNotMatch(JSON.stringify(viaLean.log), /Bearer|svc_/, 'no credential in the log');
      });
    }
  });
}
