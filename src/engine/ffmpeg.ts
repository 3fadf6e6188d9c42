// Resolves and probes the FFmpeg binary. Order: FFMPEG_PATH, an installed ffmpeg-static (optional:
// its postinstall downloads from the internet), then @ffmpeg-installer/ffmpeg (binary in the package).
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';

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

/** Runs `ffmpeg -version` and returns its version token (e.g. "N-47683-g0e8eb07980-static"). */
export function probeFfmpegVersion(binary: FfmpegBinary | undefined, timeoutMs = 5000): Promise<string | undefined> {
  if (!binary) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    execFile(binary.path, ['-hide_banner', '-version'], { timeout: timeoutMs, windowsHide: true }, (err, stdout) => {
      if (err) return resolve(undefined);
      const match = /^ffmpeg version (\S+)/m.exec(stdout);
      resolve(match ? match[1] : undefined);
    });
  });
}
