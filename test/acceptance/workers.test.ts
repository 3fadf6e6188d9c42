// Worker processes for real (`src/worker.ts`, as `npm run worker` starts it) on one database with
// an API app: a worker killed with SIGKILL mid-job loses the job to another worker once its lease
// lapses, and the job completes; SIGTERM drains (the job goes back to the queue, no FFmpeg is
// left behind). On Postgres (pg-boss), two API processes and two workers: jobs spread over both
// workers and each completes once; a cache entry written by one API process is a HIT on the other.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase, ENGINES, type TestDatabase } from '../support/databases.ts';
import { startTestApp, TEST_LOCAL_KEY, type TestApp } from '../support/harness.ts';
import { ffmpegChildrenOf, ROOT, runService } from '../support/server-process.ts';

const LEASE_MS = 2_000;
const longJob = (seed: number) => ({ slug: 'plasma', seed, format: 'mp4', size: { width: 640, height: 360 }, params: { duration: 6, fps: 30 } });
const shortJob = (seed: number) => ({ slug: 'plasma', seed, format: 'gif', size: { width: 160, height: 90 }, params: { duration: 1, fps: 10 } });

interface Worker {
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

for (const engine of ENGINES) {
  describe(`worker processes on ${engine}`, () => {
    let dataDir: string;
    let database: TestDatabase;
    let api: TestApp;
    let env: Record<string, string>;
    const workers: Worker[] = [];

    function startWorker(): Promise<Worker> {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      child.stderr!.on('data', (d) => (out += d));
      const worker: Worker = { child, exited: new Promise((r) => child.once('exit', (code) => r(code))), output: () => out };
      workers.push(worker);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`worker did not start:\n${out}`)), 30_000);
        const check = () => {
          if (out.includes('worker started')) {
            clearTimeout(timer);
            resolve(worker);
          } else setTimeout(check, 50);
        };
        check();
      });
    }

    async function waitFor(id: string, predicate: (job: Record<string, unknown>) => boolean, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const row = await api.runtime.db('jobs').where({ id }).first();
        if (row && predicate(row)) return row;
        if (Date.now() > deadline) assert.fail(`job ${id}: ${JSON.stringify(row)}`);
        await sleep(50);
      }
    }

    before(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'render-service-workers-'));
      if (engine === 'sqlite') {
        // The worker finds the database (and the file cache) under DATA_DIR, like `npm start` does.
        database = { engine, settings: { client: 'sqlite', filename: path.join(dataDir, 'service.sqlite') }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
      } else database = await createTestDatabase('postgres');
      env = {
        DATA_DIR: dataDir,
        SERVICE_LOCAL_MODE: '1',
        API_KEYS: TEST_LOCAL_KEY,
        JOB_LEASE_MS: String(LEASE_MS),
        LOG_LEVEL: 'info',
        RENDER_WORKERS: '1',
        ...(database.settings.client === 'pg' ? { DATABASE_URL: database.settings.url } : {}),
      };
      // The API process runs no jobs itself: only the worker processes do.
      api = await startTestApp(engine, { database, env: { RUN_JOBS: '0', DATA_DIR: dataDir, JOB_LEASE_MS: String(LEASE_MS) } });
    });
    after(async () => {
      for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
      await api?.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    test('SIGKILL mid-job: another worker picks the job up after the lease and completes it', async () => {
      const first = await startWorker();
      const { body: job } = await api.request('post', '/v1/jobs', { body: longJob(1) });
      const running = await waitFor(job.id, (j) => j.status === 'running' && Number(j.progress) > 0);
      const victim = running.locked_by;
      first.child.kill('SIGKILL');
      await first.exited;
      const second = await startWorker();
      const done = await waitFor(job.id, (j) => j.status === 'completed', 60_000);
      assert.notEqual(done.locked_by, victim, 'finished by the other worker');
      assert.equal(Number(done.attempts), 2);
      const result = await api.request('get', `/v1/jobs/${job.id}/result`);
      assert.equal(result.status, 200);
      assert.equal(result.headers['content-type'], 'video/mp4');
      second.child.kill('SIGTERM');
      assert.equal(await second.exited, 0);
    });

    test('SIGTERM drains: the job goes back to the queue and no FFmpeg is left behind', async () => {
      const worker = await startWorker();
      const { body: job } = await api.request('post', '/v1/jobs', { body: longJob(2) });
      await waitFor(job.id, (j) => j.status === 'running' && Number(j.progress) > 0);
      let ffmpeg: number[] = [];
      for (let i = 0; i < 100 && ffmpeg.length === 0; i++) {
        ffmpeg = ffmpegChildrenOf(worker.child.pid!);
        await sleep(50);
      }
      assert.ok(ffmpeg.length > 0, 'the worker runs FFmpeg');
      worker.child.kill('SIGTERM');
      assert.equal(await worker.exited, 0, worker.output());
      const row = await api.runtime.db('jobs').where({ id: job.id }).first();
      assert.equal(row.status, 'queued', 'handed back, not stuck in running');
      await sleep(200);
      for (const pid of ffmpeg) assert.equal(alive(pid), false, `ffmpeg ${pid} was left running`);
      // Another worker finishes it.
      const next = await startWorker();
      await waitFor(job.id, (j) => j.status === 'completed', 60_000);
      next.child.kill('SIGTERM');
      await next.exited;
    });

    test('two API processes and two workers on one database: jobs spread over both workers, each completes once; the cache is shared', { skip: engine === 'sqlite' && 'multi-machine scale-out is a Postgres deployment' }, async () => {
      const apis = await Promise.all([0, 1].map(() => runService({ ...env, RUN_JOBS: '0', LOG_LEVEL: 'warn' })));
      const pair = await Promise.all([startWorker(), startWorker()]);
      try {
        const call = (i: number, method: string, url: string, body?: unknown) =>
          fetch(`${apis[i % 2].url}${url}`, { method, headers: { Authorization: `Bearer ${TEST_LOCAL_KEY}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
        const ids: string[] = [];
        for (let i = 0; i < 6; i++) {
          const res = await call(i, 'POST', '/v1/jobs', shortJob(100 + i));
          assert.equal(res.status, 202);
          ids.push(((await res.json()) as { id: string }).id);
        }
        const rows = await Promise.all(ids.map((id) => waitFor(id, (j) => j.status === 'completed', 60_000)));
        assert.ok(rows.every((r) => Number(r.attempts) === 1), 'each job ran once');
        assert.equal(new Set(rows.map((r) => r.locked_by)).size, 2, 'both workers took jobs');
        // Either API process serves any job's result.
        for (const [i, id] of ids.entries()) assert.equal((await call(i + 1, 'GET', `/v1/jobs/${id}/result`)).status, 200);

        const body = { seed: 4242, size: { width: 48, height: 48 } };
        assert.equal((await call(0, 'POST', '/v1/generate/mesh-gradient', body)).headers.get('x-service-cache'), 'MISS');
        assert.equal((await call(1, 'POST', '/v1/generate/mesh-gradient', body)).headers.get('x-service-cache'), 'HIT');
      } finally {
        for (const w of pair) w.child.kill('SIGTERM');
        await Promise.all(pair.map((w) => w.exited));
        await Promise.all(apis.map((a) => a.stop()));
      }
    });
  });
}
