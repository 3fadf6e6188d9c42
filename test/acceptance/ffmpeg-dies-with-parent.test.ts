// An FFmpeg child dies with its parent, however the parent dies (issue 40, point 5). A service in
// local mode and a worker process are each SIGKILLed while an mp4 export is encoding; the traced
// FFmpeg (test/support/black-box/traced-ffmpeg.ts) reports its exit as an event. FFmpeg used to
// outlive its parent by seconds: the parent's death closed its stdin, which to FFmpeg is the end of
// the frames, so it finished the encode and wrote a whole mp4 nobody would read. Now the kernel kills
// it (a parent-death signal), so the file it leaves has no `moov` box: it never finished. The test
// waits on the exit event (a backstop only against a hang) and judges by the file, never by time;
// the time it takes is a figure in docs/benchmarks.md.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BACKSTOP_MS, startLoggedProcess, type LoggedProcess } from '../support/black-box/logged-process.ts';
import { runService, type ServerProcess } from '../support/black-box/server-process.ts';
import { TEST_LOCAL_KEY } from '../support/black-box/test-keys.ts';
import { encodesSize, tracedFfmpeg, type TracedFfmpeg } from '../support/black-box/traced-ffmpeg.ts';
import { armEvent, withTimeout } from '../support/black-box/waiters.ts';

// 300 frames of 1280×720: far from done when the parent is killed a few frames in.
const longExport = { slug: 'plasma', seed: 40, format: 'mp4', size: { width: 1280, height: 720 }, params: { duration: 10, fps: 30 } };
const headers = { Authorization: `Bearer ${TEST_LOCAL_KEY}` };

/** Resolves once the job's event stream reports progress above zero: frames have gone into FFmpeg. */
function progressed(base: string, jobId: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/v1/jobs/${jobId}/events`, { headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
        if (/event: progress\ndata: \{[^\n]*"progress":0\.\d*[1-9]/.test(text)) {
          req.destroy();
          resolve();
        }
      });
      res.on('error', () => {});
    });
    req.on('error', reject);
  });
}

/** The mp4 FFmpeg writes, from its command line (`-y <dir>/out.mp4`). */
const outputOf = (args: string) => /-y (\S+\/out\.mp4)/.exec(args)?.[1];

describe('an FFmpeg child dies with its parent', () => {
  let ffmpeg: TracedFfmpeg;
  const processes: Array<{ child: ChildProcess }> = [];
  // A killed parent cannot remove its encoder's temporary directory; each test has a data dir of its own.
  const leftDirs: string[] = [];
  /** Local mode on a fresh SQLite database (a job the previous test's killed process left running would be run again). */
  const localEnv = () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'render-service-ffmpeg-parent-'));
    leftDirs.push(dataDir);
    return {
      DATA_DIR: dataDir,
      SERVICE_LOCAL_MODE: '1',
      API_KEYS: TEST_LOCAL_KEY,
      RENDER_WORKERS: '1',
      FFMPEG_PATH: ffmpeg.path,
      LOG_LEVEL: 'warn',
    };
  };

  before(async () => {
    ffmpeg = await tracedFfmpeg();
  });
  after(async () => {
    for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await ffmpeg?.close();
    for (const dir of leftDirs) rmSync(dir, { recursive: true, force: true });
  });

  /** Submits the long export to `api`, waits until frames reach FFmpeg, SIGKILLs `victim` and waits for FFmpeg's exit. */
  async function killMidExport(api: ServerProcess, victim: { child: ChildProcess }) {
    const encoding = armEvent(ffmpeg.events, 'start', encodesSize(1280, 720), BACKSTOP_MS);
    const submitted = await fetch(`${api.url}/v1/jobs`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(longExport),
    });
    assert.equal(submitted.status, 202);
    const jobId = ((await submitted.json()) as { id: string }).id;
    const [pid, args] = await encoding.wait('FFmpeg to start encoding the export');
    const output = outputOf(args);
    assert.ok(output, `FFmpeg's output file in ${args}`);
    leftDirs.push(path.dirname(output));
    await withTimeout('frames to reach FFmpeg', progressed(api.url, jobId), BACKSTOP_MS);

    const ffmpegExited = armEvent(ffmpeg.events, 'exit', (exited: number) => exited === pid, BACKSTOP_MS);
    const victimExited = new Promise((resolve) => victim.child.once('exit', resolve));
    victim.child.kill('SIGKILL');
    await victimExited;
    await ffmpegExited.wait('FFmpeg to exit after its parent was killed');
    // Killed, not left to finish: an mp4 gets its index (`moov`) only when FFmpeg completes the encode.
    const written = existsSync(output) ? readFileSync(output) : Buffer.alloc(0);
    assert.equal(written.includes('moov'), false, 'FFmpeg finished the encode after its parent died instead of dying with it');
  }

  test('a local-mode service SIGKILLed mid-export takes its FFmpeg with it', async () => {
    const service = await runService(localEnv());
    processes.push(service);
    await killMidExport(service, service);
  });

  test('a worker process SIGKILLed mid-export takes its FFmpeg with it', async () => {
    // The API runs no jobs: the worker process (src/worker.ts, as `npm run worker` starts it) does.
    const env = localEnv();
    const api = await runService({ ...env, RUN_JOBS: '0' });
    processes.push(api);
    const worker: LoggedProcess = startLoggedProcess('src/worker.ts', { ...env, LOG_LEVEL: 'info' });
    processes.push(worker);
    await worker.waitForLog((e) => e.msg === 'worker started', 'the worker to start');
    await killMidExport(api, worker);
    await api.stop();
  });
});
