// The real FFmpeg behind a wrapper that reports each encode's start and exit over a local socket,
// so tests wait on those events instead of polling `ps` for child processes. The wrapper opens the
// socket, says "start <pid> <parent pid> <args>" and execs FFmpeg with the socket still open: the
// kernel closes it when that process ends, however it ends (a SIGKILL included), and the close is
// the exit event.
//
// With `hold`, the wrapper of an encode that `hold` accepts waits on the socket (a blocking `read`)
// before it execs FFmpeg, until the test releases it: the service has started its FFmpeg child, and
// the job runs — its first frames wait in the pipe, the render waits for FFmpeg to take them — for
// exactly as long as the test needs, however small the export. A held wrapper is an ordinary
// process: a signal ends it (the service's SIGKILL on a cancel, the parent-death signal it inherits
// from `setpriv --pdeathsig`, src/engine/encoders.ts), and that is its exit event.
import { EventEmitter } from 'node:events';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { listenOnLoopback } from './listen.ts';
import { BACKSTOP_MS } from './waiters.ts';

/** One encode as its wrapper reported it. */
export interface Encode {
  pid: number;
  /** The process that started it: the service's (its render threads run in it). */
  parent: number;
  /** FFmpeg's command line. */
  args: string;
}

export interface TracedFfmpegOptions {
  /** The FFmpeg to run (default: the service's own). */
  real?: string;
  /**
   * Encodes this accepts (asked as each starts) wait before FFmpeg runs, until `release`. Version
   * probes are never held. Without it no wrapper waits for anything.
   */
  hold?: (encode: Encode) => boolean;
}

export interface TracedFfmpeg {
  /** FFMPEG_PATH for the service under test. */
  path: string;
  /** Encodes running now, held ones included (version probes are not counted). */
  readonly running: number;
  /** Encodes held now (`hold`), in the order they started; an encode is listed before its `start` event. */
  readonly held: readonly Encode[];
  /** Emits `start` (pid, the command line's arguments) and `exit` (pid) for every encode. */
  events: EventEmitter<{ start: [pid: number, args: string]; exit: [pid: number] }>;
  /** Lets the held encodes `which` accepts (every one by default) run FFmpeg; returns how many. */
  release(which?: (encode: Encode) => boolean): number;
  /** Resolves once at least `count` encodes are held (at once if they are); rejects after `timeoutMs`. */
  whenHeld(count: number, timeoutMs?: number): Promise<void>;
  /** Resolves once no encode runs (at once if none does); rejects after `timeoutMs`. */
  whenNoneRunning(timeoutMs?: number): Promise<void>;
  /** Ends the tracer; a wrapper still held then exits 1 without running FFmpeg. */
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

export async function tracedFfmpeg({ real = serviceFfmpeg(), hold }: TracedFfmpegOptions = {}): Promise<TracedFfmpeg> {
  const events = new EventEmitter<{ start: [pid: number, args: string]; exit: [pid: number] }>();
  const sockets = new Set<net.Socket>();
  /** Held encodes and the socket their wrapper waits on. */
  const held = new Map<Encode, net.Socket>();
  let running = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    let encode: Encode | undefined;
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      text += chunk;
      const match = /^start (\d+) (\d+) (.*)\n/.exec(text);
      if (match && encode === undefined) {
        encode = { pid: Number(match[1]), parent: Number(match[2]), args: match[3]! };
        running++;
        if (hold) {
          if (hold(encode)) held.set(encode, socket);
          else socket.write('go\n');
        }
        events.emit('start', encode.pid, encode.args);
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      if (encode === undefined) return;
      held.delete(encode);
      running--;
      events.emit('exit', encode.pid);
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
      'printf "start %s %s %s\\n" "$$" "$PPID" "$*" >&3',
      // The tracer answers "go" at once, or when the test releases a held encode; a tracer gone (EOF) runs nothing.
      ...(hold ? ['read -r -u 3 reply && [ "$reply" = go ] || exit 1'] : []),
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
    get held() {
      return [...held.keys()];
    },
    events,
    release(which = () => true) {
      let released = 0;
      for (const [encode, socket] of held) {
        if (!which(encode)) continue;
        held.delete(encode);
        socket.write('go\n');
        released++;
      }
      return released;
    },
    whenHeld(count, timeoutMs = BACKSTOP_MS) {
      if (held.size >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          events.off('start', onStart);
          reject(new Error(`${held.size} FFmpeg encode(s) held after ${timeoutMs} ms, not ${count}`));
        }, timeoutMs);
        const onStart = () => {
          if (held.size < count) return;
          clearTimeout(timer);
          events.off('start', onStart);
          resolve();
        };
        events.on('start', onStart);
      });
    },
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
