// /v1/ready checks FFmpeg with a tiny real encode (mp4 and gif, the renders' own encoder), not
// `-version`: an FFmpeg that answers -version but fails every encode is not ready. The result is
// cached for a TTL and refreshed in the background, one probe at a time; the clock is injected,
// and tests wait on the probe itself, never on time. Both databases, real FFmpeg behind a wrapper
// script that can be told to fail encodes. The blob store is read too: an S3 bucket that does not
// exist (a real S3-protocol server) is not ready, while renders still answer.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { resolveFfmpeg } from '../../src/engine/ffmpeg.ts';
import { FAILING_PROBE_TTL_MS, FFMPEG_PROBE_TTL_MS } from '../../src/services/health.service.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { startTestApp } from '../support/harness.ts';
import { startS3Server, type S3TestServer } from '../support/black-box/s3-server.ts';

const REAL_FFMPEG = resolveFfmpeg(undefined)!.path;

/** An FFMPEG_PATH that runs the real FFmpeg, logs every call, and fails encodes while `<dir>/broken` exists. */
function wrapper(dir: string): { path: string; calls: () => string[]; breakEncodes: () => void; fixEncodes: () => void } {
  const script = path.join(dir, 'ffmpeg');
  const log = path.join(dir, 'calls.log');
  const broken = path.join(dir, 'broken');
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      `echo "$*" >> '${log}'`,
      'case " $* " in *" -version "*) ;; *)',
      `  if [ -e '${broken}' ]; then echo "encoder unavailable" >&2; exit 1; fi ;;`,
      'esac',
      `exec '${REAL_FFMPEG}' "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(script, 0o755);
  return {
    path: script,
    calls: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter((l) => l && !l.includes('-version'))
        : [],
    breakEncodes: () => writeFileSync(broken, ''),
    fixEncodes: () => rmSync(broken, { force: true }),
  };
}

for (const engine of ENGINES) {
  describe(`readiness probes FFmpeg with a real encode on ${engine}`, () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'ffmpeg-wrapper-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    test('an FFmpeg that answers -version but fails every encode: 503 not_ready with ffmpeg=false', async () => {
      const ffmpeg = wrapper(mkdtempSync(path.join(dir, 'broken-')));
      ffmpeg.breakEncodes();
      const t = await startTestApp(engine, { env: { FFMPEG_PATH: ffmpeg.path } });
      try {
        const res = await t.request('get', '/v1/ready', { auth: false });
        assert.equal(res.status, 503);
        assert.equal(res.body.code, 'not_ready');
        assert.deepEqual(
          { ok: res.body.ok, database: res.body.database, ffmpeg: res.body.ffmpeg },
          { ok: false, database: true, ffmpeg: false },
        );
        assert.match(res.body.detail, /FFmpeg/);
        assert.ok(ffmpeg.calls().length >= 1, 'an encode was attempted');
        assert.ok(
          t.logs.some((l) => l.includes('FFmpeg cannot encode')),
          'the failure is logged',
        );
      } finally {
        await t.close();
      }
    });

    test('the real FFmpeg encodes: 200; the result is cached for the TTL, then refreshed in the background by one probe', async () => {
      const ffmpeg = wrapper(mkdtempSync(path.join(dir, 'cached-')));
      const clock = {
        at: Date.now(),
        now() {
          return this.at;
        },
      };
      const t = await startTestApp(engine, { env: { FFMPEG_PATH: ffmpeg.path }, compose: { clock } });
      const ready = async () => (await t.request('get', '/v1/ready', { auth: false })).status;
      const readiness = t.runtime.deps.services.health.ffmpegReadiness;
      try {
        assert.equal(await ready(), 200);
        const probeCalls = ffmpeg.calls().length;
        assert.equal(probeCalls, 3, "one mp4 encode and a gif's two runs (palettegen, then paletteuse)");
        assert.ok(
          ffmpeg.calls().some((c) => c.includes('libx264')) && ffmpeg.calls().some((c) => c.includes('-f gif')),
          "the renders' own arguments",
        );

        // FFmpeg breaks: within the TTL the cached answer stands and no probe runs.
        ffmpeg.breakEncodes();
        clock.at += FFMPEG_PROBE_TTL_MS - 1;
        assert.equal(await ready(), 200);
        assert.equal(ffmpeg.calls().length, probeCalls);

        // Past the TTL: 10 concurrent checks are answered at once from the cache and start one refresh.
        clock.at += 1;
        assert.deepEqual(await Promise.all(Array.from({ length: 10 }, () => readiness.check())), Array(10).fill(true));
        await readiness.idle();
        assert.equal(ffmpeg.calls().length, probeCalls + 1, 'one refresh (its mp4 encode failed, so the gif was not tried)');
        const res = await t.request('get', '/v1/ready', { auth: false });
        assert.equal(res.status, 503);
        assert.equal(res.body.ffmpeg, false);

        // Repaired: a failing probe is refreshed every FAILING_PROBE_TTL_MS (not the 30 s TTL), so the
        // recovery shows within seconds.
        ffmpeg.fixEncodes();
        const failedCalls = ffmpeg.calls().length;
        clock.at += FAILING_PROBE_TTL_MS - 1;
        assert.equal(await ready(), 503);
        assert.equal(ffmpeg.calls().length, failedCalls, 'no probe before the failing TTL');
        clock.at += 1;
        assert.equal(await ready(), 503, 'stale while revalidating');
        await readiness.idle();
        assert.equal(await ready(), 200);
      } finally {
        await t.close();
      }
    });
  });
}

describe('readiness reads the blob store (BLOB_STORE=s3 on a real S3-protocol server)', () => {
  let s3: S3TestServer;
  before(async () => {
    s3 = await startS3Server();
  });
  after(async () => s3?.close());

  test('the bucket answers: 200 with blobStore=true', async () => {
    const t = await startTestApp('sqlite', { env: s3.env });
    try {
      const res = await t.request('get', '/v1/ready', { auth: false });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.blobStore, true);
    } finally {
      await t.close();
    }
  });

  test('a bucket that does not exist: 503 not_ready with blobStore=false, named in detail and logged once', async () => {
    const t = await startTestApp('sqlite', { env: { ...s3.env, S3_BUCKET: 'no-such-bucket' } });
    try {
      const res = await t.request('get', '/v1/ready', { auth: false });
      assert.equal(res.status, 503);
      assert.deepEqual(
        { ok: res.body.ok, database: res.body.database, ffmpeg: res.body.ffmpeg, blobStore: res.body.blobStore },
        { ok: false, database: true, ffmpeg: true, blobStore: false },
      );
      assert.match(res.body.detail, /blob store \(BLOB_STORE\) unavailable/);
      assert.equal(t.logs.filter((l) => l.includes('the blob store cannot be read')).length, 1);
      // Renders still answer: the cache is a miss when it cannot be read.
      assert.equal(
        (await t.request('post', '/v1/generate/mesh-gradient', { body: { seed: 1, size: { width: 32, height: 32 } } })).status,
        200,
      );
    } finally {
      await t.close();
    }
  });
});
