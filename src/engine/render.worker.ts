// Runs in a worker thread (piscina): draws frames with a generator and encodes them, off the
// API's event loop. Cancellation arrives through a shared flag, checked between frames and watched
// (Atomics.waitAsync) while the render waits for FFmpeg; on cancel the FFmpeg child is killed at once.
import { failureKind, renderFailure, type RenderFailureKind } from './render-failure.ts';
import { createCanvas } from '../generators/lib/canvas.ts';
import { isMainThread, type MessagePort, threadId } from 'node:worker_threads';
import { ALL_GENERATORS } from '../generators/index.ts';
import { GeneratorRegistry } from '../generators/registry.ts';
import { isFormatKind, type OutputFormat } from '../lib/formats.ts';
import type { GeneratorDefinition, GeneratorRelease, RenderInput } from '../generators/generator.types.ts';
import { createRequire } from 'node:module';
import { mulberry32 } from '../generators/lib/random.ts';
import { EncoderError, encodeStill, gifFramePlan, startMotionEncoder } from './encoders.ts';
import { embed, type EmbeddableFormat, type EmbeddedRecipe } from './recipe-metadata.ts';
import { engineProfile } from './engine-profiles.ts';
import type { TemplateSpec, TemplateTask } from '../templates/template.types.ts';
import { drawsSupersededVersions } from '../templates/layer-versions.ts';
import { templateTaskGenerator } from './template-task.ts';
import v8 from 'node:v8';
import vm from 'node:vm';

// A large render leaves hundreds of MB of garbage behind (the canvas, its pixel read-back, the
// encoded file), held natively until this isolate's next GC — and an idle worker never collects,
// so RSS stayed up after a burst of large renders. The worker collects once such a render is done.
// (`--expose-gc` cannot be passed to a worker thread; set here, it exposes gc to a new context.)
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;
/** Frames from this size up are followed by a collection (a few ms; small renders skip it). */
const COLLECT_AFTER_PIXELS = 4_000_000;

export interface RenderTask {
  slug: string;
  /** The generator version the recipe pins (a superseded one renders with its own frozen code). */
  version: string;
  /** The engine profile that encodes it (engine-profiles.ts): the pinned version's. */
  engine: string;
  params: Record<string, unknown>;
  seed: number;
  width: number;
  height: number;
  pixelRatio: number;
  /** Output size in device pixels, as the resolved recipe computed it (width × pixelRatio, rounded). */
  deviceWidth: number;
  deviceHeight: number;
  format: OutputFormat;
  /** The encoder's quality, for a format that takes one (jpeg; the canonical recipe's). */
  quality?: number;
  /** The canonical recipe (base64url) and its hash: every file carries them (recipe-metadata.ts). */
  recipe: { encoded: string; hash: string };
  frames: number;
  fps: number;
  ffmpegPath: string | undefined;
  /** Int32Array over a SharedArrayBuffer: non-zero means stop now (the pool also notifies waiters on it). */
  cancel: Int32Array;
  /** Hard limit for the whole render in ms. */
  timeoutMs: number;
  /** Optional: receives { frame, frames } after each frame. */
  progress?: MessagePort;
  /** A template version's render: what it draws from (`slug` is the template's id). */
  template?: TemplateTask;
}

export interface RenderOutput {
  bytes: Uint8Array;
  frames: number;
  /** The worker thread that rendered it (the pool replaces threads that made large frames: render-pool.ts). */
  threadId: number;
}

const generators = new GeneratorRegistry(ALL_GENERATORS);
// A worker thread prepares every generator as it starts, before its first task (the shaper takes a
// while); on the main thread (RenderPool's inThread, the CLI) a render prepares only its own.
if (!isMainThread) generators.ready().catch(() => undefined); // a failure is the first render's, which awaits it again

function fail(kind: RenderFailureKind, message: string): never {
  throw renderFailure(kind, message);
}

// Atomics.waitAsync (ES2024; in Node since 16), typed here: the project compiles against ES2022's lib.
const waitAsync = (Atomics as unknown as { waitAsync(a: Int32Array, index: number, value: number): { async: boolean; value: unknown } })
  .waitAsync;

/**
 * Resolves once the cancel flag is set (the pool stores it and notifies), so a render waiting for
 * FFmpeg — to take a frame, or to finish — stops then, not when FFmpeg next reads. dispose() wakes
 * the waiter (a pending one would stay registered on the flag) without resolving anything new:
 * `cancelled` only ever settles to true.
 */
