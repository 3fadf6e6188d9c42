// The concurrency gate in front of the worker threads: a fixed number of workers (one per core by
// default), a pixel budget (pixel-gate.ts: output pixels in flight, so memory stays bounded however
// large the renders) and one bounded queue for both. A full queue answers 503 overloaded; an
// aborted request stops its render (the worker kills its FFmpeg child) and frees the worker.
// Worker threads that made large frames are replaced once the pool has been idle a while
// (recycleIdleMs): only a thread's end gives its allocator's memory back (see below).
// The threads start with start() or, failing that, on the first render (which then waits for them):
// the service's processes start them at once (createRenderEngine), a test app on its first render,
// so a suite that never renders pays nothing for them. A process that makes one render and exits
// (the CLI) renders on its own thread instead (inThread).
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import { ProblemError } from '../errors/problem.ts';
import { MAX_FRAME_PIXELS } from '../config/limits.ts';
import { isFormatKind } from '../lib/formats.ts';
import { PixelGate } from './pixel-gate.ts';
import { failureKind } from './render-failure.ts';
import type { RenderOutput, RenderTask } from './render.worker.ts';

export interface RenderPoolOptions {
  workers?: number;
  /** Renders that may wait (for pixels or a worker); more answer 503. */
  queueLimit?: number;
  /** Output pixels of one frame, summed over the renders in the workers (default: workers × the largest frame). */
  maxPixelsInFlight?: number;
  /** How long the pool must be idle before the threads that made large frames are replaced (default 10 s). */
  recycleIdleMs?: number;
  /**
   * Render on this thread, one at a time, instead of in worker threads: for a process that makes one
   * render and exits (the CLI), where starting a worker thread — which loads the generators, the
   * canvas, the shaper and the encoders all over again — costs more than the render. The same code
   * draws and encodes (render.worker.ts), so the bytes are the same.
   */
  inThread?: boolean;
  /**
   * The module the worker threads load; by default render.worker beside this module (compiled when
   * this module is). Test apps that run from the sources give the compiled one, which
   * scripts/run-tests.mjs has just built from them: a thread then starts without tsx, in about a
   * quarter of the CPU.
   */
  workerModule?: URL;
}

/** What runs the renders: piscina's worker threads, or this thread (RenderPoolOptions.inThread). */
interface Runner {
  run(task: RenderTask, options: { transferList: never[] }): Promise<unknown>;
  readonly queueSize: number;
  readonly utilization: number;
  destroy(): Promise<void>;
}

/** Renders one at a time on this thread, through the worker's own module. */
class InThreadRunner implements Runner {
  /** Loaded from the start, as a worker thread would: it loads while the caller waits for other things (the shaper, FFmpeg). */
  private readonly worker = import('./render.worker.ts');
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private running = 0;

  constructor() {
    this.worker.catch(() => undefined); // a failure to load is the first render's
  }

