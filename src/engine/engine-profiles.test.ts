// The engine profiles: what each engine version's FFmpeg runs are (the old ones written out here as
// their commits ran them), and what the render worker does with a task's profile.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import { cpuPin, ffmpegPasses } from './encoders.ts';
import { CURRENT_ENGINE_PROFILE, ENGINE_PROFILE_VERSIONS, engineProfile } from './engine-profiles.ts';
import { resolveFfmpeg } from './ffmpeg.ts';
import { extract } from './recipe-metadata.ts';
import render, { type RenderTask } from './render.worker.ts';
import { ENGINE_VERSION } from './versions.ts';
import { ALL_GENERATORS } from '../generators/index.ts';
import { ALL_RELEASES } from '../generators/releases/index.ts';

/** An argument list as a line (no argument here holds a space). */
const args = (line: string) => line.trim().split(/\s+/);

test('the profiles: 1.1.0, 1.2.0 and 1.4.0; today is ENGINE_VERSION; an unknown version throws', () => {
  assert.deepEqual(ENGINE_PROFILE_VERSIONS, ['1.1.0', '1.2.0', '1.4.0']);
  assert.equal(engineProfile(''), CURRENT_ENGINE_PROFILE);
  assert.equal(engineProfile(ENGINE_VERSION), CURRENT_ENGINE_PROFILE);
  assert.equal(CURRENT_ENGINE_PROFILE.version, ENGINE_VERSION);
  for (const version of ENGINE_PROFILE_VERSIONS) assert.equal(engineProfile(version).version, version);
  assert.throws(() => engineProfile('1.3.0'), /no engine profile "1\.3\.0"/);
  assert.throws(() => engineProfile('toString'), /no engine profile/);
  assert.deepEqual(
    ENGINE_PROFILE_VERSIONS.map((v) => {
      const p = engineProfile(v);
      return [v, p.embedsRecipe, p.cpu, p.gif.pipeline, p.gif.capFps, p.mp4.preset, p.mp4.crf];
    }),
    [
      ['1.1.0', false, 'sse4.2', 'single-run', false, 'medium', 20],
      ['1.2.0', false, 'sse4.2', 'single-run', false, 'veryfast', 19],
      ['1.4.0', true, 'portable', 'canonical-palette', true, 'veryfast', 19],
    ],
  );
  // Every released version is pinned to an engine that has a profile.
  for (const release of ALL_RELEASES) assert.doesNotThrow(() => engineProfile(release.engine), `${release.slug}@${release.version}`);
});

const size = { width: 96, height: 64 };
const meta = { recipe: 'abc', hash: 'h', engineVersion: '1.4.0' };
const X86_CPUFLAGS = 'mmx+mmxext+sse+sse2+sse3+ssse3+sse4.1+sse4.2+cmov';
const passes = (version: string, format: 'gif' | 'mp4', arch: NodeJS.Architecture, fps = 10, metadata?: typeof meta) =>
  ffmpegPasses({ format, ...size, fps, profile: engineProfile(version), metadata }, '/D', cpuPin(arch, engineProfile(version).cpu));

