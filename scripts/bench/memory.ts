// `npm run bench:memory` — the real service's memory (`src/main.ts`, a child process, local mode,
// started as `npm start` starts it) for large renders, how much of it comes back once the service is
// idle again, and the CPU it took. Three loads, each on a fresh service:
//   burst  six 2048×2048 png and one 4096×4096 png at pixel ratio 1.5 (37.7 MP), sent at once, as
//          separate requests (what issue 40 measured: 1,312 MB peak, 842 MB after 60 s idle);
//   mp4    one 1280×720 mp4 of flowing-gradient (3 s, 72 frames drawn through the canvas);
//   batch  one POST /v1/batch of BENCH_ITEMS (default 50) of the largest items (4096×4096 png at
//          pixel ratio 1.5, each a different seed).
// For each: RSS idle (after a small warm-up render), the peak (VmHWM, and VmRSS sampled every 100 ms),
// RSS 15, 30 and 60 s after the load while idle, and the CPU seconds of the load (the service's
// threads, user and system; FFmpeg's) and of the idle minute after it. The service keeps the files it
// rendered in its render cache in memory (RENDER_MEMORY_CACHE_MB; an entry is at most 1/16 of it):
// that much is live data, printed beside the figures.
//   BENCH_LOADS=burst          only some of the loads (comma-separated; default burst,mp4,batch)
//   BENCH_ITEMS=10             a smaller batch (a quicker look)
//   BENCH_ROOT=/path/to/tree   run another checkout's service (a before/after comparison)
//   GLIBC_TUNABLES=            without the glibc settings `npm start` gives the service (src/lib/allocator-env.ts)
//   any other setting (RENDER_WORKERS, RENDER_MAX_PIXELS_IN_FLIGHT, …) passes through to the service
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { serviceProcessEnv } from '../../src/lib/allocator-env.ts';
import { BENCH_KEY as KEY, BENCH_ROOT as ROOT, startServiceProcess } from './service-process.ts';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 50);
const LOADS = (process.env.BENCH_LOADS ?? 'burst,mp4,batch').split(',').filter(Boolean);
/** When RSS is read after the load, in seconds. */
const AFTER = [15, 30, 60];

interface Render {
  slug: string;
  seed: number;
  format: 'png' | 'mp4';
  size: { width: number; height: number; pixelRatio?: number };
  params?: Record<string, unknown>;
}
const largest = (seed: number): Render => ({
  slug: 'mesh-gradient',
  seed,
  format: 'png',
  size: { width: 4096, height: 4096, pixelRatio: 1.5 },
});

function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** CPU seconds so far: the process's own threads (user, system) and its reaped children (FFmpeg). */
function cpu(pid: number): { user: number; sys: number; children: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = (i: number) => Number(fields[i]) / 100; // fields 14–17 of stat(5), counted from after the name
  return { user: ticks(11), sys: ticks(12), children: ticks(13) + ticks(14) };
}
const cpuSpent = (a: ReturnType<typeof cpu>, b: ReturnType<typeof cpu>) =>
  `user ${(b.user - a.user).toFixed(1)} s, system ${(b.sys - a.sys).toFixed(1)} s${b.children > a.children ? `, FFmpeg ${(b.children - a.children).toFixed(1)} s` : ''}`;

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** A POST with no time limit (fetch gives up after 300 s without headers, which a batch can take on a loaded machine). */
function post(url: string, body: unknown): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** Bytes the service's render cache holds in memory: what it rendered, up to the entry limit (1/16 of 256 MB). */
function cached(sizes: number[]): number {
  const limit = (Number(process.env.RENDER_MEMORY_CACHE_MB ?? 256) * 1024 * 1024) / 16;
  return sizes.filter((s) => s <= limit).reduce((a, b) => a + b, 0);
}

