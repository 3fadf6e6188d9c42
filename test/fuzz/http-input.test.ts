// Fuzzes every operation in openapi.yaml over real sockets (node's own HTTP parser included), in
// local mode on SQLite and in hosted mode on Postgres: broken paths, queries, headers,
// encodings, framing and bodies, plus schema-derived near-valid bodies. Every answer must be below
// 500, every error problem+json with a registered code and its status, and the service must still
// answer /v1/health. A valid signed recipe URL (query form and the .png path form) is tampered with
// (parameters changed, added, removed, reordered; sig and exp altered) or merely respelled (any
// character of sig's name or value, of kid's or exp's name, percent-encoded; names and values
// percent-encoded or followed by `+` at random): every answer is 401 problem+json and nothing is
// rendered or charged; re-signed with broken parameters or expiries, it is never a 5xx (410 past
// exp), and re-signed in a spelling the service never writes it is 401. FUZZ_SEED=<n> replays a
// run; FUZZ_RUNS=<n> sets the random requests per operation.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PROBLEMS, type ProblemCode } from '../../src/errors/error-registry.ts';
import { MAX_ENCODED_RECIPE_LENGTH } from '../../src/config/limits.ts';
import { assertMatchesContract } from '../support/contract.ts';
import { HOSTED_ENV, TEST_LOCAL_KEY, startTestApp, workspaceKey, type TestApp } from '../support/harness.ts';
import { startStripeStandIn, type StripeStandIn } from '../support/stripe-stand-in.ts';
import { sendRaw, type RawResponse } from '../support/raw-http-client.ts';
import {
  baseRequest,
  createRng,
  describe as describeRequest,
  fuzzOperations,
  mutate,
  resignSignedTarget,
  respellSignedTarget,
  serialize,
  tamperSignedTarget,
  type Fixtures,
  type FuzzOperation,
  type FuzzRequest,
} from './request-fuzzer.ts';

// CI replays one fixed seed (a red CI must mean a change broke something, not that a new seed was
// drawn); a developer's run draws a new one each time, so the search keeps widening.
const FIXED_CI_SEED = 20261123;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : process.env.CI ? FIXED_CI_SEED : Math.floor(Math.random() * 2 ** 32);
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const BODY_LIMIT_BYTES = 8192;
const CONCURRENCY = 4;
const operations = fuzzOperations();

const FUZZ_ENV = {
  BODY_LIMIT_BYTES: String(BODY_LIMIT_BYTES),
  // Small deadlines so lying Content-Lengths and trickled bodies end quickly (408).
  REQUEST_BODY_TIMEOUT_MS: '300',
  REQUEST_HEADERS_TIMEOUT_MS: '3000',
  RUN_JOBS: '0',
  // A near-valid recipe renders for real; at load 34 one took longer than the 30 s default (504):
  // the fuzz judges the answers, not the machine's speed.
  RENDER_TIMEOUT_MS: '600000',
  ANIMATION_BUDGET_MS: '600000',
  RATE_LIMIT_WORKSPACE_PER_MINUTE: '0',
  RATE_LIMIT_KEY_PER_MINUTE: '0',
};

interface Failure {
  operation: string;
  request: FuzzRequest;
  problem: string;
}

