// Export jobs on both databases: submit → queued → running → completed with a result identical to
// the synchronous render; progress over SSE; cancel in each state; history with cursors and a
// status filter; workspace isolation; 409 before the result, 410 after retention; a job whose
// runner died (lapsed lease) is picked up again; transient failures retry with backoff, then fail.
// Hosted mode (pg-boss): credits reserved and the message enqueued in the submission's transaction,
// concurrent cancels release once, lapsed jobs out of attempts fail.
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { after, before, describe, test } from 'node:test';
import type { JobRecord } from '../../db/repositories/jobs.repository.ts';
import { RESULT_RETENTION_MS } from '../../src/jobs/job-results.ts';
import type { PgBossJobQueue } from '../../src/jobs/pg-boss.queue.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { armEvent, waitForJob } from '../support/events.ts';
import { failingFfmpeg } from '../support/failing-ffmpeg.ts';
import { HOSTED_ENV, startTestApp, type TestApp, workspaceKey } from '../support/harness.ts';
import { encodesSize, tracedFfmpeg, type TracedFfmpeg } from '../support/black-box/traced-ffmpeg.ts';

const tiny = { slug: 'mesh-gradient', seed: 5, size: { width: 64, height: 48 } };
const animation = (seed: number, duration = 2) => ({
  slug: 'plasma',
  seed,
  format: 'gif' as const,
  size: { width: 160, height: 90 },
  params: { duration, fps: 10 },
});

const runnerOf = (t: TestApp) => t.runtime.jobs.runner;

const waitFor = (t: TestApp, id: string, statuses: string[]) => waitForJob(t, id, statuses);

