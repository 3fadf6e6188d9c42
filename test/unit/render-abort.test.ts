// A job's render whose signal is already aborted when it starts (a shutdown between the job's claim
// and its render) is refused with the abort's reason, and nothing is left failing in the background:
// an unhandled rejection would crash a process run with --unhandled-rejections=strict.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BlobStore } from '../../src/blob/blob-store.ts';
import { RenderPool } from '../../src/engine/render-pool.ts';
import { ProblemError } from '../../src/errors/problem.ts';
import { ALL_GENERATORS } from '../../src/generators/index.ts';
import { GeneratorRegistry } from '../../src/generators/registry.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { RenderService } from '../../src/services/render.service.ts';

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
