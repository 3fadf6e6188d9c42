// Credits: two-phase reservations under concurrency (both databases, through the real metered
// render path), release on failure and expiry, free cache hits; then hosted mode over HTTP:
// 402 with cost and balance, X-Service-Credits, batch items charged one by one, usage, pricing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CreditsRepository } from '../../db/repositories/credits.repository.ts';
import { MemoryCachedBlobStore } from '../../src/blob/memory-cached.blob-store.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { CreditsService } from '../../src/services/credits.service.ts';
import { MeteredRenderService } from '../../src/services/metered-render.service.ts';
import { renderCost } from '../../src/services/pricing.ts';
import { ProblemError } from '../../src/errors/problem.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { armCall } from '../support/events.ts';
import { HOSTED_ENV, startTestApp, type TestApp, workspaceKey } from '../support/harness.ts';

const tiny = (seed: number) => ({ seed, size: { width: 32, height: 32 }, format: 'png' as const });

for (const engine of ENGINES) {
  describe(`credit ledger on ${engine}`, () => {
    let t: TestApp;
    let credits: CreditsService;
    let metered: MeteredRenderService;
    const principal = (workspaceId: string) => ({ workspaceId, method: 'api_key' as const });

    before(async () => {
      t = await startTestApp(engine);
      // The hosted ledger on this database (the local app itself runs without credit checks).
      credits = new CreditsService({
        repo: new CreditsRepository(t.runtime.db),
        clock: systemClock,
        enabled: true,
        logger: createLogger('silent'),
      });
      metered = new MeteredRenderService({ render: t.runtime.deps.services.render, credits, usage: t.runtime.deps.services.usage });
    });
    after(async () => t?.close());

    async function workspaceWith(id: string, amount: number) {
      await t.runtime.deps.services.workspaces.ensure({ id, name: id, kind: 'personal', createdAt: Date.now() });
      if (amount > 0)
        await credits.add({
          workspaceId: id,
          amount: amount,
          kind: 'grant',
          id: `grant_${id}`,
          reference: 'test',
          description: 'test grant',
        });
    }

    test('N concurrent renders against a balance for a third of them: exactly those succeed, never below zero', async () => {
      const ws = 'ws_concurrent';
      const n = 12;
      const resolved = Array.from({ length: n }, (_, i) => t.runtime.deps.services.render.resolve('mesh-gradient', tiny(10_000 + i)));
      const each = renderCost(resolved[0]);
      await workspaceWith(ws, (n / 3) * each);
      const outcomes = await Promise.allSettled(
        resolved.map((r) => metered.renderMetered(r, { principal: principal(ws), operation: 'generate' })),
      );
      const ok = outcomes.filter((o) => o.status === 'fulfilled');
      const refused = outcomes.filter((o) => o.status === 'rejected');
      assert.equal(ok.length, n / 3);
      assert.equal(refused.length, (2 * n) / 3);
      for (const r of refused) assert.equal(((r as PromiseRejectedResult).reason as ProblemError).code, 'insufficient_credits');
      assert.deepEqual(await credits.balance(ws), { credits: 0, reserved: 0, available: 0 });
      // The ledger sums: grants minus committed reservations is the balance; nothing is left pending.
      const entries = await new CreditsRepository(t.runtime.db).entries(ws);
      const posted = entries.filter((e) => e.status === 'posted').reduce((a, e) => a + e.amount, 0);
      const committed = entries.filter((e) => e.status === 'committed').reduce((a, e) => a + e.amount, 0);
      assert.equal(posted - committed, 0);
      assert.equal(entries.filter((e) => e.status === 'pending').length, 0);
      assert.equal(entries.filter((e) => e.status === 'committed').length, n / 3);
    });

    test('a miss looks the render cache up once, and so does a hit', async () => {
      const ws = 'ws_lookups';
      await workspaceWith(ws, 5);
      const resolved = t.runtime.deps.services.render.resolve('mesh-gradient', tiny(20_101));
      let gets = 0;
      const get = MemoryCachedBlobStore.prototype.get;
      MemoryCachedBlobStore.prototype.get = function (this: MemoryCachedBlobStore, key: string) {
        gets++;
        return get.call(this, key);
      };
      try {
        assert.equal((await metered.renderMetered(resolved, { principal: principal(ws), operation: 'generate' })).cache, 'MISS');
        assert.equal(gets, 1, 'lookups on a miss');
        assert.equal((await metered.renderMetered(resolved, { principal: principal(ws), operation: 'generate' })).cache, 'HIT');
        assert.equal(gets, 2, 'lookups on a miss and a hit');
      } finally {
        MemoryCachedBlobStore.prototype.get = get;
      }
    });

    test('a cache hit is free and reserves nothing', async () => {
      const ws = 'ws_hits';
      await workspaceWith(ws, 5);
      const resolved = t.runtime.deps.services.render.resolve('mesh-gradient', tiny(20_001));
      const first = await metered.renderMetered(resolved, { principal: principal(ws), operation: 'generate' });
      assert.equal(first.cache, 'MISS');
      assert.equal(first.credits, renderCost(resolved));
      const again = await metered.renderMetered(resolved, { principal: principal(ws), operation: 'generate' });
      assert.equal(again.cache, 'HIT');
      assert.equal(again.credits, 0);
      assert.equal((await credits.balance(ws)).available, 5 - renderCost(resolved));
    });

    test('a render that fails or is aborted releases its reservation', async () => {
      const ws = 'ws_abort';
      await workspaceWith(ws, 1_000);
      const controller = new AbortController();
      const heavy = t.runtime.deps.services.render.resolve('plasma', {
        seed: 1,
        size: { width: 640, height: 360 },
        format: 'mp4',
        params: { duration: 10, fps: 30 },
      });
      // The render is called once the reservation is written.
      const rendering = armCall(t.runtime.deps.services.render, 'renderUncached');
      const running = metered.renderMetered(heavy, { principal: principal(ws), operation: 'generate', signal: controller.signal });
      await rendering.wait('the render to start');
      assert.equal((await credits.balance(ws)).reserved, renderCost(heavy), 'held while rendering');
      controller.abort();
      await assert.rejects(running);
      assert.deepEqual(await credits.balance(ws), { credits: 1_000, reserved: 0, available: 1_000 });
    });

    test('a reservation left by a crashed process expires and is released by the sweeper', async () => {
      const ws = 'ws_crash';
      await workspaceWith(ws, 10);
      await credits.reserve(ws, 4, 'orphan', 'held by a process that died', -1);
      assert.equal((await credits.balance(ws)).available, 6);
      assert.ok((await credits.sweepExpired()) >= 1);
      assert.deepEqual(await credits.balance(ws), { credits: 10, reserved: 0, available: 10 });
    });

    test('purchases are idempotent per id', async () => {
      const ws = 'ws_purchase';
      await workspaceWith(ws, 0);
      const results = await Promise.all(
        Array.from({ length: 5 }, () =>
          credits.add({ workspaceId: ws, amount: 100, kind: 'purchase', id: 'pur_same', reference: 'cs_1', description: 'pack' }),
        ),
      );
      assert.equal(results.filter(Boolean).length, 1);
      assert.equal((await credits.balance(ws)).credits, 100);
    });
  });
}

