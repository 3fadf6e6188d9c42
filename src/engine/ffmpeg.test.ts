import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { probeFfmpegVersion, resolveFfmpeg } from './ffmpeg.ts';

test('FFMPEG_PATH wins over the packaged binaries', () => {
  assert.deepEqual(resolveFfmpeg('/opt/ffmpeg/bin/ffmpeg'), { path: '/opt/ffmpeg/bin/ffmpeg', source: 'FFMPEG_PATH' });
});

test('without FFMPEG_PATH an installed package binary is used, and it runs', async () => {
  const binary = resolveFfmpeg(undefined);
  assert.ok(binary, 'a packaged ffmpeg is installed');
  assert.ok(['ffmpeg-static', '@ffmpeg-installer/ffmpeg'].includes(binary.source));
  const version = await probeFfmpegVersion(binary);
  assert.ok(version && version.length > 0);
});

test('a binary that does not exist probes as unavailable', async () => {
  assert.equal(await probeFfmpegVersion({ path: '/nonexistent/ffmpeg', source: 'FFMPEG_PATH' }), undefined);
});

test('an FFmpeg that answered while the event loop was busy past the deadline is not taken for one that hung', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ffmpeg-probe-'));
  try {
    const done = path.join(dir, 'done');
    const fake = path.join(dir, 'ffmpeg');
    // Answers like FFmpeg, then says it is about to exit (its pid) by writing a file.
    writeFileSync(fake, `#!/bin/sh\necho "ffmpeg version T-1-test"\necho $$ > ${JSON.stringify(done)}\n`, { mode: 0o755 });
    const probe = probeFfmpegVersion({ path: fake, source: 'FFMPEG_PATH' }, 50);
    // The loop stays busy until the fake has exited and the deadline has passed: both are then due at once.
    const started = Date.now();
    const exited = () => {
      if (!existsSync(done)) return false;
      const pid = readFileSync(done, 'utf8').trim();
      if (!pid) return false;
      try {
        return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? true;
      } catch {
        return true; // already reaped
      }
    };
    while (!exited() || Date.now() - started <= 50) {
      // busy: a render on the main thread
    }
    assert.equal(await probe, 'T-1-test');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an FFmpeg that does not answer within the deadline probes as unavailable', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ffmpeg-probe-'));
  try {
    const fake = path.join(dir, 'ffmpeg');
    writeFileSync(fake, '#!/bin/sh\nexec sleep 600\n', { mode: 0o755 });
    assert.equal(await probeFfmpegVersion({ path: fake, source: 'FFMPEG_PATH' }, 50), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
