// A database that goes away while the service runs (a restart, a failover): every request that
// needs it answers 503 `not_ready` with Retry-After — never a 500 — on the full path and the lean
// one, renders that need no database still answer, nothing kept in memory is lost (usage rows),
// and everything works again when the database returns, without a restart. The app reaches a real
// Postgres through a TCP proxy the test cuts (connections refused, open ones dropped) and restores.
// Postgres only: SQLite is a file in the process's own data directory. The fault tier
// (test/fault/) does the same to whole processes with Postgres itself stopped and started.
// The outage is logged once when it starts (warn) and once when it ends (info, with what was
// refused meanwhile); no refused request is an error line, and no library writes to the console.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { ResolvedRecipe } from '../../src/engine/recipe.ts';
import { loadConfig } from '../../src/config/config.ts';
import { unavailableDependency } from '../../src/lib/dependency-failure.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { waitForDependencies } from '../../src/startup.ts';
import { createTestDatabase, type TestDatabase } from '../support/black-box/databases.ts';
import { startTcpProxy, type TcpProxy } from '../support/black-box/tcp-proxy.ts';
import { armEvent, waitForJob } from '../support/events.ts';
import { HOSTED_ENV, type LogEntry, startTestApp, type TestApp, workspaceKey } from '../support/harness.ts';
import { EventEmitter } from 'node:events';
import { deflateSync } from 'node:zlib';
import { pngWith } from '../support/asset-files.ts';

const OUTAGE_STARTED = 'The database is unavailable: requests that need it answer 503 until it is back';
const OUTAGE_ENDED = 'The database is available again';

/** What the process writes to the console (not through its logger) while `capture` is on: nothing, is the rule. */
function consoleCapture() {
  const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
  const originals = methods.map((m) => console[m]);
  const written: string[] = [];
  methods.forEach((m) => {
    console[m] = (...args: unknown[]) => void written.push(`console.${m}: ${args.map(String).join(' ')}`);
  });
  return {
    written,
    stop() {
      methods.forEach((m, i) => (console[m] = originals[i]));
    },
  };
}

const parsed = (lines: string[]) => lines.map((l) => JSON.parse(l) as LogEntry & { level: number });

type Method = 'get' | 'post' | 'patch' | 'delete';
interface Call {
  operation: string;
  method: Method;
  url: string;
  body?: unknown;
  /** A file body (an asset upload) and its type. */
  file?: { contentType: string; bytes: Buffer };
}

/** A distinct 1×1 grey PNG per n (an asset upload). */
const onePixel = (n: number) => ({ contentType: 'image/png', bytes: pngWith(1, 1, deflateSync(Buffer.from([0, n & 255]))) });

const tiny = (seed: number, format = 'png') => ({ seed, size: { width: 32, height: 32 }, format });

