// A job's render whose signal is already aborted when it starts (a shutdown between the job's claim
// and its render) is refused with the abort's reason, and nothing is left failing in the background:
// an unhandled rejection would crash a process run with --unhandled-rejections=strict. A render
// aborted while it waits for FFmpeg to take its frames stops then, its FFmpeg killed by the worker.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BlobStore } from '../../src/blob/blob-store.ts';
import { RenderPool } from '../../src/engine/render-pool.ts';
import { ProblemError } from '../../src/errors/problem.ts';
import { ALL_GENERATORS } from '../../src/generators/index.ts';
import { GeneratorRegistry } from '../../src/generators/registry.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { RenderService } from '../../src/services/render.service.ts';
import { encodesSize, tracedFfmpeg } from '../support/black-box/traced-ffmpeg.ts';
import { armEvent, withTimeout } from '../support/black-box/waiters.ts';

test('a render started with an aborted signal rejects with its reason and leaves no unhandled rejection', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  const cache: BlobStore = { get: async () => undefined, put: async () => {}, delete: async () => {} };
  const pool = new RenderPool({ workers: 1, queueLimit: 10 });
  const service = new RenderService({
    generators: new GeneratorRegistry(ALL_GENERATORS),
    pool,
    cache,
    ffmpegPath: undefined,
    limits: { timeoutMs: 60_000, animationBudgetMs: 60_000 },
    logger: createLogger('silent'),
  });
  try {
    const resolved = service.resolve('plasma', { seed: 3, size: { width: 32, height: 32, pixelRatio: 1 }, format: 'png' });
    const controller = new AbortController();
    const reason = new ProblemError('not_ready', { detail: 'shutting down' });
    controller.abort(reason);
    // A job's render (it reports progress, so it is never shared) and a sync one.
    await assert.rejects(
      service.render(resolved, { mode: 'job', signal: controller.signal, onProgress: () => {} }),
      (err) => err === reason,
    );
    await assert.rejects(service.render(resolved, { signal: controller.signal }), (err) => err === reason);
    // Rejections are reported after the microtask queue drains; two turns of the event loop cover it.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', onUnhandled);
    await pool.close();
  }
});

test('an aborted render waiting for FFmpeg stops at once: the worker kills its FFmpeg', async () => {
  // FFmpeg held before it reads anything (the traced FFmpeg's hold): the render's 10 frames of 4 KB
  // all go into the pipe, and it waits for FFmpeg to end, where no check between frames can see the abort.
  const ffmpeg = await tracedFfmpeg({ hold: (e) => encodesSize(32, 32)(e.pid, e.args) });
  const cache: BlobStore = { get: async () => undefined, put: async () => {}, delete: async () => {} };
  const pool = new RenderPool({ workers: 1, queueLimit: 10 });
  const service = new RenderService({
    generators: new GeneratorRegistry(ALL_GENERATORS),
    pool,
    cache,
    ffmpegPath: ffmpeg.path,
    limits: { timeoutMs: 600_000, animationBudgetMs: 600_000 },
    logger: createLogger('silent'),
  });
  try {
    const resolved = service.resolve('plasma', {
      seed: 5,
      size: { width: 32, height: 32, pixelRatio: 1 },
      format: 'mp4',
      params: { duration: 1, fps: 10 },
    });
    const controller = new AbortController();
    const started = armEvent<[number, string]>(ffmpeg.events, 'start', encodesSize(32, 32));
    let resolveWritten!: () => void;
    const written = new Promise<void>((resolve) => (resolveWritten = resolve));
    const rendering = service.render(resolved, {
      mode: 'job',
      signal: controller.signal,
      onProgress: (frame, frames) => frame === frames && resolveWritten(),
    });
    rendering.catch(() => {});
    const [pid] = await started.wait('FFmpeg to start');
    await withTimeout('every frame to go into the pipe', written, 20_000);
    assert.deepEqual(
      ffmpeg.held.map((e) => e.pid),
      [pid],
    );
    // Never released: only the worker's own kill ends it (the pool is closed after it has).
    const killed = armEvent(ffmpeg.events, 'exit', (p) => p === pid);
    controller.abort(new ProblemError('not_ready', { detail: 'shutting down' }));
    await assert.rejects(rendering, (err) => err instanceof ProblemError && err.code === 'not_ready');
    await killed.wait('the worker to kill the FFmpeg it waits for');
    assert.equal(ffmpeg.running, 0);
  } finally {
    await pool.close();
    await ffmpeg.close();
  }
});