for (const engine of ENGINES) {
  describe(`jobs on ${engine}`, () => {
    let t: TestApp;
    let offset = 0;
    let ffmpeg: TracedFfmpeg;
    before(async () => {
      ffmpeg = await tracedFfmpeg();
      t = await startTestApp(engine, { env: { FFMPEG_PATH: ffmpeg.path }, compose: { clock: { now: () => Date.now() + offset } } });
    });
    after(async () => {
      await t?.close();
      await ffmpeg?.close();
    });

    test('202 queued with Location; completes; the result equals the synchronous render', async () => {
      const res = await t.request('post', '/v1/jobs', { body: tiny });
      assert.equal(res.status, 202);
      assert.equal(res.headers.location, `/v1/jobs/${res.body.id}`);
      assert.deepEqual(
        [res.body.status, res.body.progress, res.body.attempts, res.body.resultReady, res.body.cancelled],
        ['queued', 0, 0, false, false],
      );
      const done = await waitFor(t, res.body.id, ['completed']);
      assert.equal(done.progress, 1);
      assert.equal(done.attempts, 1);
      assert.equal(done.resultReady, true);
      assert.equal(done.contentType, 'image/png');
      assert.equal(done.resultUrl, `/v1/jobs/${res.body.id}/result`);
      const file = await t.request('get', done.resultUrl);
      assert.equal(file.status, 200);
      const { slug: _s, ...recipe } = tiny;
      const sync = await t.request('post', `/v1/generate/${tiny.slug}`, { body: recipe });
      assert.ok(Buffer.compare(file.body, sync.body) === 0);
      assert.equal(sync.headers['x-service-recipe-hash'], done.recipeHash);
    });

    test('SSE streams rising progress and the final status', async () => {
      const { body: job } = await t.request('post', '/v1/jobs', { body: animation(11) });
      const { server, port } = await t.listen();
      try {
        const res = await fetch(`http://127.0.0.1:${port}/v1/jobs/${job.id}/events`, {
          headers: { Authorization: 'Bearer svc_local_test_key_0123456789abcdef' },
        });
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-type')!, /text\/event-stream/);
        const text = await res.text();
        const events = [...text.matchAll(/event: (\w+)\ndata: (.*)\n/g)].map((m) => ({ event: m[1], data: JSON.parse(m[2]) }));
        assert.equal(events[0].event, 'status');
        const progress = events.filter((e) => e.event === 'progress').map((e) => e.data.progress as number);
        assert.deepEqual(
          progress,
          [...progress].sort((a, b) => a - b),
          'progress never goes down',
        );
        assert.equal(events.at(-1)!.data.status, 'completed');
      } finally {
        server.close();
      }
    });

    test('cancel a running job: it stops before its last frame and FFmpeg is killed; cancelling again is 409', async () => {
      const encoding = armEvent(ffmpeg.events, 'start', encodesSize(640, 360));
      const { body: job } = await t.request('post', '/v1/jobs', {
        body: { ...animation(12, 10), format: 'mp4', size: { width: 640, height: 360 }, params: { duration: 10, fps: 30 } },
      });
      const [pid] = await encoding.wait("the job's FFmpeg to start");
      const killed = armEvent(ffmpeg.events, 'exit', (p) => p === pid);
      const res = await t.request('post', `/v1/jobs/${job.id}/cancel`);
      assert.equal(res.status, 200);
      // The reply shows the cancellation at once; the worker may still be stopping the job.
      assert.equal(res.body.cancelled, true);
      const cancelled = await waitFor(t, job.id, ['cancelled']);
      assert.equal(cancelled.cancelled, true);
      assert.ok(cancelled.progress < 1, `stopped at ${cancelled.progress}, before the last of its 300 frames`);
      await killed.wait("the job's FFmpeg to be killed");
      const again = await t.request('post', `/v1/jobs/${job.id}/cancel`);
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'job_not_cancellable');
      const result = await t.request('get', `/v1/jobs/${job.id}/result`);
      assert.equal(result.status, 409);
      assert.equal(result.body.code, 'job_has_no_result');
      assert.match(result.body.detail, /^The job was cancelled; it has no result and never will/);
    });

    test('history: newest first, cursor pages through Link, status filter; other workspaces get 404', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await t.request('post', '/v1/jobs', { body: { ...tiny, seed: 100 + i } })).body.id);
      for (const id of ids) await waitFor(t, id, ['completed']);
      const first = await t.request('get', '/v1/jobs?limit=2');
      assert.equal(first.status, 200);
      assert.deepEqual(
        first.body.map((j: { id: string }) => j.id),
        [ids[2], ids[1]],
      );
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.link)![1];
      const second = await t.request('get', next);
      assert.equal(second.body[0].id, ids[0]);
      // The filter keeps exactly the matching jobs: these three are completed, never cancelled.
      const completed = await t.request('get', '/v1/jobs?status=completed&limit=100');
      assert.deepEqual(
        ids.filter((id) => completed.body.some((j: { id: string }) => j.id === id)),
        ids,
      );
      assert.ok(completed.body.every((j: { status: string }) => j.status === 'completed'));
      const cancelled = await t.request('get', '/v1/jobs?status=cancelled&limit=100');
      assert.ok(cancelled.body.every((j: { id: string; status: string }) => j.status === 'cancelled' && !ids.includes(j.id)));
      await t.runtime.deps.services.workspaces.ensure({ id: 'ws_jobs_other', name: 'Other', kind: 'personal', createdAt: Date.now() });
      const other = await t.runtime.deps.services.keys.create('ws_jobs_other', 'other');
      const foreign = await t.request('get', `/v1/jobs/${ids[0]}`, { auth: false, headers: { Authorization: `Bearer ${other.secret}` } });
      assert.equal(foreign.status, 404);
      assert.equal((await t.request('get', '/v1/jobs/job_missing')).status, 404);
      assert.equal(
        (await t.request('get', `/v1/jobs/${ids[0]}/result`, { auth: false, headers: { Authorization: `Bearer ${other.secret}` } })).status,
        404,
      );
    });

    test('a completed job has a thumbnail: a webp at most 160 px on its longer side, at the next of a few pixel ratios up from the one asked, free', async () => {
      const { body: job } = await t.request('post', '/v1/jobs', {
        body: { slug: 'voronoi', seed: 4, size: { width: 400, height: 200 }, format: 'png' },
      });
      await waitFor(t, job.id, ['completed']);
      for (const [pr, width, height] of [
        [undefined, 160, 80],
        [2, 320, 160],
      ] as const) {
        const res = await t.request('get', `/v1/jobs/${job.id}/thumbnail${pr ? `?pr=${pr}` : ''}`);
        assert.equal(res.status, 200, res.text);
        assert.equal(res.headers['content-type'], 'image/webp');
        const meta = await sharp(res.body).metadata();
        assert.deepEqual([meta.format, meta.width, meta.height], ['webp', width, height]);
      }
      assert.equal((await t.request('get', `/v1/jobs/${job.id}/thumbnail?pr=9`)).status, 400);
      // Free work stays bounded: ratios are served by the next of 1, 1.5, 2 and 3 up, so 2.1 … 3
      // share one render and one cached object (the same bytes and ETag), 1.2 gets the 1.5 one.
      const asked = await Promise.all(
        ['2.1', '2.5', '2.99999', '3'].map((pr) => t.request('get', `/v1/jobs/${job.id}/thumbnail?pr=${pr}`)),
      );
      assert.deepEqual(new Set(asked.map((r) => r.headers.etag)).size, 1);
      assert.ok(asked.every((r) => r.body.equals(asked[0]!.body)));
      assert.deepEqual(
        [
          (await sharp(asked[0]!.body).metadata()).width,
          (await sharp((await t.request('get', `/v1/jobs/${job.id}/thumbnail?pr=1.2`)).body).metadata()).width,
        ],
        [480, 240],
      );
    });

    test("metadata: the client's own data comes back with the job and its list, outside the recipe; over its limits it is 400 naming the field", async () => {
      const recipe = { slug: 'voronoi', seed: 9, size: { width: 64, height: 32 }, format: 'png' };
      const metadata = { orderId: 'ord_8812', customer: 'acme' };
      const created = await t.request('post', '/v1/jobs', { body: { ...recipe, metadata } });
      assert.equal(created.status, 202, created.text);
      assert.deepEqual(created.body.metadata, metadata);
      assert.deepEqual((await t.request('get', `/v1/jobs/${created.body.id}`)).body.metadata, metadata);
      const listed = (await t.request('get', '/v1/jobs')).body.find((j: { id: string }) => j.id === created.body.id);
      assert.deepEqual(listed.metadata, metadata);
      // Not part of the recipe: the same recipe without metadata has the same hash, and an empty object by default.
      const plain = await t.request('post', '/v1/jobs', { body: recipe });
      assert.equal(plain.body.recipeHash, created.body.recipeHash);
      assert.deepEqual(plain.body.metadata, {});
      for (const [bad, path] of [
        [Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])), 'body.metadata'],
        [{ orderId: 'x'.repeat(501) }, 'body.metadata.orderId'],
        [{ ['k'.repeat(41)]: 'v' }, 'body.metadata'],
        [{ count: 3 }, 'body.metadata.count'],
      ] as const) {
        const res = await t.request('post', '/v1/jobs', { body: { ...recipe, metadata: bad } });
        assert.equal(res.status, 400, JSON.stringify(bad).slice(0, 80));
        assert.ok(
          res.body.issues.some((i: { path: string }) => i.path.startsWith(path)),
          `${path}: ${JSON.stringify(res.body.issues)}`,
        );
      }
    });

    test('404 not_found for an unknown job on every job operation', async () => {
      for (const [method, url] of [
        ['get', '/v1/jobs/job_unknown'],
        ['post', '/v1/jobs/job_unknown/cancel'],
        ['get', '/v1/jobs/job_unknown/result'],
        ['get', '/v1/jobs/job_unknown/events'],
        ['get', '/v1/jobs/job_unknown/thumbnail'],
      ] as const) {
        const res = await t.request(method, url);
        assert.equal(res.status, 404, `${url}: ${res.text}`);
        assert.equal(res.body.code, 'not_found');
      }
    });

    test('410 result_expired after the retention period', async () => {
      const { body: job } = await t.request('post', '/v1/jobs', { body: { ...tiny, seed: 200 } });
      await waitFor(t, job.id, ['completed']);
      offset = RESULT_RETENTION_MS + 1_000;
      try {
        const res = await t.request('get', `/v1/jobs/${job.id}/result`);
        assert.equal(res.status, 410);
        assert.equal(res.body.code, 'result_expired');
        assert.equal((await t.request('get', `/v1/jobs/${job.id}`)).body.resultReady, false);
      } finally {
        offset = 0;
      }
    });

    test('a job whose runner died (lapsed lease) is picked up again and completes', async () => {
      const { body: job } = await t.request('post', '/v1/jobs', { body: { ...tiny, seed: 300 } });
      await waitFor(t, job.id, ['completed']);
      // Make it look like a runner claimed it and was killed mid-job.
      await t.runtime
        .db('jobs')
        .where({ id: job.id })
        .update({ status: 'running', progress: 0.4, locked_by: 'runner_dead', locked_until: Date.now() - 1, attempts: 1 });
      await runnerOf(t).recoverLapsed();
      const done = await waitFor(t, job.id, ['completed']);
      assert.equal(done.attempts, 2);
    });

    test('400 naming the field for a bad recipe; 404 for an unknown generator', async () => {
      const bad = await t.request('post', '/v1/jobs', { body: { slug: 'mesh-gradient', size: { width: 5, height: 5 } } });
      assert.equal(bad.status, 400);
      assert.ok(bad.body.issues.some((i: { path: string }) => i.path.startsWith('body.size')));
      assert.equal((await t.request('post', '/v1/jobs', { body: { slug: 'nope' } })).status, 404);
    });
  });

  describe(`queued jobs on ${engine} (no runner in this process)`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine, { env: { RUN_JOBS: '0' } });
    });
    after(async () => t?.close());

    test('a queued job has no thumbnail yet (409 job_not_ready); a cancelled one never will (409 job_has_no_result)', async () => {
      const { body: job } = await t.request('post', '/v1/jobs', { body: tiny });
      const queued = await t.request('get', `/v1/jobs/${job.id}/thumbnail`);
      assert.deepEqual([queued.status, queued.body.code], [409, 'job_not_ready']);
      await t.request('post', `/v1/jobs/${job.id}/cancel`);
      const cancelled = await t.request('get', `/v1/jobs/${job.id}/thumbnail`);
      assert.deepEqual([cancelled.status, cancelled.body.code], [409, 'job_has_no_result']);
    });

    test('a queued job is cancelled at once', async () => {
      const { body: job } = await t.request('post', '/v1/jobs', { body: tiny });
      const res = await t.request('post', `/v1/jobs/${job.id}/cancel`);
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'cancelled');
      assert.equal(res.body.cancelled, true);
    });
  });
}