/** Why a response is not acceptable, or undefined. */
function judge(op: string, method: string, res: RawResponse, billingConfigured: boolean): string | undefined {
  const type = res.headers['content-type'] ?? '';
  if (res.status >= 500 && method === 'HEAD') return `${res.status} to HEAD`;
  if (res.status >= 400) {
    if (!/^application\/problem\+json/.test(type))
      return `${res.status} with Content-Type ${JSON.stringify(type)}: ${res.body.toString('utf8').slice(0, 200)}`;
    if (method === 'HEAD') return undefined; // headers only
    let problem: { code?: string; status?: number };
    try {
      problem = JSON.parse(res.body.toString('utf8'));
    } catch {
      return `${res.status} with a body that is not JSON: ${res.body.toString('latin1').slice(0, 200)}`;
    }
    const code = problem.code as ProblemCode;
    if (!(code in PROBLEMS)) return `${res.status} with unregistered code ${JSON.stringify(problem.code)}`;
    if (PROBLEMS[code].status !== res.status || problem.status !== res.status)
      return `${res.status} with code ${code}, registered as ${PROBLEMS[code].status}`;
    // Billing is simply absent on a server without payment settings (local mode): documented 501.
    const unavailable = code === 'not_implemented' && !billingConfigured && ['createCheckout', 'handlePaymentWebhook'].includes(op);
    if (res.status >= 500 && !unavailable) return `${res.status} ${code}: ${res.body.toString('utf8').slice(0, 300)}`;
  }
  return undefined;
}

/** Why a response is not the one the request must get (`request.expect`), or undefined. */
function unexpected(request: FuzzRequest, res: RawResponse): string | undefined {
  const { expect } = request;
  if (!expect) return undefined;
  if (res.status !== expect.status) return `${res.status}, not ${expect.status} ${expect.code}: ${res.body.toString('utf8').slice(0, 200)}`;
  if (request.method === 'HEAD') return undefined;
  let code: unknown;
  try {
    code = (JSON.parse(res.body.toString('utf8')) as { code?: unknown }).code;
  } catch {
    return undefined; // judge reports a body that is not JSON
  }
  return code === expect.code ? undefined : `${res.status} with code ${JSON.stringify(code)}, not ${expect.code}`;
}

/** The response checked against openapi.yaml (documented status, content type, body schema, headers). */
function contractProblem(request: FuzzRequest, res: RawResponse): string | undefined {
  const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim();
  let body: unknown = res.body;
  if (type === 'application/json' || type === 'application/problem+json') {
    try {
      body = JSON.parse(res.body.toString('utf8'));
    } catch {
      return `${res.status} ${type} body is not JSON`;
    }
  }
  try {
    assertMatchesContract(request.method, request.target, {
      status: res.status,
      headers: res.headers,
      body,
      text: res.body.toString('utf8'),
    });
  } catch (err) {
    return `contract: ${(err as Error).message.split('\n')[0]}`;
  }
  return undefined;
}

/** Requests every run sends whatever the seed: the causes issue 13 found, for each operation. */
function fixedCorpus(op: FuzzOperation, authorization: string | undefined, fixtures: Fixtures): FuzzRequest[] {
  const base = baseRequest(op, authorization, fixtures);
  const out: FuzzRequest[] = [];
  const [path, query] = base.target.split('?');
  const segments = op.path.split('/');
  segments.forEach((s, i) => {
    if (!s.startsWith('{')) return;
    for (const bad of ['%zz', '%00', 'a%00b', '%e0%a4']) {
      const parts = path!.split('/');
      parts[i] = bad;
      out.push({ ...base, target: `${parts.join('/')}${query ? `?${query}` : ''}`, label: `path ${s} = ${bad}` });
    }
  });
  for (const p of op.parameters.filter((x) => x.in === 'query')) {
    out.push({ ...base, target: `${path}?${[query, `${p.name}=a%00b`].filter(Boolean).join('&')}`, label: `query ${p.name} with NUL` });
  }
  if (op.bodySchema) {
    for (const encoding of ['gzip', 'deflate', 'br'])
      out.push({
        ...base,
        headers: [...base.headers, ['Content-Encoding', encoding]],
        label: `Content-Encoding ${encoding} on a plain body`,
      });
    const withNul = JSON.stringify(JSON.parse(base.body!.toString()), (_k, v) => (typeof v === 'string' ? `${v}\u0000x` : v));
    out.push({ ...base, body: Buffer.from(withNul), label: 'NUL in every JSON string' });
  }
  if (op.operationId === 'renderRecipe') {
    // The documented maximum of r must fit under the header limit, with ordinary headers beside it.
    const longest = `${path}?r=${'A'.repeat(MAX_ENCODED_RECIPE_LENGTH)}&format=png&w=4096&h=4096&pr=3`;
    out.push({
      ...base,
      target: longest,
      headers: [...base.headers, ['Cookie', `a=${'b'.repeat(2000)}`], ['User-Agent', 'x'.repeat(500)]],
      label: 'r at its documented maximum length',
      forbidStatus: 431,
    });
  }
  return out;
}

