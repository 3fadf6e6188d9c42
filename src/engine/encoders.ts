// Encoders with pinned settings so identical pixels always give identical bytes: sharp (libvips)
// for stills (png, webp, jpeg) — ~5× faster than canvas's own PNG encoder — and FFmpeg for motion, with bit-exact
// flags, no metadata and a fixed thread count (x264's bytes depend on it).
// FFmpeg's and x264's SIMD code is chosen at run time from the CPU and is not bit-exact across
// instruction sets, so both are pinned per architecture (cpuPin) to code that gives the same
// pictures on x86-64 and arm64. What the two architectures' FFmpeg builds (4.1.0 from 2018 on
// x86-64, 4.1.4 from 2019 on arm64) still do differently is normalised: a gif's palette layout
// (canonicalPalette) and repeated palette, x264's version SEI and one optional SPS flag.
// That is today's engine profile; an older one (engine-profiles.ts) gets its own engine's arguments,
// byte for byte as they were, and none of the normalising (ffmpegPasses).
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type Sharp from 'sharp';
import type { JpegOptions } from 'sharp';
import { GIF_MAX_FPS } from '../config/limits.ts';
import { mp4MetadataArgs, type EmbeddedRecipe } from './recipe-metadata.ts';
import type { CpuPinning, EngineProfile } from './engine-profiles.ts';
import { ffmpegEnv } from '../lib/allocator-env.ts';
import { FORMATS } from '../lib/formats.ts';

// Required, not imported: as an ES module, sharp and the CommonJS packages under it load about
// twice as slowly (Node scans each for the names it exports).
const sharp = createRequire(import.meta.url)('sharp') as typeof Sharp;
// One libvips thread per render: the worker pool already spreads renders over the cores.
sharp.concurrency(1);
sharp.cache(false);

/**
 * JPEG's settings but its quality: baseline libjpeg-turbo coding (sharp's libvips carries mozjpeg,
 * run in its libjpeg-turbo-compatible profile), the accurate integer DCT (libvips's only one,
 * JDCT_ISLOW: its SIMD gives its C code's coefficients), 4:2:0 chroma and optimised Huffman tables.
 * Measured (docs/determinism.md): these give the same bytes natively (AVX-512), under qemu's Nehalem
 * and Haswell-v4 and as arm64, on every generator's frame at 96×64 and 1200×630; so did 4:4:4,
 * progressive and unoptimised coding. mozjpeg's own profile and trellis quantisation did not (arm64
 * wrote other bytes for 3 of 40 frames), so both stay off, with overshoot deringing and scan
 * optimisation. Sizes and errors of the choices: docs/benchmarks.md, "JPEG quality" (bench:jpeg).
 */
export const JPEG_SETTINGS = {
  mozjpeg: false,
  trellisQuantisation: false,
  overshootDeringing: false,
  optimiseScans: false,
  progressive: false,
  optimiseCoding: true,
  chromaSubsampling: '4:2:0',
} as const satisfies JpegOptions;

/** The quality a jpeg recipe without one renders at (written into its canonical recipe): bench:jpeg's choice, in the formats table. */
export const DEFAULT_JPEG_QUALITY = FORMATS.jpeg.defaultQuality;

/** A JFIF APP0 segment (version 1.01, aspect ratio 1:1, no thumbnail): libvips writes none once metadata is stripped. */
const JFIF_APP0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);

/** The JPEG as a JFIF file: its APP0 segment right after SOI, unless it has one. */
export function withJfif(jpeg: Buffer): Buffer {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error('not a JPEG');
  if (jpeg[2] === 0xff && jpeg[3] === 0xe0) return jpeg;
  return Buffer.concat([jpeg.subarray(0, 2), JFIF_APP0, jpeg.subarray(2)]);
}

export type StillFormat = 'png' | 'webp' | 'jpeg';

export interface StillOptions {
  /** JPEG only: 1–100 (DEFAULT_JPEG_QUALITY when not given). */
  quality?: number;
}