for (const engine of ENGINES) {
  describe(`transient failures on ${engine}`, () => {
    let t: TestApp;
    let ffmpeg: ReturnType<typeof failingFfmpeg>;
    before(async () => {
      ffmpeg = failingFfmpeg();
      t = await startTestApp(engine, {
        env: { FFMPEG_PATH: ffmpeg.path, JOB_RETRY_DELAY_MS: '150', RATE_LIMIT_KEY_PER_MINUTE: '0', RATE_LIMIT_WORKSPACE_PER_MINUTE: '0' },
      });
    });
    after(async () => {
      await t?.close();
      ffmpeg?.remove();
    });

    test('retry with backoff, attempts counted, then failed with a readable error; updatedAt moves with each change', async () => {
      // Every change of the job's row, as the lifecycle reports it (claimed, back in the queue, ended).
      const { lifecycle } = t.runtime.jobs;
      const seen: JobRecord[] = [];
      const record = (j: JobRecord) => void seen.push(j);
      for (const name of ['started', 'retrying', 'finished'] as const) lifecycle.on(name, record);
      try {
        const { body: job } = await t.request('post', '/v1/jobs', { body: animation(31, 1) });
        const last = await waitForJob(t, job.id, ['failed']);
        assert.equal(last.attempts, 3);
        assert.equal(last.error, 'The encoder failed.');
        assert.equal(last.resultReady, false);
        const mine = seen.filter((j) => j.id === job.id);
        const steps = mine.map((j) => [j.status, j.attempts, j.error]);
        // Between attempts the job waited in the queue, its error visible.
        assert.deepEqual(steps, [
          ['running', 1, null],
          ['queued', 1, 'The encoder failed.'],
          ['running', 2, 'The encoder failed.'],
          ['queued', 2, 'The encoder failed.'],
          ['running', 3, 'The encoder failed.'],
          ['failed', 3, 'The encoder failed.'],
        ]);
        // The waits were 150 ms and 600 ms (JOB_RETRY_DELAY_MS, then 4× longer): due that long after the failure.
        assert.deepEqual(
          mine.filter((j) => j.status === 'queued').map((j) => j.runAfter - j.updatedAt),
          [150, 600],
        );
        const times = mine.map((j) => j.updatedAt);
        assert.deepEqual(
          times,
          [...times].sort((a, b) => a - b),
        );
        assert.ok(times.at(-1)! > Date.parse(job.createdAt));
        assert.equal(new Date(times.at(-1)!).toISOString(), last.updatedAt);
        const result = (await t.request('get', `/v1/jobs/${job.id}/result`)).body;
        assert.equal(result.code, 'job_has_no_result');
        assert.equal(result.detail, 'The job failed (The encoder failed); it has no result and never will. Submit it again to render it.');
      } finally {
        for (const name of ['started', 'retrying', 'finished'] as const) lifecycle.off(name, record);
      }
    });

    test('a synchronous render whose encoder dies early answers 502 at once instead of waiting for a drain', async () => {
      const { slug: _s, ...recipe } = animation(32, 2);
      // Waiting for FFmpeg's input to drain instead would hold the request until the animation budget ran out (504).
      const res = await t.request('post', '/v1/generate/plasma', { body: recipe });
      assert.equal(res.status, 502);
      assert.equal(res.body.code, 'upstream_error');
    });
  });
}

