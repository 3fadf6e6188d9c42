// A service process (src/main.ts or src/worker.ts, as npm start and npm run worker start them)
// whose JSON log lines a test waits on, and whose exit it can check at any time.
import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { armEvent, BACKSTOP_MS } from './waiters.ts';
import { ROOT, serviceCommand } from './server-process.ts';

export type LogEntry = Record<string, unknown> & { msg?: string; jobId?: string };

export { BACKSTOP_MS };

export interface LoggedProcess {
  child: ChildProcess;
  /** Every log entry so far. */
  entries: LogEntry[];
  /** Emits each log entry (`entry`) and each piece of output (`output`) as it comes. */
  events: EventEmitter<{ entry: [LogEntry]; output: [] }>;
  output(): string;
  /** The first entry `match` accepts, already written or still to come. */
  waitForLog(match: (e: LogEntry) => boolean, what: string, timeoutMs?: number): Promise<LogEntry>;
  /** The first stdout text `pattern` matches, already written or still to come. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** The exit code once the process has ended (null after a signal). */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `entry` (a TypeScript file of this repository: src/main.ts, src/worker.ts — compiled in a test run, see serviceCommand — or a test's own process) with `env`. */
export function startLoggedProcess(entry: string, env: Record<string, string>): LoggedProcess {
  const child = spawn(process.execPath, serviceCommand(entry), {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // 'close', not 'exit': a process's last lines may still be in its pipes when 'exit' fires (seen at
  // load 15: the process-policy test read the entries before the drain's line had arrived).
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const events = new EventEmitter<{ entry: [LogEntry]; output: [] }>();
  const entries: LogEntry[] = [];
  let out = '';
  let partial = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d;
    const lines = (partial + d).split('\n');
    partial = lines.pop()!;
    for (const line of lines.filter((l) => l.startsWith('{'))) {
      const entry = JSON.parse(line) as LogEntry;
      entries.push(entry);
      events.emit('entry', entry);
    }
    events.emit('output');
  });
  child.stderr!.on('data', (d) => (out += d));
  return {
    child,
    entries,
    events,
    exited,
    output: () => out,
    async waitForLog(match, what, timeoutMs = BACKSTOP_MS) {
      const waiter = armEvent<[LogEntry]>(events, 'entry', match, timeoutMs);
      const earlier = entries.find(match);
      if (earlier) {
        waiter.stop();
        return earlier;
      }
      return (await waiter.wait(`${what}\n${out.slice(-3000)}`))[0];
    },
    async waitForOutput(pattern, timeoutMs = BACKSTOP_MS) {
      const waiter = armEvent<[]>(events, 'output', () => pattern.test(out), timeoutMs);
      if (!pattern.test(out)) await waiter.wait(`${pattern}\n${out.slice(-3000)}`);
      else waiter.stop();
      return pattern.exec(out)!;
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** The first entry `match` accepts in any of `processes` (already written or still to come), with the process that wrote it. */
export function waitForLogIn(
  processes: LoggedProcess[],
  match: (e: LogEntry) => boolean,
  what: string,
  timeoutMs = BACKSTOP_MS,
): Promise<{ process: LoggedProcess; entry: LogEntry }> {
  for (const process of processes) {
    const entry = process.entries.find(match);
    if (entry) return Promise.resolve({ process, entry });
  }
  return new Promise((resolve, reject) => {
    const listeners = processes.map((process) => {
      const listener = (entry: LogEntry) => {
        if (!match(entry)) return;
        done();
        resolve({ process, entry });
      };
      process.events.on('entry', listener);
      return () => process.events.off('entry', listener);
    });
    const timer = setTimeout(() => {
      done();
      reject(new Error(`timed out waiting for ${what}\n${processes.map((p) => p.output().slice(-1500)).join('\n---\n')}`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      for (const off of listeners) off();
    };
  });
}
