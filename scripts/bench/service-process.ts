// The real service (`src/main.ts`) as a child process for the benches that measure it from outside
// (memory, health): local mode, a fresh data dir (an empty cache), rate limits off, a bench key;
// extra settings pass through. `stop()` ends it and removes its data dir.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serviceProcessEnv } from '../../src/lib/allocator-env.ts';

export const BENCH_KEY = 'svc_local_bench_key_0123456789';
export const BENCH_ROOT = process.env.BENCH_ROOT ?? fileURLToPath(new URL('../../', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

export async function startServiceProcess(env: Record<string, string> = {}): Promise<ServiceProcess> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-service-process-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: BENCH_ROOT,
    env: {
      // glibc's allocator settings, as `npm start` sets them (GLIBC_TUNABLES= measures without).
      ...serviceProcessEnv(),
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
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const match = /on (http:\/\/[^\s]+)/.exec(out);
      if (match) resolve({ child, url: match[1]!, stop });
    });
    child.once('exit', (code) => {
      rmSync(dataDir, { recursive: true, force: true });
      reject(new Error(`the service exited with ${code}:\n${out}`));
    });
  });
}

/**
 * Renders a recipe once through POST /v1/generate/{slug} (a MISS that fills the cache) and returns
 * its bytes and its recipe URL, which from then on answers from the cache (a HIT).
 */
export async function renderForRecipeUrl(
  base: string,
  key: string,
  slug: string,
  body: unknown,
): Promise<{ bytes: Buffer; recipeUrl: string }> {
  const res = await fetch(`${base}/v1/generate/${slug}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`POST /v1/generate/${slug} answered ${res.status}: ${await res.text()}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  return { bytes, recipeUrl: `${base}/v1/render/${res.headers.get('x-service-recipe-hash')}?r=${res.headers.get('x-service-recipe')}` };
}