describe('jobs, credits and the pg-boss queue in hosted mode (postgres)', () => {
  let t: TestApp;
  let secret: string;
  const ws = 'ws_jobs_hosted';
  const auth = () => ({ auth: false as const, headers: { Authorization: `Bearer ${secret}` } });
  const messages = async (jobId?: string) => {
    const { rows } = await t.runtime.db.raw(`SELECT data->>'jobId' AS job_id, state FROM pgboss.job WHERE name = 'export-jobs'`);
    return (rows as { job_id: string; state: string }[]).filter((r) => !jobId || r.job_id === jobId);
  };
  before(async () => {
    t = await startTestApp('postgres', { env: { ...HOSTED_ENV, RUN_JOBS: '0' } });
    secret = await workspaceKey(t, { id: ws, name: 'Jobs' }, 'jobs');
  });
  after(async () => t?.close());

  test('submission reserves the cost and enqueues in one transaction (402: no row, no message); cancelling a queued job releases it', async () => {
    const refused = await t.request('post', '/v1/jobs', { ...auth(), body: tiny });
    assert.equal(refused.status, 402);
    assert.equal((await t.runtime.db('jobs').where({ workspace_id: ws })).length, 0, 'no job row without its reservation');
    assert.equal((await messages()).length, 0, 'no queue message without its job');
    await t.runtime.deps.services.credits.add({
      workspaceId: ws,
      amount: 5,
      kind: 'grant',
      id: 'grant_jobs',
      reference: 'test',
      description: 'grant',
    });
    const { body: job } = await t.request('post', '/v1/jobs', { ...auth(), body: tiny });
    assert.deepEqual(await messages(job.id), [{ job_id: job.id, state: 'created' }], 'one pg-boss message names the job');
    assert.equal((await t.runtime.deps.services.credits.balance(ws)).reserved, 1);
    await t.request('post', `/v1/jobs/${job.id}/cancel`, auth());
    assert.deepEqual(await t.runtime.deps.services.credits.balance(ws), { credits: 5, reserved: 0, available: 5 });
  });

  test('when the queue refuses the message, the job row and the credit hold roll back with it', async () => {
    const before = await t.runtime.deps.services.credits.balance(ws);
    const rows = (await t.runtime.db('jobs').where({ workspace_id: ws })).length;
    // No runner here: the messages left by earlier tests are not needed.
    await t.runtime.db.raw(`DELETE FROM pgboss.job WHERE name = 'export-jobs'`);
    await t.runtime.db.raw(`SELECT pgboss.delete_queue('export-jobs')`);
    try {
      const res = await t.request('post', '/v1/jobs', { ...auth(), body: { ...tiny, seed: 77 } });
      assert.equal(res.status, 500);
      assert.equal(res.body.code, 'internal_error');
      assert.equal((await t.runtime.db('jobs').where({ workspace_id: ws })).length, rows, 'no job row without its message');
      assert.deepEqual(await t.runtime.deps.services.credits.balance(ws), before, 'no credits held for a job that does not exist');
    } finally {
      await t.runtime.db.raw(
        `SELECT pgboss.create_queue('export-jobs', '{"policy":"standard","retryLimit":20,"retryDelay":1,"retryBackoff":true}'::json)`,
      );
    }
  });

  test('concurrent cancels of a queued job: one 200, the rest 409; the hold is released exactly once', async () => {
    const { body: job } = await t.request('post', '/v1/jobs', { ...auth(), body: { ...tiny, seed: 78 } });
    assert.equal((await t.runtime.deps.services.credits.balance(ws)).reserved, 1);
    const answers = await Promise.all(Array.from({ length: 6 }, () => t.request('post', `/v1/jobs/${job.id}/cancel`, auth())));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409, 409, 409, 409, 409]);
    assert.deepEqual(await t.runtime.deps.services.credits.balance(ws), { credits: 5, reserved: 0, available: 5 });
    const entries = await t.runtime.db('credit_entries').where({ reference: job.id });
    assert.deepEqual(
      entries.map((e) => e.status),
      ['released'],
    );
  });
});

