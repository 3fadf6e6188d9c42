// The concurrency gate over real HTTP: a full queue answers 503, a client that leaves stops its
// render and its FFmpeg child (logged as 499), and health answers while every worker renders.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { ALL_GENERATORS } from '../../src/generators/index.ts';
import { ONE_ENGINE } from '../support/black-box/databases.ts';
import { armEvent } from '../support/events.ts';
import { TEST_LOCAL_KEY, startTestApp, type TestApp } from '../support/harness.ts';
import { encodesSize, tracedFfmpeg, type TracedFfmpeg } from '../support/black-box/traced-ffmpeg.ts';

const animated = ALL_GENERATORS.find((g) => g.animated);
const heavyBody = (seed: number) =>
  JSON.stringify({ seed, format: 'mp4', size: { width: 1280, height: 720 }, params: { duration: 10, fps: 30 } });

function post(
  base: string,
  path: string,
  body: string,
): { response: Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>; abort: () => void } {
  const req = http.request(`${base}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TEST_LOCAL_KEY}`, 'Content-Type': 'application/json' },
  });
  const response = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('latin1');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
  });
  req.end(body);
  return { response, abort: () => req.destroy() };
}

for (const engine of ONE_ENGINE) {
  describe(`render gate on ${engine}`, { skip: !animated && 'needs an animated generator' }, () => {
    let t: TestApp;
    let base: string;
    let ffmpeg: TracedFfmpeg;
    before(async () => {
      ffmpeg = await tracedFfmpeg();
      t = await startTestApp(engine, {
        env: { RENDER_WORKERS: '2', RENDER_QUEUE_LIMIT: '1', ANIMATION_BUDGET_MS: '60000', FFMPEG_PATH: ffmpeg.path },
      });
      base = `http://127.0.0.1:${(await t.listen()).port}`;
    });
    after(async () => {
      await t?.close();
      await ffmpeg?.close();
    });

    test('a client that disconnects stops the render, kills FFmpeg and is logged as 499', async () => {
      const started = armEvent(ffmpeg.events, 'start', encodesSize(1280, 720));
      const call = post(base, `/v1/generate/${animated!.slug}`, heavyBody(1));
      call.response.catch(() => {});
      const [pid] = await started.wait('FFmpeg to start encoding');
      const exited = armEvent(ffmpeg.events, 'exit', (p) => p === pid, 5_000);
      call.abort();
      await exited.wait('FFmpeg to be killed');
      assert.equal(ffmpeg.running, 0, 'no encode left running');
      await t.waitForLog((e) => e.res?.statusCode === 499 && e.req?.url === `/v1/generate/${animated!.slug}`);
      // The worker is free again: a small render completes promptly.
      const small = await t.request('post', `/v1/generate/${animated!.slug}`, { body: { format: 'png', size: { width: 32, height: 32 } } });
      assert.equal(small.status, 200);
    });

    test('a full queue answers 503 with Retry-After, and health answers while every worker renders', async () => {
      // Two workers and a queue of one: of five heavy renders two run, one waits and the rest are refused at once.
      const calls = [1, 2, 3, 4, 5].map((s) => post(base, `/v1/generate/${animated!.slug}`, heavyBody(100 + s)));
      calls.forEach((c) => c.response.catch(() => {}));
      try {
        // The first refusal is the event that says the workers are full; if none comes, every call settles and this rejects.
        const overloaded = await Promise.any(
          calls.map((c) => c.response.then((r) => (r.status === 503 ? r : Promise.reject(new Error(`answered ${r.status}, not 503`))))),
        );
        assert.equal(JSON.parse(overloaded.body).code, 'overloaded');
        assert.ok(Number(overloaded.headers['retry-after']) > 0);
        // Health runs on the event loop, not in a render worker, so it answers while they are all busy.
        const health = await fetch(`${base}/v1/health`, { signal: AbortSignal.timeout(10_000) });
        assert.equal(health.status, 200);
      } finally {
        calls.forEach((c) => c.abort());
      }
    });
  });
}
