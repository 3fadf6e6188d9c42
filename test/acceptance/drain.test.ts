// SIGTERM while clients hold connections (issue 13, point 4), with the real process on both
// databases: an mp4 export runs, a client follows its event stream and another keeps an idle
// keep-alive socket. The process must exit by itself with code 0, end the stream with a
// `reconnect` event, hand the job back (logged, and queued again, not `running` until its lease
// lapses), leave no FFmpeg behind, and another runner then completes the job. Before the drain
// sequence (src/shutdown.ts), server.close() waited for both connections and the forced exit (code 1)
// left the job running and FFmpeg alive. (src/worker.ts drains the same way, without the HTTP server.)
// The exports are small; the traced FFmpeg (test/support/black-box/traced-ffmpeg.ts) holds them, so
// each runs for exactly as long as the test needs: the render waits for FFmpeg to take its frames,
// as a long export's does, until the test releases it or its process kills it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, ENGINES, type TestDatabase } from '../support/black-box/databases.ts';
import { TEST_LOCAL_KEY } from '../support/black-box/test-keys.ts';
import { armEvent, withTimeout } from '../support/black-box/waiters.ts';
import { encodesSize, tracedFfmpeg, type TracedFfmpeg } from '../support/black-box/traced-ffmpeg.ts';
import { BACKSTOP_MS, type LoggedProcess, startLoggedProcess } from '../support/black-box/logged-process.ts';

// Far longer than the test: a job found `queued` was handed back, not recovered after its lease lapsed.
const LEASE_MS = 120_000;
// 30 frames of 128×128 (64 KB each): more than the pipe to FFmpeg holds, so a held render waits for
// FFmpeg mid-frames; released, it takes a moment.
const heldExport = (seed: number) => ({
  slug: 'plasma',
  seed,
  format: 'mp4',
  size: { width: 128, height: 128 },
  params: { duration: 1, fps: 30 },
});
const heldEncode = encodesSize(128, 128);

for (const engine of ENGINES) {
  describe(`drain with clients connected on ${engine}`, () => {
    let dataDir: string;
    let database: TestDatabase;
    let service: LoggedProcess | undefined;
    /** The other runner: it shows the job as the drain left it, then completes it. */
    let next: LoggedProcess | undefined;
    let ffmpeg: TracedFfmpeg;
    /** Exports are held until the SIGTERM has handed the job back; its next run is not. */
    let holdExports = true;

    before(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'render-service-drain-'));
      ffmpeg = await tracedFfmpeg({ hold: (encode) => holdExports && heldEncode(encode.pid, encode.args) });
      database =
        engine === 'sqlite'
          ? { engine, settings: { client: 'sqlite', filename: path.join(dataDir, 'service.sqlite') }, drop: async () => {} }
          : await createTestDatabase('postgres');
    });
    after(async () => {
      for (const p of [service, next]) await p?.stop('SIGKILL');
      await ffmpeg?.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    test('SIGTERM with an open event stream and an idle keep-alive socket: exit 0, stream ended, job handed back, FFmpeg gone, another runner completes it', async () => {
      const env = {
        DATA_DIR: dataDir,
        SERVICE_LOCAL_MODE: '1',
        API_KEYS: TEST_LOCAL_KEY,
        RENDER_WORKERS: '1',
        // One job at a time (the default), stated: the other runner's one slot is what keeps the job queued.
        JOB_CONCURRENCY: '1',
        JOB_LEASE_MS: String(LEASE_MS),
        FFMPEG_PATH: ffmpeg.path,
        ...(database.settings.client === 'pg' ? { DATABASE_URL: database.settings.url } : {}),
      };
      service = startLoggedProcess('src/main.ts', env);
      const base = (await service.waitForOutput(/on (http:\/\/\S+)/))[1];
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
      const submit = async (seed: number) => {
        const submitted = await call('POST', '/v1/jobs', heldExport(seed));
        assert.equal(submitted.status, 202, submitted.body);
        return (JSON.parse(submitted.body) as { id: string }).id;
      };

      const jobId = await submit(13);
      await ffmpeg.whenHeld(1);
      const [encode] = ffmpeg.held;
      assert.equal(encode!.parent, service.child.pid, 'the service runs the job, held until the SIGTERM');
      // The other runner (an API process that runs jobs too), started now so that it is up when it is
      // needed. Its one slot takes another held export: while that runs, it cannot take the job the
      // drain hands back, so the job stays as the drain left it until the test releases that export.
      next = startLoggedProcess('src/main.ts', env);
      await submit(14);

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

      // The other runner holds the second export before the SIGTERM.
      await ffmpeg.whenHeld(2);
      assert.deepEqual(
        ffmpeg.held.map((e) => e.parent),
        [service.child.pid, next.child.pid],
        'each process runs one export',
      );
      const encodeEnded = armEvent(ffmpeg.events, 'exit', (pid) => pid === encode!.pid, BACKSTOP_MS);
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
      // Its held FFmpeg was killed by the process (never released, it would have waited for ever).
      await encodeEnded.wait('the held FFmpeg to be killed');
      assert.equal(ffmpeg.running, 1, 'only the export of the other runner runs');
      agent.destroy();

      // The job as another process finds it (its one slot busy, it leaves the job as it was left).
      const nextBase = (await next.waitForOutput(/on (http:\/\/\S+)/))[1];
      const job = async () => {
        const res = await fetch(`${nextBase}/v1/jobs/${jobId}`, { headers });
        assert.equal(res.status, 200);
        return (await res.json()) as { status: string };
      };
      assert.equal((await job()).status, 'queued', 'handed back, not left running until its lease lapses');
      // Its slot freed, the other runner takes the job from the queue and completes it, unheld.
      holdExports = false;
      assert.equal(ffmpeg.release(), 1);
      await next.waitForLog((e) => e.msg === 'job completed' && e.jobId === jobId, 'the other runner to complete the job');
      assert.equal((await job()).status, 'completed');
      assert.equal(await next.stop('SIGTERM'), 0);
    });
  });
}
