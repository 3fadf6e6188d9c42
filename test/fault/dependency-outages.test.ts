// The fault tier: hosted mode as it runs in production — API processes (one with RUN_JOBS=0, one
// running jobs as is the default) and workers on a real Postgres and a real S3-protocol server, one
// worker SIGKILLed during the database outage — under a small steady load (misses,
// hits, batches, exports submitted, listed and downloaded), while the test stops and starts its
// dependencies: Postgres with a fast shutdown (as a managed database restarts or fails over) and
// the object store. Black-box: HTTP, the processes' JSON logs and the operator's admin command.
// What must hold on every run: no process exits; no 500 (only 503 with Retry-After) during an
// outage; every export ends (completed, or failed naming storage once STORAGE_OUTAGE_WAIT_SECONDS
// has passed, its credits released); after each outage the ledger balances and usage equals the
// charges; a process started while its database or its bucket is down serves once it is back, or
// exits 1 after STARTUP_WAIT_SECONDS; every line a process writes is JSON (but its start-up banner),
// and each outage is logged once by each process (a warning, then an info line with its counts),
// with no error line meanwhile; a rendered export waiting for storage does not hold up those queued
// behind it, and an export submitted while storage is known to be down is refused with 503.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as pace } from 'node:timers/promises';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { BACKSTOP_MS, type LoggedProcess, startLoggedProcess, waitForLogIn } from '../support/black-box/logged-process.ts';
import { type PostgresServer, startPostgresServer } from '../support/black-box/postgres-server.ts';
import { type S3TestServer, startS3Server } from '../support/black-box/s3-server.ts';
import { ROOT } from '../support/black-box/server-process.ts';
import { encodesSize, tracedFfmpeg, type TracedFfmpeg } from '../support/black-box/traced-ffmpeg.ts';
import { armEvent, untilStatus, withTimeout } from '../support/black-box/waiters.ts';

const run = promisify(execFile);
const WORKSPACE = 'ws_fault';
const GRANTED = 100_000;
/** The load's pace between two requests of one loop (it is a load, not a wait for anything). */
const LOAD_PACE_MS = 40;
const LOAD_MAX_REQUESTS = 20_000;
const small = { width: 48, height: 48 };
const shortExport = (seed: number) => ({
  slug: 'plasma',
  seed,
  format: 'gif',
  size: { width: 120, height: 68 },
  params: { duration: 1, fps: 10 },
});

interface Answer {
  op: string;
  status: number;
  headers: Headers;
  body: Buffer;
}

/** A steady small load from two loops; records what it gets and emits every answer. */
class Load {
  readonly answers = new EventEmitter<{ answer: [Answer] }>();
  /** 5xx other than 503, 503 without Retry-After, and requests the API did not answer at all. */
  readonly violations: string[] = [];
  readonly counts = new Map<string, number>();
  readonly jobs: string[] = [];
  /** False: the load submits no more exports (it lists them instead) until set again. */
  submitJobs = true;
  hitUrl: string | undefined;
  private stopped = false;
  private loops: Promise<void>[] = [];
  private seed: number;

  /** Loop n sends its requests to `bases[n % bases.length]`. */
  constructor(
    readonly bases: string[],
    private readonly headers: Record<string, string>,
    private readonly maxJobs: number,
    firstSeed: number,
  ) {
    this.seed = firstSeed;
  }

  get base(): string {
    return this.bases[0];
  }