test("1.4.0's runs are today's, argument for argument (recorded before the profiles; its goldens must not move)", () => {
  const input = (cpuflags: string, fps: string) =>
    `-hide_banner -loglevel error -nostdin -cpuflags ${cpuflags} -f rawvideo -pix_fmt rgba -s 96x64 -r ${fps}`;
  const mp4 = (cpuflags: string, asm: string, fps: string, gop: string, metadata = '') =>
    args(`${input(cpuflags, fps)} -i pipe:0 -sws_flags bicubic+accurate_rnd+bitexact -c:v libx264 -preset veryfast -crf 19
      -pix_fmt yuv420p -profile:v high -g ${gop} -threads 2 -x264-params asm=${asm} -bsf:v filter_units=remove_types=6
      -movflags +faststart -map_metadata -1 -fflags +bitexact -flags +bitexact ${metadata} -f mp4 -y /D/out.mp4`);
  assert.deepEqual(passes('1.4.0', 'mp4', 'x64'), [mp4(X86_CPUFLAGS, 'MMX2', '10', '20')]);
  assert.deepEqual(passes('1.4.0', 'mp4', 'arm64'), [mp4('armv8+neon+vfp', '0', '10', '20')]);
  assert.deepEqual(passes('1.4.0', 'mp4', 'riscv64'), [mp4('0', '0', '10', '20')]);
  assert.deepEqual(passes('1.4.0', 'mp4', 'x64', 12.5, meta), [
    mp4(X86_CPUFLAGS, 'MMX2', '12.5', '25', '-metadata comment={"engineVersion":"1.4.0","hash":"h","recipe":"abc"}'),
  ]);
  const gif = (cpuflags: string) => [
    args(`${input(cpuflags, '10')} -i pipe:0 -filter_threads 1 -filter_complex
      split[a][b];[a]select=not(mod(n\\,3)),scale=trunc(iw/2):trunc(ih/2):flags=neighbor,palettegen=max_colors=192:stats_mode=full[p];[b]lutrgb=r=bitand(val\\,252):g=bitand(val\\,252):b=bitand(val\\,252)[c]
      -map [p] -f rawvideo -pix_fmt rgba -y /D/palette.rgba -map [c] -f rawvideo -pix_fmt rgba -y /D/frames.rgba`),
    args(`${input(cpuflags, '10')} -i /D/frames.rgba -f rawvideo -pix_fmt rgba -s 16x16 -i /D/palette-canonical.rgba
      -filter_threads 1 -filter_complex [0][1]paletteuse=dither=none:diff_mode=rectangle -loop 0 -threads 1
      -map_metadata -1 -fflags +bitexact -flags +bitexact -f gif -y /D/out.gif`),
  ];
  assert.deepEqual(passes('1.4.0', 'gif', 'x64'), gif(X86_CPUFLAGS));
  assert.deepEqual(passes('1.4.0', 'gif', 'arm64'), gif('armv8+neon+vfp'));
  // The default pin is this machine's, for today's profile.
  assert.deepEqual(
    ffmpegPasses({ format: 'mp4', ...size, fps: 10, profile: CURRENT_ENGINE_PROFILE }, '/D'),
    passes('1.4.0', 'mp4', process.arch),
  );
});

// As encoders.ts's ffmpegArgs built them at 2a88792 (1.1.0) and at 1dac23a / 3e3ef4b (1.2.0; the
// same file at both), for a 96×64 clip at 10 fps; the render worker passed every frame at the recipe's fps.
const OLD_INPUT = `-hide_banner -loglevel error -nostdin -cpuflags ${X86_CPUFLAGS} -f rawvideo -pix_fmt rgba -s 96x64 -r 10 -i pipe:0`;
const OLD_EXACT = '-map_metadata -1 -fflags +bitexact -flags +bitexact';
const OLD_GIF = args(`${OLD_INPUT} -filter_threads 1 -filter_complex
  split[a][b];[a]palettegen=max_colors=256:stats_mode=full[p];[b][p]paletteuse=dither=bayer:bayer_scale=3
  -loop 0 -threads 1 ${OLD_EXACT} -f gif -y /D/out.gif`);
const oldMp4 = (preset: string, crf: string) =>
  args(`${OLD_INPUT} -c:v libx264 -preset ${preset} -crf ${crf} -pix_fmt yuv420p -profile:v high -g 20 -threads 2
    -x264-params asm=SSE4.2,Cache64 -movflags +faststart ${OLD_EXACT} -f mp4 -y /D/out.mp4`);

test('1.1.0 and 1.2.0 run their own commits’ FFmpeg arguments on x86-64, in their order', () => {
  assert.deepEqual(passes('1.1.0', 'mp4', 'x64'), [oldMp4('medium', '20')]);
  assert.deepEqual(passes('1.2.0', 'mp4', 'x64'), [oldMp4('veryfast', '19')]);
  assert.deepEqual(passes('1.1.0', 'gif', 'x64'), [OLD_GIF]);
  assert.deepEqual(passes('1.2.0', 'gif', 'x64'), [OLD_GIF]);
});

