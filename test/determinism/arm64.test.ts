// The product's promise across architectures: every golden renders as linux-arm64 — an arm64 Node,
// the arm64 builds of Skia, libvips and FFmpeg, all under qemu-aarch64 (scripts/arm64) — to the
// bytes committed in goldens.json, which x86-64 renders; the canvas-drawn pngs (and starfield's gif)
// also at 640×360, where more of Skia's SIMD code runs (canvas-sizes.json), in the same process. And dmath, which generators use where
// Math's results differ by architecture, passes its digest test there.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { canvasCases, goldenCases } from '../golden/golden-recipes.ts';
import { arm64Missing } from '../../scripts/arm64/prepare.mjs';
import { runArm64 } from '../../scripts/arm64/run.mjs';
import { createTestDatabase, postgresAvailable } from '../support/black-box/databases.ts';
import { startPostgresServer } from '../support/black-box/postgres-server.ts';
import { testBundle } from '../support/render-digests-bundle.ts';
import { untilStatus } from '../support/black-box/waiters.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// The current versions' goldens: the superseded versions' frozen code gives its recorded bytes on x86-64 only
// (V8's Math and the encoder pins of their time: docs/superseded-versions.md).
const CURRENT = new Set(goldenCases().map((c) => c.id));
const committed = Object.fromEntries(
  Object.entries(
    JSON.parse(readFileSync(path.join(root, 'test/golden/goldens.json'), 'utf8')) as Record<string, { sha256: string }>,
  ).filter(([id]) => CURRENT.has(id)),
);
const committedTemplates = JSON.parse(readFileSync(path.join(root, 'test/golden/template-goldens.json'), 'utf8')) as Record<string, string>;
const committedCanvas = JSON.parse(readFileSync(path.join(root, 'test/golden/canvas-sizes.json'), 'utf8')) as Record<string, string>;
const CANVAS_640 = canvasCases([{ width: 640, height: 360 }]).map((c) => c.id);
/**
 * A backstop against a hang, not a deadline: the first run downloads Node and installs the arm64
 * dependencies (about 1.5 min), and the render of the goldens took 6 min in a whole run at load 17–20
 * and 14 min at load 10–22 with other suites beside it. A whole CI run stays within its 90 minutes.
 */
const RUN_TIMEOUT_MS = 2_400_000;

const missing = arm64Missing();
const hint = `${missing}; the arm64 tier runs the engine as linux-arm64 under qemu-user`;
if (missing && process.env.CI === 'true') {
  test('qemu-aarch64 and the arm64 libraries are available', () => assert.fail(hint));
}
const skip = missing ? `${hint}; skipped outside CI` : false;

/** qemu warns about host features TCG cannot emulate; those lines are noise. */
const quiet = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => l && !l.includes("TCG doesn't support"))
    .join('\n')
    .slice(-4000);

// One arm64 process renders the goldens and the canvas cases at 640×360; two tests judge its output.
let rendered: ReturnType<typeof runArm64> | undefined;
let renderLog: string[] = [];
before(async () => {
  if (skip) return;
  rendered = runArm64(await testBundle('render-digests'), ['--canvas-sizes=640x360', '--templates'], {
    timeoutMs: RUN_TIMEOUT_MS,
    log: (l) => renderLog.push(l),
  });
  rendered.catch(() => undefined); // reported by the tests that await it
});
async function arm64Digests(): Promise<Record<string, string>> {
  const run = await rendered!;
  assert.equal(run.code, 0, `the arm64 render ended with ${run.code ?? run.signal}: ${quiet(run.stderr)}`);
  return JSON.parse(run.stdout) as Record<string, string>;
}

