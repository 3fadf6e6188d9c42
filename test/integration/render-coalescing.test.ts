// Identical renders in flight at once are charged once: the leader renders and pays (MISS), the
// others join it and cost what a hit costs (COALESCED). A failed render fails them all and nobody
// pays; a leader that drops out (client gone, cannot pay) hands over to a follower, who pays. Both
// databases through the metered service with the hosted ledger, then over HTTP in hosted mode.
//
// No sleeps: the first request is let in alone and becomes the leader; the others start once it
// is reserving, and its reservation is held at a gate until every request has looked the recipe up
// in the cache (the last step before joining a leader), so all of them are in flight together. The
// gate wraps the real render and credit services from outside; production code has no hook for it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CreditsRepository } from '../../db/repositories/credits.repository.ts';
import type { ResolvedRecipe } from '../../src/engine/recipe.ts';
import { ProblemError } from '../../src/errors/problem.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { CreditsService } from '../../src/services/credits.service.ts';
import { type MeteredCredits, type MeteredResult, MeteredRenderService } from '../../src/services/metered-render.service.ts';
import { renderCost } from '../../src/services/pricing.ts';
import type { RenderCall, RenderService } from '../../src/services/render.service.ts';
import { arrivalGate } from '../support/arrival-gate.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { HOSTED_ENV, startTestApp, type TestApp, workspaceKey } from '../support/harness.ts';

const N = 10;

/** The real render and credit services behind an arrivalGate at the credit reservation. */
function gated(
  real: RenderService,
  ledger: CreditsService,
  arrivals: number,
  onRender: (n: number, call: RenderCall) => void | Promise<void> = () => {},
) {
  const gate = arrivalGate(real, arrivals);
  let renders = 0;
  const render: Pick<RenderService, 'cached' | 'cachedInMemory' | 'renderUncached'> = {
    ...gate.lookups,
    async renderUncached(resolved: ResolvedRecipe, call: RenderCall = {}) {
      await onRender(++renders, call);
      return real.renderUncached(resolved, call);
    },
  };
  const credits: MeteredCredits = {
    reserve: (...args: Parameters<CreditsService['reserve']>) => gate.holdFirst(() => ledger.reserve(...args)),
    settleEventually: (r, to) => ledger.settleEventually(r, to),
    commitId: (id) => ledger.commitId(id),
    releaseId: (id) => ledger.releaseId(id),
    reservationAmount: (id) => ledger.reservationAmount(id),
    enabled: ledger.enabled,
  };
  return { render, credits, leading: gate.leading, renders: () => renders };
}

/** Runs `call(0)` alone until it leads, then `call(1..n-1)` at once. */
async function leaderThenFollowers<T>(
  gate: { leading: Promise<void> },
  n: number,
  call: (i: number) => Promise<T>,
): Promise<PromiseSettledResult<T>[]> {
  const first = call(0);
  const firstSettled = Promise.allSettled([first]);
  await Promise.race([gate.leading, first.catch(() => {})]);
  const rest = await Promise.allSettled(Array.from({ length: n - 1 }, (_, i) => call(i + 1)));
  return [...(await firstSettled), ...rest];
}

const fulfilled = (outcomes: PromiseSettledResult<MeteredResult>[]) =>
  outcomes.filter((o): o is PromiseFulfilledResult<MeteredResult> => o.status === 'fulfilled').map((o) => o.value);
const count = (results: MeteredResult[], cache: string) => results.filter((r) => r.cache === cache).length;

