// Integration harness: the real app from createApp on a real database, a captured log, and a
// request helper that checks every response against openapi.yaml.
import { EventEmitter } from 'node:events';
import { after } from 'node:test';
import { Writable } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { createHttpServer } from '../../src/http/http-server.ts';
import { createApp } from '../../src/app.ts';
import { compose, type ComposeOptions, type Runtime } from '../../src/compose.ts';
import { loadConfig } from '../../src/config/config.ts';
import { probeFfmpegVersion, resolveFfmpeg } from '../../src/engine/ffmpeg.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { assertMatchesContract } from './contract.ts';
import { TEST_LOCAL_KEY } from './black-box/test-keys.ts';
import { armEvent } from './black-box/waiters.ts';
import { createTestDatabase, type EngineName, type TestDatabase } from './black-box/databases.ts';

export { TEST_LOCAL_KEY };

/** Settings that make a test app hosted (Postgres only): no local workspace, keys and credits per workspace. */
export const HOSTED_ENV = { SERVICE_LOCAL_MODE: '0', APP_ORIGIN: 'https://app.example.test', AUTH_SECRET: 'x'.repeat(40) } as const;

/** Creates a personal workspace and one API key in it; returns the key's secret. */
export async function workspaceKey(t: TestApp, workspace: { id: string; name: string }, keyLabel: string): Promise<string> {
  await t.runtime.deps.services.workspaces.ensure({ ...workspace, kind: 'personal', createdAt: Date.now() });
  return (await t.runtime.deps.services.keys.create(workspace.id, keyLabel)).secret;
}

/** A parsed log line (pino's JSON; a request's line has req and res, src/http/logging.ts). */
export type LogEntry = Record<string, unknown> & { msg?: string; req?: { url?: string; method?: string }; res?: { statusCode?: number } };

export interface TestApp {
  engine: EngineName;
  database: TestDatabase;
  app: RequestListener;
  runtime: Runtime;
  /** Every log line written so far. */
  logs: string[];
  /** The first log entry (parsed) that `match` accepts, already written or still to come; rejects after `timeoutMs`. */
  waitForLog(match: (entry: LogEntry) => boolean, timeoutMs?: number): Promise<LogEntry>;
  request(method: 'get' | 'post' | 'put' | 'patch' | 'delete', url: string, options?: RequestOptions): Promise<supertest.Response>;
  /** Serves the app on a real socket through src/http/http-server.ts (as src/main.ts does); closed by close(). */
  listen(): Promise<{ server: Server; port: number }>;
  close(): Promise<void>;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  body?: unknown;
  /** Send the bearer key of the local workspace (default true). */
  auth?: boolean;
  /** A body sent as is, unencoded (malformed JSON, wrong content types); takes precedence over `body`. */
  raw?: Buffer | string;
}

export interface StartOptions {
  env?: Record<string, string>;
  compose?: ComposeOptions;
  /** Adjust the composed dependencies before the app is built (e.g. make a service fail). */
  mutateDeps?: (deps: Runtime['deps']) => void;
  /** Share another app's database (a second API process); it is dropped by its owner only. */
  database?: TestDatabase;
}

/**
 * One app per engine for the suites of a file whose settings are the same: started when a suite
 * first asks for it, closed after the file's last test. Call it at the top level of a test file.
 * Suites that share an app keep to their own rows (a workspace of their own where they count).
 */
export function sharedTestApps(options: StartOptions = {}): (engine: EngineName) => Promise<TestApp> {
  const apps = new Map<EngineName, Promise<TestApp>>();
  after(async () => {
    for (const app of apps.values()) await (await app.catch(() => undefined))?.close();
  });
  return (engine) => {
    let app = apps.get(engine);
    if (!app) apps.set(engine, (app = startTestApp(engine, options)));
    return app;
  };
}

/**
 * In a run of scripts/run-tests.mjs, which has just built dist/ from the current sources (and says so
 * in TEST_SERVICE_COMPILED), the render threads load the compiled worker: through tsx each thread
 * took about 0.8 s of CPU to start, compiled about 0.2 s. A test file run by hand renders from the sources.
 */
const COMPILED_RENDER_WORKER =
  process.env.TEST_SERVICE_COMPILED === '1' ? new URL('../../dist/render.worker.js', import.meta.url) : undefined;

