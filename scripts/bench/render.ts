// `npm run bench:render` — the render path measured against its baselines, in one run:
//   1. raw engine (RenderService on the worker pool, no HTTP, no cache) vs HTTP MISS
//   2. HTTP HIT vs a bare Node http server returning the same bytes, under the same load
//   3. 1920×1080 PNG end to end vs canvas toBuffer('image/png') of the same frame
//   4. throughput with 2 workers vs 1
// Load comes from wrk when it is installed (apt-get install wrk), else from a Node client
// (client-bound on large bodies; the script says which it used).
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { createCanvas } from '@napi-rs/canvas';
import { loadConfig } from '../../src/config/config.ts';
import { ALL_GENERATORS } from '../../src/generators/index.ts';
import { GeneratorRegistry } from '../../src/generators/registry.ts';
import { mulberry32 } from '../../src/generators/lib/random.ts';
import { createRenderEngine } from '../../src/services/render-engine.factory.ts';
import { startBenchPostgres } from './bench-postgres.ts';
import { startInProcessService } from './in-process-service.ts';
import { BENCH_KEY as KEY, renderForRecipeUrl } from './service-process.ts';

const run = promisify(execFile);
const registry = new GeneratorRegistry(ALL_GENERATORS);
const stills = registry.list().filter((g) => !g.animated && g.formats.includes('png'));
const { ffmpegPath } = loadConfig(process.env);

/** The fixed recipe set: every still generator at 1280×720, three seeds each. */
function recipeSet(offset: number) {
  return stills.flatMap((g) =>
    [1, 2, 3].map((s) => ({ slug: g.slug, body: { seed: offset + s, size: { width: 1280, height: 720 }, format: 'png' as const } })),
  );
}

function stats(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { n: ms.length, p50: q(0.5), p95: q(0.95), mean: ms.reduce((a, b) => a + b, 0) / ms.length };
}

async function timeAll<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>) {
  const latencies: number[] = [];
  const queue = [...items];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
        const t = performance.now();
        await fn(item);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { ...stats(latencies), perSecond: items.length / seconds };
}

type Timed = Awaited<ReturnType<typeof timeAll>>;

/** Several passes as one: renders per second over their summed time, the median of the passes' p50s. */
function overall(passes: Timed[]) {
  const renders = passes.reduce((sum, p) => sum + p.n, 0);
  const seconds = passes.reduce((sum, p) => sum + p.n / p.perSecond, 0);
  const p50s = passes.map((p) => p.p50).sort((a, b) => a - b);
  return { perSecond: renders / seconds, p50: p50s[Math.floor(p50s.length / 2)] };
}

async function rawEngine(workers: number, offset: number) {
  const engine = await createRenderEngine({
    ffmpegPath,
    render: { workers, queueLimit: 10_000, timeoutMs: 120_000, animationBudgetMs: 120_000 },
  });
  const { service } = engine;
  await service.render(service.resolve(stills[0].slug, { size: { width: 64, height: 64 } }), { mode: 'job' }); // warm the workers
  try {
    return await timeAll(recipeSet(offset), workers * 2, async ({ slug, body }) => {
      await service.render(service.resolve(slug, body), { mode: 'job' });
    });
  } finally {
    await engine.close();
  }
}

async function wrkAvailable() {
  try {
    await run('wrk', ['--version']).catch((e) => (e.stdout || e.stderr ? e : Promise.reject(e)));
    return true;
  } catch {
    return false;
  }
}

interface Loaded {
  perSecond: number;
  p50: string;
}

async function load(url: string, headers: Record<string, string>, seconds: number, connections: number, useWrk: boolean): Promise<Loaded> {
  if (useWrk) {
    const args = [
      '-t2',
      `-c${connections}`,
      `-d${seconds}s`,
      '--latency',
      ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
      url,
    ];
    const { stdout } = await run('wrk', args);
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
    const p50 = /50%\s+([\d.]+)(\w+)/.exec(stdout);
    return { perSecond: rps, p50: p50 ? `${p50[1]}${p50[2]}` : '?' };
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const deadline = performance.now() + seconds * 1000;
  let count = 0;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now();
        await new Promise<void>((resolve, reject) => {
          http
            .get(url, { agent, headers }, (res) => {
              res.on('data', () => {});
              res.on('end', resolve);
            })
            .on('error', reject);
        });
        latencies.push(performance.now() - t);
        count++;
      }
    }),
  );
  agent.destroy();
  return { perSecond: count / seconds, p50: `${stats(latencies).p50.toFixed(2)}ms` };
}

