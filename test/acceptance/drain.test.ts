// SIGTERM while clients hold connections (issue 13, point 4), with the real process on both
// databases: a long mp4 export runs, a client follows its event stream and another keeps an idle
// keep-alive socket. The process must exit by itself with code 0, end the stream with a
// `reconnect` event, hand the job back (queued again, not `running` until its lease lapses) and
// leave no FFmpeg behind. Before the drain sequence (src/shutdown.ts), server.close() waited for
// both connections and the forced exit (code 1) left the job running and FFmpeg alive.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDatabase, type Database } from '../../db/database.ts';
import { createTestDatabase, ENGINES, type TestDatabase } from '../support/databases.ts';
import { TEST_LOCAL_KEY } from '../support/harness.ts';
import { ffmpegChildrenOf, runService, type ServerProcess } from '../support/server-process.ts';

// Far longer than the test: a job found `queued` was handed back, not recovered after its lease lapsed.
const LEASE_MS = 120_000;
const longExport = { slug: 'plasma', seed: 13, format: 'mp4', size: { width: 1280, height: 720 }, params: { duration: 10, fps: 30 } };

/** Running (a zombie, killed and waiting to be reaped, counts as gone). */
function alive(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  try {
    return readFileSync(stat, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Polls `probe` until it returns a value, failing after `timeoutMs`. */
async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

function withTimeout<T>(what: string, promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms)))]).finally(() => clearTimeout(timer));
}

for (const engine of ENGINES) {
  describe(`drain with clients connected on ${engine}`, () => {
    let dataDir: string;
    let database: TestDatabase;
    let service: ServerProcess | undefined;
    let db: Database | undefined;

    before(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'render-service-drain-'));
      database =
        engine === 'sqlite'
          ? { engine, settings: { client: 'sqlite', filename: path.join(dataDir, 'service.sqlite') }, drop: async () => {} }
          : await createTestDatabase('postgres');
    });
    after(async () => {
      if (service && service.child.exitCode === null) service.child.kill('SIGKILL');
      await db?.destroy();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    test('SIGTERM with an open event stream and an idle keep-alive socket: exit 0, stream ended, job handed back, FFmpeg gone', async () => {
      service = await runService({
        DATA_DIR: dataDir,
        SERVICE_LOCAL_MODE: '1',
        API_KEYS: TEST_LOCAL_KEY,
        RENDER_WORKERS: '1',
        JOB_LEASE_MS: String(LEASE_MS),
        ...(database.settings.client === 'pg' ? { DATABASE_URL: database.settings.url } : {}),
      });
      const exited = new Promise<number | null>((resolve) => {
        if (service!.child.exitCode !== null) resolve(service!.child.exitCode);
        else service!.child.once('exit', (code) => resolve(code));
      });
      db = createDatabase(database.settings);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
      const headers = { Authorization: `Bearer ${TEST_LOCAL_KEY}` };
      const call = (method: string, url: string, body?: unknown) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = http.request(`${service!.url}${url}`, { method, agent, headers: { ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}) } }, (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (d) => (text += d));
            res.on('end', () => resolve({ status: res.statusCode!, body: text }));
          });
          req.on('error', reject);
          req.end(body ? JSON.stringify(body) : undefined);
        });

      const submitted = await call('POST', '/v1/jobs', longExport);
      assert.equal(submitted.status, 202, submitted.body);
      const jobId = (JSON.parse(submitted.body) as { id: string }).id;
      await until('the job to run', async () => {
        const row = await db!('jobs').where({ id: jobId }).first();
        return row?.status === 'running' && Number(row.progress) > 0 ? row : undefined;
      });
      const ffmpeg = await until('FFmpeg to start', () => {
        const pids = ffmpegChildrenOf(service!.child.pid!);
        return pids.length > 0 ? pids : undefined;
      });

      // The Export page's stream, on its own connection.
      let streamed = '';
      const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = http.get(`${service!.url}/v1/jobs/${jobId}/events`, { headers, agent: false }, resolve);
        req.on('error', reject);
      });
      assert.equal(stream.statusCode, 200);
      stream.setEncoding('utf8');
      stream.on('data', (d) => (streamed += d));
      const streamOutcome = new Promise<'ended' | 'cut'>((resolve) => {
        stream.once('end', () => resolve('ended'));
        stream.once('aborted', () => resolve('cut'));
        stream.once('error', () => resolve('cut'));
      });
      await until('the first event', () => (streamed.includes('event: status') ? true : undefined));

      // An idle keep-alive socket: a finished request whose connection the agent keeps open.
      assert.equal((await call('GET', '/v1/health')).status, 200);
      const idle = Object.values(agent.freeSockets).flat();
      assert.ok(idle.length > 0, 'the agent keeps an idle keep-alive socket');

      service.child.kill('SIGTERM');
      const code = await withTimeout('the process to exit', exited, 60_000);
      assert.equal(code, 0, `exit code\n${service.stderr()}`);
      assert.equal(await withTimeout('the stream to end', streamOutcome, 5_000), 'ended', 'the server ended the stream');
      assert.match(streamed, /retry: \d+\nid: \d+\nevent: reconnect\n/, 'a final reconnect event');
      // Nothing was left for the request grace to cut: the stream and the idle socket were closed by the drain itself.
      assert.doesNotMatch(service.stdout() + service.stderr(), /still open after the grace/);

      const row = await db('jobs').where({ id: jobId }).first();
      assert.equal(row.status, 'queued', 'handed back, not left running until its lease lapses');
      for (const pid of ffmpeg) await until(`FFmpeg ${pid} to be gone`, () => (alive(pid) ? undefined : true), 5_000);
      agent.destroy();
    });
  });
}
