// An FFmpeg that answers -version as the real one does (so the service starts and calls it) and
// fails every encode: how tests reach the encoder-failure paths (502 upstream_error, job retries).
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resolveFfmpeg } from '../../src/engine/ffmpeg.ts';

export function failingFfmpeg(): { path: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'failing-ffmpeg-'));
  const binary = path.join(dir, 'ffmpeg');
  writeFileSync(
    binary,
    `#!/bin/sh\ncase " $* " in *" -version "*) exec "${resolveFfmpeg(undefined)!.path}" "$@";; esac\necho "encoder exploded" >&2\nexit 1\n`,
  );
  chmodSync(binary, 0o755);
  return { path: binary, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