/** Rate limits on (a HIT pays for counting it, in memory locally and in Postgres when hosted) but far above the load. */
const COUNTED_RATE_LIMITS = { RATE_LIMIT_WORKSPACE_PER_MINUTE: '1000000', RATE_LIMIT_KEY_PER_MINUTE: '1000000' };

/** HIT throughput of hosted mode (Postgres, a workspace key from the database) beside local mode's. */
async function hostedHit(
  recipe: { slug: string; body: unknown },
  localPerSecond: number,
  measureLocal: () => ReturnType<typeof load>,
  useWrk: boolean,
) {
  const postgres = await startBenchPostgres();
  try {
    const service = await startInProcessService({
      DATABASE_URL: await postgres.database(),
      SERVICE_LOCAL_MODE: '0',
      APP_ORIGIN: 'https://app.example.test',
      AUTH_SECRET: 'bench-'.repeat(8),
      RENDER_WORKERS: '2',
      ...COUNTED_RATE_LIMITS,
    });
    try {
      const { services } = service;
      await services.workspaces.ensure({ id: 'ws_bench', name: 'Bench', kind: 'personal', createdAt: Date.now() });
      await services.credits.add({
        id: 'grant_bench',
        workspaceId: 'ws_bench',
        kind: 'grant',
        amount: 1000,
        reference: 'bench',
        description: 'bench',
      });
      const key = (await services.keys.create('ws_bench', 'bench')).secret;
      const { recipeUrl } = await renderForRecipeUrl(service.base, key, recipe.slug, recipe.body);
      const hosted = await load(recipeUrl, { Authorization: `Bearer ${key}` }, 5, 32, useWrk);
      console.log(`hosted HIT   ${hosted.perSecond.toFixed(0)} req/s  p50 ${hosted.p50}  (Postgres, a workspace key)`);
      const localAgain = (await measureLocal()).perSecond;
      const local = (localPerSecond + localAgain) / 2;
      console.log(`local HIT    ${localAgain.toFixed(0)} req/s again after it`);
      console.log(`  hosted HIT / local HIT = ${(hosted.perSecond / local).toFixed(2)}× (target ≥ 0.7×)\n`);
    } finally {
      await service.close();
    }
  } finally {
    await postgres.stop();
  }
}