/** One request per operation that works with the database, against the ids made before the outage. */
function calls(ids: { job: string; key: string; preset: string; signingKey: string; asset: string; seed: number }): Call[] {
  const { job, key, preset, signingKey, asset, seed } = ids;
  return [
    { operation: 'generate', method: 'post', url: '/v1/generate/mesh-gradient', body: tiny(seed) },
    { operation: 'renderBatch', method: 'post', url: '/v1/batch', body: { items: [{ slug: 'mesh-gradient', ...tiny(seed + 1) }] } },
    { operation: 'createJob', method: 'post', url: '/v1/jobs', body: { slug: 'mesh-gradient', ...tiny(seed + 2) } },
    { operation: 'listJobs', method: 'get', url: '/v1/jobs' },
    { operation: 'getJob', method: 'get', url: `/v1/jobs/${job}` },
    { operation: 'cancelJob', method: 'post', url: `/v1/jobs/${job}/cancel` },
    { operation: 'getJobResult', method: 'get', url: `/v1/jobs/${job}/result` },
    { operation: 'getJobThumbnail', method: 'get', url: `/v1/jobs/${job}/thumbnail` },
    { operation: 'streamJobEvents', method: 'get', url: `/v1/jobs/${job}/events` },
    { operation: 'createKey', method: 'post', url: '/v1/keys', body: { label: 'during the outage' } },
    { operation: 'listKeys', method: 'get', url: '/v1/keys' },
    { operation: 'revokeKey', method: 'delete', url: `/v1/keys/${key}` },
    { operation: 'getMe', method: 'get', url: '/v1/me' },
    { operation: 'getWebhookSecret', method: 'get', url: '/v1/workspace/webhook-secret' },
    { operation: 'rotateWebhookSecret', method: 'post', url: '/v1/workspace/webhook-secret/rotate' },
    {
      operation: 'createPreset',
      method: 'post',
      url: '/v1/presets',
      body: { name: 'during', recipe: { slug: 'mesh-gradient', ...tiny(seed) } },
    },
    { operation: 'listPresets', method: 'get', url: '/v1/presets' },
    { operation: 'getPreset', method: 'get', url: `/v1/presets/${preset}` },
    { operation: 'updatePreset', method: 'patch', url: `/v1/presets/${preset}`, body: { name: 'renamed' } },
    { operation: 'renderPreset', method: 'get', url: `/v1/presets/${preset}/render` },
    { operation: 'deletePreset', method: 'delete', url: `/v1/presets/${preset}` },
    { operation: 'getUsage', method: 'get', url: '/v1/usage' },
    { operation: 'getBilling', method: 'get', url: '/v1/billing' },
    { operation: 'getReady', method: 'get', url: '/v1/ready' },
    { operation: 'createUrlSigningKey', method: 'post', url: '/v1/url-signing-keys', body: { label: 'during' } },
    { operation: 'listUrlSigningKeys', method: 'get', url: '/v1/url-signing-keys' },
    {
      operation: 'signRenderUrl',
      method: 'post',
      url: `/v1/url-signing-keys/${signingKey}/sign`,
      body: { slug: 'mesh-gradient', ...tiny(seed + 3) },
    },
    { operation: 'revokeUrlSigningKey', method: 'delete', url: `/v1/url-signing-keys/${signingKey}` },
    { operation: 'createAsset', method: 'post', url: '/v1/assets', file: onePixel(seed) },
    { operation: 'listAssets', method: 'get', url: '/v1/assets' },
    { operation: 'getAsset', method: 'get', url: `/v1/assets/${asset}` },
    { operation: 'deleteAsset', method: 'delete', url: `/v1/assets/${asset}` },
  ];
}

