// Object storage (BLOB_STORE=s3, a real S3-protocol server the test stops and starts) going away
// while exports run, on both databases and both queues (the jobs table, pg-boss): a rendered export
// that waits to store its result gives its slot back, so the export queued behind it renders
// meanwhile instead of waiting out the outage; a submission while storage is known to be down is
// refused with 503 `not_ready` and Retry-After (nothing queued); both exports complete once storage
// is back; the outage is logged once when it starts and once when it ends, with what was refused; past
// the backlog a process may hold, a waiting result keeps its slot.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { JobRecord } from '../../db/repositories/jobs.repository.ts';
import type { ResolvedRecipe } from '../../src/engine/recipe.ts';
import type { RenderCall } from '../../src/services/render.service.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { startS3Server, type S3TestServer } from '../support/black-box/s3-server.ts';
import { armEvent, waitForJob } from '../support/events.ts';
import { type LogEntry, startTestApp, type TestApp } from '../support/harness.ts';

const OUTAGE_STARTED = 'Object storage is unavailable: requests that need it answer 503 until it is back';
const OUTAGE_ENDED = 'Object storage is available again';
const gif = (seed: number) => ({ slug: 'plasma', seed, format: 'gif', size: { width: 48, height: 32 }, params: { duration: 1, fps: 10 } });

for (const engine of ENGINES) {
  describe(`object storage goes away while exports run (${engine}, BLOB_STORE=s3, JOB_CONCURRENCY=1)`, () => {
    let s3: S3TestServer;
    let t: TestApp;
    before(async () => {
      s3 = await startS3Server();
      t = await startTestApp(engine, { env: { ...s3.env, JOB_CONCURRENCY: '1' } });
    });
    after(async () => {
      await t?.close();
      await s3?.close();
    });

    const entries = () => t.logs.map((l) => JSON.parse(l) as LogEntry & { level: number });

    test('a result waiting for storage frees its slot, submissions meanwhile get 503 with Retry-After, and everything completes after', async () => {
      // The first export is held before it renders until storage has gone away.
      const render = t.runtime.deps.services.render;
      const original = render.render.bind(render);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let reached!: () => void;
      const atGate = new Promise<void>((resolve) => (reached = resolve));
      let held = false;
      render.render = async (resolved: ResolvedRecipe, call?: RenderCall) => {
        if (call?.mode === 'job' && !held) {
          held = true;
          reached();
          await gate;
        }
        return original(resolved, call);
      };
      try {
        const first = await t.request('post', '/v1/jobs', { body: gif(1) });
        assert.equal(first.status, 202, first.text);
        await atGate;
        // The only slot is taken: the second export waits in the queue.
        const second = await t.request('post', '/v1/jobs', { body: gif(2) });
        assert.equal(second.status, 202, second.text);
        const [a, b] = [first.body.id as string, second.body.id as string];
        const outageFrom = t.logs.length;

        await s3.stop();
        const secondStarted = armEvent(t.runtime.jobs.lifecycle, 'started', (job: JobRecord) => job.id === b);
        release();
        // The first renders, cannot store its result and waits for storage without its slot: the
        // second starts, renders and waits too, while the first still waits.
        await secondStarted.wait('the queued export to start while the first waits for storage');
        const secondWaits = await t.waitForLog(
          (e) => e.jobId === b && e.msg === 'storage unavailable: retrying the result upload' && e.slotReleased === true,
          20_000,
        );
        assert.equal(secondWaits.level, 40, 'the first retry is a warning');
        assert.equal((await t.request('get', `/v1/jobs/${a}`)).body.status, 'running', 'the first still waits for storage');
        assert.ok(t.runtime.jobs.runner.resultsWaitingBytes > 0);

        // Storage is known to be down: a submission says so instead of queueing behind the outage.
        const refused = await t.request('post', '/v1/jobs', { body: gif(3) });
        assert.equal(refused.status, 503, refused.text);
        assert.equal(refused.body.code, 'not_ready');
        assert.ok(Number(refused.headers['retry-after']) > 0);
        assert.match(refused.body.detail, /Object storage is unavailable/);
        assert.equal((await t.request('get', '/v1/jobs?limit=10')).body.length, 2, 'nothing was queued');

        await s3.start();
        await waitForJob(t, a, ['completed']);
        await waitForJob(t, b, ['completed']);
        const ended = await t.waitForLog((e) => e.msg === OUTAGE_ENDED, 20_000);
        assert.equal(ended.level, 30);
        assert.ok(Number(ended.requestsRefused) >= 1, JSON.stringify(ended));
        assert.equal(t.runtime.jobs.runner.resultsWaitingBytes, 0);
        const again = await t.request('post', '/v1/jobs', { body: gif(4) });
        assert.equal(again.status, 202, again.text);
        await waitForJob(t, again.body.id, ['completed']);

        // The outage: one warn line when it started, one info line when it ended; no error line, and
        // the refused submission an info line naming storage.
        const during = entries().slice(outageFrom);
        assert.deepEqual(
          during.filter((e) => e.msg === OUTAGE_STARTED || e.msg === OUTAGE_ENDED).map((e) => [e.msg, e.level]),
          [
            [OUTAGE_STARTED, 40],
            [OUTAGE_ENDED, 30],
          ],
        );
        assert.deepEqual(
          during.filter((e) => e.level >= 50).map((e) => e.msg),
          [],
        );
        const refusedLine = during.find((e) => e.res?.statusCode === 503);
        assert.deepEqual({ level: refusedLine?.level, dependency: refusedLine?.dependency }, { level: 30, dependency: 'storage' });
      } finally {
        render.render = original;
      }
    });

    test('past the backlog of results waiting for storage (256 MB; here 1 byte), a waiting result keeps its slot', async () => {
      // The budget is a constant; the test shrinks this runner's (production code has no hook for it).
      const runner = t.runtime.jobs.runner as unknown as { uploadBacklogBytes: number };
      const budget = runner.uploadBacklogBytes;
      runner.uploadBacklogBytes = 1;
      try {
        await s3.stop();
        // Submitted before this process has met the outage (its submission's own cache lookup is what tells it).
        const job = await t.request('post', '/v1/jobs', { body: gif(10) });
        assert.equal(job.status, 202, job.text);
        const waits = await t.waitForLog(
          (e) => e.jobId === job.body.id && e.msg === 'storage unavailable: retrying the result upload',
          20_000,
        );
        assert.equal(waits.slotReleased, false, 'the result is held with its slot');
        assert.equal(t.runtime.jobs.runner.resultsWaitingBytes, 0);
        await s3.start();
        await waitForJob(t, job.body.id, ['completed']);
      } finally {
        runner.uploadBacklogBytes = budget;
        await s3.start();
      }
    });
  });
}
