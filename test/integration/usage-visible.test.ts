// Usage you can see (issue #45, point 1), with real components: X-Service-Credits-Remaining on every
// charged path in hosted mode (sync, recipe URL, preset, batch, job, and their 402) and never on a
// signed answer or in local mode; GET /v1/usage's granularities and groupings adding up to the totals
// and to the ledger's charges; monthly budgets whose thresholds raise one Standard Webhooks event each
// (verified with the `standardwebhooks` package) under concurrent charges in two "processes".
// One app per engine: hosted on Postgres (hosted mode needs it), local on SQLite.
import assert from 'node:assert/strict';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { EventEmitter } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { generate as selfSigned } from 'selfsigned';
import { Webhook } from 'standardwebhooks';
import { BudgetsRepository } from '../../db/repositories/budgets.repository.ts';
import { CreditsRepository } from '../../db/repositories/credits.repository.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { BudgetsService, monthOf } from '../../src/services/budgets.service.ts';
import { CreditsService } from '../../src/services/credits.service.ts';
import { WebhookDeliveryService } from '../../src/services/webhook-delivery.service.ts';
import { WebhooksRepository } from '../../db/repositories/webhooks.repository.ts';
import { PinnedHttpsClient } from '../../src/adapters/pinned-https.client.ts';
import { armEvent, waitForJob } from '../support/events.ts';
import { listenOnLoopback } from '../support/black-box/listen.ts';
import { type EngineName } from '../support/black-box/databases.ts';
import { HOSTED_ENV, startTestApp, type TestApp, workspaceKey } from '../support/harness.ts';

