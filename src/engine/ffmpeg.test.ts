import assert from 'node:assert/strict';
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
