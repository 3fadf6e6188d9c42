// Resolves and probes the FFmpeg binary. Order: FFMPEG_PATH, an installed ffmpeg-static (optional:
// its postinstall downloads from the internet), then @ffmpeg-installer/ffmpeg (binary in the package).
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import type { FormatOfKind } from '../lib/formats.ts';

export type FfmpegSource = 'FFMPEG_PATH' | 'ffmpeg-static' | '@ffmpeg-installer/ffmpeg';

export interface FfmpegBinary {
  path: string;
  source: FfmpegSource;
}

const require = createRequire(import.meta.url);

function executable(path: string | null | undefined): path is string {
  if (!path) return false;
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function resolveFfmpeg(configuredPath: string | undefined): FfmpegBinary | undefined {
  if (configuredPath !== undefined) {
    // An explicit setting is never second-guessed: if it is wrong, readiness says so.
    return { path: configuredPath, source: 'FFMPEG_PATH' };
  }
  for (const [pkg, pick] of [
    ['ffmpeg-static', (m: unknown) => m as string | null],
    ['@ffmpeg-installer/ffmpeg', (m: unknown) => (m as { path?: string }).path],
  ] as const) {
    try {
      const candidate = pick(require(pkg));
      if (executable(candidate)) return { path: candidate, source: pkg };
    } catch {
      // not installed; try the next source
    }
  }
  return undefined;
}

/**
 * Runs `ffmpeg -version` and returns its version token (e.g. "N-47683-g0e8eb07980-static"), or
 * undefined when FFmpeg fails or does not answer within `timeoutMs`. The deadline is judged after
 * the event loop has caught up on I/O (setImmediate runs after the poll phase): a process whose
 * loop was busy for longer than the deadline — a test rendering on its main thread at load 25 —
 * must not take an FFmpeg that answered in 50 ms for one that never did (timers run before I/O).
 */
export function probeFfmpegVersion(binary: FfmpegBinary | undefined, timeoutMs = 5000): Promise<string | undefined> {
  if (!binary) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const child = execFile(binary.path, ['-hide_banner', '-version'], { windowsHide: true }, (err, stdout) => {
      clearTimeout(deadline);
      if (err) return resolve(undefined);
      const match = /^ffmpeg version (\S+)/m.exec(stdout);
      resolve(match ? match[1] : undefined);
    });
    const deadline = setTimeout(() => setImmediate(() => child.kill('SIGKILL')), timeoutMs);
  });
}

/**
 * What a readiness encode starts each file with, for every motion format (an mp4's first box is
 * `ftyp`, a gif says `GIF8`). Probed in this order: mp4 first, one FFmpeg run (a gif takes two),
 * so a build without libx264 fails fast.
 */
const MAGIC = { mp4: { at: 4, bytes: 'ftyp' }, gif: { at: 0, bytes: 'GIF8' } } as const satisfies Record<
  FormatOfKind<'motion'>,
  { at: number; bytes: string }
>;
const PROBE_SIZE = 16;

/**
 * A tiny real encode — two 16×16 RGBA frames to mp4 and to gif, through the very encoder and
 * arguments real renders use — because `-version` answers even when every encode fails (a build
 * without libx264, a broken library, a wrapper that only forwards -version). Resolves with the
 * first failure's message, or undefined when both encodes gave a file of the right kind.
 */
export async function probeFfmpegEncode(binary: FfmpegBinary | undefined, timeoutMs = 10_000): Promise<string | undefined> {
  if (!binary) return 'no FFmpeg binary was found';
  const frame = new Uint8Array(PROBE_SIZE * PROBE_SIZE * 4).fill(128);
  // Imported here, not above: the encoders bring sharp, which a process that only resolves FFmpeg
  // (the CLI's main thread, the API's) need not load.
  const { startMotionEncoder } = await import('./encoders.ts');
  const { CURRENT_ENGINE_PROFILE } = await import('./engine-profiles.ts');
  for (const format of Object.keys(MAGIC) as FormatOfKind<'motion'>[]) {
    try {
      const encoder = await startMotionEncoder({
        ffmpegPath: binary.path,
        format,
        width: PROBE_SIZE,
        height: PROBE_SIZE,
        fps: 2,
        profile: CURRENT_ENGINE_PROFILE,
        timeoutMs,
      });
      try {
        await encoder.writeFrame(frame);
        await encoder.writeFrame(frame);
      } catch (err) {
        await encoder.kill('cancelled');
        throw err;
      }
      const file = await encoder.finish();
      const { at, bytes } = MAGIC[format];
      if (file.subarray(at, at + bytes.length).toString('latin1') !== bytes) return `the ${format} probe encode gave no ${format} file`;
    } catch (err) {
      return `the ${format} probe encode failed: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  return undefined;
}