  run(task: RenderTask): Promise<unknown> {
    this.waiting++;
    const result = this.tail.then(async () => {
      this.waiting--;
      this.running++;
      try {
        const { default: render } = await this.worker;
        return await render(task);
      } finally {
        this.running--;
      }
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  get queueSize(): number {
    return this.waiting;
  }

  get utilization(): number {
    return this.running;
  }

  async destroy(): Promise<void> {}
}

/**
 * Frames from this size up leave a worker thread holding memory it does not give back while it
 * lives: the canvas library's allocator (mimalloc) keeps a thread's freed pages until that thread
 * allocates again, and an idle thread never does. A thread's end gives them back (with the allocator
 * settings of src/lib/allocator-env.ts). Measured with `npm run bench:memory` (docs/benchmarks.md#memory).
 */
export const RECYCLE_AFTER_PIXELS = 4_000_000;
const RECYCLE_IDLE_MS = 10_000;

/**
 * Whether this module runs compiled (bundled into dist/ by scripts/build-service.mjs) rather than as
 * TypeScript through tsx. The worker threads then load the compiled render.worker.js, which the build
 * writes beside every module of the bundle, and need no loader.
 */
const COMPILED = !import.meta.url.endsWith('.ts');
const require = createRequire(import.meta.url);
const WORKER_MODULE = new URL(COMPILED ? './render.worker.js' : './render.worker.ts', import.meta.url);

export type PoolTask = Omit<RenderTask, 'cancel' | 'progress'>;

export interface RunOptions {
  signal?: AbortSignal;
  /** Problem to raise when the time limit is hit (504 render_timeout or animation_budget_exceeded). */
  timeoutProblem?: () => ProblemError;
  onProgress?: (frame: number, frames: number) => void;
}

export class RenderPool extends EventEmitter<{ recycling: [threadIds: number[]]; recycled: [threadIds: number[]] }> {
  /** The worker threads (or this thread), started by start() or the first render (`threads`); undefined until then. */
  private pool: Runner | undefined;
  /** The same pool when it is piscina's worker threads (the ones that are recycled). */
  private piscina: Piscina | undefined;
  private readonly inThread: boolean;
  /** Cancel flags of the renders in flight, so close() can stop them (and their FFmpeg children). */
  private readonly active = new Set<Int32Array>();
  private readonly settled = new Set<Promise<unknown>>();
  private readonly gate: PixelGate;
  private readonly queueLimit: number;
  private readonly recycleIdleMs: number;
  private readonly workerModule: URL;
  /** Threads that made a large frame since they started; `all` when a large render failed (its thread unknown). */
  private readonly holding = new Set<number>();
  private holdingUnknown = false;
  private recycleTimer: NodeJS.Timeout | undefined;
  /** Threads being replaced: no render is handed to the pool until they have exited. */
  private recycling: Promise<void> | undefined;
  private closing = false;
  readonly workers: number;

  constructor(options: RenderPoolOptions = {}) {
    super();
    this.recycleIdleMs = options.recycleIdleMs ?? RECYCLE_IDLE_MS;
    this.workerModule = options.workerModule ?? WORKER_MODULE;
    this.inThread = options.inThread ?? false;
    this.workers = options.workers ?? Math.max(1, availableParallelism());
    this.queueLimit = options.queueLimit ?? this.workers * 8;
    this.gate = new PixelGate(options.maxPixelsInFlight ?? this.workers * MAX_FRAME_PIXELS);
  }

  /** Starts the worker threads now rather than on the first render (it does not wait for them to be ready). */
  start(): void {
    this.threads();
  }

  /** The worker threads: every one of them is started at once, by start() or the first render, and kept until close(). */
  private threads(): Runner {
    if (this.closing) throw new Error('the render pool is closed');
    if (this.pool) return this.pool;
    if (this.inThread) return (this.pool = new InThreadRunner());
    // Loaded here, not imported above: a pool that renders on its own thread never needs it.
    this.piscina = new (require('piscina') as { Piscina: typeof Piscina }).Piscina({
      filename: this.workerModule.href,
      minThreads: this.workers,
      maxThreads: this.workers,
      maxQueue: this.queueLimit,
      idleTimeout: 60_000,
      // Each render uses one worker at a time; generators are CPU-bound.
      concurrentTasksPerWorker: 1,
      execArgv: workerExecArgv(this.workerModule),
    });
    return (this.pool = this.piscina);
  }

  /** Whether the worker threads have been started (by start() or a render). */
  get started(): boolean {
    return this.pool !== undefined;
  }

  /** Renders refused with 503 overloaded since start (the render queue was full). */
  rejected = 0;

  /** Renders waiting for pixels or for a worker. */
  get queueSize(): number {
    return this.gate.waiting + (this.pool?.queueSize ?? 0);
  }

  get utilization(): number {
    return this.pool?.utilization ?? 0;
  }

  async render(task: PoolTask, options: RunOptions = {}): Promise<RenderOutput> {
    // One frame's pixels: animations hold a frame at a time (FFmpeg takes them as they come).
    const pixels = isFormatKind(task.format, 'text') ? 0 : task.deviceWidth * task.deviceHeight;
    // The queue limit bounds renders that wait: one that starts at once passes even at a limit of 0.
    const startsNow = this.queueSize === 0 && this.active.size < this.workers && this.gate.fits(pixels);
    if (!startsNow && this.queueSize >= this.queueLimit) {
      this.rejected++;
      throw overloaded();
    }
    if (options.signal?.aborted) throw abortProblem(options.signal);
    let release: () => void;
    try {
      release = await this.gate.acquire(pixels, options.signal);
    } catch {
      throw abortProblem(options.signal!);
    }
    try {
      return await this.runAdmitted(task, options);
    } finally {
      release();
    }
  }

  private async runAdmitted(task: PoolTask, options: RunOptions): Promise<RenderOutput> {
    clearTimeout(this.recycleTimer);
    // A thread on its way out must not be handed this render (piscina would, until its exit event).
    while (this.recycling) await this.recycling;
    // Checked before the progress channel exists: a port left open with a listener keeps the process alive.
    if (options.signal?.aborted) throw abortProblem(options.signal);
    const threads = this.threads();
    const cancel = new Int32Array(new SharedArrayBuffer(4));
    let port: MessagePort | undefined;
    let channel: MessageChannel | undefined;
    if (options.onProgress && threads instanceof InThreadRunner) {
      // On this thread the render's progress needs no channel: it is told as it is posted, as a
      // channel's messages would arrive before a worker's result (closed, a channel drops the rest).
      const onProgress = options.onProgress;
      port = { postMessage: (e: { frame: number; frames: number }) => onProgress(e.frame, e.frames) } as unknown as MessagePort;
    } else if (options.onProgress) {
      channel = new MessageChannel();
      port = channel.port2 as unknown as MessagePort;
      channel.port1.onmessage = (e: MessageEvent<{ frame: number; frames: number }>) => options.onProgress!(e.data.frame, e.data.frames);
    }
    const onAbort = () => stopRender(cancel);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    this.active.add(cancel);
    const running = threads.run({ ...task, cancel, progress: port } satisfies RenderTask, { transferList: port ? [port as never] : [] });
    const settled = running.then(
      () => {},
      () => {},
    );
    this.settled.add(settled);
    const large = !this.inThread && task.deviceWidth * task.deviceHeight >= RECYCLE_AFTER_PIXELS && !isFormatKind(task.format, 'text');
    try {
      const output = (await running) as RenderOutput;
      if (large) this.holding.add(output.threadId);
      return output;
    } catch (err) {
      if (large) this.holdingUnknown = true;
      if (options.signal?.aborted) throw abortProblem(options.signal);
      const failure = mapFailure(err, options);
      if (failure instanceof ProblemError && failure.code === 'overloaded') this.rejected++;
      throw failure;
    } finally {
      this.active.delete(cancel);
      this.settled.delete(settled);
      options.signal?.removeEventListener('abort', onAbort);
      channel?.port1.close();
      this.scheduleRecycle();
    }
  }

  /** Once the pool is idle, in recycleIdleMs, the threads holding a large render's memory are replaced. */
  private scheduleRecycle(): void {
    if (this.active.size > 0 || this.closing || (this.holding.size === 0 && !this.holdingUnknown)) return;
    clearTimeout(this.recycleTimer);
    this.recycleTimer = setTimeout(() => void this.recycle(), this.recycleIdleMs);
    this.recycleTimer.unref();
  }

  /**
   * Ends the threads that hold a large render's memory; piscina starts their replacements at once
   * (it keeps `workers` threads). Runs only while no render is in the pool, and renders that come
   * meanwhile wait for the exits (runAdmitted), so none is handed to a thread on its way out.
   */
  private async recycle(): Promise<void> {
    if (this.active.size > 0 || this.closing || this.recycling) return;
    const threads = (this.piscina?.threads ?? []).filter((t) => this.holdingUnknown || this.holding.has(t.threadId));
    this.holding.clear();
    this.holdingUnknown = false;
    if (threads.length === 0) return;
    const threadIds = threads.map((t) => t.threadId);
    this.recycling = Promise.all(threads.map((t) => new Promise<void>((resolve) => t.once('exit', () => resolve()).terminate()))).then(
      () => {
        this.recycling = undefined;
        this.emit('recycled', threadIds);
      },
    );
    this.emit('recycling', threadIds);
    await this.recycling;
  }

  /**
   * Stops every render in flight and waits (briefly) for the workers to kill their FFmpeg children
   * and remove their files; a worker thread that does not stop in time is terminated, and the kernel
   * then kills the FFmpeg it started (encoders.ts, `setpriv --pdeathsig`).
   */
  async close(graceMs = 5_000): Promise<void> {
    this.closing = true;
    clearTimeout(this.recycleTimer);
    await this.recycling;
    for (const cancel of this.active) stopRender(cancel);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.settled), new Promise((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
    await this.pool?.destroy();
  }
}

/**
 * A TypeScript worker module needs the tsx loader, even when the parent registered it through the API
 * (the CLI in a checkout without a build); a compiled one needs none, and loads faster without it.
 */
function workerExecArgv(module: URL): string[] {
  if (!module.pathname.endsWith('.ts')) return withoutTsx(process.execArgv);
  if (COMPILED || process.execArgv.some((a) => a.includes('tsx'))) return process.execArgv;
  return [...process.execArgv, '--import', import.meta.resolve('tsx')];
}

/** `argv` without the options that load tsx (`--import tsx`, `--require=…tsx…`, …). */
export function withoutTsx(argv: readonly string[]): string[] {
  const loads = /^(--import|--require|-r|--loader|--experimental-loader)$/;
  return argv.filter((arg, i) => {
    if (loads.test(arg) && argv[i + 1]?.includes('tsx')) return false;
    if (i > 0 && loads.test(argv[i - 1]!) && arg.includes('tsx')) return false;
    return !/^--(import|require|loader|experimental-loader)=.*tsx/.test(arg);
  });
}

/** Sets a render's cancel flag and wakes its wait for FFmpeg, if it is in one (render.worker.ts, watchCancel). */
function stopRender(cancel: Int32Array): void {
  Atomics.store(cancel, 0, 1);
  Atomics.notify(cancel, 0);
}

function overloaded(): ProblemError {
  return new ProblemError('overloaded', {
    detail: 'Every render worker is busy and the queue is full. Retry shortly.',
    headers: { 'Retry-After': '2' },
  });
}

function abortProblem(signal: AbortSignal): ProblemError {
  return signal.reason instanceof ProblemError ? signal.reason : new ProblemError('client_closed_request');
}

function mapFailure(err: unknown, options: RunOptions): unknown {
  // Piscina's own queue refusals (its maxQueue mirrors the limit): both mean the service is full.
  if (err instanceof Error && /^(Task queue is at limit|No task queue available)/.test(err.message)) return overloaded();
  const kind = failureKind(err);
  switch (kind) {
    case 'timeout':
      return options.timeoutProblem?.() ?? new ProblemError('render_timeout', { detail: 'The render took longer than allowed.' });
    case 'cancelled':
      return new ProblemError('client_closed_request');
    case 'ffmpeg_missing':
      return new ProblemError('not_ready', {
        detail: 'FFmpeg is not available on this server, so gif and mp4 cannot be rendered.',
        headers: { 'Retry-After': '30' },
      });
    case 'encoder':
      return new ProblemError('upstream_error', { detail: 'The encoder failed.', cause: err });
    default:
      return err;
  }
}
