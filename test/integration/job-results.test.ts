// A completed job's file, in every blob store (files under DATA_DIR on SQLite, the Postgres table,
// an S3 bucket on a real S3-protocol server on both databases): stored as the job's own object and
// served by GET /v1/jobs/{id}/result; on S3 `resultUrl` is a presigned URL that needs no
// credentials; the retention sweep deletes results past RESULT_RETENTION_MS (then 410) and keeps
// younger ones; a job ended elsewhere while its result uploaded leaves no object; a job completed
// before results had their own object is served from the render cache.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RESULT_RETENTION_MS } from '../../src/jobs/job-results.ts';
import { ENGINES, type EngineName } from '../support/black-box/databases.ts';
import { startS3Server, type S3TestServer } from '../support/black-box/s3-server.ts';
import { waitForJob } from '../support/events.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

const recipe = (seed: number) => ({ slug: 'mesh-gradient', seed, size: { width: 64, height: 48 }, format: 'png' as const });
const URL_TTL_SECONDS = 120;

const setups: Array<{ engine: EngineName; store: 'default' | 's3' }> = ENGINES.flatMap((engine) => [
  { engine, store: 'default' as const },
  { engine, store: 's3' as const },
]);

for (const { engine, store } of setups) {
  describe(`job results on ${engine}, ${store === 's3' ? 'BLOB_STORE=s3' : engine === 'sqlite' ? 'files' : 'the database'}`, () => {
    let t: TestApp;
    let s3: S3TestServer | undefined;
    let offset = 0;

    before(async () => {
      if (store === 's3') s3 = await startS3Server();
      t = await startTestApp(engine, {
        env: { ...(s3?.env ?? {}), RESULT_URL_TTL_SECONDS: String(URL_TTL_SECONDS) },
        compose: { clock: { now: () => Date.now() + offset } },
      });
    });
    after(async () => {
      await t?.close();
      await s3?.close();
    });

    const complete = async (seed: number) => {
      const created = await t.request('post', '/v1/jobs', { body: recipe(seed) });
      assert.equal(created.status, 202, created.text);
      await waitForJob(t, created.body.id, ['completed']);
      const row = await t.runtime.db('jobs').where({ id: created.body.id }).first('result_key');
      return { id: created.body.id as string, key: row.result_key as string };
    };

    test('the result is the job’s own object, byte-identical to the synchronous render; resultUrl says where to get it', async () => {
      const { id, key } = await complete(1);
      assert.match(key, /^job_[0-9a-f]{24}\.png$/);
      const stored = await t.runtime.jobs.results.get(key);
      const { seed, size, format } = recipe(1);
      const sync = await t.request('post', '/v1/generate/mesh-gradient', { body: { seed, size, format } });
      const download = await t.request('get', `/v1/jobs/${id}/result`);
      assert.equal(download.status, 200);
      assert.deepEqual(download.body, sync.body);
      assert.deepEqual(stored, sync.body);

      const view = (await t.request('get', `/v1/jobs/${id}`)).body;
      if (!s3) {
        assert.equal(view.resultUrl, `/v1/jobs/${id}/result`);
        assert.equal(view.resultUrlExpiresAt, undefined);
        return;
      }
      // Presigned: straight to the bucket, no credentials, for RESULT_URL_TTL_SECONDS.
      assert.ok(view.resultUrl.startsWith(`${s3.endpoint}/${s3.bucket}/results/${key}?`), view.resultUrl);
      const lifetime = Date.parse(view.resultUrlExpiresAt) - Date.now();
      assert.ok(lifetime > 0 && lifetime <= URL_TTL_SECONDS * 1000, `expires in ${lifetime} ms`);
      // Exactly when the signature stops working: its signing time (whole seconds) plus its lifetime.
      const signed = new URL(view.resultUrl).searchParams;
      const signedAt = Date.parse(
        signed.get('X-Amz-Date')!.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
      );
      assert.equal(Date.parse(view.resultUrlExpiresAt), signedAt + Number(signed.get('X-Amz-Expires')) * 1000);
      const direct = await fetch(view.resultUrl);
      assert.equal(direct.status, 200);
      assert.equal(direct.headers.get('content-type'), 'image/png');
      assert.match(direct.headers.get('content-disposition') ?? '', /^attachment; filename="mesh-gradient-[0-9a-f]{12}\.png"$/);
      assert.deepEqual(Buffer.from(await direct.arrayBuffer()), sync.body);
      // The list carries presigned URLs too; the API path stays what webhooks carry.
      const listed = (await t.request('get', '/v1/jobs?status=completed')).body.find((j: { id: string }) => j.id === id);
      assert.ok(listed.resultUrl.startsWith(`${s3.endpoint}/`));
    });

    test('retention: the sweep deletes results past their retention (then 410) and keeps younger ones', async () => {
      const old = await complete(2);
      const oldView = (await t.request('get', `/v1/jobs/${old.id}`)).body;
      // Completed "later": (pg-boss schedules by the database's clock, so jobs are submitted before the jump).
      const young = await complete(3);
      await t.runtime
        .db('jobs')
        .where({ id: young.id })
        .increment('expires_at', 2 * RESULT_RETENTION_MS);
      offset = RESULT_RETENTION_MS + 60_000;
      try {
        const swept = await t.runtime.jobs.results.sweep();
        assert.ok(swept >= 1, `swept ${swept}`);
        assert.equal(await t.runtime.jobs.results.get(old.key), undefined, 'the expired object is deleted');
        assert.equal((await t.runtime.db('jobs').where({ id: old.id }).first('result_key')).result_key, null);
        const gone = await t.request('get', `/v1/jobs/${old.id}/result`);
        assert.equal(gone.status, 410);
        assert.equal(gone.body.code, 'result_expired');
        if (s3) assert.equal((await fetch(oldView.resultUrl)).status, 404, 'an earlier presigned URL finds nothing');
        // The younger job keeps its file.
        assert.ok(await t.runtime.jobs.results.get(young.key));
        assert.equal((await t.request('get', `/v1/jobs/${young.id}/result`)).status, 200);
        // A second sweep finds nothing more to do.
        assert.equal(await t.runtime.jobs.results.sweep(), 0);
      } finally {
        offset = 0;
      }
    });

    test('a job ended elsewhere while its result uploaded (lease lapsed, swept as failed) leaves no object behind', async () => {
      const results = t.runtime.jobs.results;
      const put = results.put.bind(results);
      let swept!: (key: string) => void;
      const uploaded = new Promise<string>((resolve) => (swept = resolve));
      // Spy on the upload: right after it, the lapse sweep of another process ends the job.
      results.put = async (job, bytes) => {
        const key = await put(job, bytes);
        await t.runtime
          .db('jobs')
          .where({ id: job.id })
          .update({ status: 'failed', error: 'lost', locked_by: null, finished_at: Date.now() });
        swept(key);
        return key;
      };
      try {
        await t.request('post', '/v1/jobs', { body: recipe(5) });
        const key = await uploaded;
        // The runner's completion is refused; once it has ended, the object is gone.
        await t.runtime.jobs.runner.idle();
        assert.equal(await results.get(key), undefined, 'the uploaded result was deleted');
      } finally {
        results.put = put;
      }
    });

    test('a job completed before results had their own object is served from the render cache', async () => {
      const { id } = await complete(4);
      await t.runtime.db('jobs').where({ id }).update({ result_key: null });
      const download = await t.request('get', `/v1/jobs/${id}/result`);
      assert.equal(download.status, 200);
      assert.equal((await t.request('get', `/v1/jobs/${id}`)).body.resultUrl, `/v1/jobs/${id}/result`);
    });
  });
}
