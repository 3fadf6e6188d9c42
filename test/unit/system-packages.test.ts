// Issue 41: `npm test` on a fresh machine. scripts/system-packages.mjs owns the list of the system
// packages the test tiers need; here it runs as a child in a clean environment — a PATH holding only
// node, sh and env (and, where a case says so, stand-ins for apt-get and sudo), its files looked for
// under an empty directory — where nothing is installed. It must stop at once naming every package
// and the one command that installs them, install them in one apt-get call when it can, and say
// nothing when everything is there. `.ci/run` and `npm test` must use it, with no list of their own.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { checkSystemPackages, SYSTEM_PACKAGES } from '../../scripts/system-packages.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCRIPT = path.join(root, 'scripts/system-packages.mjs');
const ALL = SYSTEM_PACKAGES.map((p) => p.name);
/** The browser package (the name `npm test` installs). */
const BROWSER = 'chromium-headless-shell';
const asRoot = process.getuid?.() === 0;

const work = mkdtempSync(path.join(tmpdir(), 'system-packages-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A machine with nothing installed: `bin` (the whole PATH) holds node, sh and env; `prefix` is the empty file system the probes see. */
function cleanMachine(name: string) {
  const dir = path.join(work, name);
  const bin = path.join(dir, 'bin');
  const prefix = path.join(dir, 'root');
  mkdirSync(bin, { recursive: true });
  mkdirSync(prefix, { recursive: true });
  symlinkSync(process.execPath, path.join(bin, 'node'));
  symlinkSync('/bin/sh', path.join(bin, 'sh'));
  symlinkSync(existsSync('/usr/bin/env') ? '/usr/bin/env' : '/bin/env', path.join(bin, 'env'));
  const env: NodeJS.ProcessEnv = { PATH: bin, RENDER_TEST_SYSTEM_ROOT: prefix };
  return { dir, bin, prefix, env, log: path.join(dir, 'apt-get.log') };
}

/** What installing `name` puts on the machine: each probe's file under the prefix, or its command in bin. */
function installs(machine: ReturnType<typeof cleanMachine>, name: string) {
  const pkg = SYSTEM_PACKAGES.find((p) => p.name === name)!;
  return pkg.probes.map((p) =>
    p.file
      ? { file: path.join(machine.prefix, p.dirEnv ? path.join(p.dirEnv.dir, p.file) : p.file) }
      : { command: path.join(machine.bin, p.command!) },
  );
}

function install(machine: ReturnType<typeof cleanMachine>, names: string[]) {
  for (const made of names.flatMap((n) => installs(machine, n))) {
    const file = made.file ?? made.command!;
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '#!/bin/sh\nexit 0\n');
    chmodSync(file, 0o755);
  }
}

/** Stand-ins for apt-get (logs each call; `install` makes what each named package provides) and passwordless sudo. */
function addAptGet(machine: ReturnType<typeof cleanMachine>) {
  const plan = Object.fromEntries(ALL.map((n) => [n, installs(machine, n).map((m) => m.file ?? m.command)]));
  const aptGet = path.join(machine.bin, 'apt-get');
  writeFileSync(
    aptGet,
    `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
const plan = ${JSON.stringify(plan)};
const args = process.argv.slice(2);
fs.appendFileSync(${JSON.stringify(machine.log)}, JSON.stringify({ args, frontend: process.env.DEBIAN_FRONTEND }) + '\\n');
if (args[0] === 'install')
  for (const name of args.slice(1).filter((a) => !a.startsWith('-')))
    for (const file of plan[name]) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, '#!/bin/sh\\nexit 0\\n');
      fs.chmodSync(file, 0o755);
    }
`,
  );
  chmodSync(aptGet, 0o755);
  const sudo = path.join(machine.bin, 'sudo');
  writeFileSync(sudo, '#!/bin/sh\nif [ "$1" = -n ]; then shift; fi\nif [ "$1" = true ]; then exit 0; fi\nexec "$@"\n');
  chmodSync(sudo, 0o755);
}

const aptCalls = (machine: ReturnType<typeof cleanMachine>) =>
  existsSync(machine.log)
    ? readFileSync(machine.log, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { args: string[]; frontend?: string })
    : [];

const check = (env: NodeJS.ProcessEnv) => spawnSync(process.execPath, [SCRIPT], { cwd: root, env, encoding: 'utf8', timeout: 60_000 });

test('on a clean machine where it cannot install, it stops at once naming every missing package and the one command', () => {
  const machine = cleanMachine('cannot-install');
  const run = check(machine.env);
  assert.equal(run.status, 1, run.stderr);
  assert.equal(run.stdout, '');
  for (const name of ALL) assert.match(run.stderr, new RegExp(`^  ${name.replace(/[+]/g, '\\+')} `, 'm'), `names ${name}`);
  const sudo = asRoot ? '' : 'sudo ';
  assert.ok(
    run.stderr.includes(`\n  ${sudo}apt-get update && ${sudo}apt-get install -y --no-install-recommends ${ALL.join(' ')}\n`),
    run.stderr,
  );
  assert.match(run.stderr, /RENDER_TEST_SKIP_SYSTEM_CHECK=1/);
});

test('RENDER_TEST_INSTALL=0: with apt-get and sudo at hand it still installs nothing and only says what to run', () => {
  const machine = cleanMachine('no-install');
  addAptGet(machine);
  const run = check({ ...machine.env, RENDER_TEST_INSTALL: '0' });
  assert.equal(run.status, 1, run.stderr);
  assert.match(run.stderr, /apt-get install -y --no-install-recommends openssl curl/);
  assert.deepEqual(aptCalls(machine), []);
});

test('where it can install (root, or passwordless sudo, and apt-get), it installs what is missing in one apt-get call and goes on', () => {
  const machine = cleanMachine('installs');
  addAptGet(machine);
  install(machine, [BROWSER, 'jq']);
  const run = check(machine.env);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, '', 'apt-get writes to stderr, the tests own stdout');
  const missing = ALL.filter((n) => n !== BROWSER && n !== 'jq');
  assert.deepEqual(aptCalls(machine), [
    { args: ['update'], frontend: 'noninteractive' },
    { args: ['install', '-y', '--no-install-recommends', ...missing], frontend: 'noninteractive' },
  ]);
  assert.deepEqual(checkSystemPackages({ env: machine.env }), { missing: [], misdirected: [] });
});