const tiny = (seed: number) => ({ seed, size: { width: 32, height: 32 }, format: 'png' as const });
const REMAINING = 'x-service-credits-remaining';
const quiet = createLogger('silent');

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A self-signed HTTPS receiver on 127.0.0.1 that records what it is sent and emits 'request'. */
async function startReceiver(tls: { key: string; cert: string }) {
  const requests: Received[] = [];
  const events = new EventEmitter<{ request: [count: number] }>();
  const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
      events.emit('request', requests.length);
    });
  });
  const port = await listenOnLoopback(server);
  return {
    url: `https://127.0.0.1:${port}/budget`,
    /** The same receiver by a name (hooks.test, resolved to it by the delivery's pinned client in the test). */
    namedUrl: `https://hooks.test:${port}/budget`,
    requests,
    /** Resolves once `n` requests have arrived. */
    async received(n: number) {
      if (requests.length >= n) return;
      await armEvent(events, 'request', (count: number) => count >= n).wait(`${n} webhook requests`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

let tls: { key: string; cert: string };
const apps = new Map<EngineName, Promise<TestApp>>();
/** The file's app on `engine`: hosted on Postgres, local on SQLite. */
function appOn(engine: EngineName): Promise<TestApp> {
  let app = apps.get(engine);
  if (!app) {
    // Hosted mode refuses loopback webhooks: its deliveries go to hooks.test, which the test resolves to the receiver.
    const env: Record<string, string> =
      engine === 'postgres'
        ? { ...HOSTED_ENV, WEBHOOK_ALLOWED_HOSTS: 'hooks.test' }
        : { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_ALLOW_LOOPBACK: '1' };
    apps.set(engine, (app = startTestApp(engine, { env, compose: engine === 'postgres' ? {} : { webhookLoopbackCa: tls.cert } })));
  }
  return app;
}

before(async () => {
  const pems = await selfSigned([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'hooks.test' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  tls = { key: pems.private, cert: pems.cert };
});
after(async () => {
  for (const app of apps.values()) await (await app.catch(() => undefined))?.close();
});

/** A delivery service that reaches the loopback receiver (the rule of local mode), signing with the app's secrets. */
function loopbackDelivery(t: TestApp): WebhookDeliveryService {
  return new WebhookDeliveryService({
    repo: new WebhooksRepository(t.runtime.db),
    secrets: t.runtime.deps.services.webhooks.secrets,
    config: { webhookAllowedHosts: ['127.0.0.1'], webhookAllowLoopback: true },
    logger: quiet,
    client: new PinnedHttpsClient({ allowLoopback: true, loopbackCa: tls.cert }),
    retryDelaysMs: [],
  });
}

/** The credits the ledger committed for the workspace (every charge there is). */
async function ledgerCharges(t: TestApp, workspaceId: string): Promise<number> {
  const row = await t.runtime
    .db('credit_entries')
    .where({ workspace_id: workspaceId, status: 'committed' })
    .sum({ spent: 'amount' })
    .first();
  return Number(row?.spent ?? 0);
}

/** Every grouping and granularity of GET /v1/usage adds up to the totals; returns the totals. */
async function assertGroupingsAddUp(t: TestApp, auth: Record<string, unknown>) {
  const plain = await t.request('get', '/v1/usage', auth);
  assert.equal(plain.status, 200, plain.text);
  const { totals } = plain.body;
  assert.equal(plain.body.byHour, undefined, 'without granularity the answer is unchanged');
  assert.equal(plain.body.groups, undefined);
  const sum = (rows: Array<Record<string, number>>, field: string) => rows.reduce((n, r) => n + r[field]!, 0);
  for (const groupBy of ['apiKey', 'signingKey', 'generator', 'operation']) {
    const res = await t.request('get', `/v1/usage?groupBy=${groupBy}`, auth);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.groupBy, groupBy);
    for (const field of ['renders', 'credits', 'bytes', 'cacheHits'])
      assert.equal(sum(res.body.groups, field), totals[field], `${groupBy}: ${field}`);
  }
  const day = await t.request('get', '/v1/usage?granularity=day', auth);
  assert.deepEqual(day.body, plain.body, 'granularity=day is the answer without it');
  for (const [granularity, field] of [
    ['hour', 'byHour'],
    ['month', 'byMonth'],
  ] as const) {
    const res = await t.request('get', `/v1/usage?granularity=${granularity}&from=${new Date().toISOString().slice(0, 10)}`, auth);
    assert.equal(res.status, 200, res.text);
    // Today's renders only (from = today): every one of them in some bucket of today.
    const today = plain.body.byDay.find((d: { date: string }) => d.date === new Date().toISOString().slice(0, 10));
    assert.equal(sum(res.body[field], 'credits'), today?.credits ?? 0, `${granularity}: credits`);
    assert.equal(sum(res.body[field], 'renders'), today?.renders ?? 0, `${granularity}: renders`);
  }
  const tooLong = await t.request('get', '/v1/usage?granularity=hour&from=2026-01-01&to=2026-03-01', auth);
  assert.equal(tooLong.status, 400);
  return totals as { renders: number; credits: number };
}

describe('X-Service-Credits-Remaining in hosted mode (postgres)', () => {
  let t: TestApp;
  let secret: string;
  const ws = 'ws_visible_header';
  const auth = () => ({ auth: false as const, headers: { Authorization: `Bearer ${secret}` } });
  const available = async () => (await t.request('get', '/v1/me', auth())).body.balance.available as number;

  before(async () => {
    t = await appOn('postgres');
    secret = await workspaceKey(t, { id: ws, name: 'Visible' }, 'ci');
    await t.runtime.deps.services.credits.add({
      workspaceId: ws,
      amount: 40,
      kind: 'grant',
      id: 'grant_visible',
      reference: 't',
      description: 'grant',
    });
  });

  test('a sync render, a recipe URL (miss and lean-path hit), a preset: the balance after the charge', async () => {
    const miss = await t.request('post', '/v1/generate/mesh-gradient', { ...auth(), body: tiny(1) });
    assert.equal(miss.status, 200, miss.text);
    assert.equal(miss.headers['x-service-credits'], '1');
    assert.equal(miss.headers[REMAINING], String(await available()));
    assert.equal(miss.headers[REMAINING], '39');

    const { hash, encoded } = t.runtime.deps.services.render.resolve('mesh-gradient', tiny(2));
    const url = `/v1/render/${hash}?r=${encoded}`;
    const urlMiss = await t.request('get', url, auth());
    assert.equal(urlMiss.headers['x-service-cache'], 'MISS');
    assert.equal(urlMiss.headers[REMAINING], '38');
    // Held in memory now: the lean path answers the hit, with the balance it charged nothing from.
    const urlHit = await t.request('get', url, auth());
    assert.equal(urlHit.headers['x-service-cache'], 'HIT');
    assert.equal(urlHit.headers['x-service-credits'], '0');
    assert.equal(urlHit.headers[REMAINING], '38');

    const preset = await t.request('post', '/v1/presets', {
      ...auth(),
      body: { name: 'p', recipe: { slug: 'mesh-gradient', ...tiny(3) } },
    });
    assert.equal(preset.status, 201, preset.text);
    const rendered = await t.request('get', `/v1/presets/${preset.body.id}/render`, auth());
    assert.equal(rendered.status, 200, rendered.text);
    assert.equal(rendered.headers[REMAINING], '37');
    // Exposed to scripts of listed origins.
    const cors = await t.request('get', url, { ...auth(), headers: { ...auth().headers, Origin: 'https://app.example.test' } });
    assert.match(String(cors.headers['access-control-expose-headers']), /X-Service-Credits-Remaining/);
  });

  test('a batch and a job (after its hold)', async () => {
    const batch = await t.request('post', '/v1/batch', {
      ...auth(),
      body: {
        items: [
          { slug: 'mesh-gradient', ...tiny(4) },
          { slug: 'mesh-gradient', ...tiny(5) },
        ],
      },
    });
    assert.equal(batch.status, 200, batch.text);
    assert.equal(batch.headers[REMAINING], String(await available()));
    const before = await available();
    const job = await t.request('post', '/v1/jobs', { ...auth(), body: { slug: 'mesh-gradient', ...tiny(6) } });
    assert.equal(job.status, 202, job.text);
    // The hold is taken at submission: the header says what is left while the job runs.
    assert.equal(job.headers[REMAINING], String(before - 1));
    await waitForJob(t, job.body.id, ['completed'], { headers: auth().headers });
  });

  test('a 402 insufficient_credits says the balance it read', async () => {
    const broke = await workspaceKey(t, { id: 'ws_visible_broke', name: 'Broke' }, 'ci');
    const res = await t.request('post', '/v1/generate/mesh-gradient', {
      auth: false,
      headers: { Authorization: `Bearer ${broke}` },
      body: tiny(7),
    });
    assert.equal(res.status, 402);
    assert.equal(res.headers[REMAINING], '0');
  });

  test('never on a signed URL (its answer, its 402), which reveals nothing of the workspace', async () => {
    const key = await t.request('post', '/v1/url-signing-keys', { ...auth(), body: { label: 'embeds' } });
    assert.equal(key.status, 201, key.text);
    const signed = await t.request('post', `/v1/url-signing-keys/${key.body.id}/sign`, {
      ...auth(),
      body: { slug: 'mesh-gradient', ...tiny(8) },
    });
    assert.equal(signed.status, 200, signed.text);
    const target = new URL(signed.body.url);
    const res = await t.request('get', target.pathname + target.search, { auth: false });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers['x-service-credits'], '1', 'it was charged');
    assert.equal(res.headers[REMAINING], undefined);
    const again = await t.request('get', target.pathname + target.search, { auth: false });
    assert.equal(again.headers[REMAINING], undefined);

    const brokeKeySecret = await workspaceKey(t, { id: 'ws_visible_broke_signed', name: 'Broke' }, 'ci');
    const brokeAuth = { auth: false as const, headers: { Authorization: `Bearer ${brokeKeySecret}` } };
    const brokeKey = await t.request('post', '/v1/url-signing-keys', { ...brokeAuth, body: { label: 'embeds' } });
    const brokeSigned = await t.request('post', `/v1/url-signing-keys/${brokeKey.body.id}/sign`, {
      ...brokeAuth,
      body: { slug: 'mesh-gradient', ...tiny(9) },
    });
    const brokeTarget = new URL(brokeSigned.body.url);
    const refused = await t.request('get', brokeTarget.pathname + brokeTarget.search, { auth: false });
    assert.equal(refused.status, 402);
    assert.equal(refused.headers[REMAINING], undefined);
    assert.equal(refused.body.balance, undefined);
  });

  test('the usage groupings add up to the totals and the totals to the ledger', async () => {
    await t.runtime.deps.services.usage.flush();
    const totals = await assertGroupingsAddUp(t, auth());
    assert.equal(totals.credits, await ledgerCharges(t, ws), 'usage = the ledger’s charges');
    assert.ok(totals.credits >= 7, `the renders above were charged (${totals.credits})`);
    const bySigningKey = await t.request('get', '/v1/usage?groupBy=signingKey', auth());
    assert.ok(
      bySigningKey.body.groups.some((g: { key: string | null; credits: number }) => g.key?.startsWith('usk_') && g.credits === 1),
      'the signed render is under its signing key',
    );
    const byOperation = await t.request('get', '/v1/usage?groupBy=operation', auth());
    const operations = byOperation.body.groups.map((g: { key: string }) => g.key).sort();
    for (const op of ['createJob', 'generate', 'renderBatch', 'renderPreset', 'renderRecipe']) assert.ok(operations.includes(op), op);
  });

  test('a budget alerts once per threshold under concurrent charges, verified with standardwebhooks', async () => {
    const receiver = await startReceiver(tls);
    // The app's own delivery (hosted rules: hooks.test is allowed, loopback is not); only its resolver
    // and CA are the test's, so hooks.test reaches the receiver on 127.0.0.1.
    const delivery = t.runtime.deps.services.webhooks.delivery as unknown as { client: unknown };
    const original = delivery.client;
    delivery.client = new PinnedHttpsClient({
      allowLoopback: true,
      loopbackCa: tls.cert,
      lookup: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    try {
      const budgetWs = 'ws_visible_budget';
      const key = await workspaceKey(t, { id: budgetWs, name: 'Budget' }, 'ci');
      const bAuth = { auth: false as const, headers: { Authorization: `Bearer ${key}` } };
      await t.runtime.deps.services.credits.add({
        workspaceId: budgetWs,
        amount: 50,
        kind: 'grant',
        id: 'grant_budget',
        reference: 't',
        description: 'grant',
      });
      const refused = await t.request('put', '/v1/workspace/budget', {
        ...bAuth,
        body: { monthlyCredits: 4, webhookUrl: 'http://127.0.0.1/x' },
      });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.code, 'webhook_url_not_allowed');
      const put = await t.request('put', '/v1/workspace/budget', {
        ...bAuth,
        body: { monthlyCredits: 4, alertThresholds: [100, 50], webhookUrl: receiver.namedUrl },
      });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(put.body.alertThresholds, [50, 100]);
      assert.deepEqual(put.body.crossed, []);

      const renders = await Promise.all(
        Array.from({ length: 6 }, (_, i) => t.request('post', '/v1/generate/mesh-gradient', { ...bAuth, body: tiny(900 + i) })),
      );
      assert.ok(renders.every((r) => r.status === 200 && r.headers['x-service-credits'] === '1'));
      await t.runtime.deps.services.budgets.idle();
      await receiver.received(2);

      const got = await t.request('get', '/v1/workspace/budget', bAuth);
      assert.equal(got.status, 200);
      assert.equal(got.body.spentThisMonth, 6);
      assert.deepEqual(
        got.body.crossed.map((c: { threshold: number }) => c.threshold),
        [50, 100],
      );
      // Exactly one event per threshold: one alert row and one outbox message each, whatever raced.
      const outbox = await t.runtime.db('webhook_outbox').where({ workspace_id: budgetWs, event_type: 'budget.threshold_crossed' });
      assert.equal(outbox.length, 2);
      const { secret: whsec } = (await t.request('get', '/v1/workspace/webhook-secret', bAuth)).body;
      const verifier = new Webhook(whsec);
      const events = receiver.requests.map(
        (r) =>
          verifier.verify(r.body, r.headers as Record<string, string>) as {
            type: string;
            data: { threshold: number; month: string; budget: number; spent: number };
          },
      );
      assert.equal(events.length, 2);
      const month = monthOf(Date.now()).month;
      assert.deepEqual(
        events.map((e) => e.data.threshold).sort((a: number, b: number) => a - b),
        [50, 100],
      );
      for (const e of events) {
        assert.equal(e.type, 'budget.threshold_crossed');
        assert.equal(e.data.month, month);
        assert.equal(e.data.budget, 4);
        assert.ok(e.data.spent >= (e.data.threshold * 4) / 100);
      }
      // An alert, not a limit: renders go on past 100 %.
      const past = await t.request('post', '/v1/generate/mesh-gradient', { ...bAuth, body: tiny(999) });
      assert.equal(past.status, 200);
      const removed = await t.request('put', '/v1/workspace/budget', { ...bAuth, body: { monthlyCredits: null } });
      assert.equal(removed.body.monthlyCredits, null);
    } finally {
      delivery.client = original;
      await receiver.close();
    }
  });
});

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`budgets and usage on ${engine}`, () => {
    let t: TestApp;
    let receiver: Receiver;
    before(async () => {
      t = await appOn(engine);
      receiver = await startReceiver(tls);
    });
    after(async () => receiver?.close());

    if (engine === 'sqlite')
      test('local mode: no balance, so no X-Service-Credits-Remaining; the groupings add up', async () => {
        const res = await t.request('post', '/v1/generate/mesh-gradient', { body: tiny(31) });
        assert.equal(res.status, 200);
        assert.equal(res.headers[REMAINING], undefined);
        const batch = await t.request('post', '/v1/batch', { body: { items: [{ slug: 'mesh-gradient', ...tiny(32) }] } });
        assert.equal(batch.headers[REMAINING], undefined);
        await t.request('post', '/v1/generate/mesh-gradient', { body: tiny(31) });
        await t.runtime.deps.services.usage.flush();
        const totals = await assertGroupingsAddUp(t, {});
        assert.ok(totals.renders >= 3);
      });

    test('two processes, concurrent charges: each threshold raised and sent exactly once', async () => {
      const ws = `ws_budget_once_${engine}`;
      await t.runtime.deps.services.workspaces.ensure({ id: ws, name: 'Once', kind: 'personal', createdAt: Date.now() });
      const delivery = loopbackDelivery(t);
      const config = { webhookAllowedHosts: ['127.0.0.1'], webhookAllowLoopback: true };
      // Two ledgers and two budget checkers on the one database, as two API processes have.
      const processes = [0, 1].map(() => {
        const credits = new CreditsService({ repo: new CreditsRepository(t.runtime.db), clock: systemClock, enabled: true, logger: quiet });
        const budgets = new BudgetsService({
          repo: new BudgetsRepository(t.runtime.db),
          credits,
          webhooks: delivery,
          config,
          clock: systemClock,
          logger: quiet,
        });
        budgets.start();
        return { credits, budgets };
      });
      const [a, b] = processes as [(typeof processes)[0], (typeof processes)[0]];
      await a.credits.add({
        workspaceId: ws,
        amount: 100,
        kind: 'grant',
        id: `grant_once_${engine}`,
        reference: 't',
        description: 'grant',
      });
      await a.budgets.update(ws, { monthlyCredits: 8, alertThresholds: [25, 50, 100], webhookUrl: receiver.url });
      const holds = await Promise.all(Array.from({ length: 10 }, (_, i) => processes[i % 2]!.credits.reserve(ws, 1, `r${i}`, 'render')));
      await Promise.all(holds.map((hold, i) => processes[i % 2]!.credits.commit(hold)));
      await Promise.all(processes.map((p) => p.budgets.idle()));
      await receiver.received(3);

      const alerts = await t.runtime.db('budget_alerts').where({ workspace_id: ws }).orderBy('threshold');
      assert.deepEqual(
        alerts.map((r: { threshold: number }) => Number(r.threshold)),
        [25, 50, 100],
      );
      const outbox = await t.runtime.db('webhook_outbox').where({ workspace_id: ws });
      assert.equal(outbox.length, 3);
      const verifier = new Webhook(await t.runtime.deps.services.webhooks.secrets.current(ws).then((s) => s.secret));
      const mine = receiver.requests.filter((r) => (JSON.parse(r.body) as { data: { workspaceId: string } }).data.workspaceId === ws);
      assert.equal(mine.length, 3);
      const thresholds = mine.map(
        (r) => (verifier.verify(r.body, r.headers as Record<string, string>) as { data: { threshold: number } }).data.threshold,
      );
      assert.deepEqual(
        thresholds.sort((x, y) => x - y),
        [25, 50, 100],
      );
      await delivery.close();
      const view = await b.budgets.view(ws);
      assert.equal(view.spentThisMonth, 10);
      assert.deepEqual(
        view.crossed.map((c) => c.threshold),
        [25, 50, 100],
      );
    });
  });
}