describe('running jobs in hosted mode (postgres, pg-boss workers in the API process)', () => {
  let t: TestApp;
  let secret: string;
  const ws = 'ws_jobs_hosted_run';
  const auth = () => ({ auth: false as const, headers: { Authorization: `Bearer ${secret}` } });
  before(async () => {
    t = await startTestApp('postgres', { env: { ...HOSTED_ENV, JOB_LEASE_MS: '1500' } });
    secret = await workspaceKey(t, { id: ws, name: 'Jobs' }, 'jobs');
    await t.runtime.deps.services.credits.add({
      workspaceId: ws,
      amount: 100,
      kind: 'grant',
      id: 'grant_jobs_run',
      reference: 'test',
      description: 'grant',
    });
  });
  after(async () => t?.close());

  const waitFor = (id: string, statuses: string[]) => waitForJob(t, id, statuses, { headers: auth().headers });

  test('a completed job commits its hold once; its pg-boss message is completed', async () => {
    const { messages } = t.runtime.jobs.queue as PgBossJobQueue;
    const completed = armEvent(messages, 'completed');
    const { body: job } = await t.request('post', '/v1/jobs', { ...auth(), body: { ...tiny, seed: 90 } });
    await waitFor(job.id, ['completed']);
    const balance = await t.runtime.deps.services.credits.balance(ws);
    assert.deepEqual(balance, { credits: 99, reserved: 0, available: 99 });
    assert.deepEqual(await completed.wait('the pg-boss message to complete'), [job.id]);
    const { rows } = await t.runtime.db.raw(`SELECT state FROM pgboss.job WHERE data->>'jobId' = ?`, [job.id]);
    assert.deepEqual(rows, [{ state: 'completed' }]);
  });

  test('concurrent cancels of a running job: all 200, it ends cancelled, the hold is released exactly once', async () => {
    const before = await t.runtime.deps.services.credits.balance(ws);
    const { body: job } = await t.request('post', '/v1/jobs', {
      ...auth(),
      body: { ...animation(91, 10), format: 'mp4', size: { width: 640, height: 360 }, params: { duration: 10, fps: 30 } },
    });
    await waitFor(job.id, ['running']);
    // The lifecycle's `finished` comes after the runner has released the hold; the row already says
    // `cancelled` a moment before that, so waiting on the status alone would race the release.
    const finished = armEvent(t.runtime.jobs.lifecycle, 'finished', (j: JobRecord) => j.id === job.id, 2_000);
    const answers = await Promise.all(Array.from({ length: 6 }, () => t.request('post', `/v1/jobs/${job.id}/cancel`, auth())));
    assert.ok(
      answers.every((a) => a.status === 200 || (a.status === 409 && a.body.code === 'job_not_cancellable')),
      JSON.stringify(answers.map((a) => a.status)),
    );
    assert.equal(answers[0].status, 200);
    const [ended] = await finished.wait(`job ${job.id} to finish`);
    assert.equal(ended.status, 'cancelled');
    assert.deepEqual(await t.runtime.deps.services.credits.balance(ws), before);
    const entries = await t.runtime.db('credit_entries').where({ reference: job.id });
    assert.deepEqual(
      entries.map((e) => e.status),
      ['released'],
    );
  });

  test('a cancel that meets a lapsed lease: the sweeper ends the job cancelled and releases once', async () => {
    const before = await t.runtime.deps.services.credits.balance(ws);
    const { body: job } = await t.request('post', '/v1/jobs', { ...auth(), body: { ...tiny, seed: 92 } });
    await waitFor(job.id, ['completed']);
    // Stage a job held by a dead runner, asked to cancel, its hold still pending.
    const held = await t.runtime.deps.services.credits.reserve(ws, 1, job.id + '_x', 'staged', 60_000);
    await t.runtime
      .db('jobs')
      .where({ id: job.id })
      .update({
        status: 'running',
        cancel_requested: true,
        locked_by: 'runner_dead',
        locked_until: Date.now() - 1,
        reservation_id: held!.id,
      });
    const runner = t.runtime.jobs.runner;
    await Promise.all([runner.recoverLapsed(), t.request('post', `/v1/jobs/${job.id}/cancel`, auth())]);
    const ended = await waitFor(job.id, ['cancelled']);
    assert.equal(ended.cancelled, true);
    assert.deepEqual(await t.runtime.deps.services.credits.balance(ws), {
      ...before,
      credits: before.credits - 1,
      available: before.available - 1,
    });
  });

  test('a lapsed job with no attempts left fails with a readable error instead of running forever', async () => {
    const { body: job } = await t.request('post', '/v1/jobs', { ...auth(), body: { ...tiny, seed: 93 } });
    await waitFor(job.id, ['completed']);
    await t.runtime
      .db('jobs')
      .where({ id: job.id })
      .update({ status: 'running', attempts: 3, locked_by: 'runner_dead', locked_until: Date.now() - 1 });
    await t.runtime.jobs.runner.recoverLapsed();
    const failed = await waitFor(job.id, ['failed']);
    assert.match(String(failed.error), /stopped responding/);
  });
});