for (const mode of ['local', 'hosted'] as const) {
  describe(`the database goes away and comes back (Postgres, ${mode} mode)`, () => {
    let database: TestDatabase;
    let proxy: TcpProxy;
    let t: TestApp;
    let headers: Record<string, string>;
    const ws = 'ws_outage';

    before(async () => {
      database = await createTestDatabase('postgres', { migrated: true });
      if (database.settings.client !== 'pg') throw new Error('postgres expected');
      const url = new URL(database.settings.url);
      proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
      t = await startTestApp('postgres', {
        database: { ...database, settings: { client: 'pg', url: proxy.via(database.settings.url) } },
        env: mode === 'hosted' ? { ...HOSTED_ENV } : {},
      });
      headers = {};
      if (mode === 'hosted') {
        headers.Authorization = `Bearer ${await workspaceKey(t, { id: ws, name: 'Outage' }, 'test')}`;
        await t.runtime.deps.services.credits.add({
          workspaceId: ws,
          amount: 1_000,
          kind: 'grant',
          id: 'grant_outage',
          reference: 'test',
          description: 'grant',
        });
      }
    });
    after(async () => {
      await t?.close();
      await proxy?.close();
      await database?.drop();
    });

    const send = (call: Call) =>
      call.file
        ? t.request(call.method, call.url, {
            auth: mode === 'local',
            headers: { ...headers, 'Content-Type': call.file.contentType },
            raw: call.file.bytes,
          })
        : t.request(call.method, call.url, { auth: mode === 'local', headers, body: call.body });

    test('every operation that needs it answers 503 not_ready with Retry-After, renders held in memory still answer, and all works again after', async () => {
      // Before: a completed job, a key, a preset, and a render held in memory (a lean-path hit).
      const created = await send({ operation: 'createJob', method: 'post', url: '/v1/jobs', body: { slug: 'mesh-gradient', ...tiny(1) } });
      assert.equal(created.status, 202, created.text);
      const jobId = created.body.id as string;
      await waitForJob(t, jobId, ['completed'], { headers: mode === 'hosted' ? headers : undefined });
      const key = await send({ operation: 'createKey', method: 'post', url: '/v1/keys', body: { label: 'before' } });
      assert.equal(key.status, 201, key.text);
      const preset = await send({
        operation: 'createPreset',
        method: 'post',
        url: '/v1/presets',
        body: { name: 'before', recipe: { slug: 'mesh-gradient', ...tiny(2) } },
      });
      assert.equal(preset.status, 201, preset.text);
      const signingKey = await send({
        operation: 'createUrlSigningKey',
        method: 'post',
        url: '/v1/url-signing-keys',
        body: { label: 'before' },
      });
      assert.equal(signingKey.status, 201, signingKey.text);
      const signed = await send({
        operation: 'signRenderUrl',
        method: 'post',
        url: `/v1/url-signing-keys/${signingKey.body.id}/sign`,
        body: { slug: 'mesh-gradient', ...tiny(6) },
      });
      assert.equal(signed.status, 200, signed.text);
      const asset = await send({ operation: 'createAsset', method: 'post', url: '/v1/assets', file: onePixel(1) });
      assert.equal(asset.status, 201, asset.text);
      const held = await send({ operation: 'generate', method: 'post', url: '/v1/generate/mesh-gradient', body: tiny(3) });
      assert.equal(held.status, 200);
      const recipeUrl = `/v1/render/${held.headers['x-service-recipe-hash']}?r=${held.headers['x-service-recipe']}`;
      await t.runtime.deps.services.usage.flush();
      const usageBefore = (await send({ operation: 'getUsage', method: 'get', url: '/v1/usage' })).body.totals;

      // A render whose usage row is still queued when the database goes away: its write fails, and the row is kept.
      const queued = await send({ operation: 'generate', method: 'post', url: '/v1/generate/mesh-gradient', body: tiny(5) });
      assert.equal(queued.status, 200, queued.text);

      const firstLineOfOutage = t.logs.length;
      const consoleDuring = consoleCapture();
      await proxy.cut();
      await t.runtime.deps.services.usage.flush();
      assert.ok(t.runtime.deps.services.usage.unwritten >= 1, 'the usage row that could not be written is kept');
      const unavailable: string[] = [];
      for (const call of calls({
        job: jobId,
        key: key.body.id,
        preset: preset.body.id,
        signingKey: signingKey.body.id,
        asset: asset.body.id,
        seed: 100,
      })) {
        const res = await send(call);
        assert.notEqual(res.status, 500, `${call.operation}: ${res.text}`);
        if (res.status === 503) {
          assert.equal(res.body.code, 'not_ready', `${call.operation}: ${res.text}`);
          assert.ok(Number(res.headers['retry-after']) > 0, `${call.operation} has Retry-After`);
          assert.match(String(res.headers['content-type']), /application\/problem\+json/);
          if (call.operation !== 'getReady') assert.match(res.body.detail, /database is unavailable/, call.operation);
          assert.ok(res.body.instance, `${call.operation}: the problem names its request id`);
          unavailable.push(call.operation);
        } else assert.ok(res.status < 500, `${call.operation}: ${res.status} ${res.text}`);
      }
      // What cannot work without the database says so; a bearer render in local mode needs none.
      for (const op of [
        'createJob',
        'listJobs',
        'getJob',
        'createKey',
        'listKeys',
        'getUsage',
        'listPresets',
        'getReady',
        'signRenderUrl',
      ].concat(['createAsset', 'listAssets', 'getAsset', 'deleteAsset']))
        assert.ok(unavailable.includes(op), `${op} answered 503 (503s: ${unavailable.join(', ')})`);
      if (mode === 'hosted') assert.ok(unavailable.includes('generate'), 'a hosted miss needs the credit ledger');
      // A signed URL's key is read from the database on every request: 503, not 401 (it may well be valid).
      const signedPath = new URL(signed.body.url).pathname + new URL(signed.body.url).search;
      const signedDuring = await t.request('get', signedPath, { auth: false });
      assert.equal(signedDuring.status, 503, signedDuring.text);
      const hit = await t.request('get', recipeUrl, { auth: mode === 'local', headers });
      if (mode === 'local') {
        // A render held in memory needs no database in local mode (the lean path answers it).
        assert.equal(hit.status, 200, hit.text);
        assert.equal(hit.headers['x-service-cache'], 'HIT');
      } else {
        // Hosted keys are kept in memory only while revocations can be heard (LISTEN), which needs the
        // database: a key is not trusted blind, so even a hit waits for the database.
        assert.equal(hit.status, 503, hit.text);
        assert.ok(Number(hit.headers['retry-after']) > 0);
        // Answered by the lean path's own error handler, with a request id as the full path gives one.
        assert.equal(hit.body.code, 'not_ready', hit.text);
        const requestId = hit.headers['x-request-id'];
        assert.ok(typeof requestId === 'string' && requestId.length > 0, "the lean path's 503 carries X-Request-Id");
        assert.equal(hit.body.instance, requestId, 'its problem names the same request id');
        const line = parsed(t.logs).find((e) => (e.req as { id?: string } | undefined)?.id === requestId && e.res);
        assert.equal(line?.path, 'lean', 'the lean path answered it');
      }
      assert.ok(!t.logs.some((l) => /"statusCode":500/.test(l)), 'no 500 was logged');

      // The outage is one warn line; each refused request an info line saying which dependency, no
      // error line and no stack; nothing reached the console (knex used to print a stack per attempt).
      consoleDuring.stop();
      assert.deepEqual(consoleDuring.written, [], 'nothing written to the console');
      const during = parsed(t.logs.slice(firstLineOfOutage));
      assert.deepEqual(
        during.filter((e) => e.level >= 50).map((e) => e.msg),
        [],
        'no error line during the outage',
      );
      assert.deepEqual(
        during.filter((e) => e.component === 'knex' && e.level >= 40).map((e) => e.msg),
        [],
        "knex's dropped and refused connections are part of the outage, not warnings of their own",
      );
      assert.equal(during.filter((e) => e.msg === OUTAGE_STARTED).length, 1, 'the outage is logged once');
      assert.equal(during.find((e) => e.msg === OUTAGE_STARTED)?.level, 40);
      const refusedLines = during.filter((e) => e.res?.statusCode === 503 && e.dependency === 'database');
      assert.ok(refusedLines.length >= unavailable.length - 1, `each 503 is a request line naming the database (${refusedLines.length})`);
      assert.ok(
        refusedLines.every((e) => e.level === 30 && e.err === undefined),
        'a 503 for the outage is an info line, without a stack',
      );

      // Back: the same requests succeed without a restart, and the usage of renders answered during the outage is recorded.
      await proxy.restore();
      const again = await send({ operation: 'listJobs', method: 'get', url: '/v1/jobs' });
      assert.equal(again.status, 200, again.text);
      // Its end is one info line with what was refused meanwhile.
      const ended = await t.waitForLog((e) => e.msg === OUTAGE_ENDED);
      assert.equal(ended.level, 30);
      assert.equal(ended.dependency, 'database');
      assert.ok(Number(ended.requestsRefused) >= refusedLines.length, JSON.stringify(ended));
      assert.ok(Number(ended.downForMs) >= 0 && Number(ended.failedOperations) >= 1, JSON.stringify(ended));
      assert.equal(parsed(t.logs).filter((e) => e.msg === OUTAGE_ENDED).length, 1, 'its end is logged once');
      const job = await send({ operation: 'createJob', method: 'post', url: '/v1/jobs', body: { slug: 'mesh-gradient', ...tiny(4) } });
      assert.equal(job.status, 202, job.text);
      await t.runtime.deps.services.usage.flush();
      assert.equal(t.runtime.deps.services.usage.unwritten, 0, 'no usage row is left unwritten');
      const usageAfter = (await send({ operation: 'getUsage', method: 'get', url: '/v1/usage' })).body.totals;
      assert.ok(usageAfter.renders >= usageBefore.renders + 1, 'the row kept through the outage is written');
    });
  });
}

