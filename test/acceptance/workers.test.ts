// Worker processes for real (`src/worker.ts`, as `npm run worker` starts it) on one database with
// an API process, black-box: requests over HTTP, the workers' JSON log lines and a traced FFmpeg
// (test/support/black-box/traced-ffmpeg.ts) are what the test waits on. A worker killed with SIGKILL mid-job
// (its small export held running by the traced FFmpeg) loses the job to another worker once its
// lease lapses, and the job completes. (SIGTERM's hand-back of a running job is test/acceptance/drain.test.ts's.)
// On Postgres (pg-boss), two API processes and two workers: jobs spread over both workers and each
// completes once; a cache entry written by one API process is a HIT on the other — with the files in
// Postgres, and again in an S3 bucket (s3rver), whose results download from presigned URLs.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { createTestDatabase, ENGINES, type TestDatabase } from '../support/black-box/databases.ts';
import { BACKSTOP_MS } from '../support/black-box/logged-process.ts';
import { ROOT, runService, serviceCommand, type ServerProcess } from '../support/black-box/server-process.ts';
import { TEST_LOCAL_KEY } from '../support/black-box/test-keys.ts';
import { encodesSize, tracedFfmpeg, type TracedFfmpeg } from '../support/black-box/traced-ffmpeg.ts';
import { armEvent, withTimeout } from '../support/black-box/waiters.ts';
import { startS3Server } from '../support/black-box/s3-server.ts';
import { freeLoopbackPort } from '../support/black-box/listen.ts';

const LEASE_MS = 2_000;
/** An export the traced FFmpeg holds while `holdJobs` is set: 30 frames of 128×128, more than FFmpeg's pipe holds. */
const heldJob = (seed: number) => ({
  slug: 'plasma',
  seed,
  format: 'mp4',
  size: { width: 128, height: 128 },
  params: { duration: 1, fps: 30 },
});
const heldEncode = encodesSize(128, 128);
const shortJob = (seed: number) => ({
  slug: 'plasma',
  seed,
  format: 'gif',
  size: { width: 160, height: 90 },
  params: { duration: 1, fps: 10 },
});

type LogEntry = Record<string, unknown> & { msg?: string; jobId?: string; attempt?: number };

interface Worker {
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
  /** Every JSON log line the worker writes, as it writes it. */
  logs: EventEmitter<{ entry: [LogEntry] }>;
  /** Job ids this worker logged as completed. */
  completed: string[];
}

/**
 * The worker's first log entry `match` accepts from now on. Waits end on the entry; the timeout is
 * only a backstop against a hang, as long as the fault tier's (a long job on a machine at load 15
 * took more than the minute this used to allow).
 */
function armLog(worker: Worker, match: (e: LogEntry) => boolean, timeoutMs = BACKSTOP_MS) {
  return armEvent<[LogEntry]>(worker.logs, 'entry', match, timeoutMs);
}

