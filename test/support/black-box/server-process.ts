// Starts the real service (compiled as `npm start` runs it, or from its sources through tsx: see
// serviceCommand) as a child process for black-box tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BACKSTOP_MS } from './waiters.ts';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  stdout(): string;
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The compiled service, as `npm start` runs it (scripts/run-tests.mjs builds it before the tests). */
export const COMPILED = ['dist/main.js'];

/**
 * How to run a service entry point (`src/main.ts`, `src/worker.ts`): compiled (`dist/main.js`,
 * `dist/worker.js`) in a test run of scripts/run-tests.mjs, which built them from the current sources
 * and says so in TEST_SERVICE_COMPILED; otherwise (a test file run by hand) from the sources through
 * tsx. Through tsx a start and each render thread cost about 2 s more CPU.
 */
export function serviceCommand(entry: string): string[] {
  const compiled = /^src\/(main|worker)\.ts$/.exec(entry);
  return compiled && process.env.TEST_SERVICE_COMPILED === '1' ? [`dist/${compiled[1]}.js`] : ['--import', 'tsx', entry];
}

/**
 * Starts the service (node with `args`, from the repository's root) and resolves once it listens;
 * the wait ends on that line (or the process's exit), `timeoutMs` is a backstop.
 */
export function runService(
  env: Record<string, string>,
  timeoutMs = BACKSTOP_MS,
  args: readonly string[] = serviceCommand('src/main.ts'),
): Promise<ServerProcess> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start in ${timeoutMs} ms\n${out}\n${err}`)), timeoutMs);
    const check = () => {
      const match = /on (http:\/\/[^\s]+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolve({
          child,
          url: match[1],
          stdout: () => out,
          stderr: () => err,
          stop: async (signal = 'SIGTERM') => {
            if (child.exitCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`service exited with ${code}\n${out}\n${err}`), { code, stdout: out, stderr: err }));
    });
  });
}