describe('a process that starts while the database is away (Postgres)', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let dataDir: string;
  before(async () => {
    database = await createTestDatabase('postgres', { migrated: true });
    if (database.settings.client !== 'pg') throw new Error('postgres expected');
    const url = new URL(database.settings.url);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
    dataDir = mkdtempSync(path.join(tmpdir(), 'render-service-startup-'));
  });
  after(async () => {
    await proxy?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('waits with JSON log lines only: its failed connection attempts are debug lines, never a stack on the console', async () => {
    if (database.settings.client !== 'pg') return;
    const config = loadConfig({
      DATABASE_URL: proxy.via(database.settings.url),
      SERVICE_LOCAL_MODE: '1',
      DATA_DIR: dataDir,
      STARTUP_WAIT_SECONDS: '120',
    });
    const lines = new EventEmitter<{ line: [LogEntry & { level: number }] }>();
    const entries: (LogEntry & { level: number })[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        for (const text of String(chunk).split('\n').filter(Boolean)) {
          const entry = JSON.parse(text) as LogEntry & { level: number };
          entries.push(entry);
          lines.emit('line', entry);
        }
        cb();
      },
    });
    await proxy.cut();
    const consoleDuring = consoleCapture();
    try {
      // Two of knex's failed attempts seen, then the database comes back.
      let attempts = 0;
      const tried = armEvent(lines, 'line', (e: LogEntry) => e.component === 'knex' && ++attempts >= 2, 20_000);
      const waiting = waitForDependencies(config, createLogger('debug', sink), { database: false, blobStore: false });
      await tried.wait("knex's failed connection attempts");
      await proxy.restore();
      await waiting;
    } finally {
      consoleDuring.stop();
    }
    assert.deepEqual(consoleDuring.written, [], 'nothing written to the console');
    const knex = entries.filter((e) => e.component === 'knex');
    assert.ok(knex.length >= 2);
    for (const e of knex) {
      assert.equal(e.level, 20, 'a failed attempt is a debug line');
      assert.match(String(e.msg), /^Acquire connection error: .*ECONNREFUSED/);
      assert.doesNotMatch(String(e.msg), /\n/, 'no stack');
    }
    assert.equal(entries.filter((e) => e.msg === 'waiting for dependencies').length, 1, 'the wait is one warning');
    assert.ok(entries.some((e) => e.msg === 'dependencies reachable: starting'));
  });
});