export async function encodeStill(
  rgba: Uint8Array,
  width: number,
  height: number,
  format: StillFormat,
  options: StillOptions = {},
): Promise<Buffer> {
  const input = sharp(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength), { raw: { width, height, channels: 4 } });
  if (format === 'png') return input.png({ compressionLevel: 6, adaptiveFiltering: false, palette: false }).toBuffer();
  if (format === 'jpeg')
    // Frames are opaque (the generator contract checks it): the alpha channel goes, nothing is blended.
    return withJfif(
      await input
        .removeAlpha()
        .jpeg({ ...JPEG_SETTINGS, quality: options.quality ?? DEFAULT_JPEG_QUALITY })
        .toBuffer(),
    );
  return input.webp({ quality: 90, effort: 4, smartSubsample: true }).toBuffer();
}

/** The CPU baseline (versions.ts) spelled for each tool. */
export interface CpuPin {
  /** FFmpeg's own SIMD (swscale, the gif filters). A set without a +/- prefix replaces the detected flags. */
  cpuflags: string;
  /** x264's `asm`: the SIMD it may use. An unknown name is only logged (and gives other bytes). */
  x264Asm: string;
}

// x264's SIMD is not bit-exact with its C code everywhere (mbtree's propagate cost uses an approximate
// reciprocal in its SSE2 and NEON versions; SSSE3 and Cache64 change pictures too), but its C code
// gives the same pictures on both architectures. So x264 runs what matches its C: MMX2 on x86-64
// (1.75× the encode CPU of SSE4.2 at 1080p; C alone 3.55×), C on arm64. FFmpeg's own SIMD stays
// (SWS_FLAGS makes swscale bit-exact). Measured: README, "Determinism across architectures".
const CPU_PINS: Partial<Record<NodeJS.Architecture, CpuPin>> = {
  x64: { cpuflags: 'mmx+mmxext+sse+sse2+sse3+ssse3+sse4.1+sse4.2+cmov', x264Asm: 'MMX2' },
  // Every arm64 CPU has these (FFmpeg's arm64 code knows no others).
  arm64: { cpuflags: 'armv8+neon+vfp', x264Asm: '0' },
};

// The RGBA → yuv420p conversion: accurate rounding and bit-exact, so swscale's SIMD gives its C
// code's pixels (without them x86-64's MMX/SSE code rounds differently).
const SWS_FLAGS = 'bicubic+accurate_rnd+bitexact';

/** FFmpeg's and x264's C code only (`0`: no SIMD at all). */
const C_ONLY: CpuPin = { cpuflags: '0', x264Asm: '0' };

/**
 * Engines 1.1.0–1.2.0 (CpuPinning `sse4.2`): the SSE4.2 class every x86-64 server had, spelled as at
 * 2a88792–3e3ef4b. A set without a +/- prefix replaces the detected flags rather than adding to them;
 * Cache64 too, as auto-detection sets it from the CPU's cache line and it changes x264's bytes.
 */
const SSE42_PIN: CpuPin = { cpuflags: 'mmx+mmxext+sse+sse2+sse3+ssse3+sse4.1+sse4.2+cmov', x264Asm: 'SSE4.2,Cache64' };

/**
 * What `arch` runs under a profile's pinning: today's (`portable`), its pin or plain C elsewhere
 * (slower, the same pictures). An `sse4.2` profile gives its recorded bytes on x86-64 only: arm64 has
 * no such class (x264 would only log an unknown `asm` name, and FFmpeg's arm64 build knows no x86
 * flags), so there — and on any other architecture — it runs FFmpeg's and x264's C code: the same
 * bytes on every CPU of that architecture, but not the x86-64 bytes the version was recorded with.
 */
export function cpuPin(arch: NodeJS.Architecture = process.arch, pinning: CpuPinning = 'portable'): CpuPin {
  if (pinning === 'sse4.2') return arch === 'x64' ? SSE42_PIN : C_ONLY;
  return CPU_PINS[arch] ?? C_ONLY;
}

