// The one owner of `GET /v1/jobs/{id}/events` streams in this process. Streams of the same job share
// one watcher: a single poll loop reads the job row (it may be running in another process) and fans
// each change out to every stream, so the database sees one query per job per tick however many
// clients follow it. Open streams are capped per workspace (429 too_many_streams), and a drain ends
// every stream with a `reconnect` event so EventSource clients reconnect to another process.
import { EventEmitter } from 'node:events';
import type { Response } from 'express';
import { type JobRecord, type JobsRepository, isFinishedStatus } from '../../db/repositories/jobs.repository.ts';
import { ProblemError } from '../errors/problem.ts';

/** How often a watcher reads its job's row. */
export const POLL_MS = 250;
const KEEPALIVE_MS = 15_000;
/** What EventSource clients wait before reconnecting after a drain ends their stream. */
const RECONNECT_MS = 1_000;

type Listener = (job: JobRecord | undefined) => void;

interface JobWatcherOptions {
  /** The job watched. */
  id: string;
  repo: JobsRepository;
  pollMs: number;
  /** Called once, when the watcher stops (its job ended, or no stream listens any more). */
  onIdle: () => void;
}

/** One poll loop per job: runs while at least one stream listens, stops when the job ends. */
class JobWatcher {
  readonly listeners = new Set<Listener>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: JobWatcherOptions) {}

  start(): void {
    this.schedule();
  }

  private schedule(): void {
    this.timer = setTimeout(() => void this.tick(), this.options.pollMs);
  }

  private async tick(): Promise<void> {
    let job: JobRecord | undefined;
    try {
      job = await this.options.repo.find(this.options.id);
    } catch {
      // A failed read (database restart) is retried at the next tick; streams keep their last state.
      if (!this.stopped) this.schedule();
      return;
    }
    for (const listener of this.listeners) listener(job);
    if (!job || isFinishedStatus(job.status)) this.listeners.clear();
    if (this.listeners.size === 0) this.stop();
    else if (!this.stopped) this.schedule();
  }

  remove(listener: Listener): void {
    this.listeners.delete(listener);
    if (this.listeners.size === 0) this.stop();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.timer);
    this.options.onIdle();
  }
}

interface OpenStream {
  end(final?: { event: string; data: unknown }): void;
  /** Settles once the response has been written out (its socket is then idle). */
  readonly done: Promise<void>;
}

export interface JobEventStreamsOptions {
  repo: JobsRepository;
  /** The job as GET /v1/jobs/{id} shows it: the data of each `status` event. */
  view: (job: JobRecord) => Promise<unknown>;
  /** Open streams a workspace may hold in this process; one more answers 429 too_many_streams. */
  limitPerWorkspace: number;
  /** How often a watcher reads its job's row (default POLL_MS). */
  pollMs?: number;
}

/** 'changed' fires when a stream ended or a watcher stopped (size or watching went down): tests wait on it. */
export class JobEventStreams extends EventEmitter<{ changed: [] }> {
  private readonly watchers = new Map<string, JobWatcher>();
  private readonly perWorkspace = new Map<string, number>();
  private readonly streams = new Set<OpenStream>();
  private closing = false;
  private readonly repo: JobsRepository;
  private readonly view: (job: JobRecord) => Promise<unknown>;
  private readonly limitPerWorkspace: number;
  private readonly pollMs: number;

  constructor(options: JobEventStreamsOptions) {
    super();
    ({ repo: this.repo, view: this.view, limitPerWorkspace: this.limitPerWorkspace } = options);
    this.pollMs = options.pollMs ?? POLL_MS;
  }

  /** Streams open in this process (for tests and logs). */
  get size(): number {
    return this.streams.size;
  }

  /** Poll loops running in this process: at most one per job. */
  get watching(): number {
    return this.watchers.size;
  }

