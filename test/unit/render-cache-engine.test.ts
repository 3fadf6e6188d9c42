// A render cache filled by an older engine must not answer for the current one: an engine bump means
// bytes changed (1.1.0 pinned the encoders' CPU baseline), while recipe hashes stay the same. And a
// cache store that fails (an object store down) is a miss, never a failed render.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BlobStore } from '../../src/blob/blob-store.ts';
import { resolveFfmpeg } from '../../src/engine/ffmpeg.ts';
import { RenderPool } from '../../src/engine/render-pool.ts';
import { ALL_GENERATORS } from '../../src/generators/index.ts';
import { GeneratorRegistry } from '../../src/generators/registry.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { cacheKey, RenderService } from '../../src/services/render.service.ts';

/** A render service with one worker over `cache`. */
function renderServiceOver(cache: BlobStore) {
  const pool = new RenderPool({ workers: 1, queueLimit: 10 });
  const service = new RenderService({
    generators: new GeneratorRegistry(ALL_GENERATORS),
    pool,
    cache,
    ffmpegPath: resolveFfmpeg(process.env.FFMPEG_PATH)!.path,
    // No time limit to race (2^31 − 1 ms, a timer's longest): the cache is tested, not a deadline.
    limits: { timeoutMs: 2 ** 31 - 1, animationBudgetMs: 2 ** 31 - 1 },
    logger: createLogger('silent'),
  });
  return { pool, service };
}

test('bytes cached by an older engine version under the same recipe hash are not served', async () => {
  const store = new Map<string, Buffer>();
  const cache: BlobStore = {
    get: async (k) => store.get(k),
    put: async (k, b) => void store.set(k, Buffer.from(b)),
    delete: async (k) => void store.delete(k),
  };
  const { pool, service } = renderServiceOver(cache);
  try {
    const resolved = service.resolve('plasma', {
      seed: 42,
      size: { width: 96, height: 64, pixelRatio: 1 },
      format: 'mp4',
      params: { duration: 1, fps: 10 },
    });
    // Engine 1.0.0 keyed files by recipe hash and extension alone.
    const stale = Buffer.from('mp4 bytes from engine 1.0.0');
    store.set(`${resolved.hash}.mp4`, stale);
    const first = await service.render(resolved, { mode: 'job' });
    assert.equal(first.cache, 'MISS');
    assert.notDeepEqual(first.bytes, stale);
    assert.notEqual(cacheKey(resolved), `${resolved.hash}.mp4`);
    const second = await service.render(resolved, { mode: 'job' });
    assert.equal(second.cache, 'HIT');
    assert.deepEqual(second.bytes, first.bytes);
  } finally {
    await pool.close();
  }
});

test('a cache store that cannot be read or written (an object store down) costs the cache, never the render', async () => {
  const down = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:9000'));
  const cache: BlobStore = { get: down, put: down, delete: down };
  const { pool, service } = renderServiceOver(cache);
  try {
    const resolved = service.resolve('mesh-gradient', { seed: 1, size: { width: 32, height: 32 }, format: 'png' });
    assert.equal(await service.cached(resolved), undefined);
    const first = await service.render(resolved);
    assert.equal(first.cache, 'MISS');
    assert.ok(first.bytes.length > 0);
  } finally {
    await pool.close();
  }
});
