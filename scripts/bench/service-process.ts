// The real service (`src/main.ts`) as a child process for the benches that measure it from outside
// (memory, health): local mode, rate limits off, a bench key; extra settings pass through.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BENCH_KEY = 'svc_local_bench_key_0123456789';
export const BENCH_ROOT = process.env.BENCH_ROOT ?? fileURLToPath(new URL('../../', import.meta.url));

export async function startServiceProcess(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: BENCH_ROOT,
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: dataDir,
      API_KEYS: BENCH_KEY,
      LOG_LEVEL: 'warn',
      SERVICE_LOCAL_MODE: '1',
      RATE_LIMIT_WORKSPACE_PER_MINUTE: '0',
      RATE_LIMIT_KEY_PER_MINUTE: '0',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const match = /on (http:\/\/[^\s]+)/.exec(out);
      if (match) resolve({ child, url: match[1]! });
    });
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}:\n${out}`)));
  });
}

export async function stopServiceProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}
