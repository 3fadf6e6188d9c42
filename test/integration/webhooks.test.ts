// Outbound webhooks on both databases: the signing secret (GET, rotate), the webhookUrl rule at
// submission, and delivery to a local self-signed HTTPS receiver on 127.0.0.1 (WEBHOOK_ALLOW_LOOPBACK):
// address rules and DNS rebinding through an injected resolver, the total deadline, redirects,
// retries under one webhook-id, the webhook_deliveries record and Standard Webhooks signatures.
// No test traffic leaves loopback: where a resolver answers a non-loopback address, https.request is
// replaced by a spy that records the request and refuses to connect.
import assert from 'node:assert/strict';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { Writable } from 'node:stream';
import { after, afterEach, before, describe, test } from 'node:test';
import { generate as selfSigned } from 'selfsigned';
import { WebhooksRepository } from '../../db/repositories/webhooks.repository.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { LOCAL_WORKSPACE_ID } from '../../src/services/auth.service.ts';
import {
  PinnedHttpsClient,
  type PinnedHttpsClientOptions,
  type ResolvedAddress,
  type WebhookLookup,
} from '../../src/adapters/pinned-https.client.ts';
import {
  type WebhookDeliveryOptions,
  type WebhookDeliveryResult,
  WebhookDeliveryService,
} from '../../src/services/webhook-delivery.service.ts';
import { verifyWebhook } from '../../src/services/webhook-signature.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { armDelivered, armEvent } from '../support/events.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { listenOnLoopback } from '../support/black-box/listen.ts';

interface ReceivedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  servername: string | false | null | undefined;
}

interface Receiver {
  port: number;
  url(path?: string, host?: string): string;
  requests: ReceivedRequest[];
  /** TCP connections accepted. */
  connections: number;
  close(): Promise<void>;
}

type ReceiverHandler = (req: ReceivedRequest, res: ServerResponse, index: number) => void;

