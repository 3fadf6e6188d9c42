// Signed public recipe URLs through HTTP: URL signing keys (create, list, revoke, sign) on both
// databases and in hosted mode; a signed URL renders with no Authorization and no cookie, publicly
// cacheable; any tampering is 401 with nothing rendered or charged; expiry (an injected clock) is
// 410; a key's monthly limit is 402 signing_key_limit_reached (counted in
// render_service_signed_url_refusals_total); revocation reaches a second process; identical signed
// misses in flight at once are charged once; the per-address and per-signing-key rate limits answer 429.
// Every answer to a signed URL is public (docs/embedding.md, "Who may read a signed answer"): the
// same with no Origin and a listed one (`Access-Control-Allow-Origin: *`, `Vary: Origin`), nothing of
// the request or client on what a shared cache may keep, and nothing about the workspace in a problem.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type supertest from 'supertest';
import type { Runtime } from '../../src/compose.ts';
import type { ResolvedRecipe } from '../../src/engine/recipe.ts';
import { startMetricsServer } from '../../src/http/metrics.server.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { MeteredRenderService } from '../../src/services/metered-render.service.ts';
import type { RenderCall } from '../../src/services/render.service.ts';
import { arrivalGate } from '../support/arrival-gate.ts';
import { ENGINES, postgresAvailable } from '../support/black-box/databases.ts';
import { HOSTED_ENV, startTestApp, TEST_LOCAL_KEY, type TestApp, workspaceKey } from '../support/harness.ts';
import { signTarget, signingKeyOf } from '../../src/lib/url-signature.ts';
import { sha256Hex } from '../../src/lib/hashing.ts';

/** An origin the test apps list in ALLOWED_ORIGINS: a customer's site that embeds signed images. */
const LISTED = 'https://blog.example.test';

/** The path and query of an absolute URL, exactly as the service built them. */
const targetOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};
const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });
const recipe = (seed: number, extra: Record<string, unknown> = {}) => ({
  slug: 'blob',
  seed,
  size: { width: 64, height: 64 },
  format: 'png',
  ...extra,
});

/** A clock the test moves (expiry), starting at the wall time. */
function movableClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return { now: () => Date.now() + offset, advance: (ms) => void (offset += ms) };
}

async function createSigningKey(t: TestApp, body: Record<string, unknown> = { label: 'embeds' }, headers?: Record<string, string>) {
  const res = await t.request('post', '/v1/url-signing-keys', { body, ...(headers ? { headers, auth: false } : {}) });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; secret: string; prefix: string; maxAgeSeconds: number };
}

async function signedTarget(t: TestApp, keyId: string, body: Record<string, unknown>, headers?: Record<string, string>): Promise<string> {
  const res = await t.request('post', `/v1/url-signing-keys/${keyId}/sign`, { body, ...(headers ? { headers, auth: false } : {}) });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return targetOf(res.body.url);
}

/** Whether the recipe behind a signed target was ever rendered: a bearer request of the same URL, unsigned, says MISS or HIT. */
async function wasRendered(t: TestApp, target: string): Promise<boolean> {
  const unsigned = target.replace(/&kid=.*$/, '');
  const res = await t.request('get', unsigned);
  assert.equal(res.status, 200);
  return res.headers['x-service-cache'] === 'HIT';
}

const METRICS_TOKEN = 'metrics-token-for-tests-0123';
const REFUSALS = 'render_service_signed_url_refusals_total';

/**
 * Scrapes an app's metrics over HTTP, as test/integration/metrics.test.ts does: `refusals(reason)` is
 * the value of render_service_signed_url_refusals_total{reason} now (0 when never counted).
 */
async function metricsOf(t: TestApp): Promise<{ refusals(reason: string): Promise<number>; close(): void }> {
  const server: Server = await startMetricsServer(t.runtime.metrics, { port: 0, host: '127.0.0.1', token: METRICS_TOKEN });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
  return {
    async refusals(reason) {
      const res = await fetch(url, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
      assert.equal(res.status, 200);
      const line = (await res.text()).split('\n').find((l) => l.startsWith(`${REFUSALS}{reason="${reason}"} `));
      return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
    },
    close: () => void server.close(),
  };
}

/** Parses `RateLimit: "<policy>";r=<n>;t=<n>`. */
function rateLimitOf(res: supertest.Response): { policy: string; r: number; t: number } {
  const m = /^"([a-z-]+)";r=(\d+);t=(\d+)$/.exec(String(res.headers.ratelimit));
  assert.ok(m, `RateLimit header on ${res.status}: ${res.headers.ratelimit}`);
  return { policy: m[1]!, r: Number(m[2]), t: Number(m[3]) };
}

/** The headers of a public answer: the same for every accepted Origin, usable cross-origin, nothing of one request or client. */
function assertPublicAnswer(res: supertest.Response): void {
  assert.equal(res.headers['access-control-allow-origin'], '*', `${res.status} ${JSON.stringify(res.headers)}`);
  assert.equal(res.headers['access-control-allow-credentials'], undefined);
  assert.equal(res.headers.vary, 'Origin');
  assert.equal(res.headers['cross-origin-resource-policy'], 'cross-origin');
  if (res.status === 200 || res.status === 304)
    for (const name of ['x-request-id', 'ratelimit', 'ratelimit-policy'])
      assert.equal(res.headers[name], undefined, `${name} on a ${res.status} a shared cache may keep`);
}

/** Members of a problem that are about the request itself (by code, those some codes add); anything else could be about the workspace. */
const URL_PROBLEM_MEMBERS = new Set(['type', 'title', 'status', 'code', 'detail', 'instance', 'issues']);
const URL_PROBLEM_EXTRAS: Record<string, string[]> = {
  recipe_outdated: ['pinnedVersion', 'currentVersion'],
  // The engine's limit, the same for everyone.
  render_too_large: ['limit', 'requested'],
};

/**
 * A problem answered to a signed URL (anyone who has seen the URL): a public answer that says nothing
 * about the workspace — no members beyond URL_PROBLEM_MEMBERS, none of `secrets` (workspace id and
 * name, key labels) in its body or headers, and for a 402 no figure at all (cost, balance, limit, spending).
 */
function assertNothingAboutTheWorkspace(res: supertest.Response, status: number, code: string, secrets: string[]): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
  assert.equal(res.body.code, code);
  assertPublicAnswer(res);
  const extra = Object.keys(res.body).filter((k) => !URL_PROBLEM_MEMBERS.has(k) && !URL_PROBLEM_EXTRAS[code]?.includes(k));
  assert.deepEqual(extra, [], `${code}: ${JSON.stringify(res.body)}`);
  const said = JSON.stringify(res.body) + JSON.stringify(res.headers);
  for (const secret of secrets) assert.ok(!said.includes(secret), `${code} names ${secret}: ${said}`);
  assert.doesNotMatch(res.body.detail ?? '', /balance|\bavailable\b|\breserved\b|\bspent\b|\bcosts?\b|\d+ credits?/i, code);
  if (status === 402) assert.doesNotMatch(res.body.detail, /\d/, `${code}: no figure in ${res.body.detail}`);
}

