// Signed bases (one URL for a whole site) through HTTP, on both databases (their rows, their key's
// counters and revocation): a base fixes a recipe but for its slots; its URL with slot values renders
// exactly what the equivalent signed recipe URL renders (bytes, ETag), publicly cacheable; slot values
// its rules refuse, unknown or repeated parameters and missing slots are 400 naming the parameter,
// with nothing rendered or counted; a tampered signature, extension or base id, a deleted base and a
// revoked key are 401; past its expiry 410; the key's monthly limit 402; the signed-address limit 429.
// Every refusal is a public answer that says nothing about the workspace. A base over a template keeps
// drawing the template version it was made with. Renders are 96×64.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type supertest from 'supertest';
import type { Clock } from '../../src/lib/clock.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { startTestApp, type TestApp, workspaceKey } from '../support/harness.ts';

const LISTED = 'https://blog.example.test';
const SIGNED_ADDRESS_LIMIT = 40;
const SIZE = { width: 96, height: 64 };
const targetOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

function movableClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return { now: () => Date.now() + offset, advance: (ms) => void (offset += ms) };
}

/** The headers of a public answer: the same for every accepted Origin, usable cross-origin, nothing of one request or client. */
function assertPublicAnswer(res: supertest.Response): void {
  assert.equal(res.headers['access-control-allow-origin'], '*', `${res.status} ${JSON.stringify(res.headers)}`);
  assert.equal(res.headers['access-control-allow-credentials'], undefined);
  assert.equal(res.headers.vary, 'Origin');
  assert.equal(res.headers['cross-origin-resource-policy'], 'cross-origin');
  if (res.status === 200 || res.status === 304)
    for (const name of ['x-request-id', 'ratelimit', 'ratelimit-policy']) assert.equal(res.headers[name], undefined, name);
}

/** As url-signing.test.ts's: a problem for whoever holds the URL, public and with nothing about the workspace. */
function assertNothingAboutTheWorkspace(res: supertest.Response, status: number, code: string, secrets: string[]): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
  assert.equal(res.body.code, code);
  assertPublicAnswer(res);
  const extra = Object.keys(res.body).filter((k) => !['type', 'title', 'status', 'code', 'detail', 'instance', 'issues'].includes(k));
  assert.deepEqual(extra, [], JSON.stringify(res.body));
  const said = JSON.stringify(res.body) + JSON.stringify(res.headers);
  for (const secret of secrets) assert.ok(!said.includes(secret), `${code} names ${secret}: ${said}`);
  if (status === 402) assert.doesNotMatch(res.body.detail, /\d/);
}

const issuePaths = (res: supertest.Response) => (res.body.issues ?? []).map((i: { path: string }) => i.path);