for (const engine of ENGINES) {
  describe(`coalesced renders on ${engine}`, () => {
    let t: TestApp;
    let credits: CreditsService;
    let seed = 40_000;
    const principal = (workspaceId: string) => ({ workspaceId, method: 'api_key' as const });
    const recipe = () =>
      t.runtime.deps.services.render.resolve('mesh-gradient', { seed: ++seed, size: { width: 256, height: 256 }, format: 'png' });

    before(async () => {
      t = await startTestApp(engine);
      // The hosted ledger on this database (the local app itself runs without credit checks).
      credits = new CreditsService({
        repo: new CreditsRepository(t.runtime.db),
        clock: systemClock,
        enabled: true,
        logger: createLogger('silent'),
      });
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

    const meteredWith = (gate: ReturnType<typeof gated>) =>
      new MeteredRenderService({ render: gate.render, credits: gate.credits, usage: t.runtime.deps.services.usage });

    test(`${N} identical renders at once: one MISS pays, the rest are COALESCED and free; one after another the second is a HIT`, async () => {
      const ws = 'ws_coalesce';
      await workspaceWith(ws, 100);
      const resolved = recipe();
      const gate = gated(t.runtime.deps.services.render, credits, N);
      const metered = meteredWith(gate);
      const results = fulfilled(
        await leaderThenFollowers(gate, N, () => metered.renderMetered(resolved, { principal: principal(ws), operation: 'generate' })),
      );
      assert.equal(count(results, 'MISS'), 1);
      assert.equal(count(results, 'COALESCED'), N - 1);
      assert.equal(gate.renders(), 1, 'rendered once');
      assert.equal(
        results.reduce((a, r) => a + r.credits, 0),
        renderCost(resolved),
      );
      assert.ok(results.every((r) => r.bytes.equals(results[0].bytes)));
      assert.deepEqual(await credits.balance(ws), {
        credits: 100 - renderCost(resolved),
        reserved: 0,
        available: 100 - renderCost(resolved),
      });
      const again = await metered.renderMetered(resolved, { principal: principal(ws), operation: 'generate' });
      assert.deepEqual([again.cache, again.credits], ['HIT', 0]);
    });

    test('a lookup that answers after its leader finished joins that render: COALESCED, not a second render', async () => {
      const ws = 'ws_coalesce_straddle';
      await workspaceWith(ws, 100);
      const resolved = recipe();
      const real = t.runtime.deps.services.render;
      let renders = 0;
      let leading!: () => void;
      const isLeading = new Promise<void>((resolve) => (leading = resolve));
      let leaderDone!: () => void;
      const leaderFinished = new Promise<void>((resolve) => (leaderDone = resolve));
      let secondMissed!: () => void;
      const secondLookedUp = new Promise<void>((resolve) => (secondMissed = resolve));
      let lookups = 0;
      const metered = new MeteredRenderService({
        render: {
          // The second request's lookup reads the cache while the leader renders (a miss: the leader
          // renders only once it has been read) and answers only once the leader has stored its file
          // and finished.
          cachedInMemory: (r: ResolvedRecipe) => real.cachedInMemory(r),
          async cached(r: ResolvedRecipe) {
            const answer = await real.cached(r);
            if (++lookups === 2) {
              secondMissed();
              await leaderFinished;
            }
            return answer;
          },
          async renderUncached(r: ResolvedRecipe, call: RenderCall = {}) {
            renders++;
            leading();
            await secondLookedUp;
            return real.renderUncached(r, call);
          },
        },
        credits,
        usage: t.runtime.deps.services.usage,
      });
      const call = () => metered.renderMetered(resolved, { principal: principal(ws), operation: 'generate' });
      const first = call();
      await isLeading;
      const second = call();
      const led = await first;
      leaderDone();
      const joined = await second;
      assert.deepEqual([led.cache, joined.cache, joined.credits, renders], ['MISS', 'COALESCED', 0, 1]);
      assert.ok(joined.bytes.equals(led.bytes));
    });

    test('a render that fails fails every request waiting on it, and nobody pays', async () => {
      const ws = 'ws_coalesce_fail';
      await workspaceWith(ws, 100);
      const resolved = recipe();
      const gate = gated(t.runtime.deps.services.render, credits, N, () => {
        throw new ProblemError('render_timeout', { detail: 'the one render failed' });
      });
      const metered = meteredWith(gate);
      const outcomes = await leaderThenFollowers(gate, N, () =>
        metered.renderMetered(resolved, { principal: principal(ws), operation: 'generate' }),
      );
      assert.equal(gate.renders(), 1, 'the followers did not render again');
      for (const o of outcomes) assert.equal(o.status === 'rejected' && (o.reason as ProblemError).code, 'render_timeout');
      assert.deepEqual(await credits.balance(ws), { credits: 100, reserved: 0, available: 100 });
    });

    test('a leader whose client leaves hands over: one follower renders and pays, the others join it', async () => {
      const ws = 'ws_coalesce_leave';
      await workspaceWith(ws, 100);
      const resolved = recipe();
      const leaving = new AbortController();
      // The first render is the leader's: its client leaves once everyone is waiting.
      const gate = gated(t.runtime.deps.services.render, credits, N, (n) => {
        if (n === 1) leaving.abort();
      });
      const metered = meteredWith(gate);
      const outcomes = await leaderThenFollowers(gate, N, (i) =>
        metered.renderMetered(resolved, { principal: principal(ws), operation: 'generate', signal: i === 0 ? leaving.signal : undefined }),
      );
      assert.equal(outcomes[0].status === 'rejected' && (outcomes[0].reason as ProblemError).code, 'client_closed_request');
      const results = fulfilled(outcomes);
      assert.equal(results.length, N - 1);
      assert.equal(count(results, 'MISS'), 1, 'one follower took over');
      assert.equal(count(results, 'COALESCED'), N - 2);
      assert.equal(
        results.reduce((a, r) => a + r.credits, 0),
        renderCost(resolved),
      );
      assert.deepEqual(await credits.balance(ws), {
        credits: 100 - renderCost(resolved),
        reserved: 0,
        available: 100 - renderCost(resolved),
      });
    });

    test('a leader that cannot pay hands over to a follower from a workspace that can', async () => {
      const poor = 'ws_coalesce_poor';
      const rich = 'ws_coalesce_rich';
      await workspaceWith(poor, 0);
      await workspaceWith(rich, 100);
      const resolved = recipe();
      const gate = gated(t.runtime.deps.services.render, credits, N);
      const metered = meteredWith(gate);
      const outcomes = await leaderThenFollowers(gate, N, (i) =>
        metered.renderMetered(resolved, { principal: principal(i === 0 ? poor : rich), operation: 'generate' }),
      );
      assert.equal(outcomes[0].status === 'rejected' && (outcomes[0].reason as ProblemError).code, 'insufficient_credits');
      const results = fulfilled(outcomes);
      assert.equal(results.length, N - 1);
      assert.equal(count(results, 'MISS'), 1);
      assert.equal(
        results.reduce((a, r) => a + r.credits, 0),
        renderCost(resolved),
      );
      assert.equal((await credits.balance(rich)).available, 100 - renderCost(resolved));
      assert.deepEqual(await credits.balance(poor), { credits: 0, reserved: 0, available: 0 });
    });
  });
}

describe('coalesced renders over HTTP in hosted mode (postgres)', () => {
  let t: TestApp;
  let secret: string;
  let gate: ReturnType<typeof gated>;
  const ws = 'ws_http_coalesce';
  const auth = () => ({ auth: false as const, headers: { Authorization: `Bearer ${secret}` } });
  // 2048×2048 png: 4.2 million pixels, 5 credits.
  const body = { seed: 2048, size: { width: 2048, height: 2048 }, format: 'png' };

  before(async () => {
    t = await startTestApp('postgres', {
      env: HOSTED_ENV,
      mutateDeps: (deps) => {
        gate = gated(deps.services.render, deps.services.credits, N);
        deps.services.meteredRender = new MeteredRenderService({ render: gate.render, credits: gate.credits, usage: deps.services.usage });
      },
    });
    secret = await workspaceKey(t, { id: ws, name: 'Coalesce' }, 'test');
    await t.runtime.deps.services.credits.add({
      workspaceId: ws,
      amount: 100,
      kind: 'grant',
      id: 'grant_http_coalesce',
      reference: 'test',
      description: 'grant',
    });
  });
  after(async () => t?.close());

  test(`${N} identical POST /v1/generate at once cost one render: one MISS, ${N - 1} joined (HIT, X-Service-Coalesced) at 0 credits`, async () => {
    const outcomes = await leaderThenFollowers(gate, N, () => t.request('post', '/v1/generate/mesh-gradient', { ...auth(), body }));
    const responses = outcomes.map((o) => (o as PromiseFulfilledResult<Awaited<ReturnType<TestApp['request']>>>).value);
    assert.ok(responses.every((r) => r.status === 200));
    const caches = responses.map((r) => r.headers['x-service-cache']);
    assert.equal(caches.filter((c) => c === 'MISS').length, 1, caches.join(', '));
    // The spec's two values only: a joined request is a HIT, and says it was joined in a header of its own.
    assert.equal(caches.filter((c) => c === 'HIT').length, N - 1, caches.join(', '));
    assert.equal(responses.filter((r) => r.headers['x-service-coalesced'] === 'true').length, N - 1);
    assert.equal(responses.find((r) => r.headers['x-service-cache'] === 'MISS')?.headers['x-service-coalesced'], undefined);
    const charged = responses.map((r) => Number(r.headers['x-service-credits']));
    assert.equal(
      charged.reduce((a, c) => a + c, 0),
      5,
    );
    assert.equal(gate.renders(), 1);
    assert.deepEqual(await t.runtime.deps.services.credits.balance(ws), { credits: 95, reserved: 0, available: 95 });
    const again = await t.request('post', '/v1/generate/mesh-gradient', { ...auth(), body });
    assert.deepEqual(
      [again.headers['x-service-cache'], again.headers['x-service-credits'], again.headers['x-service-coalesced']],
      ['HIT', '0', undefined],
    );
    // Usage records the coalesced requests with their cache status, as served without rendering.
    await t.runtime.deps.services.usage.flush();
    const usage = await t.request('get', '/v1/usage', auth());
    assert.deepEqual([usage.body.totals.renders, usage.body.totals.credits, usage.body.totals.cacheHits], [N + 1, 5, N]);
  });

  test(`${N} identical requests fired together, ungated: one MISS pays, every other one is free`, async () => {
    const before = await t.runtime.deps.services.credits.balance(ws);
    // The gate let its one leader through in the test above; from here on nothing is held.
    const responses = await Promise.all(
      Array.from({ length: N }, () => t.request('post', '/v1/generate/mesh-gradient', { ...auth(), body: { ...body, seed: 2049 } })),
    );
    assert.ok(responses.every((r) => r.status === 200));
    const caches = responses.map((r) => r.headers['x-service-cache']);
    assert.equal(caches.filter((c) => c === 'MISS').length, 1, caches.join(', '));
    assert.ok(
      caches.every((c) => ['MISS', 'HIT'].includes(c)),
      caches.join(', '),
    );
    assert.equal(
      responses.reduce((a, r) => a + Number(r.headers['x-service-credits']), 0),
      5,
    );
    assert.equal((await t.runtime.deps.services.credits.balance(ws)).credits, before.credits - 5);
  });
});