describe('a batch during which the database goes away (Postgres, hosted mode)', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let t: TestApp;
  let headers: Record<string, string>;
  const ws = 'ws_batch_outage';

  before(async () => {
    database = await createTestDatabase('postgres', { migrated: true });
    if (database.settings.client !== 'pg') throw new Error('postgres expected');
    const url = new URL(database.settings.url);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
    // One render at a time: the batch's items render in order.
    t = await startTestApp('postgres', {
      database: { ...database, settings: { client: 'pg', url: proxy.via(database.settings.url) } },
      env: { ...HOSTED_ENV, RENDER_WORKERS: '1' },
    });
    headers = { Authorization: `Bearer ${await workspaceKey(t, { id: ws, name: 'Batch outage' }, 'test')}` };
    await t.runtime.deps.services.credits.add({
      workspaceId: ws,
      amount: 1_000,
      kind: 'grant',
      id: 'grant_batch_outage',
      reference: 'test',
      description: 'grant',
    });
  });
  after(async () => {
    await t?.close();
    await proxy?.close();
    await database?.drop();
  });

  const balance = async () => (await t.request('get', '/v1/billing', { auth: false, headers })).body.balance as Record<string, number>;
  const item = (seed: number) => ({ slug: 'mesh-gradient', seed, size: { width: 32, height: 32 }, format: 'png' });

  test('the items rendered are reported and charged, the rest are not_ready and cost nothing: the client learns what it paid for', async () => {
    // What one such item costs.
    const single = await t.request('post', '/v1/batch', { auth: false, headers, body: { items: [item(900)] } });
    assert.equal(single.status, 200, single.text);
    const before = await balance();
    const cost = 1_000 - before.credits;
    assert.ok(cost > 0 && before.reserved === 0, JSON.stringify(before));

    // The database goes away as the second item starts to render: it was reserved, it renders and
    // is delivered (its charge waits for the database); the third cannot be reserved.
    const render = t.runtime.deps.services.render;
    const renderUncached = render.renderUncached.bind(render);
    let renders = 0;
    render.renderUncached = async (resolved: ResolvedRecipe, call?: Parameters<typeof renderUncached>[1]) => {
      if (++renders === 2) await proxy.cut();
      return renderUncached(resolved, call);
    };
    let res;
    try {
      res = await t.request('post', '/v1/batch', { auth: false, headers, body: { items: [item(901), item(902), item(903)] } });
    } finally {
      render.renderUncached = renderUncached;
    }
    assert.equal(res.status, 200, res.text);
    const [first, second, third] = res.body.results as Record<string, unknown>[];
    assert.deepEqual([first.ok, second.ok, third.ok], [true, true, false], res.text);
    assert.equal(third.code, 'not_ready');
    assert.match(String(third.error), /database became unavailable .*nothing was charged.*retry it/);
    assert.ok(first.url && second.url);

    // Back: the delayed charge lands; exactly the two rendered items are paid for, nothing is held.
    await proxy.restore();
    await t.runtime.deps.services.credits.settled();
    const after = await balance();
    assert.deepEqual({ spent: before.credits - after.credits, reserved: after.reserved }, { spent: 2 * cost, reserved: 0 });

    // A batch of which nothing could render is refused whole (503 with Retry-After), and costs nothing.
    await proxy.cut();
    try {
      const refused = await t.runtime.deps.services.batch.renderAll([item(904), item(905)], { workspaceId: ws, method: 'api_key' }).then(
        () => undefined,
        (err: unknown) => err,
      );
      assert.equal(unavailableDependency(refused), 'database', String(refused));
    } finally {
      await proxy.restore();
    }
    assert.equal((await balance()).credits, after.credits);
  });
});