describe('credits over HTTP in hosted mode (postgres)', () => {
  let t: TestApp;
  let secret: string;
  const ws = 'ws_hosted_credits';
  const auth = () => ({ auth: false as const, headers: { Authorization: `Bearer ${secret}` } });

  before(async () => {
    t = await startTestApp('postgres', { env: HOSTED_ENV });
    secret = await workspaceKey(t, { id: ws, name: 'Hosted' }, 'test');
  });
  after(async () => t?.close());

  test('402 insufficient_credits names the cost and the balance', async () => {
    const res = await t.request('post', '/v1/generate/mesh-gradient', { ...auth(), body: tiny(1) });
    assert.equal(res.status, 402);
    assert.equal(res.body.code, 'insufficient_credits');
    assert.equal(res.body.cost, 1);
    assert.match(res.body.detail, /^This costs 1 credit and 0 are available\./);
    // No Stripe keys here: the way to credits is the operator, not a checkout that would answer 503.
    assert.match(res.body.detail, /Billing is not configured on this service: its operator grants credits/);
    assert.deepEqual(res.body.balance, { credits: 0, reserved: 0, available: 0 });
  });

  test('402 insufficient_credits on recipe URLs and preset renders too, before any work', async () => {
    const { hash, encoded } = t.runtime.deps.services.render.resolve('mesh-gradient', tiny(11));
    const preset = await t.request('post', '/v1/presets', {
      ...auth(),
      body: { name: 'unaffordable', recipe: { slug: 'mesh-gradient', ...tiny(12) } },
    });
    assert.equal(preset.status, 201, preset.text);
    for (const url of [`/v1/render/${hash}?r=${encoded}`, `/v1/presets/${preset.body.id}/render`]) {
      const res = await t.request('get', url, auth());
      assert.equal(res.status, 402, `${url}: ${res.text}`);
      assert.equal(res.body.code, 'insufficient_credits');
      assert.equal(res.body.cost, 1);
      assert.deepEqual(res.body.balance, { credits: 0, reserved: 0, available: 0 });
    }
  });

  test('concurrent HTTP renders: exactly the affordable ones succeed', async () => {
    await t.runtime.deps.services.credits.add({
      workspaceId: ws,
      amount: 4,
      kind: 'grant',
      id: 'grant_http',
      reference: 'test',
      description: 'grant',
    });
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => t.request('post', '/v1/generate/mesh-gradient', { ...auth(), body: tiny(500 + i) })),
    );
    assert.equal(responses.filter((r) => r.status === 200).length, 4);
    assert.equal(responses.filter((r) => r.status === 402).length, 8);
    for (const r of responses.filter((x) => x.status === 200)) assert.equal(r.headers['x-service-credits'], '1');
    const me = await t.request('get', '/v1/me', auth());
    assert.deepEqual(me.body.balance, { credits: 0, reserved: 0, available: 0 });
  });

  test('a cache hit costs nothing, even with an empty balance', async () => {
    // Its own render fills the cache (which seeds won the race above is not known) and spends the last credit.
    await t.runtime.deps.services.credits.add({
      workspaceId: ws,
      amount: 1,
      kind: 'grant',
      id: 'grant_hit',
      reference: 'test',
      description: 'grant',
    });
    const miss = await t.request('post', '/v1/generate/mesh-gradient', { ...auth(), body: tiny(700) });
    assert.equal(miss.headers['x-service-cache'], 'MISS');
    assert.deepEqual((await t.request('get', '/v1/me', auth())).body.balance, { credits: 0, reserved: 0, available: 0 });
    const res = await t.request('post', '/v1/generate/mesh-gradient', { ...auth(), body: tiny(700) });
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-service-cache'], 'HIT');
    assert.equal(res.headers['x-service-credits'], '0');
  });

  test('batch items are charged one by one; the unaffordable ones fail alone', async () => {
    await t.runtime.deps.services.credits.add({
      workspaceId: ws,
      amount: 2,
      kind: 'grant',
      id: 'grant_batch',
      reference: 'test',
      description: 'grant',
    });
    const res = await t.request('post', '/v1/batch', {
      ...auth(),
      body: { items: [1, 2, 3].map((s) => ({ slug: 'mesh-gradient', ...tiny(900 + s) })) },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.results.filter((r: { ok: boolean }) => r.ok).length, 2);
    assert.deepEqual(
      res.body.results.filter((r: { ok: boolean }) => !r.ok).map((r: { code: string }) => r.code),
      ['insufficient_credits'],
    );
  });

  test('usage summarises renders, credits and hits by day and generator', async () => {
    // A workspace of its own, so the totals do not depend on what the tests above rendered.
    const usageKey = await workspaceKey(t, { id: 'ws_usage', name: 'Usage' }, 'usage');
    const as = { auth: false as const, headers: { Authorization: `Bearer ${usageKey}` } };
    await t.runtime.deps.services.credits.add({
      workspaceId: 'ws_usage',
      amount: 10,
      kind: 'grant',
      id: 'grant_usage',
      reference: 'test',
      description: 'grant',
    });
    // Two misses and a hit over HTTP, then a batch of two misses: five renders, four credits, one hit.
    for (const seed of [1000, 1000, 1001])
      assert.equal((await t.request('post', '/v1/generate/mesh-gradient', { ...as, body: tiny(seed) })).status, 200);
    const batch = await t.request('post', '/v1/batch', {
      ...as,
      body: { items: [1002, 1003].map((s) => ({ slug: 'mesh-gradient', ...tiny(s) })) },
    });
    assert.deepEqual(
      batch.body.results.map((r: { ok: boolean }) => r.ok),
      [true, true],
    );
    // Rows are queued before each response and the summary writes the queue first: no wait.
    const res = await t.request('get', '/v1/usage', as);
    assert.equal(res.status, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.body.totals.renders, 5);
    assert.equal(res.body.totals.credits, 4);
    assert.equal(res.body.totals.cacheHits, 1);
    assert.equal(res.body.byDay.length, 1);
    assert.equal(res.body.byDay[0].date, new Date().toISOString().slice(0, 10));
    assert.deepEqual(
      res.body.byGenerator.map((g: { slug: string; renders: number }) => [g.slug, g.renders]),
      [['mesh-gradient', 5]],
    );
    const bad = await t.request('get', '/v1/usage?from=2026-02-01&to=2026-01-01', auth());
    assert.equal(bad.status, 400);
    assert.equal(bad.body.issues[0].path, 'query.from');
  });

  test('identical renders recorded together share one usage row; the summary counts each', async () => {
    const usage = t.runtime.deps.services.usage;
    await t.runtime.deps.services.workspaces.ensure({ id: 'ws_usage_rows', name: 'Rows', kind: 'personal', createdAt: Date.now() });
    const hit = {
      workspaceId: 'ws_usage_rows',
      keyId: null,
      operation: 'renderRecipe',
      generator: 'blob',
      format: 'png',
      credits: 0,
      cache: 'HIT' as const,
    };
    // Recorded in one go, so no timed flush can fall between them.
    for (let i = 0; i < 4; i++) usage.record({ ...hit, bytes: 100, durationMs: 1 });
    for (let i = 0; i < 2; i++) usage.record({ ...hit, cache: 'MISS', credits: 1, bytes: 100, durationMs: 50 });
    await usage.flush();
    const rows = await t.runtime.db('usage_records').where({ workspace_id: 'ws_usage_rows' }).orderBy('cache');
    assert.deepEqual(
      rows.map((r: { cache: string; renders: number; bytes: number }) => [r.cache, Number(r.renders), Number(r.bytes)]),
      [
        ['HIT', 4, 400],
        ['MISS', 2, 200],
      ],
    );
    const summary = await usage.summary('ws_usage_rows');
    assert.deepEqual(summary.totals, { renders: 6, credits: 2, bytes: 600, cacheHits: 4 });
  });

  test('pricing is public and lists rules and packs', async () => {
    const res = await t.request('get', '/v1/pricing', { auth: false });
    assert.equal(res.status, 200);
    assert.ok(res.body.packs.length >= 1);
    assert.ok(res.body.rules.some((r: { credits: number }) => r.credits === 0));
  });
});