async function main() {
  const service = await startInProcessService({ RENDER_WORKERS: '2', RENDER_QUEUE_LIMIT: '1000', ...COUNTED_RATE_LIMITS });
  const { base } = service;
  const useWrk = await wrkAvailable();
  console.log(
    `render bench: ${stills.length} still generators × 3 seeds at 1280×720 png, 2 workers; load client: ${useWrk ? 'wrk' : 'node http (client-bound; install wrk for real numbers)'}\n`,
  );

  try {
    // 1. MISS vs raw engine (same recipes, new seeds each pass so neither hits a cache), in three
    //    alternating rounds so the machine's drift falls on both sides alike
    const missPass = (offset: number) =>
      timeAll(recipeSet(offset), 4, async ({ slug, body }) => {
        const res = await fetch(`${base}/v1/generate/${slug}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (res.headers.get('x-service-cache') !== 'MISS') throw new Error('expected a MISS');
        await res.arrayBuffer();
      });
    const raws: Timed[] = [];
    const misses: Timed[] = [];
    for (let round = 0; round < 3; round++) {
      raws.push(await rawEngine(2, 1000 + 100 * round));
      misses.push(await missPass(2000 + 100 * round));
    }
    const [raw, miss] = [raws, misses].map(overall);
    console.log(`raw engine   ${raw.perSecond.toFixed(1)} renders/s  p50 ${raw.p50.toFixed(1)} ms`);
    console.log(`HTTP MISS    ${miss.perSecond.toFixed(1)} renders/s  p50 ${miss.p50.toFixed(1)} ms`);
    const rounds = raws.map((r, i) => (r.perSecond / misses[i].perSecond).toFixed(2)).join(', ');
    const missRatio = raw.perSecond / miss.perSecond;
    console.log(`  MISS time / raw engine time = ${missRatio.toFixed(2)}× (rounds: ${rounds}; target ≤ 1.15×)\n`);

    // 2. HIT vs bare Node http with the same bytes
    const first = recipeSet(2000)[0];
    const { bytes, recipeUrl: hitUrl } = await renderForRecipeUrl(base, KEY, first.slug, first.body);
    const bare = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': bytes.length });
      res.end(bytes);
    });
    bare.listen(0, '127.0.0.1');
    await new Promise((r) => bare.once('listening', r));
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
    // Three alternating rounds, as for the MISS ratio: the machine's drift falls on both sides alike.
    // A second of each first, unmeasured, so neither side is timed while its code is still being compiled.
    await load(bareUrl, {}, 1, 32, useWrk);
    await load(hitUrl, { Authorization: `Bearer ${KEY}` }, 1, 32, useWrk);
    const bareLoads: Loaded[] = [];
    const hitLoads: Loaded[] = [];
    for (let round = 0; round < 3; round++) {
      bareLoads.push(await load(bareUrl, {}, 5, 32, useWrk));
      hitLoads.push(await load(hitUrl, { Authorization: `Bearer ${KEY}` }, 5, 32, useWrk));
    }
    bare.close();
    const mean = (loads: Loaded[]) => loads.reduce((sum, l) => sum + l.perSecond, 0) / loads.length;
    const [bareLoad, hitLoad] = [bareLoads, hitLoads].map((loads) => ({ perSecond: mean(loads), p50: loads[1].p50 }));
    const hitRounds = hitLoads.map((h, i) => (h.perSecond / bareLoads[i].perSecond).toFixed(2)).join(', ');
    console.log(`bare node    ${bareLoad.perSecond.toFixed(0)} req/s  p50 ${bareLoad.p50}  (${(bytes.length / 1024).toFixed(0)} KB body)`);
    console.log(`HTTP HIT     ${hitLoad.perSecond.toFixed(0)} req/s  p50 ${hitLoad.p50}`);
    console.log(`  HIT / bare = ${(hitLoad.perSecond / bareLoad.perSecond).toFixed(2)}× (rounds: ${hitRounds}; target ≥ 0.5×)\n`);

    // 2b. The same HIT in hosted mode on Postgres: a workspace's key, looked up in the database
    //     (local measured again after it: the ratio is against the mean of the two local runs)
    await hostedHit(first, hitLoad.perSecond, () => load(hitUrl, { Authorization: `Bearer ${KEY}` }, 5, 32, useWrk), useWrk);

    // 3. 1920×1080 PNG end to end vs canvas's own PNG encoder on the same frame
    const gen = stills[0];
    const canvas = createCanvas(1920, 1080);
    const ctx = canvas.getContext('2d');
    gen.draw(ctx, {
      params: gen.defaults,
      seed: 9,
      width: 1920,
      height: 1080,
      pixelRatio: 1,
      random: mulberry32(9),
      frame: 0,
      frameCount: 1,
      time: 0,
      loop: 0,
    });
    const canvasTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await canvas.encode('png');
      canvasTimes.push(performance.now() - t);
    }
    const e2e = await timeAll(
      [1, 2, 3, 4, 5].map((s) => 3000 + s),
      1,
      async (seed) => {
        const res = await fetch(`${base}/v1/generate/${gen.slug}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ seed }),
        });
        await res.arrayBuffer();
      },
    );
    const canvasP50 = stats(canvasTimes).p50;
    console.log(`canvas toBuffer png 1920×1080 (encode only)  p50 ${canvasP50.toFixed(1)} ms`);
    console.log(`HTTP MISS 1920×1080 png (draw+encode+HTTP)   p50 ${e2e.p50.toFixed(1)} ms`);
    console.log(`  speed-up = ${(canvasP50 / e2e.p50).toFixed(2)}× (target ≥ 3.5×)\n`);

    // 4. Worker scaling
    const one = await rawEngine(1, 4000);
    const two = await rawEngine(2, 5000);
    console.log(`1 worker     ${one.perSecond.toFixed(1)} renders/s`);
    console.log(`2 workers    ${two.perSecond.toFixed(1)} renders/s`);
    console.log(`  scaling = ${(two.perSecond / one.perSecond).toFixed(2)}× (target ≥ 1.8×)`);
  } finally {
    await service.close();
  }
}

await main();
