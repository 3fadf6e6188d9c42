// The service built in this process (compose + createApp on a loopback port) for the benches that
// time requests end to end: local mode, a fresh data dir (an empty cache), the rate limits off
// (the benches measure rendering, not the limiter), the bench key; `settings` adds or overrides
// (SERVICE_LOCAL_MODE=0 with a DATABASE_URL makes it hosted: no bench key, the caller makes a workspace's key).
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHttpServer } from '../../src/http/http-server.ts';
import { createApp } from '../../src/app.ts';
import { compose } from '../../src/compose.ts';
import { loadConfig } from '../../src/config/config.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { BENCH_KEY } from './service-process.ts';

export async function startInProcessService(settings: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-service-'));
  const hosted = settings.SERVICE_LOCAL_MODE === '0';
  const config = loadConfig({
    DATA_DIR: dataDir,
    ...(hosted ? {} : { API_KEYS: BENCH_KEY }),
    LOG_LEVEL: 'silent',
    RATE_LIMIT_WORKSPACE_PER_MINUTE: '0',
    RATE_LIMIT_KEY_PER_MINUTE: '0',
    ...settings,
  });
  const runtime = await compose(config, createLogger('silent'), { revision: 'bench' });
  const server = createHttpServer(await createApp(runtime.deps), config.requestTimeouts).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    services: runtime.deps.services,
    async close() {
      server.close();
      await runtime.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
