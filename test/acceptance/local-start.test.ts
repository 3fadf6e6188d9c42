// Black-box: the real process, started the way `npm start` starts it (the compiled `node dist/main.js`),
// over real HTTP.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from 'node:net';
import { after, test } from 'node:test';
import { COMPILED, runService as runAnyService } from '../support/black-box/server-process.ts';

/** The service as `npm start` runs it. */
const runService = (env: Record<string, string>) => runAnyService(env, undefined, COMPILED);

const dataDir = mkdtempSync(path.join(tmpdir(), 'render-service-accept-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

test('first start generates, prints and keeps a local key; curl works right away', async () => {
  const server = await runService({ DATA_DIR: dataDir });
  try {
    const printed = /Generated a local API key[^\n]*\n\n\s+(svc_local_\S+)/.exec(server.stdout());
    assert.ok(printed, server.stdout());
    const stored = readFileSync(path.join(dataDir, 'local-api-key'), 'utf8').trim();
    assert.equal(printed[1], stored);
    assert.equal(statSync(path.join(dataDir, 'local-api-key')).mode & 0o077, 0, 'readable by its owner only');
    assert.ok(statSync(path.join(dataDir, 'service.sqlite')).isFile(), 'SQLite database under DATA_DIR');

    const health = await fetch(`${server.url}/v1/health`);
    assert.equal(health.status, 200);
    const body = (await health.json()) as Record<string, unknown>;
    for (const field of ['ok', 'engineVersion', 'rendererVersion', 'generators', 'revision']) assert.ok(field in body, field);

    const me = await fetch(`${server.url}/v1/me`, { headers: { Authorization: `Bearer ${stored}` } });
    assert.equal(me.status, 200);
    const anonymous = await fetch(`${server.url}/v1/me`);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    assert.ok(!server.stdout().concat(server.stderr()).includes('Bearer'), 'no credential is logged');
  } finally {
    assert.equal(await server.stop(), 0, 'SIGTERM shuts down cleanly');
  }
});

test('a restart reuses the stored key and does not print it again', async () => {
  const stored = readFileSync(path.join(dataDir, 'local-api-key'), 'utf8').trim();
  const server = await runService({ DATA_DIR: dataDir });
  try {
    assert.ok(!server.stdout().includes(stored));
    const me = await fetch(`${server.url}/v1/me`, { headers: { Authorization: `Bearer ${stored}` } });
    assert.equal(me.status, 200);
  } finally {
    await server.stop();
  }
});

test('an invalid configuration is reported whole and the process refuses to start', async () => {
  await assert.rejects(
    runService({ DATA_DIR: dataDir, PORT: 'x', LOG_LEVEL: 'loud', ALLOWED_ORIGINS: '*' }),
    (err: { code: number; stderr: string }) => {
      assert.equal(err.code, 78);
      assert.match(err.stderr, /PORT/);
      assert.match(err.stderr, /LOG_LEVEL/);
      assert.match(err.stderr, /ALLOWED_ORIGINS/);
      return true;
    },
  );
});

test('a busy port is one line naming PORT, not a stack, and a non-zero exit', async () => {
  const blocker = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => blocker.once('listening', resolve));
  const port = (blocker.address() as { port: number }).port;
  try {
    await assert.rejects(
      runService({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port) }),
      (err: { code: number; stderr: string }) => {
        assert.notEqual(err.code, 0);
        const lines = err.stderr.trim().split('\n');
        assert.equal(lines.length, 1, err.stderr);
        assert.match(lines[0], new RegExp(`^Cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use\\..*PORT`));
        return true;
      },
    );
  } finally {
    blocker.close();
  }
});