export interface MotionEncodeOptions {
  ffmpegPath: string;
  format: 'gif' | 'mp4';
  width: number;
  height: number;
  /** Frames per second of the frames written (a gif's may be below the recipe's: gifFramePlan). */
  fps: number;
  /** The engine profile whose arguments the encode runs (engine-profiles.ts). */
  profile: EngineProfile;
  /** The recipe an mp4 carries (FFmpeg writes it); gifs get theirs afterwards (recipe-metadata.ts). */
  metadata?: EmbeddedRecipe;
  /** Hard limit for the FFmpeg child, in ms; it is killed when exceeded. */
  timeoutMs: number;
}

/** The files of one motion encode, in its temporary directory. */
export function motionFiles(dir: string, format: 'gif' | 'mp4') {
  return {
    output: path.join(dir, `out.${format}`),
    /** gif: palettegen's palette (16×16 RGBA) and the frames with their colours rounded, from the first run. */
    palette: path.join(dir, 'palette.rgba'),
    frames: path.join(dir, 'frames.rgba'),
    /** gif: the palette the second run uses (canonicalPalette). */
    canonicalPalette: path.join(dir, 'palette-canonical.rgba'),
  };
}

/**
 * FFmpeg's runs for one encode, in order; the first reads the raw RGBA frames on stdin. An mp4 is
 * one run. A gif is two: palettegen (the frames wait in a file, as they waited in FFmpeg's memory
 * for the palette before), then — after canonicalPalette — paletteuse and the gif muxer, so both
 * architectures' builds map the frames to the same palette. Under an older profile (`single-run`
 * gif, `sse4.2` pinning) both are one run, with that engine's arguments in their order.
 */
export function ffmpegPasses(
  o: Omit<MotionEncodeOptions, 'ffmpegPath' | 'timeoutMs'>,
  dir: string,
  pin: CpuPin = cpuPin(process.arch, o.profile.cpu),
): string[][] {
  const files = motionFiles(dir, o.format);
  const { profile } = o;
  const common = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-cpuflags', pin.cpuflags];
  const raw = (size: string, fps: number | undefined, input: string) => [
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgba',
    '-s',
    size,
    ...(fps === undefined ? [] : ['-r', String(fps)]),
    '-i',
    input,
  ];
  const frames = raw(`${o.width}x${o.height}`, o.fps, 'pipe:0');
  const exact = ['-map_metadata', '-1', '-fflags', '+bitexact', '-flags', '+bitexact'];
  // After the bitexact flags: with them FFmpeg adds no encoder tag, only this comment (deterministic).
  const metadata = o.metadata ? mp4MetadataArgs(o.metadata) : [];
  const gop = String(Math.max(1, Math.round(o.fps * 2)));
  if (o.format === 'gif' && profile.gif.pipeline === 'single-run')
    // Engines 1.0.0–1.2.0: one palette for the whole clip, ordered (bayer) dithering, in one run.
    return [
      [
        ...common,
        ...frames,
        '-filter_threads',
        '1',
        '-filter_complex',
        'split[a][b];[a]palettegen=max_colors=256:stats_mode=full[p];[b][p]paletteuse=dither=bayer:bayer_scale=3',
        '-loop',
        '0',
        '-threads',
        '1',
        ...exact,
        '-f',
        'gif',
        '-y',
        files.output,
      ],
    ];
  if (o.format === 'gif') {
    const rawOut = (file: string) => ['-f', 'rawvideo', '-pix_fmt', 'rgba', '-y', file];
    return [
      [
        ...common,
        ...frames,
        '-filter_threads',
        '1',
        '-filter_complex',
        GIF_PALETTE_FILTER,
        ...['-map', '[p]', ...rawOut(files.palette)],
        ...['-map', '[c]', ...rawOut(files.frames)],
      ],
      [
        ...common,
        ...raw(`${o.width}x${o.height}`, o.fps, files.frames),
        ...raw('16x16', undefined, files.canonicalPalette),
        '-filter_threads',
        '1',
        '-filter_complex',
        GIF_MAP_FILTER,
        '-loop',
        '0',
        '-threads',
        '1',
        ...exact,
        '-f',
        'gif',
        '-y',
        files.output,
      ],
    ];
  }
  // Engines 1.1.0–1.2.0 (`sse4.2` pinning) ran swscale's default conversion and kept x264's SEI.
  const portable = profile.cpu === 'portable';
  return [
    [
      ...common,
      ...frames,
      ...(portable ? ['-sws_flags', SWS_FLAGS] : []),
      '-c:v',
      'libx264',
      // veryfast at crf 19 since engine 1.2.0 (engine-profiles.ts).
      '-preset',
      profile.mp4.preset,
      '-crf',
      String(profile.mp4.crf),
      '-pix_fmt',
      'yuv420p',
      '-profile:v',
      'high',
      '-g',
      gop,
      '-threads',
      '2',
      '-x264-params',
      `asm=${pin.x264Asm}`,
      // x264's SEI (its version and settings as text) differs between the two architectures' builds.
      ...(portable ? ['-bsf:v', 'filter_units=remove_types=6'] : []),
      '-movflags',
      '+faststart',
      ...exact,
      ...metadata,
      '-f',
      'mp4',
      '-y',
      files.output,
    ],
  ];
}

