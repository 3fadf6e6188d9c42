// Encoders with pinned settings so identical pixels always give identical bytes: sharp (libvips)
// for stills — ~5× faster than canvas's own PNG encoder — and FFmpeg for motion, with bit-exact
// flags, no metadata and a fixed thread count (x264's bytes depend on it).
// FFmpeg's and x264's SIMD code is chosen at run time from the CPU and is not bit-exact across
// instruction sets, so both are pinned to CPU_BASELINE, which every x86-64 server has.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { mp4MetadataArgs, type EmbeddedRecipe } from './recipe-metadata.ts';

// One libvips thread per render: the worker pool already spreads renders over the cores.
sharp.concurrency(1);
sharp.cache(false);

export async function encodeStill(rgba: Uint8Array, width: number, height: number, format: 'png' | 'webp'): Promise<Buffer> {
  const input = sharp(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength), { raw: { width, height, channels: 4 } });
  if (format === 'png') return input.png({ compressionLevel: 6, adaptiveFiltering: false, palette: false }).toBuffer();
  return input.webp({ quality: 90, effort: 4, smartSubsample: true }).toBuffer();
}

// CPU_BASELINE (versions.ts) spelled for each tool. A set without a +/- prefix replaces the
// detected flags rather than adding to them (`-cpuflags 0` changes the bytes: verified).
const FFMPEG_CPUFLAGS = ['-cpuflags', 'mmx+mmxext+sse+sse2+sse3+ssse3+sse4.1+sse4.2+cmov'];
// Cache64 too: auto-detection sets it from the CPU's cache line and it changes x264's bytes.
const X264_ASM = 'asm=SSE4.2,Cache64';

export interface MotionEncodeOptions {
  ffmpegPath: string;
  format: 'gif' | 'mp4';
  width: number;
  height: number;
  /** Frames per second of the frames written (a gif's may be below the recipe's: gifFramePlan). */
  fps: number;
  /** The recipe an mp4 carries (FFmpeg writes it); gifs get theirs afterwards (recipe-metadata.ts). */
  metadata?: EmbeddedRecipe;
  /** Hard limit for the FFmpeg child, in ms; it is killed when exceeded. */
  timeoutMs: number;
}

export function ffmpegArgs(o: Omit<MotionEncodeOptions, 'ffmpegPath' | 'timeoutMs'>, output: string): string[] {
  const input = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    ...FFMPEG_CPUFLAGS,
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgba',
    '-s',
    `${o.width}x${o.height}`,
    '-r',
    String(o.fps),
    '-i',
    'pipe:0',
  ];
  const exact = ['-map_metadata', '-1', '-fflags', '+bitexact', '-flags', '+bitexact'];
  if (o.format === 'gif') {
    return [
      ...input,
      '-filter_threads',
      '1',
      '-filter_complex',
      GIF_FILTER,
      '-loop',
      '0',
      '-threads',
      '1',
      ...exact,
      '-f',
      'gif',
      '-y',
      output,
    ];
  }
  return [
    ...input,
    '-c:v',
    'libx264',
    // veryfast at crf 19, measured against medium at crf 20 on the four animated generators at
    // 1920×1080 (72 frames): 1.9–2.7× faster to encode, SSIM within ±0.002, files 4–22% larger
    // (README, Benchmark). Engine 1.2.0.
    '-preset',
    'veryfast',
    '-crf',
    '19',
    '-pix_fmt',
    'yuv420p',
    '-profile:v',
    'high',
    '-g',
    String(Math.max(1, Math.round(o.fps * 2))),
    '-threads',
    '2',
    '-x264-params',
    X264_ASM,
    '-movflags',
    '+faststart',
    ...exact,
    // After the bitexact flags: with them FFmpeg adds no encoder tag, only this comment (deterministic).
    ...(o.metadata ? mp4MetadataArgs(o.metadata) : []),
    '-f',
    'mp4',
    '-y',
    output,
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
 * Spawns FFmpeg and returns a writer for raw RGBA frames. FFmpeg writes to a temp file because
 * mp4's faststart rewrites the file after encoding. kill() ends the child at once.
 */
export async function startMotionEncoder(o: MotionEncodeOptions) {
  const dir = await mkdtemp(path.join(tmpdir(), 'render-'));
  const output = path.join(dir, `out.${o.format}`);
  const child = spawn(o.ffmpegPath, ffmpegArgs(o, output), { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  let failure: EncoderError | undefined;
  let closed = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      closed = true;
      resolve(code);
    }),
  );
  // FFmpeg gone before the last frame (it failed, or was killed): no frame may wait for a drain that never comes.
  const checkAlive = () => {
    if (failure) throw failure;
    if (closed || child.stdin!.destroyed)
      throw new EncoderError(`FFmpeg exited before all frames were written: ${stderr.trim()}`, 'failed');
  };
  child.once('error', (err) => (failure ??= new EncoderError(`FFmpeg could not start: ${err.message}`, 'failed')));
  const timer = setTimeout(() => {
    failure ??= new EncoderError(`FFmpeg exceeded ${o.timeoutMs} ms`, 'timeout');
    child.kill('SIGKILL');
  }, o.timeoutMs);
  // EPIPE when FFmpeg dies early is reported through `failure`/exit code instead.
  child.stdin!.on('error', () => {});

  const cleanup = async () => {
    clearTimeout(timer);
    await rm(dir, { recursive: true, force: true });
  };

  return {
    pid: child.pid,
    async writeFrame(rgba: Uint8Array): Promise<void> {
      checkAlive();
      if (!child.stdin!.write(rgba)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            child.stdin!.off('drain', done);
            child.stdin!.off('close', done);
            child.off('close', done);
            resolve();
          };
          child.stdin!.once('drain', done);
          child.stdin!.once('close', done);
          child.once('close', done);
          // It may have closed between the write and now: the events above would never fire.
          if (closed || child.stdin!.destroyed) done();
        });
      }
      checkAlive();
    },
    async finish(): Promise<Buffer> {
      child.stdin!.end();
      const code = await exited;
      try {
        if (failure) throw failure;
        if (code !== 0) throw new EncoderError(`FFmpeg exited with ${code}: ${stderr.trim()}`, 'failed');
        return await readFile(output);
      } finally {
        await cleanup();
      }
    },
    async kill(reason: 'cancelled' | 'timeout' = 'cancelled'): Promise<void> {
      failure ??= new EncoderError(reason === 'cancelled' ? 'render cancelled' : 'FFmpeg timed out', reason);
      child.kill('SIGKILL');
      await exited;
      await cleanup();
    },
  };
}

/**
 * A gif plays at most this many frames per second: above it the engine keeps every second frame
 * (every third above 2×, …), so a 24 fps recipe gives a 12 fps gif of the same duration. The
 * recipe's fps stays what it was (mp4 plays it in full). Engine 1.3.0.
 */
export const GIF_MAX_FPS = 15;

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
const GIF_FILTER =
  'split[a][b];' +
  '[a]select=not(mod(n\\,3)),scale=trunc(iw/2):trunc(ih/2):flags=neighbor,palettegen=max_colors=192:stats_mode=full[p];' +
  '[b]lutrgb=r=bitand(val\\,252):g=bitand(val\\,252):b=bitand(val\\,252)[c];' +
  '[c][p]paletteuse=dither=none:diff_mode=rectangle';
