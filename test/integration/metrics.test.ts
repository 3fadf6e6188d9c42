// /metrics after real traffic, scraped over HTTP from the metrics listener (src/http/metrics.server.ts)
// on both databases, and in hosted mode where credits move: requests by operation and status (the
// lean path's hits included), renders by generator, format and cache status, jobs, webhook
// attempts, credits, the render queue and the event loop. The listener wants its token.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startMetricsServer } from '../../src/http/metrics.server.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { armEvent } from '../support/black-box/waiters.ts';
import { HOSTED_ENV, startTestApp, type TestApp, workspaceKey } from '../support/harness.ts';

const TOKEN = 'metrics-token-for-tests-0123';
const SETUPS = [
  ...ENGINES.map((engine) => ({ name: `local mode on ${engine}`, engine, hosted: false })),
  { name: 'hosted mode on postgres', engine: 'postgres' as const, hosted: true },
];

/** The value of one sample (`name{labels} value`), labels given in any order; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

for (const setup of SETUPS) {
  describe(`metrics: ${setup.name}`, () => {
    let t: TestApp;
    let scrapeServer: Server;
    let scrapeUrl: string;
    let key: string;
    before(async () => {
      t = await startTestApp(setup.engine, {
        env: setup.hosted ? HOSTED_ENV : { WEBHOOK_ALLOW_LOOPBACK: '1', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
      });
      scrapeServer = await startMetricsServer(t.runtime.metrics, { port: 0, host: '127.0.0.1', token: TOKEN });
      scrapeUrl = `http://127.0.0.1:${(scrapeServer.address() as AddressInfo).port}/metrics`;
      if (setup.hosted) {
        key = await workspaceKey(t, { id: 'ws_metrics', name: 'Metrics' }, 'metrics');
        await t.runtime.deps.services.credits.add({
          workspaceId: 'ws_metrics',
          amount: 1_000,
          kind: 'grant',
          id: 'grant_metrics',
          reference: 'test',
          description: 'test credits',
        });
      }
    });
    after(async () => {
      scrapeServer?.close();
      await t?.close();
    });
    const as = () => (setup.hosted ? { auth: false as const, headers: { Authorization: `Bearer ${key}` } } : {});
    const scrape = async () => {
      const res = await fetch(scrapeUrl, { headers: { Authorization: `Bearer ${TOKEN}` } });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      return res.text();
    };

    test('the listener wants its token and serves only GET /metrics', async () => {
      assert.equal((await fetch(scrapeUrl)).status, 401);
      assert.equal((await fetch(scrapeUrl, { headers: { Authorization: 'Bearer wrong-token-0123456789' } })).status, 401);
      // The scheme name is case-insensitive, as on the API (one bearer parser, src/lib/bearer.ts).
      assert.equal((await fetch(scrapeUrl, { headers: { Authorization: `bearer ${TOKEN}` } })).status, 200);
      assert.equal((await fetch(scrapeUrl.replace('/metrics', '/'), { headers: { Authorization: `Bearer ${TOKEN}` } })).status, 404);
    });

    test('the counters move with real traffic', async () => {
      const before = await scrape();
      const count = (text: string, name: string, labels: Record<string, string>) => sample(text, name, labels) ?? 0;

      // A miss, then the same recipe URL twice (hits, answered by the lean path), a 404 and a 401.
      const body = { seed: 11, size: { width: 48, height: 32 }, format: 'png' };
      const miss = await t.request('post', '/v1/generate/mesh-gradient', { ...as(), body });
      assert.equal(miss.status, 200, miss.text);
      const url = `/v1/render/${miss.headers['x-service-recipe-hash']}?r=${miss.headers['x-service-recipe']}`;
      for (let i = 0; i < 2; i++) assert.equal((await t.request('get', url, as())).headers['x-service-cache'], 'HIT');
      assert.equal((await t.request('get', '/v1/nowhere', as())).status, 404);
      assert.equal((await t.request('get', '/v1/me', { auth: false })).status, 401);

      // A job (with a webhook in local mode: its attempt fails, and is counted).
      const finished = armEvent(t.runtime.jobs.lifecycle, 'finished');
      const attempted = setup.hosted ? undefined : armEvent(t.runtime.deps.services.webhooks.delivery, 'attempted');
      const job = await t.request('post', '/v1/jobs', {
        ...as(),
        body: {
          slug: 'mesh-gradient',
          seed: 12,
          size: { width: 32, height: 32 },
          ...(setup.hosted ? {} : { webhookUrl: 'https://127.0.0.1:9/hook' }),
        },
      });
      assert.equal(job.status, 202, job.text);
      await finished.wait('the job to finish');
      await attempted?.wait('the webhook attempt');

      const now = await scrape();
      const moved = (name: string, labels: Record<string, string>) => count(now, name, labels) - count(before, name, labels);
      const requests = 'render_service_http_request_duration_seconds_count';
      assert.equal(moved(requests, { operation: 'generate', status: '200' }), 1);
      assert.equal(moved(requests, { operation: 'renderRecipe', status: '200' }), 2);
      assert.equal(moved(requests, { operation: 'none', status: '404' }), 1);
      assert.equal(moved(requests, { operation: 'getMe', status: '401' }), 1);
      assert.equal(moved(requests, { operation: 'createJob', status: '202' }), 1);
      const renders = 'render_service_render_duration_seconds_count';
      assert.equal(moved(renders, { generator: 'mesh-gradient', format: 'png', cache: 'MISS' }), 2, 'the sync render and the job');
      assert.equal(moved(renders, { generator: 'mesh-gradient', format: 'png', cache: 'HIT' }), 2);
      assert.equal(moved('render_service_job_duration_seconds_count', { status: 'completed' }), 1);
      assert.equal(moved('render_service_job_attempts_sum', { status: 'completed' }), 1);
      assert.equal(sample(now, 'render_service_jobs', { status: 'running' }), 0);
      assert.equal(sample(now, 'render_service_render_queue_depth'), 0);
      assert.equal(sample(now, 'render_service_render_rejections_total'), 0);
      // An API process keeps what it renders in memory (a worker process keeps nothing: test/acceptance/workers.test.ts).
      assert.ok(
        (sample(now, 'render_service_render_memory_cache_bytes') ?? 0) >= Number(miss.headers['content-length']),
        'the render cache in memory',
      );
      assert.ok((sample(now, 'render_service_nodejs_eventloop_lag_seconds') ?? -1) >= 0, 'event-loop delay');
      if (setup.hosted) {
        assert.ok(moved('render_service_credits_total', { event: 'reserved' }) >= 2);
        assert.ok(moved('render_service_credits_total', { event: 'committed' }) >= 2);
      } else assert.equal(moved('render_service_webhook_deliveries_total', { outcome: 'attempted' }), 1);
    });
  });
}
