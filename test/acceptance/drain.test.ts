// SIGTERM while clients hold connections (issue 13, point 4), with the real process on both
// databases: a long mp4 export runs, a client follows its event stream and another keeps an idle
// keep-alive socket. The process must exit by itself with code 0, end the stream with a
// `reconnect` event, hand the job back (queued again, not `running` until its lease lapses) and
// leave no FFmpeg behind. Before the drain sequence (src/shutdown.ts), server.close() waited for
// both connections and the forced exit (code 1) left the job running and FFmpeg alive.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, ENGINES, type TestDatabase } from '../support/black-box/databases.ts';
import { TEST_LOCAL_KEY } from '../support/black-box/test-keys.ts';
import { runService, type ServerProcess } from '../support/black-box/server-process.ts';
import { armEvent, withTimeout } from '../support/black-box/waiters.ts';
import { encodesSize, tracedFfmpeg, type TracedFfmpeg } from '../support/black-box/traced-ffmpeg.ts';
import { BACKSTOP_MS } from '../support/black-box/logged-process.ts';

// Far longer than the test: a job found `queued` was handed back, not recovered after its lease lapsed.
const LEASE_MS = 120_000;
const longExport = { slug: 'plasma', seed: 13, format: 'mp4', size: { width: 1280, height: 720 }, params: { duration: 10, fps: 30 } };

for (const engine of ENGINES) {
  describe(`drain with clients connected on ${engine}`, () => {
    let dataDir: string;
    let database: TestDatabase;
    let service: ServerProcess | undefined;
    let restarted: ServerProcess | undefined;
    let ffmpeg: TracedFfmpeg;

    before(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'render-service-drain-'));
      ffmpeg = await tracedFfmpeg();
      database =
        engine === 'sqlite'
          ? { engine, settings: { client: 'sqlite', filename: path.join(dataDir, 'service.sqlite') }, drop: async () => {} }
          : await createTestDatabase('postgres');
    });
    after(async () => {
      for (const s of [service, restarted]) if (s && s.child.exitCode === null) s.child.kill('SIGKILL');
      await restarted?.stop();
      await ffmpeg?.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    test('SIGTERM with an open event stream and an idle keep-alive socket: exit 0, stream ended, job handed back, FFmpeg gone', async () => {
      const env = {
        DATA_DIR: dataDir,
        SERVICE_LOCAL_MODE: '1',
        API_KEYS: TEST_LOCAL_KEY,
        RENDER_WORKERS: '1',
        JOB_LEASE_MS: String(LEASE_MS),
        FFMPEG_PATH: ffmpeg.path,
        ...(database.settings.client === 'pg' ? { DATABASE_URL: database.settings.url } : {}),
      };
      service = await runService(env);
      const exited = new Promise<number | null>((resolve) => {
        if (service!.child.exitCode !== null) resolve(service!.child.exitCode);
        else service!.child.once('exit', (code) => resolve(code));
      });
      const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
      const headers = { Authorization: `Bearer ${TEST_LOCAL_KEY}` };
      const call = (method: string, url: string, body?: unknown) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = http.request(
            `${service!.url}${url}`,
            { method, agent, headers: { ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}) } },
            (res) => {
              let text = '';
              res.setEncoding('utf8');
              res.on('data', (d) => (text += d));
              res.on('end', () => resolve({ status: res.statusCode!, body: text }));
            },
          );
          req.on('error', reject);
          req.end(body ? JSON.stringify(body) : undefined);
        });

      const encoding = armEvent(ffmpeg.events, 'start', encodesSize(1280, 720), BACKSTOP_MS);
      const submitted = await call('POST', '/v1/jobs', longExport);
      assert.equal(submitted.status, 202, submitted.body);
      const jobId = (JSON.parse(submitted.body) as { id: string }).id;
      await encoding.wait('FFmpeg to start encoding the job');

      // The Export page's stream, on its own connection.
      let streamed = '';
      const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = http.get(`${service!.url}/v1/jobs/${jobId}/events`, { headers, agent: false }, resolve);
        req.on('error', reject);
      });
      assert.equal(stream.statusCode, 200);
      stream.setEncoding('utf8');
      const streamOutcome = new Promise<'ended' | 'cut'>((resolve) => {
        stream.once('end', () => resolve('ended'));
        stream.once('aborted', () => resolve('cut'));
        stream.once('error', () => resolve('cut'));
      });
      // The job runs: the stream reports progress above zero.
      const progressing = new Promise<void>((resolve) =>
        stream.on('data', (d: string) => {
          streamed += d;
          if (/event: progress\ndata: \{[^\n]*"progress":0\.\d*[1-9]/.test(streamed)) resolve();
        }),
      );
      await withTimeout('the job to report progress', progressing, BACKSTOP_MS);

      // An idle keep-alive socket: a finished request whose connection the agent keeps open.
      assert.equal((await call('GET', '/v1/health')).status, 200);
      const idle = Object.values(agent.freeSockets).flat();
      assert.ok(idle.length > 0, 'the agent keeps an idle keep-alive socket');

      service.child.kill('SIGTERM');
      const code = await withTimeout('the process to exit', exited, BACKSTOP_MS);
      assert.equal(code, 0, `exit code\n${service.stderr()}`);
      assert.equal(await withTimeout('the stream to end', streamOutcome, 60_000), 'ended', 'the server ended the stream');
      assert.match(streamed, /retry: \d+\nid: \d+\nevent: reconnect\n/, 'a final reconnect event');
      // Nothing was left for the request grace to cut: the stream and the idle socket were closed by the drain itself.
      assert.doesNotMatch(service.stdout() + service.stderr(), /still open after the grace/);

      await ffmpeg.whenNoneRunning(60_000);
      agent.destroy();
      // The job as the next process finds it (one that runs no jobs, so it stays as it was left).
      restarted = await runService({ ...env, RUN_JOBS: '0' });
      const job = await fetch(`${restarted.url}/v1/jobs/${jobId}`, { headers });
      assert.equal(job.status, 200);
      assert.equal(((await job.json()) as { status: string }).status, 'queued', 'handed back, not left running until its lease lapses');
    });
  });
}