// The render of the digests is one emulated process, rendering on its own thread (test/determinism/render-digests.ts),
// the longest of the tier: the tests that judge it wait for it, while dmath's run and the service's
// run beside it, so the file takes about as long as that render instead of the sum of all three.
describe('linux-arm64 under qemu-aarch64', { concurrency: true }, () => {
  test('every golden renders to its committed bytes as linux-arm64 (qemu-aarch64)', { skip, timeout: RUN_TIMEOUT_MS }, async (t) => {
    const got = await arm64Digests();
    for (const line of renderLog) t.diagnostic(line);
    renderLog = [];
    t.diagnostic(
      `arm64 render of ${Object.keys(committed).length} goldens and ${CANVAS_640.length} canvas cases at 640×360: ${((await rendered!).ms / 1000).toFixed(0)} s`,
    );
    assert.deepEqual(
      Object.keys(got)
        .filter((id) => id in committed)
        .sort(),
      Object.keys(committed).sort(),
    );
    const differ = Object.keys(committed).filter((id) => got[id] !== committed[id].sha256);
    assert.deepEqual(differ, [], 'these differ between x86-64 (goldens.json) and arm64');
  });

  test('dmath passes its digest test as linux-arm64', { skip, timeout: RUN_TIMEOUT_MS }, async (t) => {
    const run = await runArm64(await testBundle('dmath.test'), [], { timeoutMs: RUN_TIMEOUT_MS });
    t.diagnostic(`arm64 dmath test: ${(run.ms / 1000).toFixed(0)} s`);
    assert.equal(run.code, 0, `dmath.test.ts failed on arm64:\n${run.stdout.slice(-4000)}\n${quiet(run.stderr)}`);
    assert.match(run.stdout, /# pass [1-9]/);
    assert.match(run.stdout, /# fail 0/);
  });

  test('canvas pixels at 640×360 are the same as linux-arm64', { skip, timeout: RUN_TIMEOUT_MS }, async () => {
    const got = await arm64Digests();
    assert.ok(CANVAS_640.length > 0);
    const differ = CANVAS_640.filter((id) => got[id] !== committedCanvas[id]);
    assert.deepEqual(differ, [], 'these differ between this machine (canvas-sizes.json) and arm64 at 640×360');
  });

  test('the template goldens render to their committed bytes as linux-arm64', { skip, timeout: RUN_TIMEOUT_MS }, async () => {
    const got = await arm64Digests();
    assert.ok(Object.keys(committedTemplates).length > 0);
    const differ = Object.keys(committedTemplates).filter((id) => got[id] !== committedTemplates[id]);
    assert.deepEqual(differ, [], 'these differ between x86-64 (template-goldens.json) and arm64');
  });

  // The product, not only its engine: the service (local mode, on Postgres: npm's arm64 packages come
  // without better-sqlite3's native build, which its install script would download) answers ready with
  // the arm64 baseline and renders a gif and an mp4 over HTTP, and the CLI writes a file, all to the
  // golden bytes. Both run compiled (dist/, as `npm start` and the installed command run them).
  async function runDatabase(): Promise<{ url: string; close(): Promise<void> }> {
    const db = await createTestDatabase('postgres', { migrated: true });
    assert.equal(db.settings.client, 'pg');
    return { url: db.settings.url, close: () => db.drop() };
  }
  const SERVED = goldenCases().filter((c) => c.slug === 'plasma' && (c.input.format === 'gif' || c.input.format === 'mp4'));
  const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
  test('the service and the CLI run as linux-arm64 and give the golden bytes', { skip, timeout: RUN_TIMEOUT_MS }, async (t) => {
    // In a run of scripts/run-tests.mjs, a database of the run's Postgres from its migrated template:
    // neither a server of its own nor migrations under emulation.
    const pg = postgresAvailable() ? await runDatabase() : await startPostgresServer();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'render-service-arm64-data-'));
    const stop = new AbortController();
    t.after(async () => {
      stop.abort();
      await pg.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    let heard!: (url: string) => void;
    let ended!: (e: Error) => void;
    const listening = new Promise<string>((resolve, reject) => ((heard = resolve), (ended = reject)));
    const service = runArm64('dist/main.js', [], {
      timeoutMs: RUN_TIMEOUT_MS,
      signal: stop.signal,
      // Emulation is 10–50× slower: the time limits (which /v1/ready's FFmpeg probe also gets) are no deadline to race here.
      env: {
        SERVICE_LOCAL_MODE: '1',
        DATABASE_URL: pg.url,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'warn',
        RENDER_TIMEOUT_MS: '600000',
        ANIMATION_BUDGET_MS: '600000',
        // Its renders come one after another: a second thread would only compile (and translate) the code again.
        RENDER_WORKERS: '1',
      },
      onStdout: (chunk) => {
        const url = /Render service \(local mode\) on (http:\/\/\S+)/.exec(chunk)?.[1];
        if (url) heard(url);
      },
    });
    void service.then((run) => ended(new Error(`the arm64 service ended with ${run.code ?? run.signal}: ${quiet(run.stderr)}`)));
    const url = await listening;
    const key = readFileSync(path.join(dataDir, 'local-api-key'), 'utf8').trim();

    // Ready once its probes answer: emulated at load 28, the first answer once said the database was unavailable.
    await untilStatus(`${url}/v1/ready`, 200, 'the arm64 service ready');
    const ready = (await (await fetch(`${url}/v1/ready`)).json()) as { ok: boolean; rendererVersion: string };
    assert.equal(ready.ok, true, `/v1/ready: ${JSON.stringify(ready)}`);
    assert.match(ready.rendererVersion, /\+cpu-baseline-arm64-neon$/);
    for (const c of SERVED) {
      const res = await fetch(`${url}/v1/generate/${c.slug}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(c.input),
      });
      assert.equal(res.status, 200, `${c.id}: ${await res.clone().text()}`);
      assert.equal(sha256(new Uint8Array(await res.arrayBuffer())), committed[c.id].sha256, `${c.id} served as arm64`);
    }
    stop.abort();
    const exit = await service;
    assert.equal(exit.code, 0, `the arm64 service drained and exited 0 on SIGTERM: ${quiet(exit.stderr)}`);

    const [mp4] = SERVED.filter((c) => c.input.format === 'mp4');
    const file = path.join(dataDir, 'cli.mp4');
    const { width, height } = mp4.input.size!;
    const cli = await runArm64(
      'dist/cli.js',
      [
        'render',
        mp4.slug,
        '--seed',
        String(mp4.input.seed),
        '--size',
        `${width}x${height}`,
        '--params',
        JSON.stringify(mp4.input.params),
        '-o',
        file,
      ],
      { timeoutMs: RUN_TIMEOUT_MS },
    );
    assert.equal(cli.code, 0, `the arm64 CLI ended with ${cli.code ?? cli.signal}: ${quiet(cli.stderr)}`);
    assert.equal(sha256(readFileSync(file)), committed[mp4.id].sha256, `${mp4.id} written by the arm64 CLI`);
  });
});