async function measure(load: string): Promise<void> {
  // Time limits out of the way: on a loaded machine the largest render can take longer than 30 s.
  const { child, url, stop } = await startServiceProcess({ RENDER_TIMEOUT_MS: '600000', ANIMATION_BUDGET_MS: '600000' });
  try {
    const pid = child.pid!;
    const generate = async ({ slug, ...recipe }: Render) => {
      const res = await post(`${url}/v1/generate/${slug}`, recipe);
      if (res.status !== 200) throw new Error(`POST /v1/generate answered ${res.status}: ${res.body.toString()}`);
      return res.body.length;
    };
    // Warm-up: one small render loads the workers and the generators.
    await generate({ slug: 'mesh-gradient', seed: 1, format: 'png', size: { width: 64, height: 64 } });
    const idle = memory(pid).rss;
    const cpuBefore = cpu(pid);
    let sampledPeak = 0;
    const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, memory(pid).rss)), 100);
    const started = performance.now();
    let sizes: number[];
    let what: string;
    if (load === 'burst') {
      const renders: Render[] = [
        ...Array.from({ length: 6 }, (_, i): Render => ({
          slug: 'mesh-gradient',
          seed: 100 + i,
          format: 'png',
          size: { width: 2048, height: 2048 },
        })),
        largest(200),
      ];
      sizes = await Promise.all(renders.map(generate));
      what = 'six 2048×2048 png and one 4096×4096 @1.5x png at once';
    } else if (load === 'mp4') {
      sizes = [
        await generate({
          slug: 'flowing-gradient',
          seed: 3,
          format: 'mp4',
          size: { width: 1280, height: 720 },
          params: { duration: 3 },
        }),
      ];
      what = 'one 1280×720 mp4 of flowing-gradient (72 frames)';
    } else {
      const res = await post(`${url}/v1/batch`, { items: Array.from({ length: ITEMS }, (_, i) => largest(1000 + i)) });
      const body = JSON.parse(res.body.toString()) as { results: Array<{ ok: boolean; bytes?: number; code?: string }> };
      if (res.status !== 200) throw new Error(`batch answered ${res.status}: ${JSON.stringify(body)}`);
      const failed = body.results.filter((r) => !r.ok);
      if (failed.length) throw new Error(`${failed.length} batch items failed (${failed[0]!.code})`);
      sizes = body.results.map((r) => r.bytes ?? 0);
      what = `a batch of ${ITEMS} × 4096×4096 @1.5x png (37.7 MP each, ~${mb(sizes[0] ?? 0)} per file)`;
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const peak = memory(pid).hwm;
    const cpuAfterLoad = cpu(pid);
    const after: number[] = [];
    let waited = 0;
    for (const at of AFTER) {
      await sleep((at - waited) * 1000);
      waited = at;
      after.push(memory(pid).rss);
    }
    const cpuAfterIdle = cpu(pid);
    console.log(`${load}: ${what}, ${seconds.toFixed(0)} s (load average ${loadavg()[0]!.toFixed(1)})`);
    console.log(
      `  RSS idle ${mb(idle)} · peak ${mb(peak)} (sampled ${mb(sampledPeak)}) · idle again ${AFTER.map((at, i) => `${at} s: ${mb(after[i]!)}`).join(', ')} · of which the render cache in memory ${mb(cached(sizes))}`,
    );
    console.log(
      `  CPU for the load: ${cpuSpent(cpuBefore, cpuAfterLoad)}; in the idle minute after it: ${cpuSpent(cpuAfterLoad, cpuAfterIdle)}`,
    );
  } finally {
    await stop();
  }
}

// GLIBC_TUNABLES as the service gets it (npm start's, unless set here; set empty to measure without).
const settings = Object.entries({ ...process.env, GLIBC_TUNABLES: serviceProcessEnv().GLIBC_TUNABLES })
  .filter(([k]) => /^(RENDER_|MALLOC_|MIMALLOC_|GLIBC_TUNABLES)/.test(k))
  .map(([k, v]) => `${k}=${v}`)
  .join(' ');
console.log(`root ${ROOT}`);
console.log(`settings: ${settings}`);
for (const load of LOADS) await measure(load);