/**
 * FFmpeg's version by binary, probed once per test process instead of once per app (a process and
 * `ffmpeg -version` each time). A failed probe (a timeout on a loaded machine) is not kept: the next
 * app probes again, as a service would at its next start.
 */
const ffmpegVersions = new Map<string, Promise<string | undefined>>();
function ffmpegVersionOf(configured: string | undefined): Promise<string | undefined> {
  const binary = resolveFfmpeg(configured);
  if (!binary) return Promise.resolve(undefined);
  let version = ffmpegVersions.get(binary.path);
  if (!version) {
    version = probeFfmpegVersion(binary);
    ffmpegVersions.set(binary.path, version);
    void version.then((v) => v === undefined && ffmpegVersions.delete(binary.path));
  }
  return version;
}

export async function startTestApp(engine: EngineName, options: StartOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase(engine, { migrated: true }));
  const ownsDatabase = !options.database;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'render-service-data-'));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    API_KEYS: TEST_LOCAL_KEY,
    LOG_LEVEL: 'info',
    // Suites send many deliberate 401s from one address; test/integration/rate-limits.test.ts turns this on.
    RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '0',
    // One render thread, started by the app's first render (compose's lazyRenderThreads below): most
    // suites render little or nothing. A suite that needs more workers sets RENDER_WORKERS.
    RENDER_WORKERS: '1',
    ...(database.settings.client === 'pg' ? { DATABASE_URL: database.settings.url, SERVICE_LOCAL_MODE: '1' } : {}),
    ...options.env,
  };
  // Hosted mode refuses API_KEYS: the local key above is only a default for local-mode apps.
  if (env.SERVICE_LOCAL_MODE === '0' && options.env?.API_KEYS === undefined) delete env.API_KEYS;
  const loaded = loadConfig(env);
  // SQLite lives in the test database's file (not under DATA_DIR), so a second app can share it.
  const config = database.settings.client === 'sqlite' ? Object.freeze({ ...loaded, database: database.settings }) : loaded;
  const logs: string[] = [];
  const logged = new EventEmitter<{ line: [entry: LogEntry] }>();
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        logs.push(line);
        logged.emit('line', JSON.parse(line));
      }
      cb();
    },
  });
  const runtime = await compose(config, createLogger(config.logLevel, sink), {
    revision: 'test-revision',
    lazyRenderThreads: true,
    renderWorkerModule: COMPILED_RENDER_WORKER,
    ffmpegVersion: ffmpegVersionOf(config.ffmpegPath),
    ...options.compose,
  });
  options.mutateDeps?.(runtime.deps);
  const app = await createApp(runtime.deps);
  const agent = supertest(app);
  const servers: Server[] = [];

  return {
    engine,
    database,
    app,
    runtime,
    logs,
    async waitForLog(match, timeoutMs = 10_000) {
      const waiter = armEvent(logged, 'line', match, timeoutMs);
      const earlier = logs.map((l) => JSON.parse(l)).find(match);
      if (earlier) {
        waiter.stop();
        return earlier;
      }
      return (await waiter.wait('a matching log entry'))[0];
    },
    async request(method, url, opts = {}) {
      let req = agent[method](url);
      if (opts.auth !== false) req = req.set('Authorization', `Bearer ${TEST_LOCAL_KEY}`);
      for (const [k, v] of Object.entries(opts.headers ?? {})) req = req.set(k, v);
      if (opts.raw !== undefined) req = req.send(opts.raw);
      else if (opts.body !== undefined) req = req.send(opts.body as object);
      const res = await req.buffer(true);
      // superagent parses text/* (css) into res.text only; tests compare bytes, so expose them as a Buffer too.
      if (!Buffer.isBuffer(res.body) && /^text\//.test(String(res.headers['content-type'] ?? ''))) res.body = Buffer.from(res.text, 'utf8');
      assertMatchesContract(method.toUpperCase(), url, { status: res.status, headers: res.headers, body: res.body, text: res.text });
      return res;
    },
    async listen() {
      const server = createHttpServer(app, config.requestTimeouts).listen(0, '127.0.0.1');
      servers.push(server);
      await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
      return { server, port: (server.address() as AddressInfo).port };
    },
    async close() {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      await runtime.close();
      if (ownsDatabase) await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
