// The pixel gate inside the real render pool: a render that does not fit the budget waits in the
// pool's queue (counted against RENDER_QUEUE_LIMIT, so one more answers 503 overloaded) and leaves
// it when its client goes away.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { ALL_GENERATORS } from '../generators/index.ts';
import { ProblemError } from '../errors/problem.ts';
import { resolveFfmpeg } from './ffmpeg.ts';
import { RenderPool, withoutTsx, type PoolTask } from './render-pool.ts';
import { ENGINE_VERSION } from './versions.ts';
import { armEvent, withTimeout } from '../../test/support/black-box/waiters.ts';
import { buildService } from '../../scripts/build-service.mjs';

const plasma = ALL_GENERATORS.find((g) => g.slug === 'plasma')!;
const still = (seed: number): PoolTask => ({
  slug: 'plasma',
  version: plasma.version,
  engine: ENGINE_VERSION,
  params: plasma.defaults as Record<string, unknown>,
  seed,
  width: 64,
  height: 64,
  pixelRatio: 1,
  deviceWidth: 64,
  deviceHeight: 64,
  format: 'png',
  recipe: { encoded: 'e30', hash: '0'.repeat(64) },
  frames: 1,
  fps: 1,
  ffmpegPath: undefined,
  timeoutMs: 60_000,
});
// Runs until aborted (FFmpeg encodes 300 frames of 1280×720).
const long = (): PoolTask => ({
  ...still(1),
  params: { ...(plasma.defaults as Record<string, unknown>), duration: 10, fps: 30 },
  width: 1280,
  height: 720,
  deviceWidth: 1280,
  deviceHeight: 720,
  format: 'gif',
  frames: 300,
  fps: 30,
  ffmpegPath: resolveFfmpeg(process.env.FFMPEG_PATH)?.path,
  timeoutMs: 120_000,
});
const flush = () => new Promise((r) => setImmediate(r));

// A budget of one pixel: every render is "oversize", so each runs alone.
const pool = new RenderPool({ workers: 2, queueLimit: 1, maxPixelsInFlight: 1 });
after(() => pool.close());

test('a render over the remaining pixel budget waits, counts against the queue limit and leaves it when aborted', async () => {
  const first = new AbortController();
  const running = pool.render(long(), { signal: first.signal });
  running.catch(() => {});
  const second = new AbortController();
  const waiting = pool.render(still(2), { signal: second.signal });
  waiting.catch(() => {});
  await flush();
  // Two workers are free, yet the second render waits: the first holds the whole budget.
  assert.equal(pool.queueSize, 1);
  await assert.rejects(pool.render(still(3)), (err: unknown) => err instanceof ProblemError && err.code === 'overloaded');

  second.abort();
  await assert.rejects(waiting, (err: unknown) => err instanceof ProblemError && err.code === 'client_closed_request');
  assert.equal(pool.queueSize, 0);

  first.abort();
  await assert.rejects(running, (err: unknown) => err instanceof ProblemError && err.code === 'client_closed_request');
  // The budget is free again: a render runs.
  const out = await pool.render(still(4));
  assert.ok(out.bytes.length > 0);
});

test('RENDER_QUEUE_LIMIT=0: a render that starts at once runs; one that would wait answers overloaded', async () => {
  const noQueue = new RenderPool({ workers: 1, queueLimit: 0 });
  try {
    // An idle worker: nothing waits, so the limit of 0 waiting renders does not refuse it.
    assert.ok((await noQueue.render(still(5))).bytes.length > 0);
    const first = new AbortController();
    const running = noQueue.render(long(), { signal: first.signal });
    running.catch(() => {});
    await flush();
    // The only worker is busy: this one would wait, and no render may.
    await assert.rejects(noQueue.render(still(6)), (err: unknown) => err instanceof ProblemError && err.code === 'overloaded');
    first.abort();
    await assert.rejects(running, (err: unknown) => err instanceof ProblemError && err.code === 'client_closed_request');
  } finally {
    await noQueue.close();
  }
});

// Large frames leave a worker thread holding memory it gives back only when it ends (render-pool.ts,
// RECYCLE_AFTER_PIXELS), so an idle pool replaces the threads that made them.
const large = (seed: number): PoolTask => ({ ...still(seed), width: 2048, height: 2048, deviceWidth: 2048, deviceHeight: 2048 });

