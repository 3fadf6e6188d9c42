// Export jobs follow the pricing rule of every render (chargeFor): a job whose result is already
// in the render cache costs nothing, like a sync hit — it reserves nothing at submission, and a job
// that finds its result cached by the time it runs releases its hold; a job that renders pays.
// Both databases, with the hosted ledger, the app's real queue and runner.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CreditsRepository } from '../../db/repositories/credits.repository.ts';
import { type JobRecord, JobsRepository } from '../../db/repositories/jobs.repository.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { JobsService } from '../../src/jobs/jobs.service.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { CreditsService } from '../../src/services/credits.service.ts';
import { MeteredRenderService } from '../../src/services/metered-render.service.ts';
import { renderCost } from '../../src/services/pricing.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { armEvent } from '../support/events.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

const input = (seed: number) => ({ slug: 'mesh-gradient', seed, size: { width: 640, height: 480 }, format: 'png' as const });

for (const engine of ENGINES) {
  describe(`job pricing on ${engine}`, () => {
    let t: TestApp;
    let credits: CreditsService;
    let jobs: JobsService;
    let metered: MeteredRenderService;
    const ws = 'ws_job_pricing';
    const principal = { workspaceId: ws, method: 'api_key' as const };

    before(async () => {
      // Jobs wait in the queue until a test starts the runner.
      t = await startTestApp(engine, { env: { RUN_JOBS: '0' } });
      const services = t.runtime.deps.services;
      // The hosted ledger on this database (the local app itself runs without credit checks).
      credits = new CreditsService({
        repo: new CreditsRepository(t.runtime.db),
        clock: systemClock,
        enabled: true,
        logger: createLogger('silent'),
      });
      jobs = new JobsService({
        repo: new JobsRepository(t.runtime.db),
        queue: t.runtime.jobs.queue,
        render: services.render,
        results: t.runtime.jobs.results,
        credits,
        clock: systemClock,
        lifecycle: t.runtime.jobs.lifecycle,
      });
      metered = new MeteredRenderService({ render: services.render, credits, usage: services.usage });
      await services.workspaces.ensure({ id: ws, name: ws, kind: 'personal', createdAt: Date.now() });
      await credits.add({ workspaceId: ws, amount: 100, kind: 'grant', id: `grant_${ws}`, reference: 'test', description: 'test grant' });
    });
    after(async () => t?.close());

    test('a cached recipe costs 0 as a job as it does as a sync render; a job that renders pays its cost', async () => {
      const cachedRecipe = t.runtime.deps.services.render.resolve('mesh-gradient', {
        seed: 1,
        size: { width: 640, height: 480 },
        format: 'png',
      });
      const cost = renderCost(cachedRecipe);
      // A: rendered (and paid) synchronously first, then exported: the job holds nothing.
      const a = await metered.renderMetered(cachedRecipe, { principal, operation: 'generate' });
      assert.deepEqual([a.cache, a.credits], ['MISS', cost]);
      const jobA = await jobs.submit(principal, input(1));
      assert.equal(jobA.reservationId, null, 'nothing reserved for a cached result');
      // B: exported first (its hold is taken), then rendered synchronously before the job runs.
      const jobB = await jobs.submit(principal, input(2));
      assert.ok(jobB.reservationId);
      assert.equal((await credits.balance(ws)).reserved, cost);
      const b = await metered.renderMetered(
        t.runtime.deps.services.render.resolve('mesh-gradient', { seed: 2, size: { width: 640, height: 480 }, format: 'png' }),
        { principal, operation: 'generate' },
      );
      assert.equal(b.cache, 'MISS');
      // C: exported and rendered by the job alone.
      const jobC = await jobs.submit(principal, input(3));

      // The runner reports a job finished after its last write and after its hold is settled, so the
      // balance read next is final.
      const finished = [jobA, jobB, jobC].map(({ id }) =>
        armEvent(t.runtime.jobs.lifecycle, 'finished', (job: JobRecord) => job.id === id, 30_000),
      );
      await t.runtime.jobs.runner.start();
      for (const f of finished) await f.wait();
      for (const job of [jobA, jobB, jobC]) assert.equal((await jobs.get(ws, job.id)).status, 'completed');

      // Paid: the two sync misses (A, B) and the job that rendered (C); jobs A and B cost nothing.
      assert.deepEqual(await credits.balance(ws), { credits: 100 - 3 * cost, reserved: 0, available: 100 - 3 * cost });
      const settled = async (id: string | null) => (id ? (await t.runtime.db('credit_entries').where({ id }).first()).status : null);
      assert.equal(await settled(jobB.reservationId), 'released', 'the hold of a job answered from the cache is released');
      assert.equal(await settled(jobC.reservationId), 'committed');
    });
  });
}