/** Routes outside the contract (the web app, the sign-in library) get the path breakers too. */
const OUTSIDE: FuzzRequest[] = [
  '/v1/auth/%zz',
  '/v1/auth/sign-in/%00',
  '/%zz',
  '/%00',
  '/assets/%zz',
  '/index.html%00',
  '/v1/%zz',
  '/v1/auth/get-session?x=%zz',
  '/v1/auth/../%2e%2e/x',
].map((target) => ({
  label: `outside the contract: ${target}`,
  method: 'GET',
  target,
  headers: [],
}));
const OUTSIDE_POSTS: FuzzRequest[] = [
  {
    label: 'sign-in with a gzip header',
    method: 'POST',
    target: '/v1/auth/sign-in/social',
    headers: [
      ['Content-Type', 'application/json'],
      ['Content-Encoding', 'gzip'],
    ],
    body: Buffer.from('{"provider":"github"}'),
  },
  {
    label: 'sign-in with NUL',
    method: 'POST',
    target: '/v1/auth/sign-in/social',
    headers: [['Content-Type', 'application/json']],
    body: Buffer.from('{"provider":"git\\u0000hub","callbackURL":"/%zz"}'),
  },
  {
    label: 'sign-in with broken JSON',
    method: 'POST',
    target: '/v1/auth/sign-in/social',
    headers: [['Content-Type', 'application/json']],
    body: Buffer.from('{"provider":'),
  },
];

// Each engine once, each mode once: local mode on Postgres reached no repository that hosted mode on
// Postgres does not (the same operations with an API key, hosted adding sign-in and billing), and
// Postgres's stricter types are met there; local mode's own paths (the local workspace) run on SQLite.
const SETUPS = [
  { name: 'local mode on sqlite', engine: 'sqlite' as const, hosted: false },
  { name: 'hosted mode on postgres', engine: 'postgres' as const, hosted: true },
];

