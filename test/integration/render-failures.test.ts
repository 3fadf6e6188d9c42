// Why a render answers 5xx, on every operation that renders a file (generate, renderRecipe,
// renderPreset, and a job's thumbnail and a template draft's preview for the causes a still can meet), on SQLite, each response checked against openapi.yaml (which feeds the
// status-coverage table):
//   503 overloaded       the render queue is full (RENDER_QUEUE_LIMIT renders already wait);
//   503 not_ready        gif/mp4 on a server without a working FFmpeg;
//   502 upstream_error   FFmpeg failed the encode;
//   504 render_timeout   the render passed its time limit (an expired limit is injected into the
//                        pool's task, so no test waits for a clock).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PixelGate } from '../../src/engine/pixel-gate.ts';
import type { PoolTask, RenderPool, RunOptions } from '../../src/engine/render-pool.ts';
import { ONE_ENGINE } from '../support/black-box/databases.ts';
import { armCall, waitForJob } from '../support/events.ts';
import { failingFfmpeg } from '../support/failing-ffmpeg.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

type Recipe = {
  slug: string;
  seed: number;
  format: 'png' | 'gif';
  size: { width: number; height: number };
  params?: Record<string, number>;
};
const still = (seed: number): Recipe => ({ slug: 'mesh-gradient', seed, format: 'png', size: { width: 64, height: 48 } });
const motion = (seed: number): Recipe => ({
  slug: 'plasma',
  seed,
  format: 'gif',
  size: { width: 64, height: 48 },
  params: { duration: 1, fps: 10 },
});

const poolOf = (t: TestApp) => (t.runtime.deps.services.render as unknown as { pool: RenderPool }).pool;

/** The three ways to ask for a render of `recipe`: each answer is checked against the contract by t.request. */
async function renderEach(t: TestApp, recipe: Recipe) {
  const { slug, ...body } = recipe;
  const { hash, encoded } = t.runtime.deps.services.render.resolve(slug, body);
  const preset = await t.request('post', '/v1/presets', { body: { name: `failure ${recipe.seed}`, recipe } });
  assert.equal(preset.status, 201, preset.text);
  return {
    generate: () => t.request('post', `/v1/generate/${slug}`, { body }),
    renderRecipe: () => t.request('get', `/v1/render/${hash}?r=${encoded}`),
    renderPreset: () => t.request('get', `/v1/presets/${preset.body.id}/render`),
  };
}

/** A completed export of a still: its thumbnail (GET /v1/jobs/{id}/thumbnail) is a render not made yet. */
async function thumbnailOfNewJob(t: TestApp, recipe: Recipe) {
  const job = await t.request('post', '/v1/jobs', { body: recipe });
  assert.equal(job.status, 202, job.text);
  await waitForJob(t, job.body.id, ['completed']);
  return () => t.request('get', `/v1/jobs/${job.body.id}/thumbnail`);
}

function assertProblem(res: { status: number; body: { code: string }; text: string }, status: number, code: string, what: string) {
  assert.equal(res.status, status, `${what}: ${res.text}`);
  assert.equal(res.body.code, code, what);
}

for (const engine of ONE_ENGINE) {
  describe(`render failures on ${engine} (no FFmpeg)`, () => {
    let t: TestApp;
    let seed = 1000;
    before(async () => {
      t = await startTestApp(engine, { env: { FFMPEG_PATH: '/nonexistent/ffmpeg', RENDER_WORKERS: '1', RENDER_QUEUE_LIMIT: '1' } });
    });
    after(async () => t?.close());

    test('503 not_ready for gif on every render operation when FFmpeg is missing; stills still render', async () => {
      for (const [op, call] of Object.entries(await renderEach(t, motion(seed++)))) {
        const res = await call();
        assertProblem(res, 503, 'not_ready', op);
        assert.ok(Number(res.headers['retry-after']) > 0, `${op}: Retry-After`);
      }
      assert.equal((await (await renderEach(t, still(seed++))).generate()).status, 200);
    });

    test('503 overloaded with Retry-After on every render operation while the render queue is full', async () => {
      const pool = poolOf(t);
      const gate = (pool as unknown as { gate: PixelGate }).gate;
      // Every pixel is taken, so the next render waits in the queue (RENDER_QUEUE_LIMIT=1): it is then full.
      const thumbnail = await thumbnailOfNewJob(t, still(seed++));
      const release = await gate.acquire(gate.budget);
      let waiting: ReturnType<TestApp['request']> | undefined;
      try {
        const calls = await renderEach(t, still(seed++));
        // The render asks the gate for pixels and, finding none, waits: the queue is then full.
        const queued = armCall(gate, 'acquire');
        waiting = calls.generate();
        await queued.wait('the first render to ask for pixels');
        assert.equal(pool.queueSize, 1);
        for (const [op, call] of Object.entries({ ...(await renderEach(t, still(seed++))), getJobThumbnail: thumbnail })) {
          const res = await call();
          assertProblem(res, 503, 'overloaded', op);
          assert.ok(Number(res.headers['retry-after']) > 0, `${op}: Retry-After`);
        }
      } finally {
        release();
      }
      assert.equal((await waiting!).status, 200, 'the queued render ran once pixels were free');
    });

    test('504 render_timeout on every render operation when a still passes its time limit', async () => {
      const pool = poolOf(t);
      const original = pool.render;
      const thumbnail = await thumbnailOfNewJob(t, still(seed++));
      // The limit has already passed when the worker starts: its first checkpoint stops the render.
      pool.render = (task: PoolTask, options?: RunOptions) => original.call(pool, { ...task, timeoutMs: -1 }, options);
      try {
        // A template draft's preview renders through the same pool and limit.
        const previewTemplate = () =>
          t.request('post', '/v1/templates/preview', {
            body: {
              template: { name: 'Draft', size: { width: 32, height: 32 }, layers: [{ id: 'fill', kind: 'fill', color: '#123456' }] },
            },
          });
        for (const [op, call] of Object.entries({ ...(await renderEach(t, still(seed++))), getJobThumbnail: thumbnail, previewTemplate })) {
          assertProblem(await call(), 504, 'render_timeout', op);
        }
      } finally {
        pool.render = original;
      }
    });
  });

  describe(`render failures on ${engine} (FFmpeg fails its encodes)`, () => {
    let t: TestApp;
    let ffmpeg: ReturnType<typeof failingFfmpeg>;
    before(async () => {
      ffmpeg = failingFfmpeg();
      t = await startTestApp(engine, { env: { FFMPEG_PATH: ffmpeg.path } });
    });
    after(async () => {
      await t?.close();
      ffmpeg?.remove();
    });

    test('502 upstream_error for gif on every render operation when the encoder fails', async () => {
      for (const [op, call] of Object.entries(await renderEach(t, motion(2000)))) {
        assertProblem(await call(), 502, 'upstream_error', op);
      }
    });
  });
}
