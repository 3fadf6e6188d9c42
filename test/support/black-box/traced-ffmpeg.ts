// The real FFmpeg behind a wrapper that reports each encode's start and exit over a local socket,
// so tests wait on those events instead of polling `ps` for child processes. The wrapper opens the
// socket, says "start <pid>" and execs FFmpeg with the socket still open: the kernel closes it when
// that process ends, however it ends (a SIGKILL included), and the close is the exit event.
import { EventEmitter } from 'node:events';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { listenOnLoopback } from './listen.ts';

export interface TracedFfmpeg {
  /** FFMPEG_PATH for the service under test. */
  path: string;
  /** Encodes running now (version probes are not counted). */
  readonly running: number;
  /** Emits `start` (pid, the command line's arguments) and `exit` (pid) for every encode. */
  events: EventEmitter<{ start: [pid: number, args: string]; exit: [pid: number] }>;
  /** Resolves once no encode runs (at once if none does); rejects after `timeoutMs`. */
  whenNoneRunning(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Matches the `start` of an encode of frames of this size (the readiness probe encodes 16×16 ones). */
export const encodesSize = (width: number, height: number) => (_pid: number, args: string) => args.includes(`-s ${width}x${height} `);

/**
 * The FFmpeg the service runs when FFMPEG_PATH is unset: the binary of its @ffmpeg-installer
 * dependency (an optional ffmpeg-static, when installed, comes first; set FFMPEG_PATH then). Read
 * from the package, not src/, so the black-box acceptance tier can use this file too.
 */
function serviceFfmpeg(): string {
  return process.env.FFMPEG_PATH ?? (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}

export async function tracedFfmpeg(real = serviceFfmpeg()): Promise<TracedFfmpeg> {
  const events = new EventEmitter<{ start: [pid: number, args: string]; exit: [pid: number] }>();
  const sockets = new Set<net.Socket>();
  let running = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    let pid: number | undefined;
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      text += chunk;
      const match = /^start (\d+) (.*)\n/.exec(text);
      if (match && pid === undefined) {
        pid = Number(match[1]);
        running++;
        events.emit('start', pid, match[2]!);
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      if (pid === undefined) return;
      running--;
      events.emit('exit', pid);
    });
  });
  const port = await listenOnLoopback(server);
  const dir = mkdtempSync(path.join(tmpdir(), 'traced-ffmpeg-'));
  const binary = path.join(dir, 'ffmpeg');
  writeFileSync(
    binary,
    [
      '#!/bin/bash',
      `case " $* " in *" -version "*) exec "${real}" "$@";; esac`,
      `exec 3<>/dev/tcp/127.0.0.1/${port}`,
      'printf "start %s %s\\n" "$$" "$*" >&3',
      `exec "${real}" "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(binary, 0o755);

  return {
    path: binary,
    get running() {
      return running;
    },
    events,
    whenNoneRunning(timeoutMs = 10_000) {
      if (running === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          events.off('exit', onExit);
          reject(new Error(`${running} FFmpeg encode(s) still running after ${timeoutMs} ms`));
        }, timeoutMs);
        const onExit = () => {
          if (running > 0) return;
          clearTimeout(timer);
          events.off('exit', onExit);
          resolve();
        };
        events.on('exit', onExit);
      });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