export class EncoderError extends Error {
  constructor(
    message: string,
    readonly kind: 'timeout' | 'cancelled' | 'failed',
  ) {
    super(message);
  }
}

/**
 * FFmpeg dies with its parent, however the parent dies. Nothing else would end it: after a SIGKILL
 * of the service its stdin reaches end-of-file, which to FFmpeg is the end of the frames, so it
 * finished the encode (and a gif's second run, which reads no stdin, ran to its end). On Linux
 * util-linux's `setpriv --pdeathsig KILL` (Debian's util-linux is essential) has the kernel SIGKILL
 * it when the thread that started it ends: a render worker thread, so also when the process dies or
 * the pool ends that thread. It then execs a shell that checks its parent is still this process (a
 * parent that died before setpriv asked would send nothing) and execs FFmpeg, so the pid stays
 * FFmpeg's. Elsewhere, or without setpriv, FFmpeg is started directly.
 */
const PARENT_CHECK = '[ "$PPID" = "$1" ] || exit 137; shift; exec "$@"';
let deathSignalCommand: string[] | null | undefined;

/** `setpriv --pdeathsig KILL sh -c PARENT_CHECK`, when this system has a setpriv that can (checked once per thread). */
export function ffmpegDeathSignal(): string[] | null {
  if (deathSignalCommand !== undefined) return deathSignalCommand;
  deathSignalCommand = null;
  if (process.platform !== 'linux') return null;
  const dirs = [...new Set(['/usr/bin', '/bin', ...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean)])];
  for (const setpriv of dirs.map((d) => path.join(d, 'setpriv'))) {
    try {
      accessSync(setpriv, constants.X_OK);
    } catch {
      continue;
    }
    const command = [setpriv, '--pdeathsig', 'KILL', '/bin/sh', '-c', PARENT_CHECK, 'ffmpeg-parent-check', String(process.pid)];
    const probe = spawnSync(command[0]!, [...command.slice(1), 'true'], { stdio: 'ignore', timeout: 5_000 });
    if (probe.status === 0) deathSignalCommand = command;
    break;
  }
  return deathSignalCommand;
}

