// `npm run bench:gif` — every animated generator as a gif at 640×360 and its defaults, rendered
// alone through the engine (one worker, no cache): the file size, the time and the quality.
//   target: ≤ 3 MB and ≤ 2 s each.
// Quality is the SSIM (FFmpeg's ssim filter, "All") of the gif's decoded frames against the frames
// the generator drew for them (the frames the engine encodes: every frame up to the gif frame-rate
// cap, every second one above it; see GIF_MAX_FPS in src/engine/encoders.ts).
//   node --import tsx scripts/bench/gif.ts [--runs=N] [slug ...]
import { execFile } from 'node:child_process';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/config/config.ts';
import { gifFramePlan } from '../../src/engine/encoders.ts';
import { resolveFfmpeg } from '../../src/engine/ffmpeg.ts';
import { recipeTask } from '../../src/engine/recipe.ts';
import { drawFrame } from '../../src/engine/render.worker.ts';
import { ALL_GENERATORS } from '../../src/generators/index.ts';
import { createRenderEngine } from '../../src/services/render-engine.factory.ts';

const run = promisify(execFile);
const args = process.argv.slice(2);
const runs = Number(/^--runs=(\d+)$/.exec(args.find((a) => a.startsWith('--runs=')) ?? '')?.[1] ?? 3);
const wanted = args.filter((a) => !a.startsWith('--'));
const animated = ALL_GENERATORS.filter((g) => g.animated && (wanted.length === 0 || wanted.includes(g.slug)));
const SIZE = { width: 640, height: 360, pixelRatio: 1 };
const MAX_BYTES = 3_000_000;
const MAX_MS = 2000;

const config = loadConfig(process.env);
const ffmpeg = resolveFfmpeg(config.ffmpegPath);
if (!ffmpeg) throw new Error('FFmpeg is required');
const engine = await createRenderEngine({
  ffmpegPath: config.ffmpegPath,
  render: { workers: 1, queueLimit: 10, timeoutMs: 120_000, animationBudgetMs: 120_000 },
});
const dir = await mkdtemp(path.join(tmpdir(), 'bench-gif-'));

/** SSIM of the gif's frames against the source frames it encodes. */
async function ssim(gen: (typeof animated)[number], resolved: ReturnType<typeof engine.service.resolve>, gif: Buffer): Promise<number> {
  const plan = gifFramePlan(resolved.fps, resolved.frames);
  const source = path.join(dir, 'source.rgba');
  const file = await open(source, 'w');
  const task = {
    ...recipeTask(resolved),
    ffmpegPath: undefined,
    cancel: new Int32Array(1),
    timeoutMs: 0,
  };
  for (const frame of plan.frames) await file.write(drawFrame(gen, task, frame, resolved.deviceWidth, resolved.deviceHeight));
  await file.close();
  const gifFile = path.join(dir, 'out.gif');
  await writeFile(gifFile, gif);
  const size = `${resolved.deviceWidth}x${resolved.deviceHeight}`;
  const { stderr } = await run(
    ffmpeg!.path,
    [
      '-hide_banner',
      '-nostdin',
      ...['-i', gifFile],
      ...['-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', size, '-i', source],
      '-lavfi',
      '[0:v]format=rgb24,setpts=N/TB[a];[1:v]format=rgb24,setpts=N/TB[b];[a][b]ssim',
      '-vsync',
      'passthrough',
      ...['-f', 'null', '-'],
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const all = /SSIM .* All:([\d.]+)/.exec(stderr);
  if (!all) throw new Error(`no SSIM in FFmpeg's output: ${stderr.slice(-500)}`);
  return Number(all[1]);
}

try {
  const warm = engine.service.resolve(animated[0].slug, { format: 'gif', size: { width: 64, height: 36 } });
  await engine.service.render(warm, { mode: 'job' });
  console.log(`gif ${SIZE.width}×${SIZE.height}, defaults, alone (1 worker), median of ${runs}; target ≤ 3 MB and ≤ 2 s`);
  console.log('generator         frames     size      time    SSIM    target');
  for (const gen of animated) {
    const times: number[] = [];
    let bytes: Buffer = Buffer.alloc(0);
    let resolved = engine.service.resolve(gen.slug, { format: 'gif', size: SIZE });
    for (let i = 0; i < runs; i++) {
      // A new seed each run: nothing is cached, every run renders.
      resolved = engine.service.resolve(gen.slug, { format: 'gif', size: SIZE, seed: 5000 + i });
      const started = performance.now();
      bytes = (await engine.service.render(resolved, { mode: 'job' })).bytes;
      times.push(performance.now() - started);
    }
    const ms = times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
    const quality = await ssim(gen, resolved, bytes);
    const met = bytes.length <= MAX_BYTES && ms <= MAX_MS;
    console.log(
      `${gen.slug.padEnd(17)} ${String(gifFramePlan(resolved.fps, resolved.frames).frames.length).padStart(6)} ` +
        `${(bytes.length / 1e6).toFixed(2).padStart(6)} MB ${(ms / 1000).toFixed(2).padStart(6)} s  ${quality.toFixed(3)}   ${met ? 'met' : 'NOT met'}`,
    );
  }
} finally {
  await engine.close();
  await rm(dir, { recursive: true, force: true });
}