function watchCancel(flag: Int32Array): { cancelled: Promise<true>; dispose(): void } {
  const waiting = waitAsync(flag, 0, 0);
  const woken = waiting.async ? (waiting.value as Promise<unknown>) : Promise.resolve();
  const cancelled = woken.then(() => (Atomics.load(flag, 0) !== 0 ? true : new Promise<never>(() => {})));
  return { cancelled, dispose: () => void Atomics.notify(flag, 0) };
}

function baseInput(task: RenderTask): RenderInput<Record<string, unknown>> {
  return {
    params: task.params,
    seed: task.seed,
    width: task.width,
    height: task.height,
    pixelRatio: task.pixelRatio,
    random: mulberry32(task.seed),
  };
}

export function drawFrame(
  gen: GeneratorDefinition,
  task: RenderTask,
  frame: number,
  deviceWidth: number,
  deviceHeight: number,
): Uint8Array {
  const frameCount = Math.max(1, task.frames);
  const input = { ...baseInput(task), frame, frameCount, time: frame / task.fps, loop: frame / frameCount };
  // A generator that computes every pixel itself hands them over as they are: no canvas to fill
  // and read back (the same bytes: generator-contract.ts checks pixels() against draw()).
  if (gen.pixels) {
    const pixels = gen.pixels(input, { width: deviceWidth, height: deviceHeight });
    return new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  }
  const canvas = createCanvas(deviceWidth, deviceHeight);
  const ctx = canvas.getContext('2d');
  ctx.scale(task.pixelRatio, task.pixelRatio);
  gen.draw(ctx, input);
  const data = ctx.getImageData(0, 0, deviceWidth, deviceHeight).data;
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

export default async function render(task: RenderTask): Promise<RenderOutput> {
  try {
    return await renderTask(task);
  } finally {
    // After the result has been posted back (setImmediate), so the caller does not wait for it.
    if (task.deviceWidth * task.deviceHeight >= COLLECT_AFTER_PIXELS) setImmediate(collectGarbage);
  }
}

const require = createRequire(import.meta.url);
type SupersededModule = { SUPERSEDED_RELEASES: readonly GeneratorRelease[] };
/** Not a literal, so the build leaves the import to run time (the file is an entry point of its own). */
const COMPILED_SUPERSEDED = new URL('./superseded.js', import.meta.url).href;

function loadSuperseded(): Promise<SupersededModule> {
  // A worker thread running the sources has tsx's require hook but not its import hook; the main
  // thread (the CLI, an in-thread pool) has its import hook. Compiled, the build writes superseded.js
  // beside this module (scripts/build-service.mjs).
  if (!import.meta.url.endsWith('.ts')) return import(COMPILED_SUPERSEDED) as Promise<SupersededModule>;
  if (isMainThread) return import('../generators/releases/superseded.ts');
  return Promise.resolve(require('../generators/releases/superseded.ts') as SupersededModule);
}

/**
 * Every released version — the current ones and the superseded ones' frozen code — loaded by the
 * first task that pins a superseded one (most threads never do; the code takes ~150 ms to load).
 */
let allVersions: Promise<GeneratorRegistry> | undefined;
function withSuperseded(): Promise<GeneratorRegistry> {
  allVersions ??= loadSuperseded().then((m) => new GeneratorRegistry(ALL_GENERATORS, m.SUPERSEDED_RELEASES));
  return allVersions;
}

/** The generator version a task pins: the current one, or a superseded one's frozen code. */
async function pinnedGenerator(task: RenderTask): Promise<GeneratorDefinition | undefined> {
  const current = generators.get(task.slug);
  if (current?.version === task.version) return current;
  return (await withSuperseded()).release(task.slug, task.version)?.release.definition;
}

/** A template version's generator: its layers draw with the generator versions they pin. */
async function templateTask(template: TemplateTask): Promise<GeneratorDefinition> {
  const registry = drawsSupersededVersions(template.spec as TemplateSpec, generators) ? await withSuperseded() : generators;
  return templateTaskGenerator(template, registry);
}

async function renderTask(task: RenderTask): Promise<RenderOutput> {
  const gen = task.template ? await templateTask(task.template) : await pinnedGenerator(task);
  if (!gen) fail('generator', `unknown generator ${task.slug}`);
  if (!task.template) await generators.ready(task.slug);
  const deadline = Date.now() + task.timeoutMs;
  const { deviceWidth, deviceHeight } = task;
  const checkpoint = () => {
    if (Atomics.load(task.cancel, 0) !== 0) fail('cancelled', 'render cancelled');
    if (Date.now() > deadline) fail('timeout', `render exceeded ${task.timeoutMs} ms`);
  };

  const { format } = task;
  // What the engine version the task is pinned to does (engine-profiles.ts): whether the file carries
  // its recipe, a gif's frames, the FFmpeg arguments. The encoded stills and svg/css are the same
  // under every profile; only their embedded recipe is not.
  const profile = engineProfile(task.engine);
  const metadata: EmbeddedRecipe | undefined = profile.embedsRecipe
    ? { recipe: task.recipe.encoded, hash: task.recipe.hash, engineVersion: profile.version }
    : undefined;
  const withRecipe = (kind: EmbeddableFormat, bytes: Buffer) => (metadata ? embed(kind, bytes, metadata) : bytes);
  const output = (bytes: Buffer, frames: number): RenderOutput => ({
    bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    frames,
    threadId,
  });
  // How each format is made is its row's `kind` in formats.ts.
  if (isFormatKind(format, 'text')) {
    const text = format === 'svg' ? gen.svg?.(baseInput(task)) : gen.css?.(baseInput(task));
    if (text === undefined) fail('generator', `${gen.slug} has no ${format} form`);
    return output(withRecipe(format, Buffer.from(text, 'utf8')), 1);
  }
  if (isFormatKind(format, 'still')) {
    const rgba = drawFrame(gen, task, 0, deviceWidth, deviceHeight);
    checkpoint();
    const bytes = await encodeStill(rgba, deviceWidth, deviceHeight, format, { quality: task.quality });
    task.progress?.postMessage({ frame: 1, frames: 1 });
    return output(withRecipe(format, bytes), 1);
  }
  // motion: the animation's frames, piped into FFmpeg.
  if (!task.ffmpegPath) fail('ffmpeg_missing', 'FFmpeg is not available');
  // A gif may keep fewer frames than the recipe asks for (GIF_MAX_FPS, encoders.ts; from engine 1.3.0);
  // mp4 keeps them all.
  const plan =
    format === 'gif' && profile.gif.capFps
      ? gifFramePlan(task.fps, task.frames)
      : { fps: task.fps, frames: Array.from({ length: task.frames }, (_, i) => i) };
  const encoder = await startMotionEncoder({
    ffmpegPath: task.ffmpegPath,
    format,
    width: deviceWidth,
    height: deviceHeight,
    fps: plan.fps,
    profile,
    metadata,
    timeoutMs: Math.max(1000, deadline - Date.now()),
  });
  const watch = watchCancel(task.cancel);
  /** `work` (a wait for FFmpeg), or the cancellation if it comes first: FFmpeg is then killed below. */
  const unlessCancelled = async <T>(work: Promise<T>): Promise<T> => {
    work.catch(() => {}); // after a cancel, the wait fails as FFmpeg is killed: expected
    const settled = work.then(
      () => false,
      () => false,
    );
    if (await Promise.race([settled, watch.cancelled])) fail('cancelled', 'render cancelled');
    return work;
  };
  try {
    for (const [i, frame] of plan.frames.entries()) {
      checkpoint();
      await unlessCancelled(encoder.writeFrame(drawFrame(gen, task, frame, deviceWidth, deviceHeight)));
      task.progress?.postMessage({ frame: i + 1, frames: plan.frames.length });
    }
    checkpoint();
    const bytes = await unlessCancelled(encoder.finish());
    // mp4: FFmpeg wrote the recipe itself (mp4MetadataArgs); a gif gets its comment block here.
    return output(format === 'gif' ? withRecipe('gif', bytes) : bytes, task.frames);
  } catch (err) {
    const kind = failureKind(err);
    await encoder.kill(kind === 'timeout' ? 'timeout' : 'cancelled').catch(() => {});
    if (err instanceof EncoderError)
      fail(err.kind === 'timeout' ? 'timeout' : err.kind === 'cancelled' ? 'cancelled' : 'encoder', err.message);
    throw err;
  } finally {
    watch.dispose();
  }
}
