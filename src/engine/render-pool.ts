// The concurrency gate in front of the worker threads: a fixed number of workers (one per core by
// default) and a bounded queue. A full queue answers 503 overloaded; an aborted request stops its
// render (the worker kills its FFmpeg child) and frees the worker.
import { availableParallelism } from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { ProblemError } from '../errors/problem.ts';
import { failureKind } from './render-failure.ts';
import type { RenderOutput, RenderTask } from './render.worker.ts';

export interface RenderPoolOptions {
  workers?: number;
  /** Renders that may wait for a worker; more answer 503. */
  queueLimit?: number;
}

export type PoolTask = Omit<RenderTask, 'cancel' | 'progress'>;

export interface RunOptions {
  signal?: AbortSignal;
  /** Problem to raise when the time limit is hit (504 render_timeout or animation_budget_exceeded). */
  timeoutProblem?: () => ProblemError;
  onProgress?: (frame: number, frames: number) => void;
}

export class RenderPool {
  private readonly pool: Piscina;
  /** Cancel flags of the renders in flight, so close() can stop them (and their FFmpeg children). */
  private readonly active = new Set<Int32Array>();
  private readonly settled = new Set<Promise<unknown>>();
  readonly workers: number;

  constructor(options: RenderPoolOptions = {}) {
    this.workers = options.workers ?? Math.max(1, availableParallelism());
    this.pool = new Piscina({
      filename: new URL('./render.worker.ts', import.meta.url).href,
      minThreads: this.workers,
      maxThreads: this.workers,
      maxQueue: options.queueLimit ?? this.workers * 8,
      idleTimeout: 60_000,
      // Each render uses one worker at a time; generators are CPU-bound.
      concurrentTasksPerWorker: 1,
      execArgv: workerExecArgv(),
    });
  }

  get queueSize(): number {
    return this.pool.queueSize;
  }

  get utilization(): number {
    return this.pool.utilization;
  }

  async run(task: PoolTask, options: RunOptions = {}): Promise<RenderOutput> {
    if (this.pool.queueSize >= this.pool.options.maxQueue) {
      throw new ProblemError('overloaded', { detail: 'Every render worker is busy and the queue is full. Retry shortly.', headers: { 'Retry-After': '2' } });
    }
    const cancel = new Int32Array(new SharedArrayBuffer(4));
    let port: MessagePort | undefined;
    let channel: MessageChannel | undefined;
    if (options.onProgress) {
      channel = new MessageChannel();
      port = channel.port2 as unknown as MessagePort;
      channel.port1.onmessage = (e: MessageEvent<{ frame: number; frames: number }>) => options.onProgress!(e.data.frame, e.data.frames);
    }
    const onAbort = () => Atomics.store(cancel, 0, 1);
    if (options.signal?.aborted) throw abortProblem(options.signal);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    this.active.add(cancel);
    const running = this.pool.run({ ...task, cancel, progress: port } satisfies RenderTask, { transferList: port ? [port as never] : [] });
    const settled = running.then(
      () => {},
      () => {},
    );
    this.settled.add(settled);
    try {
      return (await running) as RenderOutput;
    } catch (err) {
      if (options.signal?.aborted) throw abortProblem(options.signal);
      throw mapFailure(err, options);
    } finally {
      this.active.delete(cancel);
      this.settled.delete(settled);
      options.signal?.removeEventListener('abort', onAbort);
      channel?.port1.close();
    }
  }

  /**
   * Stops every render in flight and waits (briefly) for the workers to kill their FFmpeg children:
   * terminating a worker thread does not end the processes it spawned.
   */
  async close(graceMs = 5_000): Promise<void> {
    for (const cancel of this.active) Atomics.store(cancel, 0, 1);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.settled), new Promise((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
    await this.pool.destroy();
  }
}

/** Workers run the TypeScript sources too, so they need the tsx loader even when the parent registered it through the API (the CLI). */
function workerExecArgv(): string[] {
  if (process.execArgv.some((a) => a.includes('tsx'))) return process.execArgv;
  return [...process.execArgv, '--import', import.meta.resolve('tsx')];
}

function abortProblem(signal: AbortSignal): ProblemError {
  return signal.reason instanceof ProblemError ? signal.reason : new ProblemError('client_closed_request');
}

function mapFailure(err: unknown, options: RunOptions): unknown {
  if (err instanceof Error && err.message === 'Task queue is at limit') {
    return new ProblemError('overloaded', { detail: 'Every render worker is busy and the queue is full. Retry shortly.', headers: { 'Retry-After': '2' } });
  }
  const kind = failureKind(err);
  switch (kind) {
    case 'timeout':
      return options.timeoutProblem?.() ?? new ProblemError('render_timeout', { detail: 'The render took longer than allowed.' });
    case 'cancelled':
      return new ProblemError('client_closed_request');
    case 'ffmpeg_missing':
      return new ProblemError('not_ready', { detail: 'FFmpeg is not available on this server, so gif and mp4 cannot be rendered.', headers: { 'Retry-After': '30' } });
    case 'encoder':
      return new ProblemError('upstream_error', { detail: 'The encoder failed.', cause: err });
    default:
      return err;
  }
}