  /**
   * Streams `job`'s events to `res` until the job ends, the client leaves (`signal`) or the process
   * drains. Throws before writing anything when the workspace is at its cap or the process drains.
   */
  async stream(workspaceId: string, job: JobRecord, res: Response, signal: AbortSignal): Promise<void> {
    if (this.closing)
      throw new ProblemError('not_ready', { detail: 'The service is shutting down; reconnect.', headers: { 'Retry-After': '1' } });
    const open = this.perWorkspace.get(workspaceId) ?? 0;
    if (open >= this.limitPerWorkspace) {
      throw new ProblemError('too_many_streams', {
        detail: `This workspace already has ${open} open event streams (the limit is ${this.limitPerWorkspace}); close one, or poll GET /v1/jobs/{id}.`,
        headers: { 'Retry-After': '5' },
      });
    }
    // Before the slot is taken: a view that fails (a presigning store) leaves nothing held.
    const firstView = await this.view(job);
    this.perWorkspace.set(workspaceId, open + 1);
    // The slot frees the moment the stream ends, not once its socket has been flushed.
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (this.perWorkspace.get(workspaceId) ?? 1) - 1;
      if (left > 0) this.perWorkspace.set(workspaceId, left);
      else this.perWorkspace.delete(workspaceId);
    };
    try {
      await this.follow(job, firstView, res, signal, release);
    } finally {
      release();
    }
  }

  private follow(first: JobRecord, firstView: unknown, res: Response, signal: AbortSignal, release: () => void): Promise<void> {
    res
      .status(200)
      .set({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    res.flushHeaders();
    let id = 0;
    const send = (event: string, data: unknown) => res.write(`id: ${++id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    send('status', firstView);
    if (isFinishedStatus(first.status)) {
      res.end();
      return Promise.resolve();
    }
    let resolveDone!: () => void;
    const done = new Promise<void>((resolve) => (resolveDone = resolve));
    let last = first;
    let lastWrite = Date.now();
    let watcher: JobWatcher | undefined;
    const stream: OpenStream = {
      done,
      end: (final) => {
        if (!this.streams.delete(stream)) return;
        release();
        this.emit('changed');
        watcher?.remove(listener);
        signal.removeEventListener('abort', onAbort);
        if (final) {
          res.write(`retry: ${RECONNECT_MS}\n`);
          send(final.event, final.data);
        }
        // A client already gone never emits finish: settle on close too.
        res.once('close', resolveDone);
        res.end(resolveDone);
      },
    };
    // A status event's view is made asynchronously (a presigned resultUrl): changes are handled one
    // after another, so events keep their order and the final status precedes the end.
    let handling: Promise<void> = Promise.resolve();
    const listener: Listener = (job) => {
      handling = handling.then(() => handle(job)).catch(() => stream.end());
    };
    const handle = async (job: JobRecord | undefined): Promise<void> => {
      if (!this.streams.has(stream)) return;
      if (!job) return stream.end();
      if (job.status !== last.status) {
        const view = await this.view(job);
        if (!this.streams.has(stream)) return;
        send('status', view);
      } else if (job.progress !== last.progress) send('progress', { progress: job.progress });
      else if (Date.now() - lastWrite > KEEPALIVE_MS) res.write(': keep-alive\n\n');
      else return;
      lastWrite = Date.now();
      last = job;
      if (isFinishedStatus(job.status)) stream.end();
    };
    const onAbort = () => stream.end();
    this.streams.add(stream);
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) {
      stream.end();
      return done;
    }
    watcher = this.watchers.get(first.id);
    if (!watcher) {
      const created: JobWatcher = new JobWatcher({
        id: first.id,
        repo: this.repo,
        pollMs: this.pollMs,
        onIdle: () => {
          if (this.watchers.get(first.id) === created) this.watchers.delete(first.id);
          this.emit('changed');
        },
      });
      this.watchers.set(first.id, created);
      created.start();
      watcher = created;
    }
    watcher.listeners.add(listener);
    return done;
  }

  /**
   * Drain: refuses new streams and ends every open one with a `reconnect` event (EventSource
   * clients reconnect after `retry`, reaching another process), so no stream holds the server open.
   */
  close(): Promise<void> {
    this.closing = true;
    const streams = [...this.streams];
    for (const stream of streams) stream.end({ event: 'reconnect', data: { reason: 'shutting down', retryMs: RECONNECT_MS } });
    for (const watcher of [...this.watchers.values()]) watcher.stop();
    return Promise.all(streams.map((s) => s.done)).then(() => {});
  }
}