/** 429 rate_limited problem+json from `policy`, with Retry-After and the RateLimit headers. */
function assertRateLimited(res: supertest.Response, policy: 'signed-address' | 'signing-key', quota: number, detail: RegExp): void {
  assert.equal(res.status, 429, JSON.stringify(res.body));
  assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
  assert.equal(res.body.code, 'rate_limited');
  assert.match(res.body.detail, detail);
  const retryAfter = Number(res.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${res.headers['retry-after']}`);
  assert.ok(String(res.headers['ratelimit-policy']).split(', ').includes(`"${policy}";q=${quota};w=60`), res.headers['ratelimit-policy']);
  const limit = rateLimitOf(res);
  assert.deepEqual({ policy: limit.policy, r: limit.r }, { policy, r: 0 });
  assert.ok(limit.t >= 1 && limit.t <= 60);
}

/**
 * The app's metered render service rebuilt on its own real services, with a gate: the first signed
 * miss's spend (the leader's charge, before its transaction opens) waits until `arrivals` cache
 * lookups have answered, so every identical request is in flight, waiting on the leader, before it
 * pays (an arrivalGate, as render-coalescing.test.ts has at the credit reservation). Swapped into
 * the app for one test; production code has no hook for it.
 */
function gatedSignedRenders(services: Runtime['deps']['services'], arrivals: number) {
  const { render, credits, usage, urlSigningKeys } = services;
  const gate = arrivalGate(render, arrivals);
  let renders = 0;
  const metered = new MeteredRenderService({
    render: {
      ...gate.lookups,
      renderUncached(resolved: ResolvedRecipe, call?: RenderCall) {
        renders++;
        return render.renderUncached(resolved, call);
      },
    },
    credits,
    usage,
    signingKeys: {
      spend: (keyId, cost, reserve) => gate.holdFirst(() => urlSigningKeys.spend(keyId, cost, reserve)),
      giveBack: (keyId, month, cost) => urlSigningKeys.giveBack(keyId, month, cost),
    },
  });
  return { metered, leading: gate.leading, spends: gate.charges, renders: () => renders };
}

/** `n` identical signed GETs, the first alone until it is about to pay, then the rest at once; the app renders through `gate` meanwhile. */
async function coalescedSignedRequests(t: TestApp, target: string, n: number) {
  const gate = gatedSignedRenders(t.runtime.deps.services, n);
  const real = t.runtime.deps.services.meteredRender;
  t.runtime.deps.services.meteredRender = gate.metered;
  try {
    const first = t.request('get', target, { auth: false });
    await Promise.race([gate.leading, first]);
    const responses = await Promise.all([first, ...Array.from({ length: n - 1 }, () => t.request('get', target, { auth: false }))]);
    return { responses, spends: gate.spends(), renders: gate.renders() };
  } finally {
    t.runtime.deps.services.meteredRender = real;
  }
}

/** One MISS that paid `charged` credits; the others joined it (HIT, X-Service-Coalesced: true) at 0 credits, with its bytes. */
function assertCoalesced(responses: supertest.Response[], charged: number): void {
  for (const res of responses) assert.equal(res.status, 200, JSON.stringify(res.body));
  const caches = responses.map((r) => `${r.headers['x-service-cache']}${r.headers['x-service-coalesced'] === 'true' ? ' coalesced' : ''}`);
  assert.equal(caches.filter((c) => c === 'MISS').length, 1, caches.join(', '));
  assert.equal(caches.filter((c) => c === 'HIT coalesced').length, responses.length - 1, caches.join(', '));
  const credits = responses.map((r) => Number(r.headers['x-service-credits']));
  assert.equal(credits[caches.indexOf('MISS')], charged);
  assert.equal(
    credits.reduce((a, c) => a + c, 0),
    charged,
    credits.join(', '),
  );
  assert.ok(responses.every((r) => r.body.equals(responses[0]!.body)));
}

for (const engine of ENGINES) {
  describe(`URL signing keys on ${engine} (local mode)`, () => {
    let t: TestApp;
    let second: TestApp;
    let metrics: Awaited<ReturnType<typeof metricsOf>>;
    const clock = movableClock();
    before(async () => {
      t = await startTestApp(engine, { compose: { clock }, env: { ALLOWED_ORIGINS: LISTED } });
      // A second API process on the same database.
      second = await startTestApp(engine, { database: t.database });
      metrics = await metricsOf(t);
    });
    after(async () => {
      metrics?.close();
      await second?.close();
      await t?.close();
    });

    test('createUrlSigningKey: 201 with the secret once; only SHA-256 of it is stored; listed with its spending', async () => {
      const key = await createSigningKey(t, { label: 'blog', monthlyCreditLimit: 50, maxAgeSeconds: 3600 });
      assert.match(key.id, /^usk_[A-Za-z0-9_-]{16}$/);
      assert.match(key.secret, /^svc_sign_[A-Za-z0-9_-]{43}$/);
      assert.ok(key.secret.startsWith(key.prefix));
      const row = await t.runtime.db('url_signing_keys').where({ id: key.id }).first();
      assert.equal(row.signing_key, createHash('sha256').update(key.secret).digest('hex'));
      assert.ok(!JSON.stringify(row).includes(key.secret));
      const list = await t.request('get', '/v1/url-signing-keys');
      assert.equal(list.status, 200);
      assert.equal(list.headers['cache-control'], 'no-store');
      const listed = list.body.find((k: { id: string }) => k.id === key.id);
      assert.deepEqual(
        { ...listed, createdAt: undefined },
        {
          id: key.id,
          label: 'blog',
          prefix: key.prefix,
          monthlyCreditLimit: 50,
          maxAgeSeconds: 3600,
          creditsSpentThisMonth: 0,
          createdAt: undefined,
          lastUsedAt: null,
          revoked: false,
          revokedAt: null,
        },
      );
      assert.ok(!JSON.stringify(list.body).includes('secret'));
      assert.equal((await t.request('get', '/v1/url-signing-keys', { headers: { 'If-None-Match': '*' } })).status, 304);
    });

    test('createUrlSigningKey: 400 names the field', async () => {
      for (const [body, field] of [
        [{}, 'body'],
        [{ label: '' }, 'body.label'],
        [{ label: 'x'.repeat(101) }, 'body.label'],
        [{ label: 'x', maxAgeSeconds: 59 }, 'body.maxAgeSeconds'],
        [{ label: 'x', monthlyCreditLimit: -1 }, 'body.monthlyCreditLimit'],
      ] as const) {
        const res = await t.request('post', '/v1/url-signing-keys', { body });
        assert.equal(res.status, 400);
        assert.ok(
          res.body.issues.some((i: { path: string }) => i.path.startsWith(field)),
          JSON.stringify(res.body.issues),
        );
      }
    });

    test('a signed URL renders with no Authorization and no cookie: public, immutable, cross-origin, with its ETag; 304 when revalidated', async () => {
      const key = await createSigningKey(t, { label: 'og', maxAgeSeconds: 600 });
      const target = await signedTarget(t, key.id, recipe(101));
      assert.match(target, /^\/v1\/render\/[0-9a-f]{64}\?r=[A-Za-z0-9_-]+&kid=usk_[^&]+&sig=[A-Za-z0-9_-]{43}$/);
      const res = await t.request('get', target, { auth: false });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.headers['content-type'], 'image/png');
      assert.equal(res.headers['cache-control'], 'public, max-age=600, immutable');
      assert.equal(res.headers['cross-origin-resource-policy'], 'cross-origin');
      assertPublicAnswer(res);
      assert.match(res.headers.etag, /^"[0-9a-f]{64}"$/);
      assert.equal(res.headers['x-service-cache'], 'MISS');
      const again = await t.request('get', target, { auth: false, headers: { 'If-None-Match': res.headers.etag } });
      assert.equal(again.status, 304);
      assert.equal(again.headers['cache-control'], 'public, max-age=600, immutable');
      assertPublicAnswer(again);
      // A listed Origin (<img crossorigin>, fetch() on the customer's site) and a client's own request id get the very same answer.
      const { date: _a, ...withoutOrigin } = (await t.request('get', target, { auth: false })).headers;
      const fromSite = await t.request('get', target, { auth: false, headers: { Origin: LISTED, 'X-Request-Id': 'chosen-by-a-client' } });
      const { date: _b, ...withOrigin } = fromSite.headers;
      assert.deepEqual(withOrigin, withoutOrigin);
      assert.ok(fromSite.body.equals(res.body));
      const revalidated = await t.request('get', target, { auth: false, headers: { Origin: LISTED, 'If-None-Match': res.headers.etag } });
      assert.equal(revalidated.status, 304);
      assertPublicAnswer(revalidated);
      // The signature alone decides: an Authorization header (even a bad one) is ignored.
      const withHeader = await t.request('get', target, { auth: false, headers: { Authorization: 'Bearer nonsense-nonsense' } });
      assert.equal(withHeader.status, 200);
      assert.equal(withHeader.headers['x-service-cache'], 'HIT');
      // A bearer render keeps today's private headers.
      const unsigned = await t.request('get', target.replace(/&kid=.*$/, ''));
      assert.equal(unsigned.headers['cache-control'], 'private, max-age=31536000, immutable');
      assert.equal(unsigned.headers['cross-origin-resource-policy'], 'same-origin');
      assert.equal(unsigned.headers.vary, 'Authorization, Cookie');
      // Usage records signed renders under the signing key.
      await t.runtime.deps.services.usage.flush();
      const rows = await t.runtime.db('usage_records').where({ key_id: key.id });
      assert.ok(rows.length > 0, 'a usage row for the signing key');
      // lastUsedAt is recorded.
      const listed = (await t.request('get', '/v1/url-signing-keys')).body.find((k: { id: string }) => k.id === key.id);
      assert.notEqual(listed.lastUsedAt, null);
    });

    test('the path form with the extension renders; an extension that is not the format is 400 naming path.recipeHash', async () => {
      const key = await createSigningKey(t);
      const target = await signedTarget(t, key.id, { ...recipe(102), extension: true, expiresInSeconds: 3600 });
      assert.match(target, /^\/v1\/render\/[0-9a-f]{64}\.png\?r=[^&]+&kid=[^&]+&exp=\d+&sig=/);
      const res = await t.request('get', target, { auth: false });
      assert.equal(res.status, 200);
      assert.ok(Number(/max-age=(\d+)/.exec(res.headers['cache-control'])![1]) <= 3600);
      const hashPath = target.slice(0, target.indexOf('?')).replace('.png', '.webp');
      const wrong = await t.request('get', `${hashPath}${target.slice(target.indexOf('?'), target.indexOf('&kid='))}`);
      assert.equal(wrong.status, 400);
      assert.equal(wrong.body.issues[0].path, 'path.recipeHash');
      // With format= overriding the recipe, the extension must name that format.
      const overridden = await t.request('get', `${hashPath}${target.slice(target.indexOf('?'), target.indexOf('&kid='))}&format=webp`);
      assert.equal(overridden.status, 200);
      assert.equal(overridden.headers['content-type'], 'image/webp');
    });

    test('every tampered, added, removed or reordered parameter is 401 and nothing is rendered', async () => {
      const key = await createSigningKey(t);
      const target = await signedTarget(t, key.id, { ...recipe(103), expiresInSeconds: 3600 });
      const [path, query] = target.split('?') as [string, string];
      const params = query.split('&');
      const [r, kid, exp, sig] = params as [string, string, string, string];
      const otherHash = createHash('sha256').update('x').digest('hex');
      const flip = (s: string) => s.slice(0, -1) + (s.endsWith('A') ? 'B' : 'A');
      const tampered = [
        `${path}?${[flip(r), kid, exp, sig].join('&')}`,
        `/v1/render/${otherHash}?${query}`,
        `${path}?${[r, kid, 'exp=9999999999', sig].join('&')}`,
        `${path}?${[r, 'w=128', kid, exp, sig].join('&')}`,
        `${path}?${[r, kid, exp, sig, 'w=128'].join('&')}`,
        // Not decimal numbers: refused as tampering (401), not as malformed numbers (400).
        `${path}?${[r, 'w=abc', kid, exp, sig].join('&')}`,
        `${path}?${[r, kid, 'exp=abc', sig].join('&')}`,
        `${path}?${[r, kid, 'exp=', sig].join('&')}`,
        `${path}?${[r, kid, sig].join('&')}`,
        `${path}?${[kid, r, exp, sig].join('&')}`,
        `${path}?${[r, kid, exp, flip(sig)].join('&')}`,
        `${path}?${[r, kid, exp, sig, sig].join('&')}`,
        `${path}?${[r, kid, exp, sig.slice(0, 10)].join('&')}`,
        `${path}?${[r, kid, exp].join('&')}`,
        `${path}?${[r, exp].join('&')}`,
        `${path}?${[r, 'kid=usk_nobodyshere00000', exp, sig].join('&')}`,
        `${path}?${[r, exp, sig].join('&')}`,
        `${path}.png?${query}`,
      ];
      for (const url of tampered) {
        const res = await t.request('get', url, { auth: false });
        assert.equal(res.status, 401, `${url}: ${res.status} ${res.body?.code}`);
        assert.equal(res.body.code, 'unauthorized');
        assert.ok(!res.body.detail.includes(sig.slice(4)), 'the detail never echoes the signature');
        // The page that embeds it sees why (CORS and CORP let it), not another site's blocked answer.
        assertPublicAnswer(res);
      }
      assert.equal(await wasRendered(t, target), false, 'no refused request rendered');
    });

    test('one spelling per signed URL: any name or value percent-encoded (sig, kid, exp, r) is 401, even with an API key; nothing is rendered', async () => {
      const key = await createSigningKey(t);
      const target = await signedTarget(t, key.id, { ...recipe(120), expiresInSeconds: 3600, extension: true });
      const [path, query] = target.split('?') as [string, string];
      const params = query.split('&');
      const encoded = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
      const at = (i: number, param: string) => `${path}?${[...params.slice(0, i), param, ...params.slice(i + 1)].join('&')}`;
      const sig = params.at(-1)!.slice('sig='.length);
      const respelled = [
        // The signature's name and value: they decode to the same parameter and are not part of the signed message.
        target.replace('&sig=', '&%73ig='),
        target.replace('&sig=', '&si%67='),
        `${target.slice(0, -sig.length)}${encoded(sig[0]!)}${sig.slice(1)}`,
        `${target.slice(0, -1)}${encoded(sig.at(-1)!).toLowerCase()}`,
        // Every other parameter's name and value: a key holder could sign these, but the service writes none of them.
        ...params
          .slice(0, -1)
          .flatMap((p, i) => [at(i, `${encoded(p[0]!)}${p.slice(1)}`), at(i, `${p.slice(0, -1)}${encoded(p.at(-1)!)}`)]),
        `${path.slice(0, -1)}${encoded(path.at(-1)!)}?${query}`,
      ];
      for (const url of respelled) {
        for (const headers of [{}, bearer(TEST_LOCAL_KEY)]) {
          const res = await t.request('get', url, { auth: false, headers });
          assert.equal(res.status, 401, `${url.slice(-120)}: ${res.status} ${res.body?.code}`);
          assert.equal(res.body.code, 'unauthorized');
          assert.match(res.body.detail, /percent-encoded/);
        }
      }
      assert.equal(await wasRendered(t, target), false, 'no respelled URL rendered');
      assert.equal((await t.request('get', target, { auth: false })).status, 200, 'the one spelling renders');
    });

    test('an unknown or revoked kid is 401; a revoked key signs nothing (409); the revocation reaches a second process', async () => {
      const key = await createSigningKey(t);
      const target = await signedTarget(t, key.id, recipe(104));
      assert.equal((await second.request('get', target, { auth: false })).status, 200);
      const revoked = await t.request('delete', `/v1/url-signing-keys/${key.id}`);
      assert.equal(revoked.status, 200);
      assert.equal(revoked.body.revoked, true);
      // Signed requests read their key's row: the second process refuses at once, with nothing to wait for.
      for (const app of [t, second]) {
        const res = await app.request('get', target, { auth: false });
        assert.equal(res.status, 401);
        assert.match(res.body.detail, /revoked/);
      }
      const sign = await t.request('post', `/v1/url-signing-keys/${key.id}/sign`, { body: recipe(105) });
      assert.equal(sign.status, 409);
      assert.equal(sign.body.code, 'conflict');
    });

    test("another workspace's key is 404 on DELETE and sign; unknown generators and invalid recipes are refused as generate refuses them", async () => {
      const otherSecret = await workspaceKey(t, { id: 'ws_other_signing', name: 'Other' }, 'other');
      const theirs = await createSigningKey(t, { label: 'theirs' }, bearer(otherSecret));
      const del = await t.request('delete', `/v1/url-signing-keys/${theirs.id}`);
      assert.equal(del.status, 404);
      assert.equal(del.body.code, 'not_found');
      const sign = await t.request('post', `/v1/url-signing-keys/${theirs.id}/sign`, { body: recipe(106) });
      assert.equal(sign.status, 404);
      assert.equal(sign.body.code, 'not_found');
      const mine = await createSigningKey(t);
      const unknown = await t.request('post', `/v1/url-signing-keys/${mine.id}/sign`, { body: { slug: 'no-such-generator' } });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.code, 'generator_not_found');
      for (const [body, field] of [
        [{ ...recipe(107), size: { width: 8, height: 64 } }, 'body.size.width'],
        [{ ...recipe(107), format: 'gif' }, 'body.format'],
        [{ seed: 1 }, 'body'],
        [{ ...recipe(107), expiresInSeconds: 10, expiresAt: '2030-01-01T00:00:00Z' }, 'body.expiresInSeconds'],
        [{ ...recipe(107), expiresAt: '2001-01-01T00:00:00Z' }, 'body.expiresAt'],
      ] as const) {
        const res = await t.request('post', `/v1/url-signing-keys/${mine.id}/sign`, { body });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.ok(
          (res.body.issues ?? []).some((i: { path: string }) => i.path.startsWith(field)),
          `${field}: ${JSON.stringify(res.body)}`,
        );
      }
      // Refused by the contract's schema (`not: { required: [expiresAt, expiresInSeconds] }`), naming the field.
      const both = await t.request('post', `/v1/url-signing-keys/${mine.id}/sign`, {
        body: { ...recipe(107), expiresInSeconds: 10, expiresAt: '2030-01-01T00:00:00Z' },
      });
      assert.deepEqual(both.body.issues, [{ path: 'body.expiresInSeconds', message: 'must not be sent with expiresAt', keyword: 'not' }]);
    });

    test('a signed URL past its exp is 410 signed_url_expired (the clock moved, no sleeping)', async () => {
      const key = await createSigningKey(t);
      const target = await signedTarget(t, key.id, { ...recipe(108), expiresInSeconds: 120 });
      assert.equal((await t.request('get', target, { auth: false })).status, 200);
      clock.advance(121_000);
      const res = await t.request('get', target, { auth: false, headers: { Origin: LISTED } });
      assert.equal(res.status, 410);
      assert.equal(res.body.code, 'signed_url_expired');
      assertPublicAnswer(res);
    });

    test('an unknown Origin is 403 origin_denied, signed or not, and the page that asked can read why', async () => {
      const key = await createSigningKey(t);
      const target = await signedTarget(t, key.id, recipe(109));
      const res = await t.request('get', target, { auth: false, headers: { Origin: 'https://evil.example' } });
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 'origin_denied');
      assert.equal(res.headers['cache-control'], 'no-store');
      assertPublicAnswer(res);
      assert.equal(await wasRendered(t, target), false, 'refused before anything rendered');
    });

    test("local mode counts what a signed miss would cost against the key's monthly limit; hits count nothing", async () => {
      const key = await createSigningKey(t, { label: 'capped', monthlyCreditLimit: 1 });
      const first = await signedTarget(t, key.id, recipe(110));
      const secondRecipe = await signedTarget(t, key.id, recipe(111));
      assert.equal((await t.request('get', first, { auth: false })).status, 200);
      // A hit costs nothing and does not count.
      for (let i = 0; i < 3; i++) assert.equal((await t.request('get', first, { auth: false })).headers['x-service-cache'], 'HIT');
      const limitRefusals = await metrics.refusals('limit');
      const over = await t.request('get', secondRecipe, { auth: false });
      // Whoever holds the URL learns that the image is unavailable and why, not the key's limit or spending.
      assertNothingAboutTheWorkspace(over, 402, 'signing_key_limit_reached', ['capped']);
      assert.match(over.body.detail, /unavailable/);
      // Operators see it: render_service_signed_url_refusals_total{reason="limit"} counts the 402.
      assert.equal(await metrics.refusals('limit'), limitRefusals + 1);
      assert.equal(await wasRendered(t, secondRecipe), false);
      const listed = (await t.request('get', '/v1/url-signing-keys')).body.find((k: { id: string }) => k.id === key.id);
      assert.equal(listed.creditsSpentThisMonth, 1);
    });

    test('identical signed misses in flight at once count once: one MISS, the others joined at no cost, within a limit of one render', async () => {
      // A limit of one render: were every request counted, all but one would be 402.
      const key = await createSigningKey(t, { label: 'coalesced', monthlyCreditLimit: 1 });
      const target = await signedTarget(t, key.id, recipe(112));
      const { responses, spends, renders } = await coalescedSignedRequests(t, target, 3);
      // Local mode charges nothing (X-Service-Credits 0) but counts the render against the key.
      assertCoalesced(responses, 0);
      assert.deepEqual({ spends, renders }, { spends: 1, renders: 1 });
      const listed = (await t.request('get', '/v1/url-signing-keys')).body.find((k: { id: string }) => k.id === key.id);
      assert.equal(listed.creditsSpentThisMonth, 1);
    });

    if (engine === 'sqlite')
      test('409 key_limit_reached past 100 active URL signing keys', async () => {
        const ws = 'ws_signing_limit';
        const secret = await workspaceKey(t, { id: ws, name: 'Limit' }, 'k');
        for (let i = 0; i < 100; i++) await t.runtime.deps.services.urlSigningKeys.create(ws, { label: `k${i}` });
        const over = await t.request('post', '/v1/url-signing-keys', { body: { label: 'one more' }, headers: bearer(secret), auth: false });
        assert.equal(over.status, 409);
        assert.equal(over.body.code, 'key_limit_reached');
      });
  });
}

const SIGNED_ADDRESS_LIMIT = 4;
const SIGNING_KEY_MISS_LIMIT = 2;

for (const engine of ENGINES) {
  describe(`signed URL rate limits on ${engine}: per client address, and per signing key for misses`, () => {
    let t: TestApp;
    let metrics: Awaited<ReturnType<typeof metricsOf>>;
    let address = 0;
    /** A client address of its own (TRUST_PROXY believes the loopback proxy's X-Forwarded-For): a fresh signed-address bucket. */
    const newAddress = () => `203.0.113.${++address}`;
    const from = (ip: string) => ({ auth: false, headers: { 'X-Forwarded-For': ip } });
    before(async () => {
      t = await startTestApp(engine, {
        env: {
          RATE_LIMIT_SIGNED_ADDRESS_PER_MINUTE: String(SIGNED_ADDRESS_LIMIT),
          RATE_LIMIT_SIGNING_KEY_MISSES_PER_MINUTE: String(SIGNING_KEY_MISS_LIMIT),
          // The workspace policy alone for bearer requests, so its count shows what signed requests took from it.
          RATE_LIMIT_KEY_PER_MINUTE: '0',
          TRUST_PROXY: 'loopback',
        },
      });
      metrics = await metricsOf(t);
    });
    after(async () => {
      metrics?.close();
      await t?.close();
    });
    const spentBy = async (keyId: string) =>
      (await t.request('get', '/v1/url-signing-keys')).body.find((k: { id: string }) => k.id === keyId).creditsSpentThisMonth;

    test(`signed request ${SIGNED_ADDRESS_LIMIT + 1} from one address within a minute is 429 (policy "signed-address"), hits and misses alike; nothing rendered; other addresses and the workspace unaffected`, async () => {
      const key = await createSigningKey(t);
      const [a, b, c] = [
        await signedTarget(t, key.id, recipe(301)),
        await signedTarget(t, key.id, recipe(302)),
        await signedTarget(t, key.id, recipe(303)),
      ];
      const other = await createSigningKey(t, { label: 'other' });
      const cViaOther = await signedTarget(t, other.id, recipe(303));
      const workspaceBefore = rateLimitOf(await t.request('get', '/v1/me'));
      assert.equal(workspaceBefore.policy, 'workspace');
      const ip = newAddress();
      const caches: string[] = [];
      for (const [i, target] of [a, a, a, b].entries()) {
        const res = await t.request('get', target, from(ip));
        assert.equal(res.status, 200, JSON.stringify(res.body));
        caches.push(res.headers['x-service-cache']);
        // A shared cache may keep the answer and hand it to anyone: it carries no client's count.
        assert.equal(res.headers['ratelimit-policy'], undefined, `request ${i}`);
        assert.equal(res.headers.ratelimit, undefined, `request ${i}`);
      }
      assert.deepEqual(caches, ['MISS', 'HIT', 'HIT', 'MISS']);
      const rateLimited = await metrics.refusals('rate_limited');
      const refused = await t.request('get', c, from(ip));
      assertRateLimited(refused, 'signed-address', SIGNED_ADDRESS_LIMIT, /from this address/);
      assertNothingAboutTheWorkspace(refused, 429, 'rate_limited', ['embeds']);
      assert.equal(await metrics.refusals('rate_limited'), rateLimited + 1);
      // A hit is refused too: the address limit counts every signed request.
      assertRateLimited(await t.request('get', a, from(ip)), 'signed-address', SIGNED_ADDRESS_LIMIT, /from this address/);
      // The limit is the address's: another one renders c (a MISS: the refusal rendered nothing), through a
      // second key, as this one has used its misses of the minute.
      const elsewhere = await t.request('get', cViaOther, from(newAddress()));
      assert.equal(elsewhere.status, 200, JSON.stringify(elsewhere.body));
      assert.equal(elsewhere.headers['x-service-cache'], 'MISS');
      // Signed requests count against no workspace policy: only the two /v1/me requests did.
      const workspaceAfter = rateLimitOf(await t.request('get', '/v1/me'));
      assert.deepEqual({ ...workspaceAfter, t: 0 }, { policy: 'workspace', r: workspaceBefore.r - 1, t: 0 });
      assert.equal(await spentBy(key.id), 2, 'a and b once each: the refused requests spent nothing');
    });

    test(`signed miss ${SIGNING_KEY_MISS_LIMIT + 1} of a signing key within a minute is 429 (policy "signing-key"); hits do not count and still answer; nothing spent or rendered; another key unaffected`, async () => {
      const key = await createSigningKey(t);
      const [a, b, c] = [
        await signedTarget(t, key.id, recipe(311)),
        await signedTarget(t, key.id, recipe(312)),
        await signedTarget(t, key.id, recipe(313)),
      ];
      // Each request from an address of its own: the address limit stays out of the way.
      const get = (target: string) => t.request('get', target, from(newAddress()));
      const caches: string[] = [];
      for (const target of [a, a, a, a, b]) {
        const res = await get(target);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        caches.push(res.headers['x-service-cache']);
      }
      // Three hits between the two misses: had they counted, b would have been refused.
      assert.deepEqual(caches, ['MISS', 'HIT', 'HIT', 'HIT', 'MISS']);
      const rateLimited = await metrics.refusals('rate_limited');
      const refused = await get(c);
      assertRateLimited(refused, 'signing-key', SIGNING_KEY_MISS_LIMIT, /unavailable for now: the signing key of this URL/);
      assertNothingAboutTheWorkspace(refused, 429, 'rate_limited', ['embeds']);
      assert.doesNotMatch(refused.body.detail, new RegExp(`\\b${SIGNING_KEY_MISS_LIMIT}\\b`), "not the key's quota");
      assert.equal(await metrics.refusals('rate_limited'), rateLimited + 1);
      assert.equal(await spentBy(key.id), 2, 'the refused miss spent nothing of the monthly count');
      // Hits still answer once the key's misses are used up.
      const hit = await get(b);
      assert.equal(hit.status, 200);
      assert.equal(hit.headers['x-service-cache'], 'HIT');
      // The limit is the key's: another key renders the same recipe, a MISS (the refusal rendered nothing).
      const other = await createSigningKey(t, { label: 'other' });
      const viaOther = await get(await signedTarget(t, other.id, recipe(313)));
      assert.equal(viaOther.status, 200);
      assert.equal(viaOther.headers['x-service-cache'], 'MISS');
      // Now cached: the first key's URL is a hit, and hits need no miss budget.
      assert.equal((await get(c)).headers['x-service-cache'], 'HIT');
    });
  });
}

describe('signed URLs in hosted mode (postgres): charged to the workspace, within the key limit', { skip: !postgresAvailable() }, () => {
  let t: TestApp;
  let secret: string;
  let metrics: Awaited<ReturnType<typeof metricsOf>>;
  const ws = 'ws_signed_hosted';
  before(async () => {
    t = await startTestApp('postgres', { env: HOSTED_ENV });
    secret = await workspaceKey(t, { id: ws, name: 'Signed' }, 'owner');
    metrics = await metricsOf(t);
  });
  after(async () => {
    metrics?.close();
    await t?.close();
  });

  const grant = (amount: number, id: string) =>
    t.runtime.deps.services.credits.add({ workspaceId: ws, amount, kind: 'grant', id, reference: id, description: 'test grant' });
  const balance = () => t.runtime.deps.services.credits.balance(ws);

  test('a signed miss is charged to the workspace and the key; a hit costs nothing; tampering charges nothing', async () => {
    await grant(10, 'grant_signed_1');
    const key = await createSigningKey(t, { label: 'hosted' }, bearer(secret));
    const target = await signedTarget(t, key.id, recipe(201), bearer(secret));
    const tampered = target.replace('&kid=', '&w=65&kid=');
    assert.equal((await t.request('get', tampered, { auth: false })).status, 401);
    // Another spelling of the same URL (the signature's name percent-encoded) is refused too: nothing charged.
    assert.equal((await t.request('get', target.replace('&sig=', '&%73ig='), { auth: false })).status, 401);
    assert.deepEqual(await balance(), { credits: 10, reserved: 0, available: 10 });
    const res = await t.request('get', target, { auth: false });
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-service-credits'], '1');
    assert.deepEqual(await balance(), { credits: 9, reserved: 0, available: 9 });
    const hit = await t.request('get', target, { auth: false });
    assert.equal(hit.headers['x-service-credits'], '0');
    assert.equal((await balance()).credits, 9);
    const listed = (await t.request('get', '/v1/url-signing-keys', { headers: bearer(secret), auth: false })).body;
    assert.equal(listed.find((k: { id: string }) => k.id === key.id).creditsSpentThisMonth, 1);
  });

  test('identical signed misses in flight at once are charged once, to the workspace and to the key', async () => {
    await grant(10, 'grant_signed_coalesced');
    const key = await createSigningKey(t, { label: 'coalesced', monthlyCreditLimit: 1 }, bearer(secret));
    const target = await signedTarget(t, key.id, recipe(205), bearer(secret));
    const before = (await balance()).credits;
    const { responses, spends, renders } = await coalescedSignedRequests(t, target, 3);
    assertCoalesced(responses, 1);
    assert.deepEqual({ spends, renders }, { spends: 1, renders: 1 });
    assert.deepEqual(await balance(), { credits: before - 1, reserved: 0, available: before - 1 });
    const listed = (await t.request('get', '/v1/url-signing-keys', { headers: bearer(secret), auth: false })).body;
    assert.equal(listed.find((k: { id: string }) => k.id === key.id).creditsSpentThisMonth, 1);
  });

  test('402 signing_key_limit_reached at the monthly limit, the balance untouched beyond it', async () => {
    const key = await createSigningKey(t, { label: 'capped', monthlyCreditLimit: 1 }, bearer(secret));
    const before = (await balance()).credits;
    assert.equal((await t.request('get', await signedTarget(t, key.id, recipe(202), bearer(secret)), { auth: false })).status, 200);
    const limitRefusals = await metrics.refusals('limit');
    const over = await t.request('get', await signedTarget(t, key.id, recipe(203), bearer(secret)), { auth: false });
    assertNothingAboutTheWorkspace(over, 402, 'signing_key_limit_reached', [ws, 'Signed', 'capped']);
    assert.equal(await metrics.refusals('limit'), limitRefusals + 1);
    // The workspace's own callers read the limit and the spending.
    const listed = (await t.request('get', '/v1/url-signing-keys', { headers: bearer(secret), auth: false })).body;
    assert.deepEqual(
      (({ monthlyCreditLimit, creditsSpentThisMonth }) => ({ monthlyCreditLimit, creditsSpentThisMonth }))(
        listed.find((k: { id: string }) => k.id === key.id),
      ),
      { monthlyCreditLimit: 1, creditsSpentThisMonth: 1 },
    );
    assert.deepEqual(await balance(), { credits: before - 1, reserved: 0, available: before - 1 });
  });

  test('402 insufficient_credits over the balance; the key keeps no spending of it', async () => {
    const key = await createSigningKey(t, { label: 'broke' }, bearer(secret));
    const available = (await balance()).available;
    await t.runtime.deps.services.credits.deduct({ workspaceId: ws, amount: available, reference: 'test', description: 'empty it' });
    const balanceRefusals = await metrics.refusals('balance');
    const limitRefusals = await metrics.refusals('limit');
    const target = await signedTarget(t, key.id, recipe(204), bearer(secret));
    const res = await t.request('get', target, { auth: false });
    // Anyone who has seen the og:image URL: the image is unavailable for lack of credits, no balance.
    assertNothingAboutTheWorkspace(res, 402, 'insufficient_credits', [ws, 'Signed', 'broke']);
    assert.match(res.body.detail, /unavailable.*credits/);
    // The workspace's own key, asking for the same render, is told the cost and the balance.
    const owner = await t.request('get', target.replace(/&kid=.*$/, ''), { headers: bearer(secret), auth: false });
    assert.equal(owner.status, 402);
    assert.equal(owner.body.code, 'insufficient_credits');
    assert.deepEqual(owner.body.balance, { credits: 0, reserved: 0, available: 0 });
    assert.equal(owner.body.cost, 1);
    // Counted as the balance's refusal, not the key's limit.
    assert.deepEqual([await metrics.refusals('balance'), await metrics.refusals('limit')], [balanceRefusals + 1, limitRefusals]);
    const listed = (await t.request('get', '/v1/url-signing-keys', { headers: bearer(secret), auth: false })).body;
    assert.equal(listed.find((k: { id: string }) => k.id === key.id).creditsSpentThisMonth, 0);
    assert.deepEqual(await balance(), { credits: 0, reserved: 0, available: 0 });
  });

  test('every problem a signed URL can get says nothing about the workspace: the image is unavailable, and why in general terms', async () => {
    const label = 'secret-project-label';
    const key = await createSigningKey(t, { label, monthlyCreditLimit: 1_000 }, bearer(secret));
    const signingKey = signingKeyOf(key.secret);
    const sign = (unsigned: string, exp: number | null = null) => signTarget(signingKey, unsigned, key.id, exp);
    const secrets = [ws, 'Signed', label, 'owner'];
    const target = await signedTarget(t, key.id, recipe(206), bearer(secret));
    const unsigned = target.slice(0, target.indexOf('&kid='));
    const [path, query] = unsigned.split('?') as [string, string];
    const encoded = query.slice('r='.length);
    /** The recipe of `target` changed, re-encoded and re-hashed: a URL its own hash accepts. */
    const recipeUrl = (change: Record<string, unknown>) => {
      const canonical = JSON.stringify({ ...JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')), ...change });
      return `/v1/render/${sha256Hex(canonical)}?r=${Buffer.from(canonical).toString('base64url')}`;
    };
    const now = Math.floor(Date.now() / 1000);
    const cases: Array<[string, number, string, Record<string, string>?]> = [
      [sign(`${path}.webp?${query}`), 400, 'validation_failed'],
      [sign(`${unsigned}&w=99999`), 400, 'validation_failed'],
      [sign(`${path}?r=bm90IGpzb24`), 400, 'invalid_recipe'],
      [sign(`/v1/render/${'0'.repeat(64)}?${query}`), 400, 'recipe_hash_mismatch'],
      [target.replace('&kid=', '&w=65&kid='), 401, 'unauthorized'],
      [target.replace(key.id, 'usk_nobodyshere00000'), 401, 'unauthorized'],
      [sign(unsigned, now + 3600).replace(/&exp=\d+/, `&exp=${now + 7200}`), 401, 'unauthorized'],
      [target, 403, 'origin_denied', { Origin: 'https://evil.example' }],
      [sign(recipeUrl({ generator: 'no-such-generator' })), 404, 'generator_not_found'],
      [sign(unsigned, now - 60), 410, 'signed_url_expired'],
      [sign(recipeUrl({ version: '0.0.1' })), 410, 'recipe_outdated'],
      [sign(`${unsigned}&w=4096&h=4096&pr=3`), 413, 'render_too_large'],
    ];
    for (const [url, status, code, headers] of cases) {
      const res = await t.request('get', url, { auth: false, headers: headers ?? {} });
      assertNothingAboutTheWorkspace(res, status, code, secrets);
    }
    // The workspace runs short: 402, and then the key is revoked: 401. (The key's monthly limit and the
    // rate limits: the tests above.)
    const available = (await balance()).available;
    if (available > 0)
      await t.runtime.deps.services.credits.deduct({ workspaceId: ws, amount: available, reference: 'test', description: 'run short' });
    assertNothingAboutTheWorkspace(await t.request('get', target, { auth: false }), 402, 'insufficient_credits', secrets);
    await t.request('delete', `/v1/url-signing-keys/${key.id}`, { headers: bearer(secret), auth: false });
    assertNothingAboutTheWorkspace(await t.request('get', target, { auth: false }), 401, 'unauthorized', secrets);
    assert.equal((await balance()).reserved, 0, 'nothing held by any of them');
  });
});
