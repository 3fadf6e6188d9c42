// SIGTERM while clients hold connections (issue 13, point 4), with the real process on both
// databases: an mp4 export runs, a client follows its event stream and another keeps an idle
// keep-alive socket. The process must exit by itself with code 0, end the stream with a
// `reconnect` event, hand the job back (logged, and queued again, not `running` until its lease
// lapses), leave no FFmpeg behind, and the next runner completes the job. Before the drain sequence
// (src/shutdown.ts), server.close() waited for both connections and the forced exit (code 1) left
// the job running and FFmpeg alive. The export is small; the traced FFmpeg holds it
// (test/support/black-box/traced-ffmpeg.ts), so it is running for as long as the test needs: the
// render waits for FFmpeg to take its frames, as a long export's does, until the SIGTERM.
// (src/worker.ts drains the same way, without the HTTP server: its runner completes the job here.)
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
import { BACKSTOP_MS, type LoggedProcess, startLoggedProcess } from '../support/black-box/logged-process.ts';

// Far longer than the test: a job found `queued` was handed back, not recovered after its lease lapsed.
const LEASE_MS = 120_000;
// 30 frames of 128×128 (64 KB each): more than the pipe to FFmpeg holds, so the held render waits
// for FFmpeg mid-frames; released, it takes a moment.
const heldExport = { slug: 'plasma', seed: 13, format: 'mp4', size: { width: 128, height: 128 }, params: { duration: 1, fps: 30 } };
const exportEncode = encodesSize(128, 128);

for (const engine of ENGINES) {
  describe(`drain with clients connected on ${engine}`, () => {
    let dataDir: string;
    let database: TestDatabase;
    let service: LoggedProcess | undefined;
    /** A process that runs no jobs, to see the job as the drain left it. */
    let observer: Promise<ServerProcess> | undefined;
    let next: LoggedProcess | undefined;
    let ffmpeg: TracedFfmpeg;
    /** The export's encodes are held until the SIGTERM has handed the job back; its next run is not. */
    let holdExport = true;

    before(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'render-service-drain-'));
      ffmpeg = await tracedFfmpeg({ hold: (encode) => holdExport && exportEncode(encode.pid, encode.args) });
      database =
        engine === 'sqlite'
          ? { engine, settings: { client: 'sqlite', filename: path.join(dataDir, 'service.sqlite') }, drop: async () => {} }
          : await createTestDatabase('postgres');
    });
    after(async () => {
      for (const p of [service, next]) await p?.stop('SIGKILL');
      await observer?.then(
        (p) => p.stop(),
        () => {},
      );
      await ffmpeg?.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    test('SIGTERM with an open event stream and an idle keep-alive socket: exit 0, stream ended, job handed back, FFmpeg gone, the next runner completes it', async () => {
      const env = {
        DATA_DIR: dataDir,
        SERVICE_LOCAL_MODE: '1',
        API_KEYS: TEST_LOCAL_KEY,
        RENDER_WORKERS: '1',
        JOB_LEASE_MS: String(LEASE_MS),
        FFMPEG_PATH: ffmpeg.path,
        ...(database.settings.client === 'pg' ? { DATABASE_URL: database.settings.url } : {}),
      };
      service = startLoggedProcess('src/main.ts', env);
      const base = (await service.waitForOutput(/on (http:\/\/\S+)/))[1];
      // Started once the first has migrated the database, and ready by the time it is needed.
      observer = runService({ ...env, RUN_JOBS: '0' });
      observer.catch(() => {});
      const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
      const headers = { Authorization: `Bearer ${TEST_LOCAL_KEY}` };
      const call = (method: string, url: string, body?: unknown) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = http.request(
            `${base}${url}`,
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

      const encoding = armEvent(ffmpeg.events, 'start', exportEncode, BACKSTOP_MS);
      const submitted = await call('POST', '/v1/jobs', heldExport);
      assert.equal(submitted.status, 202, submitted.body);
      const jobId = (JSON.parse(submitted.body) as { id: string }).id;
      const [pid] = await encoding.wait('FFmpeg to start encoding the job');
      assert.deepEqual(
        ffmpeg.held.map((e) => e.pid),
        [pid],
        'held until the SIGTERM',
      );

      // The Export page's stream, on its own connection.
      let streamed = '';
      const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = http.get(`${base}/v1/jobs/${jobId}/events`, { headers, agent: false }, resolve);
        req.on('error', reject);
      });
      assert.equal(stream.statusCode, 200);
      stream.setEncoding('utf8');
      const streamOutcome = new Promise<'ended' | 'cut'>((resolve) => {
        stream.once('end', () => resolve('ended'));
        stream.once('aborted', () => resolve('cut'));
        stream.once('error', () => resolve('cut'));
      });
      // The job runs: the stream reports progress above zero (its first frame went into FFmpeg's
      // pipe), in its first event or in a progress event after it, as the write and the stream meet.
      const progressing = new Promise<void>((resolve) =>
        stream.on('data', (d: string) => {
          streamed += d;
          if (/event: (status|progress)\ndata: \{[^\n]*"progress":0\.\d*[1-9]/.test(streamed)) resolve();
        }),
      );
      await withTimeout('the job to report progress', progressing, BACKSTOP_MS);

      // An idle keep-alive socket: a finished request whose connection the agent keeps open.
      assert.equal((await call('GET', '/v1/health')).status, 200);
      const idle = Object.values(agent.freeSockets).flat();
      assert.ok(idle.length > 0, 'the agent keeps an idle keep-alive socket');

      const encodeEnded = armEvent(ffmpeg.events, 'exit', (p) => p === pid, BACKSTOP_MS);
      service.child.kill('SIGTERM');
      const code = await withTimeout('the process to exit', service.exited, BACKSTOP_MS);
      assert.equal(code, 0, `exit code\n${service.output().slice(-4000)}`);
      assert.equal(await withTimeout('the stream to end', streamOutcome, 60_000), 'ended', 'the server ended the stream');
      assert.match(streamed, /retry: \d+\nid: \d+\nevent: reconnect\n/, 'a final reconnect event');
      // Nothing was left for the request grace to cut: the stream and the idle socket were closed by the drain itself.
      assert.doesNotMatch(service.output(), /still open after the grace/);
      assert.ok(
        service.entries.some((e) => e.msg === 'job handed back on shutdown' && e.jobId === jobId),
        'the process logged the hand-back',
      );
      // The held encode was killed by the process (never released, it would have waited for ever).
      await encodeEnded.wait('the held FFmpeg to be killed');
      await ffmpeg.whenNoneRunning(60_000);
      agent.destroy();

      // The job as another process finds it (one that runs no jobs, so it stays as it was left).
      const observed = await observer;
      const job = async () => {
        const res = await fetch(`${observed.url}/v1/jobs/${jobId}`, { headers });
        assert.equal(res.status, 200);
        return (await res.json()) as { status: string };
      };
      assert.equal((await job()).status, 'queued', 'handed back, not left running until its lease lapses');
      // A runner (a worker process) takes it from the queue and completes it, its encode no longer held.
      holdExport = false;
      next = startLoggedProcess('src/worker.ts', env);
      await next.waitForLog((e) => e.msg === 'job completed' && e.jobId === jobId, 'the next runner to complete the job');
      assert.equal((await job()).status, 'completed');
      assert.equal(await next.stop('SIGTERM'), 0);
    });
  });
}