test('once idle, the pool replaces the thread that made a large frame, and only that one; renders go on', async () => {
  const recycling = new RenderPool({ workers: 2, recycleIdleMs: 0 });
  try {
    const recycled = armEvent<[number[]]>(recycling, 'recycled', () => true, 120_000);
    // Two renders at once: one thread each.
    const [small, big] = await Promise.all([recycling.render(still(7)), recycling.render(large(8))]);
    assert.notEqual(small.threadId, big.threadId);
    const [threadIds] = await recycled.wait('the pool to replace the thread');
    assert.deepEqual(threadIds, [big.threadId]);
    // The pool still has its two threads (a new one in place of the old) and renders.
    const after = await Promise.all([recycling.render(still(9)), recycling.render(still(10))]);
    assert.ok(after.every((o) => o.bytes.length > 0));
    assert.ok(after.every((o) => o.threadId !== big.threadId));
  } finally {
    await recycling.close();
  }
});

test('a render that arrives while threads are being replaced waits for them and runs on a live thread', async () => {
  const recycling = new RenderPool({ workers: 1, recycleIdleMs: 0 });
  try {
    const big = await recycling.render(large(11));
    // Submitted the moment the old thread is told to end, before it has: piscina would hand it that thread.
    const during = new Promise<Awaited<ReturnType<RenderPool['render']>>>((resolve, reject) =>
      recycling.once('recycling', () => recycling.render(still(12)).then(resolve, reject)),
    );
    const out = await withTimeout('the render submitted while recycling', during, 120_000);
    assert.ok(out.bytes.length > 0);
    assert.notEqual(out.threadId, big.threadId);
  } finally {
    await recycling.close();
  }
});

test('the threads start with start() or the first render: a pool that never renders starts none', async () => {
  const idle = new RenderPool({ workers: 1 });
  assert.equal(idle.started, false);
  assert.equal(idle.queueSize, 0);
  assert.equal(idle.utilization, 0);
  await idle.close();
  await assert.rejects(idle.render(still(7)), /closed/);

  const lazy = new RenderPool({ workers: 1 });
  try {
    assert.ok((await lazy.render(still(8))).bytes.length > 0);
    assert.equal(lazy.started, true);
  } finally {
    await lazy.close();
  }
  const eager = new RenderPool({ workers: 1 });
  eager.start();
  assert.equal(eager.started, true);
  await eager.close();
});

test('inThread (the CLI): the same bytes as a worker thread, with progress, and an abort stops the render', async () => {
  const inThread = new RenderPool({ workers: 1, queueLimit: 1, inThread: true });
  try {
    const frames: number[] = [];
    const mine = await inThread.render(still(5), { onProgress: (frame) => frames.push(frame) });
    const theirs = await pool.render(still(5));
    assert.deepEqual(Buffer.from(mine.bytes), Buffer.from(theirs.bytes));
    await flush();
    assert.deepEqual(frames, [1]);
    if (!long().ffmpegPath) return; // the abort needs an animation, so FFmpeg
    const controller = new AbortController();
    const running = inThread.render(long(), { signal: controller.signal, onProgress: () => controller.abort() });
    await assert.rejects(running, (err: ProblemError) => err.code === 'client_closed_request');
  } finally {
    await inThread.close();
  }
});

test('workerModule: threads that load the compiled worker (dist/, built here when not current) render the same bytes', async () => {
  // A stand-in that fails each render in the thread, which stays up (a module that does not load would
  // make piscina start another thread, whose failure with no render to fail is an 'error' event).
  const dir = mkdtempSync(path.join(tmpdir(), 'render-pool-'));
  writeFileSync(path.join(dir, 'stand-in.worker.mjs'), "export default () => { throw new Error('the stand-in worker'); };\n");
  const standIn = new RenderPool({ workers: 1, workerModule: pathToFileURL(path.join(dir, 'stand-in.worker.mjs')) });
  try {
    await assert.rejects(standIn.render(still(6)), /the stand-in worker/, 'the threads load the module given');
  } finally {
    await standIn.close();
    rmSync(dir, { recursive: true, force: true });
  }
  await buildService();
  const compiled = new RenderPool({ workers: 1, workerModule: new URL('../../dist/render.worker.js', import.meta.url) });
  try {
    const mine = await compiled.render(still(6));
    const theirs = await pool.render(still(6));
    assert.deepEqual(Buffer.from(mine.bytes), Buffer.from(theirs.bytes));
  } finally {
    await compiled.close();
  }
});

test('a compiled worker starts without the options that load tsx, whatever their spelling', () => {
  assert.deepEqual(withoutTsx(['--import', 'tsx', '--max-old-space-size=512']), ['--max-old-space-size=512']);
  assert.deepEqual(withoutTsx(['--import=tsx', '-r', '/x/node_modules/tsx/dist/cjs/index.cjs', '--cpu-prof']), ['--cpu-prof']);
  assert.deepEqual(withoutTsx(['--import', './other.mjs', '--require=tsx/cjs']), ['--import', './other.mjs']);
});