/** One FFmpeg child: its exit, the tail of its stderr, whether it has closed. */
function runFfmpeg(ffmpegPath: string, args: string[], stdin: boolean) {
  const guard = ffmpegDeathSignal();
  const [file, argv] = guard ? [guard[0]!, [...guard.slice(1), ffmpegPath, ...args]] : [ffmpegPath, args];
  const child = spawn(file, argv, { stdio: [stdin ? 'pipe' : 'ignore', 'ignore', 'pipe'], env: ffmpegEnv() });
  const run = {
    child,
    stderr: '',
    closed: false,
    startError: undefined as Error | undefined,
    exited: undefined as unknown as Promise<number | null>,
  };
  child.stderr!.on('data', (d) => (run.stderr = (run.stderr + d).slice(-4000)));
  child.once('error', (err) => (run.startError ??= err));
  run.exited = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      run.closed = true;
      resolve(code);
    }),
  );
  // EPIPE when FFmpeg dies early is reported through the exit code instead.
  child.stdin?.on('error', () => {});
  return run;
}

/**
 * Spawns FFmpeg and returns a writer for raw RGBA frames. FFmpeg writes to temp files: mp4's
 * faststart rewrites the file after encoding, and a gif takes two runs (ffmpegPasses). kill()
 * ends the running child at once; the time limit covers every run.
 */
export async function startMotionEncoder(o: MotionEncodeOptions) {
  const dir = await mkdtemp(path.join(tmpdir(), 'render-'));
  const files = motionFiles(dir, o.format);
  const passes = ffmpegPasses(o, dir);
  const first = runFfmpeg(o.ffmpegPath, passes[0], true);
  const stdin = first.child.stdin!;
  let current = first;
  let failure: EncoderError | undefined;
  const throwIfFailed = (run: ReturnType<typeof runFfmpeg>) => {
    if (run.startError) failure ??= new EncoderError(`FFmpeg could not start: ${run.startError.message}`, 'failed');
    if (failure) throw failure;
  };
  // FFmpeg gone before the last frame (it failed, or was killed): no frame may wait for a drain that never comes.
  const checkAlive = () => {
    throwIfFailed(first);
    if (first.closed || stdin.destroyed)
      throw new EncoderError(`FFmpeg exited before all frames were written: ${first.stderr.trim()}`, 'failed');
  };
  const timer = setTimeout(() => {
    failure ??= new EncoderError(`FFmpeg exceeded ${o.timeoutMs} ms`, 'timeout');
    current.child.kill('SIGKILL');
  }, o.timeoutMs);

  const cleanup = async () => {
    clearTimeout(timer);
    await rm(dir, { recursive: true, force: true });
  };
  /** Waits for `run` and throws what went wrong with it. */
  const succeeded = async (run: ReturnType<typeof runFfmpeg>) => {
    const code = await run.exited;
    throwIfFailed(run);
    if (code !== 0) throw new EncoderError(`FFmpeg exited with ${code}: ${run.stderr.trim()}`, 'failed');
  };

  return {
    pid: first.child.pid,
    async writeFrame(rgba: Uint8Array): Promise<void> {
      checkAlive();
      if (!stdin.write(rgba)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            stdin.off('drain', done);
            stdin.off('close', done);
            first.child.off('close', done);
            resolve();
          };
          stdin.once('drain', done);
          stdin.once('close', done);
          first.child.once('close', done);
          // It may have closed between the write and now: the events above would never fire.
          if (first.closed || stdin.destroyed) done();
        });
      }
      checkAlive();
    },
    async finish(): Promise<Buffer> {
      stdin.end();
      try {
        await succeeded(first);
        for (const args of passes.slice(1)) {
          await writeFile(files.canonicalPalette, canonicalPalette(await readFile(files.palette)));
          if (failure) throw failure;
          current = runFfmpeg(o.ffmpegPath, args, false);
          await succeeded(current);
        }
        const file = await readFile(files.output);
        // The rewrites that make both architectures' files the same belong to the portable profile (1.4.0).
        if (o.profile.cpu !== 'portable') return file;
        return o.format === 'gif' ? gifWithoutRepeatedPalettes(file) : mp4WithoutConstraintClaims(file);
      } finally {
        await cleanup();
      }
    },
    async kill(reason: 'cancelled' | 'timeout' = 'cancelled'): Promise<void> {
      failure ??= new EncoderError(reason === 'cancelled' ? 'render cancelled' : 'FFmpeg timed out', reason);
      current.child.kill('SIGKILL');
      await current.exited;
      await cleanup();
    },
  };
}

