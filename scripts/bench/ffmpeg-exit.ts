// `node --import tsx scripts/bench/ffmpeg-exit.ts` — how long an FFmpeg child outlives its service
// when the service is SIGKILLed mid-export (issue 40: 11.6 s in local mode, 3.1 s for a worker).
// The real service (`src/main.ts`, local mode, one render worker) exports a 1920×1080 mp4 (300
// frames) through a traced FFmpeg (test/support/black-box/traced-ffmpeg.ts, which reports its exit
// when the kernel closes its socket, however it ends); a few seconds in, the service gets SIGKILL.
// Prints the time from the kill to FFmpeg's exit and whether FFmpeg finished the encode (an mp4 with
// its `moov` index) or was killed. The test (test/acceptance/ffmpeg-dies-with-parent.test.ts) judges
// by the file; this bench measures the time.
//   BENCH_RUNS=3               how many kills (default 3)
//   BENCH_ROOT=/path/to/tree   another checkout's service (a before/after comparison)
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodesSize, tracedFfmpeg } from '../../test/support/black-box/traced-ffmpeg.ts';
import { armEvent } from '../../test/support/black-box/waiters.ts';
import { BENCH_KEY as KEY, BENCH_ROOT as ROOT, startServiceProcess } from './service-process.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ffmpeg = await tracedFfmpeg();
console.log(`root ${ROOT}`);
try {
  for (let run = 1; run <= RUNS; run++) {
    const { child, url, stop } = await startServiceProcess({ FFMPEG_PATH: ffmpeg.path, RENDER_WORKERS: '1' });
    try {
      const started = armEvent<[number, string]>(ffmpeg.events, 'start', encodesSize(1920, 1080), 120_000);
      const res = await fetch(`${url}/v1/jobs`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          slug: 'plasma',
          seed: run,
          format: 'mp4',
          size: { width: 1920, height: 1080 },
          params: { duration: 10, fps: 30 },
        }),
      });
      if (res.status !== 202) throw new Error(`POST /v1/jobs answered ${res.status}`);
      const [pid, args] = await started.wait('FFmpeg to start');
      const output = /-y (\S+\/out\.mp4)/.exec(args)![1]!;
      // A few seconds of frames into FFmpeg, as in an export that is well under way.
      await sleep(3000);
      const exited = armEvent<[number]>(ffmpeg.events, 'exit', (p) => p === pid, 120_000);
      const killedAt = performance.now();
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
      await exited.wait('FFmpeg to exit');
      const ms = performance.now() - killedAt;
      const finished = existsSync(output) && readFileSync(output).includes('moov');
      console.log(
        `run ${run}: FFmpeg exited ${ms.toFixed(0)} ms after the service's SIGKILL, ${finished ? 'having finished the encode' : 'killed'} (load average ${loadavg()[0]!.toFixed(1)})`,
      );
      rmSync(path.dirname(output), { recursive: true, force: true });
    } finally {
      await stop();
    }
  }
} finally {
  await ffmpeg.close();
}
