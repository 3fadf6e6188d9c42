// `npm run bench:health` — how fast GET /v1/health answers while the service (`src/main.ts`, a
// child process, default settings) is busy, against the 50 ms p99 a load balancer's health check
// can live with. One client asks for /v1/health one request after another (keep-alive), for
// BENCH_SECONDS (default 10) in each phase:
//   1. idle (the baseline)
//   2. while wrk sends a cached recipe URL (HIT, a 1280×720 png) over 32 connections (needs `apt-get install wrk`)
//   3. while the largest allowed renders run: 4096×4096 png at pixel ratio 1.5 (37.7 MP), two at a
//      time (one per worker on two cores), one after another
import { execFile } from 'node:child_process';
import http from 'node:http';
import { promisify } from 'node:util';
import { BENCH_KEY, renderForRecipeUrl, startServiceProcess } from './service-process.ts';

const run = promisify(execFile);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const TARGET_P99_MS = 50;
const headers = { Authorization: `Bearer ${BENCH_KEY}`, 'Content-Type': 'application/json' };

/** Health latencies, one request after another, until `until` settles. */
async function sampleHealth(url: string, until: Promise<unknown>): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let done = false;
  void until.finally(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    await new Promise<void>((resolve, reject) =>
      http
        .get(`${url}/v1/health`, { agent }, (res) => {
          res.resume();
          res.on('end', resolve);
        })
        .on('error', reject),
    );
    latencies.push(performance.now() - started);
  }
  agent.destroy();
  return latencies;
}

function report(phase: string, latencies: number[], extra = '') {
  const sorted = [...latencies].sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  const p99 = q(0.99);
  console.log(
    `${phase.padEnd(34)} n ${String(sorted.length).padStart(5)}  p50 ${q(0.5).toFixed(1).padStart(6)} ms  p99 ${p99.toFixed(1).padStart(6)} ms` +
      `  max ${sorted[sorted.length - 1]!.toFixed(1).padStart(6)} ms  ${p99 < TARGET_P99_MS ? 'met' : 'NOT met'} (p99 < ${TARGET_P99_MS} ms)${extra}`,
  );
}

const seconds = (s: number) => new Promise((r) => setTimeout(r, s * 1000));

async function largestRenders(url: string, until: Promise<unknown>) {
  let done = false;
  void until.finally(() => (done = true));
  let seed = 1;
  let renders = 0;
  await Promise.all(
    [0, 1].map(async () => {
      while (!done) {
        const res = await fetch(`${url}/v1/generate/mesh-gradient`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ seed: seed++, format: 'png', size: { width: 4096, height: 4096, pixelRatio: 1.5 } }),
        });
        await res.arrayBuffer();
        if (res.status === 200) renders++;
      }
    }),
  );
  return renders;
}

const { url, stop } = await startServiceProcess();
try {
  // The HIT body of bench:render: blob at 1280×720 png.
  const { bytes, recipeUrl: hitUrl } = await renderForRecipeUrl(url, BENCH_KEY, 'blob', {
    seed: 1,
    format: 'png',
    size: { width: 1280, height: 720 },
  });
  console.log(`health bench: ${SECONDS} s per phase; the HIT body is ${bytes.length} bytes\n`);

  report('idle', await sampleHealth(url, seconds(SECONDS)));

  const wrk = run('wrk', ['-t2', '-c32', `-d${SECONDS}s`, '-H', `Authorization: ${headers.Authorization}`, hitUrl]).catch((err) => {
    console.log(`(wrk failed: ${String(err.message).split('\n')[0]}; install it with apt-get install wrk)`);
    return { stdout: '' };
  });
  const hitHealth = await sampleHealth(url, wrk);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec((await wrk).stdout)?.[1];
  report('32-connection cache-hit load', hitHealth, rps ? `; ${Number(rps).toFixed(0)} HIT/s` : '');

  const stop = seconds(SECONDS);
  const rendering = largestRenders(url, stop);
  const renderHealth = await sampleHealth(url, rendering);
  report('largest renders, two at a time', renderHealth, `; ${await rendering} renders`);
} finally {
  await stop();
}