for (const setup of SETUPS) {
  describe(`fuzzing every operation, ${setup.name} (seed ${SEED})`, () => {
    let t: TestApp;
    let port: number;
    let standIn: StripeStandIn | undefined;
    let authorization: string;
    const fixtures: Fixtures = {};
    /** Valid signed URLs (path and query, as the sign endpoint built them) of two URL signing keys. */
    const signed = {} as {
      /** Tampered with: its URLs must never render. */
      tampered: { id: string; query: string; path: string };
      /** Re-signed with its secret. */
      resigned: { id: string; secret: string; query: string; path: string };
    };
    const billingConfigured = setup.hosted;

    before(async () => {
      if (setup.hosted) {
        standIn = await startStripeStandIn();
        t = await startTestApp('postgres', {
          env: {
            ...HOSTED_ENV,
            ...FUZZ_ENV,
            STRIPE_SECRET_KEY: 'sk_test_fuzz_0123456789',
            STRIPE_WEBHOOK_SECRET: 'whsec_fuzz_0123456789',
            STRIPE_API_URL: standIn.url,
          },
        });
        authorization = `Bearer ${await workspaceKey(t, { id: 'ws_fuzz', name: 'Fuzz' }, 'fuzz')}`;
        // Enough credits that valid requests render and reach the code behind the credit check.
        await t.runtime.deps.services.credits.add({
          workspaceId: 'ws_fuzz',
          amount: 1_000_000,
          kind: 'grant',
          id: 'grant_fuzz',
          reference: 'fuzz',
          description: 'fuzz grant',
        });
      } else {
        t = await startTestApp(setup.engine, { env: FUZZ_ENV });
        authorization = `Bearer ${TEST_LOCAL_KEY}`;
      }
      ({ port } = await t.listen());
      // One of each resource, so path ids and recipe URLs hit real rows (jobs stay queued: RUN_JOBS=0).
      const create = async (url: string, body: unknown) => {
        const res = await t.request('post', url, { auth: false, headers: { Authorization: authorization }, body });
        assert.ok(res.status < 300, `${url}: ${res.status} ${res.text}`);
        return res;
      };
      const small = { size: { width: 16, height: 16 }, format: 'png' };
      const rendered = await create('/v1/generate/mesh-gradient', small);
      fixtures.recipeHash = String(rendered.headers['x-service-recipe-hash']);
      fixtures.r = String(rendered.headers['x-service-recipe']);
      fixtures.ids = {
        jobs: (await create('/v1/jobs', { slug: 'mesh-gradient', ...small })).body.id,
        presets: (await create('/v1/presets', { name: 'fuzz', recipe: { slug: 'mesh-gradient', ...small } })).body.id,
        keys: (await create('/v1/keys', { label: 'fuzz target' })).body.id,
        'url-signing-keys': (await create('/v1/url-signing-keys', { label: 'fuzz target' })).body.id,
      };
      // Recipes of their own (never rendered before; the two forms of one recipe would share its cache), expiring in an hour.
      const signedUrl = async (id: string, seed: number, extension: boolean) => {
        const body = { slug: 'mesh-gradient', seed, ...small, expiresInSeconds: 3600, extension };
        const { url } = (await create(`/v1/url-signing-keys/${id}/sign`, body)).body as { url: string };
        return new URL(url).pathname + new URL(url).search;
      };
      const tampered = (await create('/v1/url-signing-keys', { label: 'fuzz tampered' })).body as { id: string };
      const resigned = (await create('/v1/url-signing-keys', { label: 'fuzz re-signed' })).body as { id: string; secret: string };
      signed.tampered = {
        id: tampered.id,
        query: await signedUrl(tampered.id, 9_001, false),
        path: await signedUrl(tampered.id, 9_002, true),
      };
      signed.resigned = {
        id: resigned.id,
        secret: resigned.secret,
        query: await signedUrl(resigned.id, 9_003, false),
        path: await signedUrl(resigned.id, 9_003, true),
      };
    });
    after(async () => {
      await t?.close();
      await standIn?.close();
    });

    const run = async (opName: string, requests: FuzzRequest[]): Promise<Failure[]> => {
      const failures: Failure[] = [];
      let next = 0;
      const worker = async () => {
        while (next < requests.length) {
          const request = requests[next++]!;
          try {
            const res = await sendRaw(port, serialize(request), 15_000, { head: request.method === 'HEAD' });
            const problem =
              res.status === request.forbidStatus
                ? `${res.status} for a request within the documented limits`
                : (unexpected(request, res) ??
                  judge(opName, request.method, res, billingConfigured) ??
                  (request.method === 'HEAD' ? undefined : contractProblem(request, res)));
            if (problem) failures.push({ operation: opName, request, problem });
          } catch (err) {
            failures.push({ operation: opName, request, problem: `no response: ${(err as Error).message}` });
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const health = await sendRaw(port, Buffer.from('GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), 15_000);
      if (health.status !== 200)
        failures.push({
          operation: opName,
          request: { label: 'health afterwards', method: 'GET', target: '/v1/health', headers: [] },
          problem: `/v1/health answered ${health.status}`,
        });
      return failures;
    };

    const report = (failures: Failure[]) =>
      `${failures.length} unacceptable answers (replay with FUZZ_SEED=${SEED}):\n` +
      failures
        .slice(0, 15)
        .map((f) => `- ${f.operation}: ${f.request.label}\n    ${f.problem}\n    request: ${describeRequest(f.request)}`)
        .join('\n');

    for (const op of operations) {
      test(`${op.operationId} (${op.method} ${op.path})`, async () => {
        // One stream of random numbers per operation, so one operation's failure replays alone.
        const rng = createRng((SEED ^ hash(`${setup.name}/${op.operationId}`)) >>> 0);
        const requests = [
          ...fixedCorpus(op, authorization, fixtures),
          ...Array.from({ length: RUNS }, () => mutate(op, authorization, rng, BODY_LIMIT_BYTES, fixtures)),
        ];
        const failures = await run(op.operationId, requests);
        assert.equal(failures.length, 0, report(failures));
      });
    }

    test('renderRecipe: a valid signed URL (query and .png path form) tampered with or respelled is 401 problem+json; nothing rendered or charged', async () => {
      const rng = createRng((SEED ^ hash(`${setup.name}/signed-tampered`)) >>> 0);
      const { id, query, path } = signed.tampered;
      const requests: FuzzRequest[] = [];
      for (const [form, target] of [
        ['query form', query],
        ['path form', path],
      ] as const) {
        // Every one-character respelling of sig, kid and exp (about 100 per form), then random tamperings.
        for (const respelled of respellSignedTarget(target))
          requests.push({
            label: `signed URL, ${form}: ${respelled.label}`,
            method: 'GET',
            target: respelled.target,
            headers: [],
            expect: { status: 401, code: 'unauthorized' },
          });
        for (let i = 0; i < RUNS; i++) {
          const tampered = tamperSignedTarget(target, rng, signed.resigned.id);
          requests.push({
            label: `signed URL, ${form}: ${tampered.label}`,
            method: rng.chance(0.2) ? 'HEAD' : 'GET',
            target: tampered.target,
            headers: [],
            expect: { status: 401, code: 'unauthorized' },
          });
        }
      }
      const failures = await run('renderRecipe', requests);
      assert.equal(failures.length, 0, report(failures));
      // Nothing was charged to the key, or recorded as its usage (a render, even a hit, would be).
      await t.runtime.deps.services.usage.flush();
      assert.deepEqual(await t.runtime.db('usage_records').where({ key_id: id }), []);
      const keys = await t.request('get', '/v1/url-signing-keys', { auth: false, headers: { Authorization: authorization } });
      assert.equal(keys.body.find((k: { id: string }) => k.id === id).creditsSpentThisMonth, 0);
      // The untouched URLs are valid, and their recipes were never rendered: each is a MISS now.
      for (const target of [query, path]) {
        const res = await t.request('get', target, { auth: false });
        assert.deepEqual([res.status, res.headers['x-service-cache']], [200, 'MISS'], target);
      }
    });

    test('renderRecipe: a signed URL re-signed with broken parameters, extensions, expiries or spellings is never a 5xx; past exp 410, a malformed exp or another spelling 401', async () => {
      const rng = createRng((SEED ^ hash(`${setup.name}/signed-resigned`)) >>> 0);
      const { secret, query, path } = signed.resigned;
      const now = Math.floor(Date.now() / 1000);
      const requests: FuzzRequest[] = [];
      for (const [form, target] of [
        ['query form', query],
        ['path form', path],
      ] as const) {
        for (let i = 0; i < Math.ceil(RUNS / 2); i++) {
          const resigned = resignSignedTarget(target, secret, rng, now);
          requests.push({
            label: `signed URL, ${form}: ${resigned.label}`,
            method: rng.chance(0.2) ? 'HEAD' : 'GET',
            target: resigned.target,
            headers: [],
            ...(resigned.expect ? { expect: resigned.expect } : {}),
          });
        }
      }
      const failures = await run('renderRecipe', requests);
      assert.equal(failures.length, 0, report(failures));
    });

    test('routes outside the contract', async () => {
      const failures = await run('(outside the contract)', [...OUTSIDE, ...OUTSIDE_POSTS]);
      assert.equal(failures.length, 0, report(failures));
    });
  });
}

/** FNV-1a of a string: a stable per-operation offset of the seed. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