  async call(op: string, method: string, url: string, body?: unknown, base = this.base): Promise<Answer | undefined> {
    let res: Response;
    try {
      res = await fetch(base + url, { method, headers: this.headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (err) {
      this.violations.push(`${op}: no answer (${(err as Error).message})`);
      return undefined;
    }
    const answer = { op, status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
    const key = `${op} ${res.status}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    if (res.status >= 500 && res.status !== 503) this.violations.push(`${key}: ${answer.body.toString().slice(0, 300)}`);
    if (res.status === 503 && !(Number(res.headers.get('retry-after')) > 0)) this.violations.push(`${key} without Retry-After`);
    this.answers.emit('answer', answer);
    return answer;
  }

  private async step(i: number, base: string): Promise<void> {
    switch (i % 6) {
      case 0: {
        const res = await this.call('generate', 'POST', '/v1/generate/mesh-gradient', { seed: this.seed++, size: small }, base);
        if (res?.status === 200 && !this.hitUrl)
          this.hitUrl = `/v1/render/${res.headers.get('x-service-recipe-hash')}?r=${res.headers.get('x-service-recipe')}`;
        return;
      }
      case 1:
        if (this.hitUrl) await this.call('renderRecipe', 'GET', this.hitUrl, undefined, base);
        return;
      case 2:
        await this.call('renderBatch', 'POST', '/v1/batch', { items: [{ slug: 'mesh-gradient', seed: this.seed++, size: small }] }, base);
        return;
      case 3:
        if (this.submitJobs && this.jobs.length < this.maxJobs && i % 24 === 3) {
          const res = await this.call('createJob', 'POST', '/v1/jobs', shortExport(this.seed++), base);
          if (res?.status === 202) this.jobs.push(JSON.parse(res.body.toString()).id);
        } else await this.call('listJobs', 'GET', '/v1/jobs', undefined, base);
        return;
      case 4:
        if (this.jobs.length > 0) await this.call('getJob', 'GET', `/v1/jobs/${this.jobs[i % this.jobs.length]}`, undefined, base);
        return;
      case 5:
        if (this.jobs.length > 0) await this.call('getJobResult', 'GET', `/v1/jobs/${this.jobs[0]}/result`, undefined, base);
        return;
    }
  }

  start(): void {
    this.stopped = false;
    this.loops = [0, 1].map(async (loop) => {
      const base = this.bases[loop % this.bases.length];
      for (let i = loop * 3; !this.stopped && i < LOAD_MAX_REQUESTS; i++) {
        await this.step(i, base);
        await pace(LOAD_PACE_MS);
      }
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  /** Waits for `count` answers that `match` accepts, from now on. */
  async expect(what: string, match: (a: Answer) => boolean, count = 1, timeoutMs = BACKSTOP_MS): Promise<void> {
    let seen = 0;
    const waiter = armEvent<[Answer]>(this.answers, 'answer', (a) => match(a) && ++seen >= count, timeoutMs);
    await waiter.wait(what).catch((err: Error) => {
      throw new Error(
        `${err.message} (answers so far: ${[...this.counts].map(([k, n]) => `${k} ×${n}`).join(', ')}; ${this.violations.join('; ')})`,
      );
    });
  }
}

/**
 * An export still running when a dependency stops (the issue's reproduction used 300 frames at
 * 1280×720): small, and held running by the traced FFmpeg while `holdExports` is set — its first
 * frames go into FFmpeg's pipe (30 frames of 128×128 are more than the pipe holds) and the render
 * waits for FFmpeg — until the test releases it.
 */
const heldExport = (seed: number) => ({
  slug: 'plasma',
  seed,
  format: 'mp4',
  size: { width: 128, height: 128 },
  params: { duration: 1, fps: 30 },
});
const heldEncode = encodesSize(128, 128);
/** The retries of a result upload (1 s doubling to 15 s) by the time the 5th is logged: 1 + 2 + 4 + 8 s. */
const STORAGE_RETRIES_OUTLASTING_THE_OLD_WINDOW = 5;
const DATABASE_DOWN = 'The database is unavailable: requests that need it answer 503 until it is back';
const DATABASE_BACK = 'The database is available again';
const STORAGE_DOWN = 'Object storage is unavailable: requests that need it answer 503 until it is back';
const STORAGE_BACK = 'Object storage is available again';
/** What a process prints besides its JSON log: its start-up banner (src/main.ts) and a refusal to start. */
const BANNER =
  /^(Render service \((local|hosted) mode\) on |  API reference: |Starting at http:\/\/\S+: waiting for |Gave up after \d+ s \(STARTUP_WAIT_SECONDS\))/;

/** Lines a process wrote that are neither JSON log lines nor its banner: none, is the rule. */
const strayLines = (p: LoggedProcess) =>
  p
    .output()
    .split('\n')
    .filter((line) => line && !line.startsWith('{') && !BANNER.test(line));

/**
 * One outage as a process logged it: its start (a warning) and its end (info, with its counts), once
 * each, and no error line in between. Returns the end's entry.
 */
const outageLoggedOnce = async (p: LoggedProcess, down: string, back: string, what: string) => {
  const end = await p.waitForLog((e) => e.msg === back && p.entries.some((s) => s.msg === down), `${what}: its end logged`);
  const from = p.entries.findIndex((e) => e.msg === down);
  const to = p.entries.indexOf(end);
  const during = p.entries.slice(from, to + 1);
  assert.deepEqual(
    during.filter((e) => e.msg === down || e.msg === back).map((e) => [e.msg, e.level]),
    [
      [down, 40],
      [back, 30],
    ],
    `${what}: logged once when it started and once when it ended`,
  );
  assert.deepEqual(
    during.filter((e) => Number(e.level) >= 50).map((e) => e.msg),
    [],
    `${what}: no error line during the outage`,
  );
  return end;
};

describe('hosted mode rides out a database restart and an object-storage outage (real Postgres, real S3 server)', () => {
  let pg: PostgresServer;
  let s3: S3TestServer;
  let dataDir: string;
  let env: Record<string, string>;
  /** An API process that runs no jobs (RUN_JOBS=0), as production scales them. */
  let api: LoggedProcess;
  /** An API process that also runs jobs (RUN_JOBS unset: the default), the one that died in the issue. */
  let apiRunner: LoggedProcess;
  let worker: LoggedProcess;
  /** A worker SIGKILLed during the database outage while it runs an export. */
  let doomed: LoggedProcess;
  /** Started during the storage outage with STORAGE_OUTAGE_WAIT_SECONDS=0: later the runner that gives up on storage. */
  let impatient: LoggedProcess;
  const others: LoggedProcess[] = [];
  let headers: Record<string, string>;
  let apiBase: string;
  let apiRunnerBase: string;
  let load: Load | undefined;
  /** FFMPEG_PATH of every process: the real FFmpeg, which holds a heldExport's encode while `holdExports` is set. */
  let ffmpeg: TracedFfmpeg;
  let holdExports = false;

  const admin = async (...args: string[]) =>
    (await run(process.execPath, ['bin/render-service.mjs', 'admin', ...args], { cwd: ROOT, env })).stdout.trim();
  const get = async (base: string, url: string) => {
    const res = await fetch(base + url, { headers });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };
  /** A job's end as a runner logs it (already logged, or still to come), on whichever of `runners` recorded it. */
  const ended = async (runners: LoggedProcess[], jobId: string) =>
    (await waitForLogIn(runners, (e) => e.jobId === jobId && (e.msg === 'job completed' || e.msg === 'job failed'), `job ${jobId} to end`))
      .entry;
  /** Asks for a job until `match` accepts it (its progress is written every 250 ms while it renders). */
  const untilJob = async (id: string, match: (job: Record<string, unknown>) => boolean, what: string) => {
    const deadline = Date.now() + BACKSTOP_MS;
    let job: Record<string, unknown> = {};
    while (Date.now() < deadline) {
      job = (await get(apiBase, `/v1/jobs/${id}`)).body;
      if (match(job)) return job;
      await pace(250);
    }
    assert.fail(`${what}: ${JSON.stringify(job)}`);
  };
  const alive = (...processes: LoggedProcess[]) => {
    for (const p of processes) assert.equal(p.child.exitCode, null, `a process exited:\n${p.output().slice(-4000)}`);
  };

  /**
   * The ledger after an outage (the load stopped): every usage row kept through it has been written,
   * usage equals the committed charges, and nothing stays reserved.
   */
  const ledgerBalances = async (after: string, apiBases: string[], processes: LoggedProcess[]) => {
    // An API process writes the rows it kept when asked for usage; a worker on its retry timer (logged).
    for (const base of apiBases) assert.equal((await get(base, '/v1/usage')).status, 200);
    for (const p of processes) {
      const failed = p.entries.map((e) => e.msg === 'could not record usage: kept, trying again').lastIndexOf(true);
      if (failed >= 0)
        await p.waitForLog(
          (e) => e.msg === 'usage recorded again' && p.entries.indexOf(e) > failed,
          `kept usage rows to be written ${after}`,
        );
    }
    // Charges that waited for the database land within seconds of its return (retried every 2 s at
    // most), and a runner writes a job's usage row within a second of its end: asked until they have.
    let balance = { credits: 0, reserved: -1 };
    let usage = { credits: -1, renders: 0 };
    for (let ask = 0; ask < 240; ask++) {
      balance = (await get(apiBase, '/v1/billing')).body.balance as typeof balance;
      usage = (await get(apiBase, '/v1/usage')).body.totals as typeof usage;
      if (balance.reserved === 0 && usage.credits === GRANTED - balance.credits) break;
      await pace(250);
    }
    assert.equal(balance.reserved, 0, `nothing held ${after}`);
    assert.ok(usage.renders > 0);
    assert.equal(usage.credits, GRANTED - balance.credits, `usage equals the committed charges ${after}`);
    const workspaces = JSON.parse(await admin('workspaces', '--json')) as { id: string; credits: number; reserved: number }[];
    const operatorView = workspaces.find((w) => w.id === WORKSPACE);
    assert.deepEqual({ credits: operatorView?.credits, reserved: operatorView?.reserved }, { credits: balance.credits, reserved: 0 });
  };

  before(async () => {
    [pg, s3, ffmpeg] = await Promise.all([
      startPostgresServer(),
      startS3Server(),
      tracedFfmpeg({ hold: (encode) => holdExports && heldEncode(encode.pid, encode.args) }),
    ]);
    dataDir = mkdtempSync(path.join(tmpdir(), 'render-service-fault-'));
    env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      SERVICE_LOCAL_MODE: '0',
      APP_ORIGIN: 'https://app.example.test',
      AUTH_SECRET: 'x'.repeat(40),
      DATABASE_URL: pg.url,
      DATA_DIR: dataDir,
      FFMPEG_PATH: ffmpeg.path,
      ...s3.env,
      RENDER_WORKERS: '1',
      // Runners that live through an outage keep their jobs' leases past it, so no other runner's
      // sweep takes a job they still run; the doomed worker's lease lapses within seconds.
      JOB_LEASE_MS: '600000',
      // The load is steady, not a rate-limit test.
      RATE_LIMIT_WORKSPACE_PER_MINUTE: '1000000',
      RATE_LIMIT_KEY_PER_MINUTE: '1000000',
      LOG_LEVEL: 'info',
    };
    await admin('workspace', 'create', '--name', 'Fault', '--id', WORKSPACE);
    await admin('credits', 'grant', WORKSPACE, String(GRANTED), '--reason', 'fault tier');
    headers = { Authorization: `Bearer ${await admin('key', 'create', WORKSPACE, '--label', 'load')}`, 'Content-Type': 'application/json' };
    api = startLoggedProcess('src/main.ts', { ...env, RUN_JOBS: '0' });
    apiRunner = startLoggedProcess('src/main.ts', env);
    worker = startLoggedProcess('src/worker.ts', env);
    doomed = startLoggedProcess('src/worker.ts', { ...env, JOB_LEASE_MS: '4000' });
    apiBase = (await api.waitForOutput(/on (http:\/\/\S+)/))[1];
    apiRunnerBase = (await apiRunner.waitForOutput(/on (http:\/\/\S+)/))[1];
    for (const w of [worker, doomed]) await w.waitForLog((e) => e.msg === 'worker started', 'the workers to start');
  });
  after(async () => {
    await load?.stop();
    const processes = [api, apiRunner, worker, doomed, impatient, ...others].filter(Boolean);
    for (const p of processes) await p.stop('SIGKILL');
    await Promise.all([pg?.close(), s3?.close(), ffmpeg?.close()]);
    rmSync(dataDir, { recursive: true, force: true });
    // Whatever happened, every process wrote JSON log lines only (and its banner).
    for (const p of processes) assert.deepEqual(strayLines(p), [], `only JSON log lines and the banner:\n${p.output().slice(-2000)}`);
  });

  test('Postgres stops (fast shutdown) while exports run in an API process (RUN_JOBS=1) and in workers, one of them killed: nothing else exits, 503 not 500, every export completes, the ledger balances', async () => {
    const runners = [apiRunner, worker, doomed];
    // Loop 0 on the API that runs no jobs, loop 1 on the one that does.
    load = new Load([apiBase, apiRunnerBase], headers, 24, 10_000);
    load.start();
    await load.expect('a render and a job under the load', (a) => a.op === 'createJob' && a.status === 202);
    // No more short exports until the long ones run, and those so far ended and counted: the worker
    // about to be killed holds no usage row in memory (a SIGKILL loses those).
    load.submitJobs = false;
    await load.stop();
    for (const id of load.jobs) assert.equal((await ended(runners, id)).msg, 'job completed');
    await ledgerBalances('before the outage', [apiBase, apiRunnerBase], runners);
    load.start();

    // One held export per runner (each runs one at a time), all running when the database goes.
    holdExports = true;
    const longIds: string[] = [];
    for (const seed of [7, 8, 9]) {
      const res = await load.call('createJob', 'POST', '/v1/jobs', heldExport(seed));
      assert.equal(res?.status, 202, res?.body.toString());
      longIds.push(JSON.parse(res!.body.toString()).id);
    }
    const startedOn = new Map<LoggedProcess, string>();
    for (const id of longIds)
      startedOn.set((await waitForLogIn(runners, (e) => e.msg === 'job started' && e.jobId === id, `export ${id} to start`)).process, id);
    assert.equal(startedOn.size, 3, 'each runner runs one of the long exports');
    const [onApi, onWorker, onDoomed] = runners.map((r) => startedOn.get(r)!);
    await ffmpeg.whenHeld(3);
    assert.deepEqual(
      ffmpeg.held.map((e) => e.parent).sort(),
      runners.map((r) => r.child.pid).sort(),
      'each runner holds the encode of its export',
    );
    // Only these: the killed worker's export, run again later, is not held.
    holdExports = false;
    // Rendering, past their first database read (a cancel check that met the outage would hold the
    // render back until the database returned, and the wait below would never end): each has
    // recorded some progress.
    for (const id of longIds) await untilJob(id, (job) => Number(job.progress) > 0, `export ${id} to render`);
    load.submitJobs = true;

    await pg.stop();
    await load.expect('503s while Postgres is down', (a) => a.status === 503, 5);
    // The doomed worker dies mid-export, its job's lease still held, and its held FFmpeg with it.
    assert.ok(!doomed.entries.some((e) => e.jobId === onDoomed && e.msg === 'job completed'), 'its export was still running');
    alive(doomed);
    const doomedEncode = ffmpeg.held.find((e) => e.parent === doomed.child.pid)!.pid;
    const doomedEncodeEnded = armEvent(ffmpeg.events, 'exit', (pid) => pid === doomedEncode, BACKSTOP_MS);
    await doomed.stop('SIGKILL');
    await doomedEncodeEnded.wait('the FFmpeg of the killed worker to die with it');
    // The database stays away until the other two have rendered — their exports released now — and
    // wait to record their completion (where a pg-boss call nobody awaited used to end the process:
    // the API 8 s into the outage).
    assert.equal(ffmpeg.release(), 2, 'the exports of the API process and the worker');
    for (const [runner, id] of [
      [apiRunner, onApi],
      [worker, onWorker],
    ] as const)
      assert.equal(
        (
          await runner.waitForLog(
            (e) => e.jobId === id && /^(database unavailable: retrying|job completed|job failed)/.test(String(e.msg)),
            `${id} to wait for the database`,
          )
        ).msg,
        'database unavailable: retrying the completion',
        `${id} rendered during the outage and waits to record its completion`,
      );
    // Every process notices the outage (the runners' queues, the APIs' requests), and says so once.
    for (const p of [api, apiRunner, worker]) await p.waitForLog((e) => e.msg === DATABASE_DOWN, 'the outage to be noticed');
    const during = await fetch(`${apiBase}/v1/ready`);
    assert.equal(during.status, 503);
    assert.ok(Number(during.headers.get('retry-after')) > 0);
    alive(api, apiRunner, worker);

    await pg.start();
    await load.expect('listJobs answering again', (a) => a.op === 'listJobs' && a.status === 200);
    await load.expect('a new export accepted again', (a) => a.op === 'createJob' && a.status === 202);
    await load.stop();
    alive(api, apiRunner, worker);
    // Each process logged the outage once each way; the API under load counted what it refused, and
    // a refused request's own line is info, naming the database.
    const apiEnd = await outageLoggedOnce(api, DATABASE_DOWN, DATABASE_BACK, 'the API (RUN_JOBS=0)');
    assert.ok(Number(apiEnd.requestsRefused) > 0, JSON.stringify(apiEnd));
    await outageLoggedOnce(apiRunner, DATABASE_DOWN, DATABASE_BACK, 'the API running jobs');
    await outageLoggedOnce(worker, DATABASE_DOWN, DATABASE_BACK, 'the worker');
    // (The readiness check's 503 is an info line too, naming nothing: it reports on every dependency.)
    const refusedLines = api.entries.filter(
      (e) =>
        (e.res as { statusCode?: number } | undefined)?.statusCode === 503 &&
        !String((e.req as { url?: string } | undefined)?.url).startsWith('/v1/ready'),
    );
    assert.ok(refusedLines.length > 0);
    assert.ok(
      refusedLines.every((e) => e.level === 30 && e.dependency === 'database' && e.err === undefined),
      'a 503 for the outage is an info line naming the database, without a stack',
    );

    // The runners that lived through it complete their exports; the killed worker's is handed back
    // by a sweep (its lease lapsed) and runs once more elsewhere.
    const survivors = [apiRunner, worker];
    assert.equal(
      (await apiRunner.waitForLog((e) => e.jobId === onApi && e.msg === 'job completed', 'the API process to complete its export')).msg,
      'job completed',
    );
    assert.equal(
      (await worker.waitForLog((e) => e.jobId === onWorker && e.msg === 'job completed', 'the worker to complete its export')).msg,
      'job completed',
    );
    await waitForLogIn(
      survivors,
      (e) => e.jobId === onDoomed && e.msg === 'job lease lapsed: queued again',
      'the killed export to be handed back',
    );
    assert.equal((await ended(survivors, onDoomed)).msg, 'job completed');
    const recovered = (await get(apiBase, `/v1/jobs/${onDoomed}`)).body;
    assert.deepEqual({ status: recovered.status, attempts: recovered.attempts }, { status: 'completed', attempts: 2 }, 'retried once');
    // Every export ends: nothing stranded.
    const outcomes = await Promise.all(load.jobs.map((id) => ended(runners, id)));
    assert.deepEqual(
      outcomes.filter((e) => e.msg !== 'job completed'),
      [],
      'every export completed',
    );
    assert.deepEqual(load.violations, [], `no 500 and every 503 with Retry-After (${[...load.counts].join(', ')})`);
    alive(api, apiRunner, worker);
    await ledgerBalances('after the database outage', [apiBase, apiRunnerBase], survivors);
    // The API process that ran jobs through the outage drains like any other; the worker runs the rest.
    assert.equal(await apiRunner.stop('SIGTERM'), 0);
  });

  test('object storage stops for longer than the old retry window: exports wait for it without holding up those behind them and complete, a submission meanwhile gets 503, downloads 503, hits still answer, /v1/ready says 503 then 200, a process started meanwhile waits', async () => {
    load = new Load([apiBase], headers, 0, 20_000);
    const done = await load.call('createJob', 'POST', '/v1/jobs', shortExport(1));
    const doneId = JSON.parse(done!.body.toString()).id as string;
    assert.equal((await ended([worker], doneId)).msg, 'job completed');
    load.jobs.push(doneId);
    // A render held in this process's memory, asked again during the outage.
    const held = await load.call('generate', 'POST', '/v1/generate/mesh-gradient', { seed: 1, size: small });
    assert.equal(held?.status, 200);
    load.hitUrl = `/v1/render/${held!.headers.get('x-service-recipe-hash')}?r=${held!.headers.get('x-service-recipe')}`;
    assert.equal((await load.call('renderRecipe', 'GET', load.hitUrl))?.headers.get('x-service-cache'), 'HIT');

    // The worker (one slot) runs an export, held; three short ones queue behind it; then storage
    // stops, and the export is released to render.
    holdExports = true;
    const long = await load.call('createJob', 'POST', '/v1/jobs', heldExport(20));
    assert.equal(long?.status, 202, long?.body.toString());
    const longId = JSON.parse(long!.body.toString()).id as string;
    await worker.waitForLog((e) => e.msg === 'job started' && e.jobId === longId, 'the long export to start');
    await ffmpeg.whenHeld(1);
    holdExports = false;
    const queued: string[] = [];
    for (const seed of [2, 3, 4]) {
      const res = await load.call('createJob', 'POST', '/v1/jobs', shortExport(seed));
      assert.equal(res?.status, 202, res?.body.toString());
      queued.push(JSON.parse(res!.body.toString()).id);
    }
    await s3.stop();
    load.start();
    // Started during the outage, it waits for the bucket (and is the impatient runner of the next test).
    const late = startLoggedProcess('src/main.ts', { ...env, STORAGE_OUTAGE_WAIT_SECONDS: '0' });
    impatient = late;
    assert.deepEqual(
      ffmpeg.held.map((e) => e.parent),
      [worker.child.pid],
      'the worker holds the export',
    );
    ffmpeg.release();
    // The long export renders and waits for storage instead of failing, and without its slot: the
    // short ones render meanwhile and wait too (they used to wait for it, one outage each).
    for (const id of [longId, ...queued])
      await worker.waitForLog(
        (e) => e.msg === 'storage unavailable: retrying the result upload' && e.jobId === id && e.slotReleased === true,
        `export ${id} to render and wait for storage without its slot`,
      );
    // Storage stays down until the uploads were tried more often, and for longer, than the old
    // retries (2 s, then 8 s: 3 attempts in 10 s).
    await worker.waitForLog(
      (e) =>
        e.msg === 'storage unavailable: retrying the result upload' &&
        e.jobId === longId &&
        Number(e.attempt) >= STORAGE_RETRIES_OUTLASTING_THE_OLD_WINDOW,
      'the upload to be retried past the old window',
    );
    const download = await load.call('getJobResult', 'GET', `/v1/jobs/${doneId}/result`);
    assert.equal(download?.status, 503, download?.body.toString());
    assert.match(JSON.parse(download!.body.toString()).detail, /Object storage is unavailable/);
    // Renders need no storage: a hit held in memory answers, and so does a miss (its cache write is skipped).
    const hit = await load.call('renderRecipe', 'GET', load.hitUrl);
    assert.equal(hit?.status, 200, hit?.body.toString());
    assert.equal(hit?.headers.get('x-service-cache'), 'HIT');
    await load.expect('a miss answered during the outage', (a) => a.op === 'generate' && a.status === 200);
    await untilStatus(`${apiBase}/v1/ready`, 503, '/v1/ready notices the outage');
    // Storage is known to be down: an export is refused (its result could not be stored), not queued.
    const refusedExport = await load.call('createJob', 'POST', '/v1/jobs', shortExport(5));
    assert.equal(refusedExport?.status, 503, refusedExport?.body.toString());
    assert.ok(Number(refusedExport?.headers.get('retry-after')) > 0);
    assert.match(JSON.parse(refusedExport!.body.toString()).detail, /Object storage is unavailable/);
    // The process started meanwhile answers /v1/health and says not ready.
    const lateBase = (await late.waitForOutput(/Starting at (http:\/\/\S+):/))[1];
    const waiting = await late.waitForLog((e) => e.msg === 'waiting for dependencies', 'the late process to wait');
    assert.ok(waiting.blobStoreFailure && !waiting.databaseFailure, JSON.stringify(waiting));
    assert.equal((await fetch(`${lateBase}/v1/health`)).status, 200);
    const lateReady = await fetch(`${lateBase}/v1/ready`);
    assert.equal(lateReady.status, 503);
    assert.ok(Number(lateReady.headers.get('retry-after')) > 0);
    alive(api, worker, late);

    await s3.start();
    await late.waitForOutput(/Render service \(hosted mode\) on/);
    await untilStatus(`${lateBase}/v1/ready`, 200, 'the late process ready');
    for (const id of [longId, ...queued])
      assert.equal((await ended([worker, late], id)).msg, 'job completed', `${id} completed after the outage`);
    await untilStatus(`${apiBase}/v1/ready`, 200, '/v1/ready notices the recovery');
    await load.stop();
    const again = await load.call('getJobResult', 'GET', `/v1/jobs/${doneId}/result`);
    assert.equal(again?.status, 200);
    assert.deepEqual(load.violations, [], `no 500 and every 503 with Retry-After (${[...load.counts].join(', ')})`);
    alive(api, worker, late);
    // Each process that met it logged the outage once each way, the API with what it refused.
    const apiEnd = await outageLoggedOnce(api, STORAGE_DOWN, STORAGE_BACK, 'the API during the storage outage');
    assert.ok(Number(apiEnd.requestsRefused) > 0, JSON.stringify(apiEnd));
    await outageLoggedOnce(worker, STORAGE_DOWN, STORAGE_BACK, 'the worker during the storage outage');
    await ledgerBalances('after the storage outage', [apiBase, lateBase], [api, worker, late]);
  });

  test('an outage longer than STORAGE_OUTAGE_WAIT_SECONDS fails the export with a message naming storage and releases its credits', async () => {
    // The process started during the last outage waits 0 s for storage; it runs the jobs alone now (the worker drains and exits 0).
    assert.equal(await worker.stop('SIGTERM'), 0);
    const before = (await get(apiBase, '/v1/billing')).body.balance as { credits: number; reserved: number };

    await s3.stop();
    const res = await fetch(`${apiBase}/v1/jobs`, { method: 'POST', headers, body: JSON.stringify(shortExport(99)) });
    assert.equal(res.status, 202);
    const id = ((await res.json()) as { id: string }).id;
    assert.equal((await ended([impatient], id)).msg, 'job failed');
    const job = (await get(apiBase, `/v1/jobs/${id}`)).body;
    assert.equal(job.status, 'failed');
    assert.match(String(job.error), /Object storage was unreachable/);
    await s3.start();
    const afterFail = (await get(apiBase, '/v1/billing')).body.balance as { credits: number; reserved: number };
    assert.deepEqual(afterFail, before, 'nothing charged, nothing held');
    alive(api, impatient);
    assert.equal(await impatient.stop('SIGTERM'), 0);
    await ledgerBalances('after the failed export', [apiBase], [api]);
  });

  test('a process started while Postgres is down answers /v1/health, 503 elsewhere, and serves once Postgres is back; one with a short STARTUP_WAIT_SECONDS exits 1', async () => {
    await pg.stop();
    const late = startLoggedProcess('src/main.ts', { ...env, RUN_JOBS: '0' });
    const lateWorker = startLoggedProcess('src/worker.ts', env);
    const givesUp = startLoggedProcess('src/main.ts', { ...env, RUN_JOBS: '0', STARTUP_WAIT_SECONDS: '1' });
    others.push(late, lateWorker, givesUp);
    const base = (await late.waitForOutput(/Starting at (http:\/\/\S+):/))[1];
    await lateWorker.waitForLog((e) => e.msg === 'waiting for dependencies', 'the worker to wait');
    assert.equal((await fetch(`${base}/v1/health`)).status, 200);
    const ready = await fetch(`${base}/v1/ready`);
    assert.equal(ready.status, 503);
    assert.ok(Number(ready.headers.get('retry-after')) > 0);
    assert.equal(((await ready.json()) as { database: boolean }).database, false);
    const render = await fetch(`${base}/v1/generate/mesh-gradient`, { method: 'POST', headers, body: JSON.stringify({ size: small }) });
    assert.equal(render.status, 503);
    assert.ok(Number(render.headers.get('retry-after')) > 0);
    // Past its STARTUP_WAIT_SECONDS, with the database still down, a process gives up for its supervisor.
    assert.equal(await withTimeout('the process to give up', givesUp.exited, BACKSTOP_MS), 1, givesUp.output());
    assert.match(givesUp.output(), /STARTUP_WAIT_SECONDS\): the database is unreachable/);

    await pg.start();
    await late.waitForOutput(/Render service \(hosted mode\) on/);
    await lateWorker.waitForLog((e) => e.msg === 'worker started', 'the late worker to start');
    // While they waited, every line they wrote was JSON (knex printed a stack per connection attempt).
    for (const p of [late, lateWorker, givesUp]) assert.deepEqual(strayLines(p), [], 'only JSON log lines and the banner');
    assert.equal((await fetch(`${base}/v1/ready`)).status, 200);
    const job = await fetch(`${base}/v1/jobs`, { method: 'POST', headers, body: JSON.stringify(shortExport(500)) });
    assert.equal(job.status, 202);
    assert.equal((await ended([lateWorker], ((await job.json()) as { id: string }).id)).msg, 'job completed');
    alive(api, late, lateWorker);
    await ledgerBalances('after a start during the outage', [apiBase, base], [api, late, lateWorker]);
    assert.equal(await lateWorker.stop('SIGTERM'), 0, 'the worker drains and flushes its usage');
    assert.equal(await late.stop('SIGTERM'), 0);
  });
});