for (const engine of ENGINES) {
  describe(`worker processes on ${engine}`, () => {
    let dataDir: string;
    let database: TestDatabase;
    let api: ServerProcess;
    let ffmpeg: TracedFfmpeg;
    /** Whether a heldJob's encode is held when it starts (until its worker dies, as nothing releases it). */
    let holdJobs = false;
    let env: Record<string, string>;
    const workers: Worker[] = [];
    const headers = { Authorization: `Bearer ${TEST_LOCAL_KEY}`, 'Content-Type': 'application/json' };
    const call = (method: string, url: string, body?: unknown, base = api.url) =>
      fetch(`${base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const submit = async (body: unknown, base?: string) => {
      const res = await call('POST', '/v1/jobs', body, base);
      assert.equal(res.status, 202);
      return ((await res.json()) as { id: string }).id;
    };
    const job = async (id: string) => (await (await call('GET', `/v1/jobs/${id}`)).json()) as { status: string; attempts: number };

    function startWorker(extraEnv: Record<string, string> = {}): Promise<Worker> {
      const child = spawn(process.execPath, serviceCommand('src/worker.ts'), {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env, ...extraEnv },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let partial = '';
      const logs = new EventEmitter<{ entry: [LogEntry] }>();
      const worker: Worker = {
        child,
        exited: new Promise((r) => child.once('exit', (code) => r(code))),
        output: () => out,
        logs,
        completed: [],
      };
      const started = armLog(worker, (e) => e.msg === 'worker started');
      child.stdout!.on('data', (d) => {
        out += d;
        const lines = (partial + d).split('\n');
        partial = lines.pop()!;
        for (const line of lines.filter((l) => l.startsWith('{'))) {
          const entry = JSON.parse(line) as LogEntry;
          if (entry.msg === 'job completed') worker.completed.push(entry.jobId!);
          logs.emit('entry', entry);
        }
      });
      child.stderr!.on('data', (d) => (out += d));
      workers.push(worker);
      return started.wait('the worker to start').then(
        () => worker,
        (err: Error) => Promise.reject(new Error(`${err.message}:\n${out}`)),
      );
    }

    before(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'render-service-workers-'));
      if (engine === 'sqlite') {
        // The worker finds the database (and the file cache) under DATA_DIR, like `npm start` does.
        database = {
          engine,
          settings: { client: 'sqlite', filename: path.join(dataDir, 'service.sqlite') },
          drop: async () => rmSync(dataDir, { recursive: true, force: true }),
        };
      } else database = await createTestDatabase('postgres');
      ffmpeg = await tracedFfmpeg({ hold: (encode) => holdJobs && heldEncode(encode.pid, encode.args) });
      env = {
        FFMPEG_PATH: ffmpeg.path,
        DATA_DIR: dataDir,
        SERVICE_LOCAL_MODE: '1',
        API_KEYS: TEST_LOCAL_KEY,
        JOB_LEASE_MS: String(LEASE_MS),
        LOG_LEVEL: 'info',
        RENDER_WORKERS: '1',
        ...(database.settings.client === 'pg' ? { DATABASE_URL: database.settings.url } : {}),
      };
      // The API process runs no jobs itself: only the worker processes do.
      api = await runService({ ...env, RUN_JOBS: '0', LOG_LEVEL: 'warn' });
    });
    after(async () => {
      for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
      await api?.stop();
      await ffmpeg?.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    // A test's workers never outlive it: one left running would take the next test's job.
    afterEach(() => {
      for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    });

    test('SIGKILL mid-job: another worker picks the job up after the lease and completes it', async () => {
      const first = await startWorker();
      holdJobs = true;
      const encoding = armEvent(ffmpeg.events, 'start', heldEncode, BACKSTOP_MS);
      const id = await submit(heldJob(1));
      const [pid] = await encoding.wait('the job to encode');
      const encodeEnded = armEvent(ffmpeg.events, 'exit', (p) => p === pid, BACKSTOP_MS);
      first.child.kill('SIGKILL');
      await first.exited;
      // Its FFmpeg, held until now, dies with it (the parent-death signal).
      await encodeEnded.wait('the FFmpeg of the killed worker to die with it');
      holdJobs = false;
      const second = await startWorker();
      // The second worker's own log says it completed the job, on the job's second attempt.
      await armLog(second, (e) => e.msg === 'job completed' && e.jobId === id).wait('the other worker to complete the job');
      assert.deepEqual(second.completed, [id]);
      const done = await job(id);
      assert.deepEqual([done.status, done.attempts], ['completed', 2]);
      const result = await call('GET', `/v1/jobs/${id}/result`);
      assert.equal(result.status, 200);
      assert.equal(result.headers.get('content-type'), 'video/mp4');
      second.child.kill('SIGTERM');
      assert.equal(await second.exited, 0);
    });

    test('a worker keeps no render cache in memory: its results go to the shared cache, which the API then answers from', async () => {
      const port = await freeLoopbackPort();
      const worker = await startWorker({ METRICS_PORT: String(port) });
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push(await submit(shortJob(300 + i)));
      const allDone = new Promise<void>((resolve) => {
        const check = () => ids.every((id) => worker.completed.includes(id)) && resolve();
        worker.logs.on('entry', check);
        check();
      });
      await withTimeout('the worker to complete every job', allDone, BACKSTOP_MS);
      // The worker's own gauge: nothing held (it kept every result it wrote, up to RENDER_MEMORY_CACHE_MB).
      const scraped = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      assert.equal(/^render_service_render_memory_cache_bytes (\S+)$/m.exec(scraped)?.[1], '0', 'bytes the worker holds in memory');
      // Each result is in the shared render cache all the same: the API answers its recipe as a HIT.
      const { slug, ...recipe } = shortJob(300);
      const again = await call('POST', `/v1/generate/${slug}`, recipe);
      assert.equal(again.status, 200, await again.clone().text());
      assert.equal(again.headers.get('x-service-cache'), 'HIT');
      worker.child.kill('SIGTERM');
      assert.equal(await worker.exited, 0);
    });

    /**
     * Two API processes and two workers on one database, with `blobs` (extra settings) for the files:
     * jobs spread over both workers and complete once, either API serves any result, a render cached
     * by one API is a HIT on the other. Resolves with the jobs' views as the second API returns them.
     */
    async function scaleOut(blobs: Record<string, string>, seedBase: number) {
      const apis = await Promise.all([0, 1].map(() => runService({ ...env, ...blobs, RUN_JOBS: '0', LOG_LEVEL: 'warn' })));
      const pair = await Promise.all([startWorker(blobs), startWorker(blobs)]);
      try {
        const base = (i: number) => apis[i % 2]!.url;
        const ids: string[] = [];
        for (let i = 0; i < 6; i++) ids.push(await submit(shortJob(seedBase + i), base(i)));
        // Every job is logged completed by exactly one worker, and each worker completed some.
        const allDone = new Promise<void>((resolve) => {
          const check = () => ids.every((id) => pair.some((w) => w.completed.includes(id))) && resolve();
          for (const w of pair) w.logs.on('entry', check);
          check();
        });
        await withTimeout('every job to complete', allDone, BACKSTOP_MS);
        const completions = pair.flatMap((w) => w.completed).filter((id) => ids.includes(id));
        assert.deepEqual([...completions].sort(), [...ids].sort(), 'each job completed once');
        assert.ok(
          pair.every((w) => w.completed.length > 0),
          'both workers took jobs',
        );
        const views: Array<{ id: string; status: string; attempts: number; resultUrl?: string; bytes: Buffer }> = [];
        for (const [i, id] of ids.entries()) {
          const view = (await (await call('GET', `/v1/jobs/${id}`, undefined, base(i + 1))).json()) as (typeof views)[number];
          assert.deepEqual([view.status, view.attempts], ['completed', 1], `${id} ran once`);
          // Either API process serves any job's result.
          const result = await call('GET', `/v1/jobs/${id}/result`, undefined, base(i + 1));
          assert.equal(result.status, 200);
          views.push({ ...view, bytes: Buffer.from(await result.arrayBuffer()) });
        }

        const body = { seed: seedBase, size: { width: 48, height: 48 } };
        assert.equal((await call('POST', '/v1/generate/mesh-gradient', body, base(0))).headers.get('x-service-cache'), 'MISS');
        assert.equal((await call('POST', '/v1/generate/mesh-gradient', body, base(1))).headers.get('x-service-cache'), 'HIT');
        return views;
      } finally {
        for (const w of pair) w.child.kill('SIGTERM');
        await Promise.all(pair.map((w) => w.exited));
        await Promise.all(apis.map((a) => a.stop()));
      }
    }

    test(
      'two API processes and two workers on one database: jobs spread over both workers, each completes once; the cache is shared',
      { skip: engine === 'sqlite' && 'multi-machine scale-out is a Postgres deployment' },
      async () => {
        const views = await scaleOut({}, 100);
        for (const view of views) assert.equal(view.resultUrl, `/v1/jobs/${view.id}/result`);
      },
    );

    test(
      'the same on an S3 bucket (BLOB_STORE=s3, a real S3-protocol server): results download from presigned URLs without credentials',
      { skip: engine === 'sqlite' && 'multi-machine scale-out is a Postgres deployment' },
      async () => {
        const s3 = await startS3Server();
        try {
          const views = await scaleOut(s3.env, 200);
          for (const view of views) {
            // The URL goes straight to the bucket, signed for a short while: no API key needed.
            assert.ok(view.resultUrl?.startsWith(`${s3.endpoint}/${s3.bucket}/results/job_`), view.resultUrl);
            const direct = await fetch(view.resultUrl!);
            assert.equal(direct.status, 200);
            assert.equal(direct.headers.get('content-type'), 'image/gif');
            assert.match(direct.headers.get('content-disposition') ?? '', /^attachment; filename="plasma-[0-9a-f]{12}\.gif"$/);
            assert.deepEqual(Buffer.from(await direct.arrayBuffer()), view.bytes);
          }
          // Without the signature the bucket refuses.
          assert.equal((await fetch(views[0]!.resultUrl!.split('?')[0]!)).status, 403);
        } finally {
          await s3.close();
        }
      },
    );
  });
}