test('with everything installed it prints nothing and installs nothing', () => {
  const machine = cleanMachine('complete');
  addAptGet(machine);
  install(machine, ALL);
  const run = check(machine.env);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout + run.stderr, '');
  assert.deepEqual(aptCalls(machine), []);
});

test('a path the environment sets (CHROMIUM_PATH, QEMU_LD_PREFIX …) is where it looks; one that does not exist is reported and installs nothing', () => {
  const machine = cleanMachine('misdirected');
  addAptGet(machine);
  install(
    machine,
    ALL.filter((n) => n !== BROWSER),
  );
  const chromium = path.join(machine.dir, 'my-chromium');
  writeFileSync(chromium, '');
  assert.equal(check({ ...machine.env, CHROMIUM_PATH: chromium }).status, 0, 'CHROMIUM_PATH instead of /usr/bin/chromium-headless-shell');
  const run = check({ ...machine.env, CHROMIUM_PATH: path.join(machine.dir, 'nowhere'), QEMU_LD_PREFIX: machine.dir });
  assert.equal(run.status, 1, run.stderr);
  assert.match(run.stderr, /CHROMIUM_PATH=\S+nowhere does not exist \(chromium-headless-shell/);
  assert.match(run.stderr, /ld-linux-aarch64\.so\.1 \(QEMU_LD_PREFIX=\S+\) does not exist \(libc6-arm64-cross/);
  assert.deepEqual(aptCalls(machine), [], 'no package puts a file where a variable points');
});

test('RENDER_TEST_SKIP_SYSTEM_CHECK=1 skips the check', () => {
  const run = check({ ...cleanMachine('skip').env, RENDER_TEST_SKIP_SYSTEM_CHECK: '1' });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout + run.stderr, '');
});

test('a run of some files needs only their packages: none for the unit tier but openssl, the browser, nginx and script for acceptance', () => {
  const { env } = cleanMachine('per-file');
  const names = (files: string[]) => checkSystemPackages({ files, env }).missing.map((m) => m.pkg.name);
  assert.deepEqual(names(['test/unit/web-build.test.ts', 'src/engine/encoders.test.ts']), []);
  assert.deepEqual(names(['test/unit/sign-render-url.test.ts']), ['openssl']);
  assert.deepEqual(names(['test/acceptance/embedding.test.ts', 'test/acceptance/cli.test.ts']), [BROWSER, 'nginx', 'bsdutils']);
  assert.deepEqual(names(['test/determinism/cpu-baseline.test.ts']), ['qemu-user']);
});

test('every test file the list names exists', () => {
  for (const pkg of SYSTEM_PACKAGES) for (const file of pkg.tests) assert.ok(existsSync(path.join(root, file)), `${pkg.name}: ${file}`);
});

test('npm test, scripts/run-tests.mjs and .ci/run use this one list, and .ci/run has none of its own', () => {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  assert.equal(pkg.scripts.test, 'node scripts/run-tests.mjs --checks', 'npm test is the runner with the static checks');
  const runner = readFileSync(path.join(root, 'scripts/run-tests.mjs'), 'utf8');
  assert.match(runner, /import \{ requireSystemPackages \} from '\.\/system-packages\.mjs';/);
  const required = runner.search(/^requireSystemPackages\(\{ files \}\);$/m);
  assert.ok(required > 0, 'the runner checks the system packages');
  assert.ok(required < runner.search(/^const checks = .*startChecks\(\)/m), 'before the static checks start (and any test)');
  const ci = readFileSync(path.join(root, '.ci/run'), 'utf8');
  const commands = ci
    .split('\n')
    .filter((l) => !/^\s*(#|echo )/.test(l))
    .join('\n');
  // Run as it is, or in the background beside npm install (its log printed when it is waited for).
  const started = /^node scripts\/system-packages\.mjs( >"\$logs\/system" 2>&1 &)?$/m.exec(commands);
  assert.ok(started, '.ci/run runs scripts/system-packages.mjs');
  const done = started[1] ? commands.search(/^finish .* "\$system" /m) : started.index;
  assert.ok(done >= started.index, 'a background check is waited for');
  // Its downloads (--fetch) may start before; the prepare that writes the wrappers comes after.
  const wrappers = commands.search(/^node scripts\/arm64\/prepare\.mjs(?! --fetch)/m);
  assert.ok(wrappers > 0, '.ci/run prepares the arm64 wrappers');
  assert.ok(done < wrappers, 'done before the arm64 prepare (its wrappers name qemu)');
  assert.doesNotMatch(commands, /apt-get|apt_install|command -v|\/usr\/share\/fonts|aarch64-linux-gnu/);
  for (const name of ALL) assert.ok(!commands.includes(name), `.ci/run names ${name} outside comments`);
});

test('on this machine, when every package is there, the check passes without installing', (t) => {
  const { missing, misdirected } = checkSystemPackages();
  if (missing.length || misdirected.length) return t.skip(`not all installed here: ${missing.map((m) => m.pkg.name).join(' ')}`);
  const run = check({ ...process.env, RENDER_TEST_INSTALL: '0' });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout + run.stderr, '');
});