async function startReceiver(tls: { key: string; cert: string }, handler: ReceiverHandler): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let connections = 0;
  const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = {
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        servername: (req.socket as TLSSocket).servername,
      };
      requests.push(received);
      handler(received, res, requests.length - 1);
    });
  });
  server.on('connection', () => connections++);
  const port = await listenOnLoopback(server);
  return {
    port,
    url: (path = '/hook', host = '127.0.0.1') => `https://${host}:${port}${path}`,
    requests,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A resolver that answers from a script and counts its calls. */
function scriptedLookup(answers: ResolvedAddress[][]): WebhookLookup & { calls: string[] } {
  const calls: string[] = [];
  const fn = async (hostname: string) => {
    calls.push(hostname);
    return answers[Math.min(calls.length, answers.length) - 1]!;
  };
  return Object.assign(fn, { calls });
}

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

/** Replaces https.request while `fn` runs: records each call's options and refuses to connect. */
async function withRequestSpy<T>(fn: (calls: https.RequestOptions[]) => Promise<T>): Promise<T> {
  const original = https.request;
  const calls: https.RequestOptions[] = [];
  (https as { request: unknown }).request = (options: https.RequestOptions) => {
    calls.push(options);
    throw new Error('test spy: no connection');
  };
  try {
    return await fn(calls);
  } finally {
    (https as { request: unknown }).request = original;
  }
}

for (const engine of ENGINES) {
  describe(`webhooks on ${engine}`, () => {
    let t: TestApp;
    let tls: { key: string; cert: string };
    const deliveryLogs: string[] = [];
    const services: WebhookDeliveryService[] = [];
    const receivers: Receiver[] = [];

    before(async () => {
      const pems = await selfSigned([{ name: 'commonName', value: 'hooks.test' }], {
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
              { type: 2, value: 'rebind.example.test' },
              { type: 7, ip: '127.0.0.1' },
            ],
          },
        ],
      });
      tls = { key: pems.private, cert: pems.cert };
      t = await startTestApp(engine, {
        env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,hooks.test,*.example.test', WEBHOOK_ALLOW_LOOPBACK: '1' },
      });
    });
    afterEach(async () => {
      await Promise.all(services.splice(0).map((s) => s.close()));
      await Promise.all(receivers.splice(0).map((r) => r.close()));
    });
    after(async () => {
      await t?.close();
    });

    const receiver = async (handler: ReceiverHandler) => {
      const r = await startReceiver(tls, handler);
      receivers.push(r);
      return r;
    };
    /** The delivery service with the real pinned client (its lookup, deadline and CA adjustable per test). */
    const delivery = (options: Partial<WebhookDeliveryOptions> & Partial<PinnedHttpsClientOptions> = {}) => {
      const { lookup, timeoutMs = 3000, loopbackCa: _ca, allowLoopback: _allow, ...rest } = options;
      // The client follows the service's config (a test may turn loopback off) and takes the test CA unless told otherwise.
      const allowLoopback = options.allowLoopback ?? (rest.config ?? t.runtime.deps.config).webhookAllowLoopback;
      const loopbackCa = 'loopbackCa' in options ? options.loopbackCa : tls.cert;
      const sink = new Writable({
        write(chunk, _enc, cb) {
          deliveryLogs.push(...String(chunk).split('\n').filter(Boolean));
          cb();
        },
      });
      const s = new WebhookDeliveryService({
        repo: new WebhooksRepository(t.runtime.db),
        secrets: t.runtime.deps.services.webhooks.secrets,
        config: t.runtime.deps.config,
        logger: createLogger('info', sink),
        client: new PinnedHttpsClient({ allowLoopback, lookup, timeoutMs, loopbackCa }),
        retryDelaysMs: [],
        ...rest,
      });
      services.push(s);
      return s;
    };
    const event = { type: 'job.completed' as const, data: { id: 'job_1', status: 'completed' } };
    const rows = (webhookId: string) => t.runtime.db('webhook_deliveries').where({ webhook_id: webhookId }).orderBy('attempt');
    const currentSecret = async () => (await t.request('get', '/v1/workspace/webhook-secret')).body.secret as string;

    describe('signing secret', () => {
      test('GET creates it on first read, then returns the same one; no-store', async () => {
        const first = await t.request('get', '/v1/workspace/webhook-secret');
        assert.equal(first.status, 200);
        assert.equal(first.headers['cache-control'], 'no-store');
        assert.match(first.body.secret, /^whsec_[A-Za-z0-9+/]+={0,2}$/);
        assert.equal(Buffer.from(first.body.secret.slice(6), 'base64').length, 32);
        assert.ok(Date.parse(first.body.createdAt) > 0);
        const second = await t.request('get', '/v1/workspace/webhook-secret');
        assert.deepEqual(second.body, first.body);
        const row = await t.runtime.db('webhook_secrets').where({ workspace_id: LOCAL_WORKSPACE_ID }).first();
        assert.equal(row.secret, first.body.secret);
      });

      test('each workspace has its own', async () => {
        await t.runtime.deps.services.workspaces.ensure({ id: 'ws_hooks_other', name: 'Other', kind: 'personal', createdAt: Date.now() });
        const other = await t.runtime.deps.services.webhooks.secrets.get('ws_hooks_other');
        assert.notEqual(other.secret, await currentSecret());
      });

      test('rotate replaces it; no-store; never logged', async () => {
        const before = await currentSecret();
        const rotated = await t.request('post', '/v1/workspace/webhook-secret/rotate');
        assert.equal(rotated.status, 200);
        assert.equal(rotated.headers['cache-control'], 'no-store');
        assert.match(rotated.body.secret, /^whsec_/);
        assert.notEqual(rotated.body.secret, before);
        assert.equal(await currentSecret(), rotated.body.secret);
        for (const secret of [before, rotated.body.secret]) {
          assert.ok(!t.logs.some((l) => l.includes(secret.slice(6))), 'a secret reached the log');
        }
      });

      test('401 without credentials', async () => {
        assert.equal((await t.request('get', '/v1/workspace/webhook-secret', { auth: false })).status, 401);
        assert.equal((await t.request('post', '/v1/workspace/webhook-secret/rotate', { auth: false })).status, 401);
      });
    });

    describe('webhookUrl at submission (POST /v1/generate/{slug})', () => {
      const body = (webhookUrl: string) => ({ size: { width: 32, height: 32 }, webhookUrl });
      for (const [name, url, detail] of [
        ['http is refused', 'http://hooks.test/hook', /https/],
        ['a host outside WEBHOOK_ALLOWED_HOSTS is refused', 'https://evil.test/hook', /evil\.test/],
        ['the apex of a wildcard entry is refused', 'https://example.test/hook', /not in WEBHOOK_ALLOWED_HOSTS/],
        ['credentials in the URL are refused', 'https://user:pw@hooks.test/hook', /credentials/],
      ] as const) {
        test(`400 webhook_url_not_allowed: ${name}`, async () => {
          const res = await t.request('post', '/v1/generate/mesh-gradient', { body: body(url) });
          assert.equal(res.status, 400);
          assert.equal(res.body.code, 'webhook_url_not_allowed');
          assert.match(res.body.detail, detail);
          assert.equal(res.body.issues[0].path, 'body.webhookUrl');
        });
      }

      test('an allowed URL (exact or wildcard host) renders as usual', async () => {
        for (const url of ['https://hooks.test/hook', 'https://a.example.test/hook']) {
          const res = await t.request('post', '/v1/generate/mesh-gradient', { body: body(url) });
          assert.equal(res.status, 200, url);
          assert.equal(res.headers['content-type'], 'image/png');
        }
      });
    });

    describe('delivery', () => {
      test('signed per Standard Webhooks with the secret GET returns; after rotate the old secret no longer verifies', async () => {
        const r = await receiver((_req, res) => res.writeHead(204).end());
        const s = delivery();
        const secret = await currentSecret();

        const handle = s.deliver(LOCAL_WORKSPACE_ID, r.url(), event);
        assert.match(handle.webhookId, /^msg_[\w-]{16}$/);
        assert.equal(r.requests.length, 0, 'deliver() returns before anything is sent');
        const result = await handle.done;
        assert.deepEqual(result, { webhookId: handle.webhookId, delivered: true, attempts: 1, statusCode: 204, error: null });
        const [got] = r.requests;
        assert.ok(got);
        assert.equal(got.headers['webhook-id'], handle.webhookId);
        assert.equal(got.headers['content-type'], 'application/json');
        assert.ok(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000) < 10);
        assert.match(String(got.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+={0,2}$/);
        assert.equal(verifyWebhook(secret, got.headers as Record<string, string>, got.body), true);
        const payload = JSON.parse(got.body);
        assert.equal(payload.type, 'job.completed');
        assert.deepEqual(payload.data, event.data);
        assert.ok(Date.parse(payload.timestamp) > 0);

        const rotated = (await t.request('post', '/v1/workspace/webhook-secret/rotate')).body.secret as string;
        assert.equal((await s.deliver(LOCAL_WORKSPACE_ID, r.url(), event).done).delivered, true);
        const after = r.requests[1]!;
        assert.equal(verifyWebhook(secret, after.headers as Record<string, string>, after.body), false);
        assert.equal(verifyWebhook(rotated, after.headers as Record<string, string>, after.body), true);
        assert.ok(!deliveryLogs.some((l) => l.includes(secret.slice(6)) || l.includes(rotated.slice(6))), 'a secret reached the log');
      });

      test('connects to the checked address with the host name for TLS (SNI, certificate) and Host', async () => {
        const r = await receiver((_req, res) => res.writeHead(200).end('ok'));
        const lookup = scriptedLookup([[v4('127.0.0.1')]]);
        const result = await delivery({ lookup }).deliver(LOCAL_WORKSPACE_ID, r.url('/hook?x=1', 'hooks.test'), event).done;
        assert.equal(result.delivered, true, String(result.error));
        assert.deepEqual(lookup.calls, ['hooks.test']);
        assert.equal(r.requests[0]!.servername, 'hooks.test');
        assert.equal(r.requests[0]!.headers.host, `hooks.test:${r.port}`);
        assert.equal(r.requests[0]!.path, '/hook?x=1');
      });

      test('private, link-local, CGNAT, unique-local and IPv4-mapped answers are refused without a connection', async () => {
        const r = await receiver((_req, res) => res.writeHead(200).end());
        const cases: ResolvedAddress[][] = [
          [v4('10.0.0.1')],
          [v4('192.168.1.20')],
          [v4('172.20.0.5')],
          [v4('169.254.169.254')],
          [v4('100.64.0.1')],
          [v6('fd00::1')],
          [v6('fe80::1')],
          [v6('::ffff:10.0.0.1')],
          [v6('::ffff:a9fe:a9fe')],
          [v4('0.0.0.0')],
          [v4('224.0.0.1')],
          // One bad address among good ones refuses the host.
          [v4('127.0.0.1'), v4('10.0.0.1')],
        ];
        await withRequestSpy(async (spied) => {
          for (const answer of cases) {
            const lookup = scriptedLookup([answer]);
            const s = delivery({ lookup, retryDelaysMs: [10, 10] });
            const handle = s.deliver(LOCAL_WORKSPACE_ID, r.url('/hook', 'hooks.test'), event);
            const result = await handle.done;
            assert.equal(result.delivered, false, JSON.stringify(answer));
            assert.equal(result.attempts, 1, 'an address refusal is not retried');
            assert.match(String(result.error), /resolves to a .+ address/);
            assert.equal(lookup.calls.length, 1);
            const [row] = await rows(handle.webhookId);
            assert.equal(row.status_code, null);
            assert.match(row.error, /not delivered/);
          }
          assert.equal(spied.length, 0, 'no request was even built');
        });
        assert.equal(r.connections, 0);
      });

      test('without the loopback allowance, loopback is refused too (and nothing reaches the receiver)', async () => {
        const r = await receiver((_req, res) => res.writeHead(200).end());
        const config = { ...t.runtime.deps.config, webhookAllowLoopback: false };
        assert.throws(() => delivery({ config }), /loopbackCa/);
        const s = delivery({ config, loopbackCa: undefined, lookup: scriptedLookup([[v4('127.0.0.1')]]) });
        const byName = await s.deliver(LOCAL_WORKSPACE_ID, r.url('/hook', 'hooks.test'), event).done;
        assert.match(String(byName.error), /loopback/);
        const byAddress = await s.deliver(LOCAL_WORKSPACE_ID, r.url(), event).done;
        assert.match(String(byAddress.error), /loopback/);
        assert.equal(r.connections, 0);
      });

      test('rebinding: the connection goes to the address that was checked; no second lookup', async () => {
        // A public-looking answer first, loopback afterwards. The spy shows where the request would
        // connect (and connects nowhere): to the checked address, whatever a later lookup says.
        const config = { ...t.runtime.deps.config, webhookAllowLoopback: false };
        const lookup = scriptedLookup([[v4('93.184.215.14')], [v4('127.0.0.1')]]);
        await withRequestSpy(async (spied) => {
          const result = await delivery({ config, loopbackCa: undefined, lookup }).deliver(
            LOCAL_WORKSPACE_ID,
            'https://rebind.example.test/hook',
            event,
          ).done;
          assert.equal(result.delivered, false);
          assert.equal(spied.length, 1);
          const options = spied[0]!;
          assert.equal(options.host, 'rebind.example.test');
          assert.equal(options.servername, 'rebind.example.test');
          assert.equal((options.headers as Record<string, string>).host, 'rebind.example.test');
          // Whatever net/tls asks the pinned lookup, the answer is the checked address.
          const pinned = options.lookup as unknown as (h: string, o: object, cb: (...a: unknown[]) => void) => void;
          const single = await new Promise<unknown[]>((resolve) => pinned('rebind.example.test', {}, (...a) => resolve(a)));
          const all = await new Promise<unknown[]>((resolve) => pinned('rebind.example.test', { all: true }, (...a) => resolve(a)));
          assert.deepEqual(single, [null, '93.184.215.14', 4]);
          assert.deepEqual(all, [null, [{ address: '93.184.215.14', family: 4 }]]);
        });
        assert.deepEqual(lookup.calls, ['rebind.example.test'], 'exactly one resolution');
      });

      test('rebinding on the wire: a later answer never redirects an attempt; a retry re-checks', async () => {
        const r = await receiver((_req, res, i) => res.writeHead(i === 0 ? 503 : 200).end());
        // First answer: the (permitted) receiver. Every later one: the cloud metadata address.
        const lookup = scriptedLookup([[v4('127.0.0.1')], [v4('169.254.169.254')]]);
        const result = await delivery({ lookup, retryDelaysMs: [20] }).deliver(
          LOCAL_WORKSPACE_ID,
          r.url('/hook', 'rebind.example.test'),
          event,
        ).done;
        assert.equal(r.requests.length, 1, 'the first attempt reached the checked address');
        assert.equal(r.requests[0]!.servername, 'rebind.example.test');
        assert.equal(result.attempts, 2);
        assert.equal(result.delivered, false);
        assert.match(String(result.error), /link-local/);
        assert.equal(lookup.calls.length, 2, 'one lookup per attempt, none at connect time');
      });

      test('a receiver that never answers: the attempt ends at the deadline', async () => {
        const r = await receiver(() => {});
        // Without the deadline this attempt would never end (the test's own timeout would fail it).
        const handle = delivery({ timeoutMs: 300 }).deliver(LOCAL_WORKSPACE_ID, r.url(), event);
        const result = await handle.done;
        assert.equal(result.delivered, false);
        assert.match(String(result.error), /300 ms deadline/);
        // The recorded duration is the time the attempt waited: a timer never fires before its delay.
        const [row] = await rows(handle.webhookId);
        assert.ok(row.duration_ms >= 299, `${row.duration_ms}`);
      });

      test('the deadline is total: a receiver trickling bytes (never idle) is cut off at it', async () => {
        const timers: NodeJS.Timeout[] = [];
        let sent = 0;
        const r = await receiver((_req, res) => {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.flushHeaders();
          const timer = setInterval(() => {
            if (res.destroyed) return clearInterval(timer);
            res.write('.');
            sent++;
          }, 40);
          timers.push(timer);
        });
        const result = await delivery({ timeoutMs: 400 }).deliver(LOCAL_WORKSPACE_ID, r.url(), event).done;
        for (const timer of timers) clearInterval(timer);
        assert.equal(result.delivered, false);
        // The deadline, not an idle timeout (the connection was never idle), ended it.
        assert.match(String(result.error), /400 ms deadline/);
        assert.ok(sent >= 1, `the receiver kept the connection busy (${sent} bytes)`);
      });

      test('a redirect is not followed: the attempt fails', async () => {
        const r: Receiver = await receiver((req, res) => {
          if (req.path === '/hook') res.writeHead(302, { location: r.url('/elsewhere') }).end();
          else res.writeHead(200).end();
        });
        const handle = delivery().deliver(LOCAL_WORKSPACE_ID, r.url(), event);
        const result = await handle.done;
        assert.equal(result.delivered, false);
        assert.equal(result.statusCode, 302);
        assert.match(String(result.error), /redirect/);
        assert.deepEqual(
          r.requests.map((q) => q.path),
          ['/hook'],
        );
        const [row] = await rows(handle.webhookId);
        assert.equal(row.status_code, 302);
      });

      test('retries with backoff under the same webhook-id; every attempt recorded', async () => {
        const times: number[] = [];
        const r = await receiver((_req, res, i) => {
          times.push(Date.now());
          res.writeHead(i < 2 ? 500 : 200).end();
        });
        const handle = delivery({ retryDelaysMs: [100, 250] }).deliver(LOCAL_WORKSPACE_ID, r.url(), {
          type: 'job.failed',
          data: { id: 'job_2' },
        });
        const result = await handle.done;
        assert.deepEqual(result, { webhookId: handle.webhookId, delivered: true, attempts: 3, statusCode: 200, error: null });
        assert.equal(r.requests.length, 3);
        assert.deepEqual(new Set(r.requests.map((q) => q.headers['webhook-id'])), new Set([handle.webhookId]));
        assert.equal(new Set(r.requests.map((q) => q.body)).size, 1, 'the same payload every time');
        assert.ok(times[1]! - times[0]! >= 90, `first retry after ${times[1]! - times[0]!} ms`);
        assert.ok(times[2]! - times[1]! >= 240, `second retry after ${times[2]! - times[1]!} ms`);
        const recorded = await rows(handle.webhookId);
        assert.deepEqual(
          recorded.map((row: Record<string, unknown>) => [
            Number(row.attempt),
            row.status_code === null ? null : Number(row.status_code),
            row.error === null ? null : String(row.error),
          ]),
          [
            [1, 500, 'receiver answered 500'],
            [2, 500, 'receiver answered 500'],
            [3, 200, null],
          ],
        );
        for (const row of recorded) {
          assert.equal(row.workspace_id, LOCAL_WORKSPACE_ID);
          assert.equal(row.url, r.url());
          assert.equal(row.event_type, 'job.failed');
          assert.ok(Number(row.duration_ms) >= 0);
          assert.ok(Number(row.created_at) > 0);
          assert.match(row.id, /^whd_/);
        }
      });

      test('gives up after the last attempt', async () => {
        const r = await receiver((_req, res) => res.writeHead(500).end());
        const result = await delivery({ retryDelaysMs: [10, 10] }).deliver(LOCAL_WORKSPACE_ID, r.url(), event).done;
        assert.deepEqual([result.delivered, result.attempts, result.statusCode], [false, 3, 500]);
        assert.equal(r.requests.length, 3);
      });

      test('close() cancels pending retries and waits for the attempt in flight', async () => {
        let arrived!: () => void;
        const inFlight = new Promise<void>((resolve) => (arrived = resolve));
        // The receiver holds its answer until close() has begun: the first attempt is in flight then.
        let answer!: () => void;
        const r = await receiver((_req, res) => {
          answer = () => res.writeHead(500).end();
          arrived();
        });
        // A retry not cancelled would wait a minute and make a second attempt (asserted below).
        const s = delivery({ retryDelaysMs: [60_000] });
        const handle = s.deliver(LOCAL_WORKSPACE_ID, r.url(), event);
        await inFlight;
        const closing = s.close();
        answer();
        await closing;
        const result = await handle.done;
        assert.equal(result.attempts, 1);
        assert.equal(result.delivered, false);
        assert.match(String(result.error), /cancelled/);
        assert.equal((await rows(handle.webhookId)).length, 1, 'the attempt in flight was recorded');
        const late = await s.deliver(LOCAL_WORKSPACE_ID, r.url(), event).done;
        assert.equal(late.attempts, 0);
        assert.equal(r.requests.length, 1);
      });

      test('a retry left at shutdown stays in the outbox; another process sends it under the same id and bytes', async () => {
        const r = await receiver((_req, res, i) => res.writeHead(i === 0 ? 503 : 200).end());
        const first = delivery({ retryDelaysMs: [300] });
        const attempted = armEvent(first, 'attempted');
        const handle = first.deliver(LOCAL_WORKSPACE_ID, r.url(), event);
        await attempted.wait('the first attempt');
        await first.close();
        assert.match(String((await handle.done).error), /left in the outbox/);
        const left = await new WebhooksRepository(t.runtime.db).findOutbox(handle.webhookId);
        assert.deepEqual([left?.status, left?.attempts, left?.lockedBy], ['pending', 1, null]);

        // The other process's clock is moved past the retry's due time instead of sleeping until it.
        let ahead = 0;
        const second = delivery({ retryDelaysMs: [300], clock: { now: () => Date.now() + ahead } });
        await second.resumeDue();
        assert.equal(r.requests.length, 1, 'not before the retry is due');
        ahead = 350;
        const delivered = armDelivered(second, handle.webhookId);
        await second.resumeDue();
        assert.equal((await delivered.wait())[0].delivered, true);
        assert.equal((await new WebhooksRepository(t.runtime.db).findOutbox(handle.webhookId))?.status, 'delivered');
        assert.equal(r.requests.length, 2);
        assert.deepEqual(new Set(r.requests.map((q) => q.headers['webhook-id'])), new Set([handle.webhookId]));
        assert.equal(new Set(r.requests.map((q) => q.body)).size, 1, 'the same payload');
        assert.deepEqual(
          (await rows(handle.webhookId)).map((row: Record<string, unknown>) => Number(row.attempt)),
          [1, 2],
        );
      });

      test('a message held by a live process is not taken by another; one whose holder died is', async () => {
        const r = await receiver((_req, res) => res.writeHead(500).end());
        const holder = delivery({ retryDelaysMs: [200], holdMs: 400 });
        const attempted = armEvent(holder, 'attempted');
        const handle = holder.deliver(LOCAL_WORKSPACE_ID, r.url(), event);
        await attempted.wait('the first attempt');
        // The other process looks 250 ms ahead: the retry is due, but its holder is alive and about to send it.
        let ahead = 250;
        const other = delivery({ retryDelaysMs: [200], clock: { now: () => Date.now() + ahead } });
        await other.resumeDue();
        await handle.done;
        assert.equal(r.requests.length, 2, 'the holder sent both attempts; the other sent none');
        assert.equal((await new WebhooksRepository(t.runtime.db).findOutbox(handle.webhookId))?.status, 'failed');

        // A holder that died: its hold lapses, and the message is taken over at its due time.
        const now = Date.now();
        await t.runtime.db('webhook_outbox').insert({
          webhook_id: 'msg_orphan',
          workspace_id: LOCAL_WORKSPACE_ID,
          url: r.url(),
          event_type: 'job.completed',
          body: '{"type":"job.completed"}',
          attempts: 1,
          status: 'pending',
          next_attempt_at: now - 1,
          locked_by: 'whp_dead',
          locked_until: now - 1,
          created_at: now,
          updated_at: now,
        });
        ahead = 0;
        const orphan = armDelivered(other, 'msg_orphan');
        await other.resumeDue();
        // Its second and last attempt meets the 500 receiver: it gives up.
        assert.deepEqual((await orphan.wait())[0].attempts, 2);
        assert.equal((await new WebhooksRepository(t.runtime.db).findOutbox('msg_orphan'))?.status, 'failed');
        assert.equal(r.requests.at(-1)!.headers['webhook-id'], 'msg_orphan');
        assert.equal(r.requests.at(-1)!.body, '{"type":"job.completed"}');
      });

      test("the app's own delivery service refuses http and unlisted hosts without sending", async () => {
        const own = t.runtime.deps.services.webhooks.delivery;
        for (const url of ['http://127.0.0.1:9/hook', 'https://not-listed.invalid/hook']) {
          const result = await own.deliver(LOCAL_WORKSPACE_ID, url, event).done;
          assert.equal(result.delivered, false);
          assert.equal(result.attempts, 1);
          assert.match(String(result.error), /https|WEBHOOK_ALLOWED_HOSTS/);
        }
      });
    });

    // Jobs through the app's own composition: its delivery service trusts the test receiver's CA.
    describe('job events', () => {
      const apps: TestApp[] = [];
      afterEach(async () => {
        // Apps that share a database close before the one that owns it.
        for (const app of apps.splice(0).reverse()) await app.close();
      });
      const jobApp = async (env: Record<string, string> = {}, database?: TestApp['database']) => {
        const app = await startTestApp(engine, {
          database,
          env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_ALLOW_LOOPBACK: '1', ...env },
          compose: { webhookLoopbackCa: tls.cert },
        });
        apps.push(app);
        return app;
      };
      const submit = async (app: TestApp, url: string) => {
        const res = await app.request('post', '/v1/jobs', {
          body: { slug: 'plasma', format: 'gif', size: { width: 32, height: 32 }, webhookUrl: url, metadata: { orderId: 'ord_8812' } },
        });
        assert.equal(res.status, 202, JSON.stringify(res.body));
        return res.body.id as string;
      };
      /** Resolves when `app` has delivered the job's webhook (armed before the work that sends it; also if it already has). */
      const delivered = (app: TestApp) => {
        const waiter = armEvent<[WebhookDeliveryResult]>(
          app.runtime.deps.services.webhooks.delivery,
          ['delivered', 'gave-up'],
          () => true,
          30_000,
        );
        return async (r: Receiver, jobId: string) => {
          const row = await new WebhooksRepository(app.runtime.db).findOutbox(`msg_${jobId}`);
          if (row?.status === 'delivered') waiter.stop();
          else assert.equal((await waiter.wait(`the webhook of ${jobId}`))[0].webhookId, `msg_${jobId}`);
          assert.equal(r.requests.length, 1, 'one webhook');
        };
      };

      test('a completed job sends job.completed: the job as GET shows it, signed, under an id derived from the job', async () => {
        const app = await jobApp();
        const r = await receiver((_req, res) => res.writeHead(204).end());
        const sent = delivered(app);
        const id = await submit(app, r.url());
        await sent(r, id);
        const [got] = r.requests;
        assert.equal(got!.headers['webhook-id'], `msg_${id}`);
        const secret = (await app.request('get', '/v1/workspace/webhook-secret')).body.secret as string;
        assert.equal(verifyWebhook(secret, got!.headers as Record<string, string>, got!.body), true);
        const payload = JSON.parse(got!.body);
        assert.equal(payload.type, 'job.completed');
        const job = (await app.request('get', `/v1/jobs/${id}`)).body;
        assert.deepEqual({ ...payload.data, updatedAt: job.updatedAt }, job);
        assert.equal(payload.data.resultUrl, `/v1/jobs/${id}/result`);
        // The client's own metadata comes back in the webhook.
        assert.deepEqual(payload.data.metadata, { orderId: 'ord_8812' });
        const row = await new WebhooksRepository(app.runtime.db).findOutbox(`msg_${id}`);
        assert.equal(row?.status, 'delivered');
      });

      test('a queued job cancelled through the API sends job.cancelled', async () => {
        const app = await jobApp({ RUN_JOBS: '0' });
        const r = await receiver((_req, res) => res.writeHead(200).end());
        const id = await submit(app, r.url());
        const sent = delivered(app);
        assert.equal((await app.request('post', `/v1/jobs/${id}/cancel`)).status, 200);
        await sent(r, id);
        const payload = JSON.parse(r.requests[0]!.body);
        assert.equal(payload.type, 'job.cancelled');
        assert.equal(payload.data.id, id);
        assert.equal(payload.data.status, 'cancelled');
        assert.equal(r.requests[0]!.headers['webhook-id'], `msg_${id}`);
      });

      test('a job that ended without its webhook queued (its process died in between) is announced by the sweep, once', async () => {
        const api = await jobApp({ RUN_JOBS: '0' });
        const r = await receiver((_req, res) => res.writeHead(204).end());
        const lost = await submit(api, r.url());
        const announced = await submit(api, r.url());
        const now = Date.now();
        // `lost` failed long enough ago, and nothing reached the outbox: the crash window.
        await api.runtime
          .db('jobs')
          .where({ id: lost })
          .update({ status: 'failed', error: 'The export failed.', finished_at: now - 5_000, updated_at: now - 5_000 });
        // `announced` failed too, but its message is already in the outbox (another process has it).
        await api.runtime
          .db('jobs')
          .where({ id: announced })
          .update({ status: 'failed', error: 'The export failed.', finished_at: now - 5_000, updated_at: now - 5_000 });
        await api.runtime.db('webhook_outbox').insert({
          webhook_id: `msg_${announced}`,
          workspace_id: LOCAL_WORKSPACE_ID,
          url: r.url(),
          event_type: 'job.failed',
          body: '{}',
          attempts: 1,
          status: 'delivered',
          next_attempt_at: now,
          created_at: now,
          updated_at: now,
        });

        // A worker process starts: its sweep (every lease/3) finds the lost one.
        const worker = await jobApp({ RUN_JOBS: '1', JOB_LEASE_MS: '1000' }, api.database);
        await delivered(worker)(r, lost);
        const payload = JSON.parse(r.requests[0]!.body);
        assert.equal(r.requests[0]!.headers['webhook-id'], `msg_${lost}`);
        assert.equal(payload.type, 'job.failed');
        assert.equal(payload.data.id, lost);
        assert.equal(payload.data.error, 'The export failed.');
        // Later sweeps find its message in the outbox and announce nothing more (two sweeps run here,
        // whether or not the timer's is under way).
        const again: string[] = [];
        const onLost = (job: { id: string }) => void again.push(job.id);
        worker.runtime.jobs.lifecycle.on('lost', onLost);
        try {
          await worker.runtime.jobs.runner.recoverLapsed();
          await worker.runtime.jobs.runner.recoverLapsed();
        } finally {
          worker.runtime.jobs.lifecycle.off('lost', onLost);
        }
        assert.deepEqual(again, []);
        assert.equal(r.requests.length, 1);
      });
    });
  });
}