test('off x86-64 the 1.1.0/1.2.0 arguments run C code: no x86 name, FFmpeg and x264 without SIMD', () => {
  const toC = (list: string[]) => list.map((a) => (a === X86_CPUFLAGS ? '0' : a === 'asm=SSE4.2,Cache64' ? 'asm=0' : a));
  for (const arch of ['arm64', 'riscv64'] as const) {
    assert.deepEqual(cpuPin(arch, 'sse4.2'), { cpuflags: '0', x264Asm: '0' });
    assert.deepEqual(passes('1.1.0', 'mp4', arch), [toC(oldMp4('medium', '20'))]);
    assert.deepEqual(passes('1.2.0', 'mp4', arch), [toC(oldMp4('veryfast', '19'))]);
    assert.deepEqual(passes('1.2.0', 'gif', arch), [toC(OLD_GIF)]);
    assert.doesNotMatch(passes('1.1.0', 'mp4', arch).flat().join(' '), /mmx|sse|avx|cmov|cache64/i);
  }
});

const ffmpeg = resolveFfmpeg(process.env.FFMPEG_PATH);
const plasma = ALL_GENERATORS.find((g) => g.slug === 'plasma')!;
/** A plasma task of 32×16 pixels, 4 frames at 30 fps, under engine `engine`. */
const task = (engine: string, format: RenderTask['format']): RenderTask => ({
  slug: 'plasma',
  version: plasma.version,
  engine,
  params: plasma.defaults as Record<string, unknown>,
  seed: 5,
  width: 32,
  height: 16,
  pixelRatio: 1,
  deviceWidth: 32,
  deviceHeight: 16,
  format,
  recipe: { encoded: 'e30', hash: '0'.repeat(64) },
  frames: 4,
  fps: 30,
  ffmpegPath: ffmpeg?.path,
  cancel: new Int32Array(new SharedArrayBuffer(4)),
  timeoutMs: 60_000,
});
const renderBytes = async (engine: string, format: RenderTask['format']) => Buffer.from((await render(task(engine, format))).bytes);

test('the worker embeds the recipe only under a profile that does, naming that profile', async () => {
  assert.deepEqual(extract(await renderBytes('', 'png')), {
    format: 'png',
    recipe: 'e30',
    hash: '0'.repeat(64),
    engineVersion: ENGINE_VERSION,
  });
  const old = await renderBytes('1.2.0', 'png');
  assert.equal(extract(old), undefined);
  // The same pixels either way: only the metadata differs.
  assert.deepEqual(
    await sharp(old).raw().toBuffer(),
    await sharp(await renderBytes('1.4.0', 'png'))
      .raw()
      .toBuffer(),
  );
  assert.equal(extract(await renderBytes('1.1.0', 'webp')), undefined);
  await assert.rejects(() => renderBytes('1.3.0', 'png'), /no engine profile/);
});

test(
  'the worker encodes a gif of every frame under 1.2.0, at most GIF_MAX_FPS under 1.4.0; an mp4 without its recipe',
  { skip: ffmpeg ? false : 'FFmpeg is required' },
  async () => {
    const frames = async (engine: string) => (await sharp(await renderBytes(engine, 'gif'), { pages: -1 }).metadata()).pages;
    assert.equal(await frames('1.2.0'), 4);
    assert.equal(await frames('1.4.0'), 2);
    const mp4 = await renderBytes('1.2.0', 'mp4');
    assert.equal(mp4.subarray(4, 8).toString('latin1'), 'ftyp');
    assert.equal(extract(mp4), undefined);
    assert.equal(extract(await renderBytes('', 'mp4'))?.engineVersion, ENGINE_VERSION);
  },
);