for (const engine of ENGINES) {
  describe(`signed bases on ${engine} (local mode)`, () => {
    let t: TestApp;
    const clock = movableClock();
    let address = 0;
    /** A public request from a client address of its own (TRUST_PROXY believes loopback's X-Forwarded-For). */
    const fetchPublic = (target: string, headers: Record<string, string> = {}) =>
      t.request('get', target, { auth: false, headers: { 'X-Forwarded-For': `198.51.100.${++address % 250}`, ...headers } });
    before(async () => {
      t = await startTestApp(engine, {
        compose: { clock },
        env: { ALLOWED_ORIGINS: LISTED, TRUST_PROXY: 'loopback', RATE_LIMIT_SIGNED_ADDRESS_PER_MINUTE: String(SIGNED_ADDRESS_LIMIT) },
      });
    });
    after(async () => t?.close());

    async function signingKey(body: Record<string, unknown> = { label: 'site' }) {
      const res = await t.request('post', '/v1/url-signing-keys', { body });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body as { id: string };
    }
    const spent = async (keyId: string) =>
      (await t.request('get', '/v1/url-signing-keys')).body.find((k: { id: string }) => k.id === keyId).creditsSpentThisMonth as number;
    async function createBase(keyId: string, body: Record<string, unknown>) {
      const res = await t.request('post', `/v1/url-signing-keys/${keyId}/bases`, { body });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body as { id: string; url: string; slug: string; format: string };
    }
    const avatars = (seed: number, extra: Record<string, unknown> = {}) => ({
      slug: 'identicon',
      seed,
      size: SIZE,
      format: 'png',
      params: { grid: 5 },
      slots: { name: { maxLength: 20, pattern: '[A-Za-z ]+' } },
      ...extra,
    });

    test('a base URL with slot values renders what the equivalent signed recipe URL renders: bytes, ETag, public caching; each value its own ETag', async () => {
      const key = await signingKey({ label: 'avatars', maxAgeSeconds: 600 });
      const base = await createBase(key.id, avatars(11));
      assert.match(base.id, /^sb_[A-Za-z0-9_-]{16}$/);
      // Pinned to the version it was made with: a release of the generator does not change its pictures.
      assert.equal(base.slug, `identicon@${(await t.request('get', '/v1/generators/identicon')).body.version}`);
      const target = targetOf(base.url);
      assert.match(target, /^\/v1\/bases\/sb_[A-Za-z0-9_-]{16}\/[A-Za-z0-9_-]{43}\.png$/);
      const res = await fetchPublic(`${target}?name=Ada%20Lovelace`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.headers['content-type'], 'image/png');
      assert.equal(res.headers['cache-control'], 'public, max-age=600, immutable');
      assert.equal(res.headers['x-service-cache'], 'MISS');
      assert.equal(res.headers.etag, `"${res.headers['x-service-recipe-hash']}"`);
      assertPublicAnswer(res);
      // The equivalent signed recipe URL: the same recipe, hash and bytes (now a hit).
      const signed = await t.request('post', `/v1/url-signing-keys/${key.id}/sign`, {
        body: { slug: 'identicon', seed: 11, size: SIZE, format: 'png', params: { grid: 5, name: 'Ada Lovelace' } },
      });
      assert.equal(signed.status, 200);
      assert.equal(signed.body.recipeHash, res.headers['x-service-recipe-hash']);
      const viaSigned = await fetchPublic(targetOf(signed.body.url));
      assert.equal(viaSigned.headers.etag, res.headers.etag);
      assert.equal(viaSigned.headers['x-service-cache'], 'HIT');
      assert.ok(viaSigned.body.equals(res.body));
      // Another value is another recipe.
      const other = await fetchPublic(`${target}?name=Grace%20Hopper`);
      assert.equal(other.status, 200);
      assert.notEqual(other.headers.etag, res.headers.etag);
      // Revalidation, a listed Origin and an Authorization header (ignored) get the same public answer.
      const again = await fetchPublic(`${target}?name=Ada%20Lovelace`, { 'If-None-Match': res.headers.etag, Origin: LISTED });
      assert.equal(again.status, 304);
      assertPublicAnswer(again);
      const withHeader = await fetchPublic(`${target}?name=Ada%20Lovelace`, { Authorization: 'Bearer nonsense-nonsense' });
      assert.equal(withHeader.status, 200);
      assert.equal(withHeader.headers['x-service-cache'], 'HIT');
      assert.equal(await spent(key.id), 2, 'the two misses counted against the key; hits and 304s nothing');
      // Listed with its key, the same URL.
      const list = await t.request('get', `/v1/url-signing-keys/${key.id}/bases`);
      assert.equal(list.status, 200);
      assert.deepEqual(
        list.body.map((b: { id: string; url: string }) => [b.id, b.url]),
        [[base.id, base.url]],
      );
    });

    test("a base over a template pins the template's version: a new version of the template leaves its pictures as they were", async () => {
      const card = (background: string) => ({
        name: 'Post card',
        size: { width: 96, height: 64 },
        variables: { type: 'object', properties: { title: { type: 'string', maxLength: 40, default: 'Hello' } } },
        layers: [
          { id: 'background', kind: 'fill', color: background },
          {
            id: 'title',
            kind: 'text',
            text: '{{title}}',
            box: { x: 6, y: 20, width: 84, height: 24 },
            color: '#ffffff',
            fit: { max: 14, min: 8 },
          },
        ],
      });
      const template = await t.request('post', '/v1/templates', { body: card('#1e3a8a') });
      assert.equal(template.status, 201, JSON.stringify(template.body));
      const key = await signingKey({ label: 'post cards' });
      const base = await createBase(key.id, { slug: template.body.id, format: 'png', slots: { title: { maxLength: 40 } } });
      assert.equal(base.slug, `${template.body.id}@1`);
      const first = await fetchPublic(`${targetOf(base.url)}?title=First%20post`);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.headers['content-type'], 'image/png');
      const updated = await t.request('put', `/v1/templates/${template.body.id}`, { body: card('#7c2d12') });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      const again = await fetchPublic(`${targetOf(base.url)}?title=First%20post`);
      assert.equal(again.status, 200);
      assert.equal(again.headers.etag, first.headers.etag);
      assert.ok(Buffer.from(again.body).equals(Buffer.from(first.body)), 'version 1 of the template, as before');
    });

    test('slot values the rules refuse, unknown or repeated parameters and missing slots are 400 naming the parameter; nothing rendered or counted', async () => {
      const key = await signingKey({ label: 'strict' });
      const base = await createBase(key.id, {
        ...avatars(12),
        slots: { name: { maxLength: 8, pattern: '[a-z]+' }, cellShape: { maxLength: 10, enum: ['square', 'circle'], required: false } },
      });
      const target = targetOf(base.url);
      for (const [query, path] of [
        ['?name=Ada', 'query.name'],
        ['?name=abcdefghi', 'query.name'],
        ['', 'query.name'],
        ['?cellShape=circle', 'query.name'],
        ['?name=ada&cellShape=hexagon', 'query.cellShape'],
        ['?name=ada&grid=6', 'query.grid'],
        ['?name=ada&name=bob', 'query.name'],
      ] as const) {
        const res = await fetchPublic(`${target}${query}`);
        assert.equal(res.status, 400, `${query}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.code, 'validation_failed');
        assert.ok(issuePaths(res).includes(path), `${query}: ${JSON.stringify(res.body.issues)}`);
        assertNothingAboutTheWorkspace(res, 400, 'validation_failed', ['strict']);
      }
      assert.equal(await spent(key.id), 0);
      // An optional slot left out renders the param's default; given, its value.
      assert.equal((await fetchPublic(`${target}?name=ada`)).status, 200);
      assert.equal((await fetchPublic(`${target}?name=ada&cellShape=circle`)).status, 200);
    });

    test('creating a base: 400 names the field for a slot that is no param, is fixed, has an unsafe pattern, or a non-string param without enum; 404 and 409 as /sign', async () => {
      const key = await signingKey({ label: 'rules' });
      for (const [body, path] of [
        [avatars(13, { slots: { nickname: { maxLength: 8 } } }), 'body.slots.nickname'],
        [avatars(13, { params: { name: 'x' } }), 'body.slots.name'],
        [avatars(13, { slots: { name: { maxLength: 8, pattern: '([a-z' } } }), 'body.slots.name.pattern'],
        [avatars(13, { slots: { name: { maxLength: 8, pattern: '(a+)+$' } } }), 'body.slots.name.pattern'],
        [avatars(13, { slots: { name: { maxLength: 8, pattern: '(a)\\1' } } }), 'body.slots.name.pattern'],
        [avatars(13, { slots: { name: { maxLength: 8, pattern: 'a*b*c*' } } }), 'body.slots.name.pattern'],
        [avatars(13, { params: {}, slots: { grid: { maxLength: 2 } } }), 'body.slots.grid'],
        [avatars(13, { params: {}, slots: { grid: { maxLength: 2, enum: ['5', '9'] } } }), 'body.slots.grid.enum.1'],
        [avatars(13, { params: { grid: 99 } }), 'body.params.grid'],
        [avatars(13, { size: { width: 8, height: 64 } }), 'body.size.width'],
        [avatars(13, { slots: {} }), 'body.slots'],
      ] as const) {
        const res = await t.request('post', `/v1/url-signing-keys/${key.id}/bases`, { body });
        assert.equal(res.status, 400, `${path}: ${JSON.stringify(res.body)}`);
        assert.ok(
          issuePaths(res).some((p: string) => p.startsWith(path)),
          `${path}: ${JSON.stringify(res.body.issues)}`,
        );
      }
      // A non-string param with its values in enum: the URL's text becomes the param's number.
      const grids = await createBase(key.id, avatars(13, { params: {}, slots: { grid: { maxLength: 1, enum: ['4', '6'] } } }));
      const six = await fetchPublic(`${targetOf(grids.url)}?grid=6`);
      assert.equal(six.status, 200, JSON.stringify(six.body));
      assert.equal(JSON.parse(Buffer.from(six.headers['x-service-recipe'], 'base64url').toString('utf8')).params.grid, 6);
      assert.equal((await t.request('post', '/v1/url-signing-keys/usk_nobodyshere00000/bases', { body: avatars(13) })).status, 404);
      const unknown = await t.request('post', `/v1/url-signing-keys/${key.id}/bases`, { body: avatars(13, { slug: 'no-such-generator' }) });
      assert.equal(unknown.body.code, 'generator_not_found');
      const otherSecret = await workspaceKey(t, { id: 'ws_other_bases', name: 'Other' }, 'other');
      const theirs = await t.request('post', '/v1/url-signing-keys', {
        body: { label: 'theirs' },
        auth: false,
        headers: { Authorization: `Bearer ${otherSecret}` },
      });
      const foreign = await t.request('post', `/v1/url-signing-keys/${theirs.body.id}/bases`, { body: avatars(13) });
      assert.equal(foreign.status, 404);
      assert.equal((await t.request('get', `/v1/url-signing-keys/${theirs.body.id}/bases`)).status, 404);
      await t.request('delete', `/v1/url-signing-keys/${key.id}`);
      const revoked = await t.request('post', `/v1/url-signing-keys/${key.id}/bases`, { body: avatars(13) });
      assert.equal(revoked.status, 409);
      assert.equal(revoked.body.code, 'conflict');
    });

    test('a tampered signature, extension or base id, a deleted base and a revoked key are 401; past its expiry 410; nothing rendered', async () => {
      const key = await signingKey({ label: 'secret-site-label' });
      const base = await createBase(key.id, avatars(14, { expiresInSeconds: 3600 }));
      const kept = await createBase(key.id, avatars(15));
      const target = targetOf(base.url);
      const [, , , id, file] = target.split('/') as [string, string, string, string, string];
      const sig = file.slice(0, 43);
      const flip = (s: string) => s.slice(0, -1) + (s.endsWith('A') ? 'B' : 'A');
      const secrets = ['secret-site-label', 'ws_local'];
      for (const url of [
        `/v1/bases/${id}/${flip(sig)}.png?name=Ada`,
        `/v1/bases/${id}/${sig}.webp?name=Ada`,
        `/v1/bases/${targetOf(kept.url).split('/')[3]}/${sig}.png?name=Ada`,
        `/v1/bases/sb_nobodyshere0000/${sig}.png?name=Ada`,
        `/v1/bases/${id}/${sig.slice(0, 20)}.png?name=Ada`,
        `/v1/bases/${id}/${sig}.png`.replace(sig, `${sig.slice(0, 5)}%41${sig.slice(6)}`),
      ]) {
        const res = await fetchPublic(url);
        assertNothingAboutTheWorkspace(res, 401, 'unauthorized', secrets);
        assert.ok(!res.body.detail.includes(sig.slice(4)), 'the detail never echoes the signature');
      }
      assert.equal(await spent(key.id), 0);
      assert.equal((await fetchPublic(`${target}?name=Ada`)).status, 200);
      // Expiry: 410 once the base is past it (the clock moves).
      clock.advance(3_601_000);
      assertNothingAboutTheWorkspace(await fetchPublic(`${target}?name=Ada`), 410, 'signed_url_expired', secrets);
      // Deleted: 401; deleting again 404.
      assert.equal((await fetchPublic(`${targetOf(kept.url)}?name=Ada`)).status, 200);
      assert.equal((await t.request('delete', `/v1/url-signing-keys/${key.id}/bases/${kept.id}`)).status, 204);
      assertNothingAboutTheWorkspace(await fetchPublic(`${targetOf(kept.url)}?name=Ada`), 401, 'unauthorized', secrets);
      const again = await t.request('delete', `/v1/url-signing-keys/${key.id}/bases/${kept.id}`);
      assert.equal(again.status, 404);
      // Revoked: every base of the key is 401.
      const live = await createBase(key.id, avatars(16));
      assert.equal((await fetchPublic(`${targetOf(live.url)}?name=Ada`)).status, 200);
      await t.request('delete', `/v1/url-signing-keys/${key.id}`);
      const revoked = await fetchPublic(`${targetOf(live.url)}?name=Ada`);
      assertNothingAboutTheWorkspace(revoked, 401, 'unauthorized', secrets);
      assert.match(revoked.body.detail, /revoked/);
      // The signature never reaches the request log.
      const logged = t.logs.join('\n');
      assert.ok(!logged.includes(sig), 'no signature in the logs');
    });

    test("the key's monthly limit: 402 signing_key_limit_reached, in general terms; an unlisted Origin 403; the signed-address limit 429", async () => {
      const key = await signingKey({ label: 'capped-site', monthlyCreditLimit: 1 });
      const base = await createBase(key.id, avatars(17));
      const target = targetOf(base.url);
      assert.equal((await fetchPublic(`${target}?name=One`)).status, 200);
      const over = await fetchPublic(`${target}?name=Two`);
      assertNothingAboutTheWorkspace(over, 402, 'signing_key_limit_reached', ['capped-site']);
      assert.match(over.body.detail, /unavailable/);
      assert.equal(await spent(key.id), 1);
      const denied = await fetchPublic(`${target}?name=One`, { Origin: 'https://evil.example' });
      assert.equal(denied.status, 403);
      assert.equal(denied.body.code, 'origin_denied');
      assertPublicAnswer(denied);
      // One address, past RATE_LIMIT_SIGNED_ADDRESS_PER_MINUTE (hits count too): 429 with the signed-address policy.
      const from = { 'X-Forwarded-For': '203.0.113.77' };
      const statuses: number[] = [];
      for (let i = 0; i <= SIGNED_ADDRESS_LIMIT; i++)
        statuses.push((await t.request('get', `${target}?name=One`, { auth: false, headers: from })).status);
      assert.deepEqual([statuses.at(-2), statuses.at(-1)], [200, 429]);
      const limited = await t.request('get', `${target}?name=One`, { auth: false, headers: from });
      assertNothingAboutTheWorkspace(limited, 429, 'rate_limited', ['capped-site']);
      assert.match(String(limited.headers['ratelimit-policy']), /"signed-address"/);
    });
  });
}