// GIF_MAX_FPS (a gif plays at most 15 fps; the recipe's fps stays what it was, mp4 plays it in full)
// lives with the other limits, which /v1/health serves.
export { GIF_MAX_FPS };

/** The source frames a gif encodes (indices into the recipe's frames) and the rate they play at. */
export function gifFramePlan(fps: number, frames: number): { fps: number; frames: number[] } {
  const step = Math.max(1, Math.ceil(fps / GIF_MAX_FPS));
  return { fps: fps / step, frames: Array.from({ length: Math.ceil(frames / step) }, (_, i) => i * step) };
}

// One palette for the whole clip, measured on the 7 animated generators at 640×360 (README, "GIF"):
// - the palette is computed from every third frame at half size (nearest neighbour): palettegen's
//   cost was up to half the encode, and the palette is the same to the eye;
// - 192 colours, no dithering: dither noise costs LZW most of its compression (and SSIM), and 192
//   keeps the smooth-gradient generators under 3 MB at 640×360 without visible banding;
// - the frames' colours rounded to 6 bits a channel before the lookup: paletteuse searches its
//   colour tree once per distinct colour, and gradients have hundreds of thousands (7 s → under 2 s);
// - diff_mode=rectangle with the muxer's default transdiff+offsetting: only what changed is stored.
// All single-threaded (filter_threads 1, threads 1), so the bytes never depend on scheduling.
// Two runs since engine 1.4.0 (ffmpegPasses): the palette goes through canonicalPalette in between.
const GIF_PALETTE_FILTER =
  'split[a][b];' +
  '[a]select=not(mod(n\\,3)),scale=trunc(iw/2):trunc(ih/2):flags=neighbor,palettegen=max_colors=192:stats_mode=full[p];' +
  '[b]lutrgb=r=bitand(val\\,252):g=bitand(val\\,252):b=bitand(val\\,252)[c]';
const GIF_MAP_FILTER = '[0][1]paletteuse=dither=none:diff_mode=rectangle';

/**
 * palettegen's palette (256 RGBA entries) as x86-64's FFmpeg build writes it: the colours it found,
 * then opaque black up to the reserved transparent entry. arm64's build repeats the last colour
 * there instead, and paletteuse then maps some pixels to other entries (other pictures). So the
 * run of copies of the last colour, after its first, becomes black; x86-64's palette is unchanged.
 */
export function canonicalPalette(palette: Buffer): Buffer {
  const out = Buffer.from(palette);
  const entries = out.length >> 2;
  let last = entries - 1;
  while (last > 0 && out[4 * last + 3] === 0) last--; // the transparent entry (alpha 0) stays where it is
  const colour = out.readUInt32BE(4 * last);
  let first = last;
  while (first > 0 && out.readUInt32BE(4 * (first - 1)) === colour) first--;
  for (let i = first + 1; i <= last; i++) out.writeUInt32BE(0x000000ff, 4 * i);
  return out;
}

/**
 * The gif without local colour tables that repeat the global one: arm64's FFmpeg build writes the
 * first frame's palette again as its local table (768 bytes more), x86-64's does not. A frame
 * without a local table uses the global one, so the pictures are the same; the image descriptor's
 * table flag, sort flag and size are cleared. Anything else — and a file it cannot walk — is kept
 * byte for byte.
 */
