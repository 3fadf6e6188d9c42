// `npm run bench:memory` — peak memory of the real service (`src/main.ts`, a child process) for one
// POST /v1/batch of 50 of the largest allowed items: 4096×4096 png at pixel ratio 1.5 (37.7 MP,
// just under the 40 MP frame limit), each a different seed. Reports the process's RSS at idle,
// its peak (VmHWM, sampled VmRSS too) during the batch, and after it once idle again.
//   BENCH_ITEMS=10             fewer items (a quicker look)
//   BENCH_ROOT=/path/to/tree   run another checkout's service (a before/after comparison)
//   any other setting (RENDER_WORKERS, RENDER_MAX_PIXELS_IN_FLIGHT, …) passes through to the service
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { BENCH_KEY as KEY, BENCH_ROOT as ROOT, startServiceProcess } from './service-process.ts';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 50);
const SETTLE_MS = 15_000;

const item = (seed: number) => ({ slug: 'mesh-gradient', seed, format: 'png', size: { width: 4096, height: 4096, pixelRatio: 1.5 } });

function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

const { child, url, stop } = await startServiceProcess();
try {
  const pid = child.pid!;
  const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
  // Warm-up: one small render loads the workers and the generators.
  await fetch(`${url}/v1/generate/mesh-gradient`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ seed: 1, size: { width: 64, height: 64 } }),
  }).then((r) => r.arrayBuffer());
  const idle = memory(pid).rss;
  let sampledPeak = 0;
  const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, memory(pid).rss)), 100);
  const started = performance.now();
  const res = await fetch(`${url}/v1/batch`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ items: Array.from({ length: ITEMS }, (_, i) => item(1000 + i)) }),
  });
  const body = (await res.json()) as { results: Array<{ ok: boolean; bytes?: number; code?: string }> };
  const results = body.results ?? [];
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (res.status !== 200) throw new Error(`batch answered ${res.status}: ${JSON.stringify(body)}`);
  const failed = results.filter((r) => !r.ok);
  const peak = memory(pid).hwm;
  await sleep(SETTLE_MS);
  const after = memory(pid).rss;
  const settings =
    Object.entries(process.env)
      .filter(([k]) => /^(RENDER_|MALLOC_|MIMALLOC_)/.test(k))
      .map(([k, v]) => `${k}=${v}`)
      .join(' ') || 'defaults';
  console.log(`root ${ROOT}`);
  console.log(`settings: ${settings}`);
  console.log(
    `${ITEMS} items of 4096×4096 @1.5x png (37.7 MP each, ~${mb(results.find((r) => r.ok)?.bytes ?? 0)} per file), ${failed.length} failed${failed.length ? ` (${failed[0]!.code})` : ''}, ${seconds.toFixed(0)} s`,
  );
  console.log(`RSS idle ${mb(idle)} · peak ${mb(peak)} (sampled ${mb(sampledPeak)}) · ${SETTLE_MS / 1000} s after the batch ${mb(after)}`);
} finally {
  await stop();
}
