// `npm run bench:jobs` — export jobs measured against their baselines, in one run:
//   1. a 120-frame 640×360 mp4 through the job API (POST /v1/jobs → completed) beside the same
//      frames drawn in this process and piped straight into FFmpeg with the same settings
//      (on SQLite with the in-process queue, and on Postgres with pg-boss)
//   2. job throughput with one and with two runners sharing the queue (SQLite)
import { probeFfmpegVersion, resolveFfmpeg } from '../../src/engine/ffmpeg.ts';
import { startMotionEncoder } from '../../src/engine/encoders.ts';
import { CURRENT_ENGINE_PROFILE } from '../../src/engine/engine-profiles.ts';
import { drawFrame } from '../../src/engine/render.worker.ts';
import { ALL_GENERATORS } from '../../src/generators/index.ts';
import { ENGINE_VERSION } from '../../src/engine/versions.ts';
import { startBenchPostgres } from './bench-postgres.ts';
import { startInProcessService } from './in-process-service.ts';
import { BENCH_KEY as KEY } from './service-process.ts';

const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
const plasma = ALL_GENERATORS.find((g) => g.slug === 'plasma')!;
const recipe = (seed: number) => ({
  slug: 'plasma',
  seed,
  format: 'mp4',
  size: { width: 640, height: 360 },
  params: { duration: 4, fps: 30 },
});

/** Local mode on SQLite (the in-process table queue), or on Postgres when `databaseUrl` is given (pg-boss carries the jobs). */
const startService = (concurrency: number, databaseUrl?: string) =>
  startInProcessService({
    JOB_CONCURRENCY: String(concurrency),
    RENDER_WORKERS: '2',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, SERVICE_LOCAL_MODE: '1' } : {}),
  });

async function runJob(base: string, body: unknown): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}/v1/jobs`, { method: 'POST', headers, body: JSON.stringify(body) });
  const { id } = (await res.json()) as { id: string };
  for (;;) {
    const job = (await (await fetch(`${base}/v1/jobs/${id}`, { headers })).json()) as { status: string; error?: string };
    if (job.status === 'completed') return performance.now() - started;
    if (job.status === 'failed' || job.status === 'cancelled') throw new Error(`job ${job.status}: ${job.error}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function direct(seed: number): Promise<number> {
  const ffmpeg = resolveFfmpeg(process.env.FFMPEG_PATH);
  if (!ffmpeg || !(await probeFfmpegVersion(ffmpeg))) throw new Error('FFmpeg is required');
  const started = performance.now();
  const animation = plasma.animation!({ ...plasma.defaults, duration: 4, fps: 30 } as never);
  const task = {
    slug: 'plasma',
    version: plasma.version,
    engine: ENGINE_VERSION,
    params: { ...plasma.defaults, duration: 4, fps: 30 },
    seed,
    width: 640,
    height: 360,
    pixelRatio: 1,
    deviceWidth: 640,
    deviceHeight: 360,
    format: 'mp4',
    frames: animation.frames,
    fps: animation.fps,
  } as never;
  const encoder = await startMotionEncoder({
    ffmpegPath: ffmpeg.path,
    format: 'mp4',
    width: 640,
    height: 360,
    fps: animation.fps,
    profile: CURRENT_ENGINE_PROFILE,
    timeoutMs: 120_000,
  });
  for (let frame = 0; frame < animation.frames; frame++) await encoder.writeFrame(drawFrame(plasma, task, frame, 640, 360));
  await encoder.finish();
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Three exports through the job API beside three straight into FFmpeg, alternating; prints the ratio of the medians. */
async function jobVersusDirect(label: string, databaseUrl?: string) {
  const service = await startService(1, databaseUrl);
  try {
    await runJob(service.base, { ...recipe(1), size: { width: 64, height: 36 } }); // warm up
    const viaJobs: number[] = [];
    const viaFfmpeg: number[] = [];
    for (let i = 0; i < 3; i++) {
      viaFfmpeg.push(await direct(100 + i));
      viaJobs.push(await runJob(service.base, recipe(200 + i)));
    }
    console.log(label);
    console.log(`  FFmpeg fed directly   p50 ${median(viaFfmpeg).toFixed(0)} ms`);
    console.log(`  through the job API   p50 ${median(viaJobs).toFixed(0)} ms`);
    console.log(`  job / direct = ${(median(viaJobs) / median(viaFfmpeg)).toFixed(2)}× (target ≤ 1.3×)\n`);
  } finally {
    await service.close();
  }
}

async function main() {
  console.log('jobs bench: plasma 640×360 mp4, 4 s at 30 fps (120 frames)\n');
  await jobVersusDirect('SQLite, in-process queue');
  const postgres = await startBenchPostgres();
  try {
    await jobVersusDirect('Postgres, pg-boss', await postgres.database());
  } finally {
    await postgres.stop();
  }
  const throughput: number[] = [];
  for (const concurrency of [1, 2]) {
    const s = await startService(concurrency);
    try {
      const started = performance.now();
      await Promise.all(
        [0, 1, 2, 3].map((i) => runJob(s.base, { ...recipe(300 + 10 * concurrency + i), params: { duration: 2, fps: 30 } })),
      );
      const perMinute = (4 / (performance.now() - started)) * 60_000;
      throughput.push(perMinute);
      console.log(`${concurrency} runner slot${concurrency > 1 ? 's' : ''}   ${perMinute.toFixed(1)} jobs/min`);
    } finally {
      await s.close();
    }
  }
  console.log(`  scaling = ${(throughput[1] / throughput[0]).toFixed(2)}×`);
}

await main();