export function gifWithoutRepeatedPalettes(gif: Buffer): Buffer {
  const head = gif.subarray(0, 6).toString('latin1');
  if ((head !== 'GIF89a' && head !== 'GIF87a') || gif.length < 13) return gif;
  const tableBytes = (packed: number) => (packed & 0x80 ? 3 << ((packed & 7) + 1) : 0);
  const globalEnd = 13 + tableBytes(gif[10]);
  const global = gif.subarray(13, globalEnd);
  const kept: Buffer[] = [];
  let from = 0;
  let at = globalEnd;
  /** The offset after a run of data sub-blocks starting at `p` (its 0 terminator included). */
  const skipSubBlocks = (p: number) => {
    while (p < gif.length && gif[p] !== 0) p += gif[p] + 1;
    return p + 1;
  };
  while (at < gif.length) {
    const block = gif[at];
    if (block === 0x3b) break; // trailer
    if (block === 0x21) at = skipSubBlocks(at + 2);
    else if (block === 0x2c && at + 10 <= gif.length) {
      const packed = gif[at + 9];
      const local = tableBytes(packed);
      const table = gif.subarray(at + 10, at + 10 + local);
      if (local > 0 && global.length === local && table.equals(global)) {
        const descriptor = Buffer.from(gif.subarray(at, at + 10));
        descriptor[9] = packed & ~0xa7; // no local table, not sorted, no size; interlace kept
        kept.push(gif.subarray(from, at), descriptor);
        from = at + 10 + local;
      }
      at = skipSubBlocks(at + 10 + local + 1); // after the LZW minimum code size
    } else return gif;
    if (at > gif.length) return gif;
  }
  if (kept.length === 0) return gif;
  kept.push(gif.subarray(from));
  return Buffer.concat(kept);
}

/**
 * The mp4 without the optional constraint_set4/5 claims in its High-profile SPS (in the avcC box):
 * arm64's x264 build sets constraint_set4 (frame_mbs_only, true of every progressive encode),
 * x86-64's older build claims nothing. Decoders treat 0 as "not claimed", so clearing both is always
 * valid. The bytes keep their positions (no emulation prevention is affected: the byte follows
 * profile_idc, never 0, and precedes level_idc, never 0).
 */
export function mp4WithoutConstraintClaims(mp4: Buffer): Buffer {
  const avcC = findBox(mp4, 0, mp4.length, ['moov', 'trak', 'mdia', 'minf', 'stbl', 'stsd', 'avc1', 'avcC']);
  if (!avcC) return mp4;
  const { start, end } = avcC;
  // configurationVersion, profile, profile_compatibility, level, lengthSize, SPS count, then each SPS by length.
  if (end - start < 6 || mp4[start] !== 1) return mp4;
  const out = Buffer.from(mp4);
  const CLAIMS = 0x0c; // constraint_set4_flag, constraint_set5_flag
  const CLAIMING_PROFILES = [77, 88, 100]; // Main, Extended, High: set4/set5 only claim frame_mbs_only / no B slices
  let p = start + 6;
  for (let n = out[start + 5] & 0x1f; n > 0 && p + 2 <= end; n--) {
    const length = out.readUInt16BE(p);
    const sps = p + 2;
    if (sps + 4 > end || (out[sps] & 0x1f) !== 7) return mp4;
    if (CLAIMING_PROFILES.includes(out[sps + 1])) out[sps + 2] &= ~CLAIMS;
    p = sps + length;
  }
  if (CLAIMING_PROFILES.includes(out[start + 1])) out[start + 2] &= ~CLAIMS;
  return out.equals(mp4) ? mp4 : out;
}

/** Where a child box's payload starts, after its header and its own fields (ISO/IEC 14496-12). */
const PAYLOAD_OFFSET: Record<string, number> = { stsd: 8, avc1: 78 };

/** The payload of the box at the end of `path` (each a child of the one before), or undefined. */
function findBox(buf: Buffer, from: number, to: number, path: string[]): { start: number; end: number } | undefined {
  let at = from;
  while (at + 8 <= to) {
    let size = buf.readUInt32BE(at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) return undefined;
      size = Number(buf.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) return undefined;
    const type = buf.toString('latin1', at + 4, at + 8);
    if (type === path[0]) {
      const start = at + header + (PAYLOAD_OFFSET[type] ?? 0);
      if (path.length === 1) return { start, end: at + size };
      return findBox(buf, start, at + size, path.slice(1));
    }
    at += size;
  }
  return undefined;
}
