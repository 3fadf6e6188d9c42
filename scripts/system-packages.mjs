#!/usr/bin/env node
// The Debian/Ubuntu packages the test tiers need beyond npm's, which test files need each, and how
// each is found on the machine: the one list, read by `npm test` and `.ci/run` (every package) and by
// scripts/run-tests.mjs (the packages of the files it is about to run).
//   node scripts/system-packages.mjs        check every package; install what is missing, or say how
// Everything present: it prints nothing. Something missing: as root or with passwordless sudo, and
// apt-get on the PATH, it runs `apt-get update` and one `apt-get install` of what is missing; otherwise
// it exits 1 at once, naming each missing package and the command that installs them.
//   RENDER_TEST_SKIP_SYSTEM_CHECK=1   no check (the tests that need a missing package then fail alone)
//   RENDER_TEST_INSTALL=0             never install; only name what is missing and the command
//   RENDER_TEST_SYSTEM_ROOT=<dir>     look for the files under <dir> (test/unit/system-packages.test.ts)
// Where the tests take a path from the environment (CHROMIUM_PATH, NGINX_PATH, QEMU_X86_64,
// QEMU_AARCH64, QEMU_LD_PREFIX) the check looks there instead; a path set there that does not exist
// is reported, and no package is installed for it.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TEXT_FONTS = 'test/integration/text-fonts.test.ts';
const ARM64 = 'test/determinism/arm64.test.ts';
const ARM64_SYSROOT = { env: 'QEMU_LD_PREFIX', dir: '/usr/aarch64-linux-gnu' };

/**
 * A probe is present when its file exists (under RENDER_TEST_SYSTEM_ROOT) or its command is on the
 * PATH, either one; with `env` set in the environment, only where that variable points counts (a
 * path, or a command on the PATH); with `dirEnv`, the file is looked for under that variable's
 * directory when it is set.
 * @typedef {{ file?: string, command?: string, env?: string, dirEnv?: { env: string, dir: string } }} Probe
 * @typedef {{ name: string, why: string, tests: string[], probes: Probe[] }} SystemPackage
 */

/** @type {SystemPackage[]} */
export const SYSTEM_PACKAGES = [
  {
    name: 'openssl',
    why: "docs/embedding.md's openssl example",
    tests: ['test/unit/sign-render-url.test.ts'],
    probes: [{ command: 'openssl' }],
  },
  {
    name: 'curl',
    why: 'the shell examples of the README and docs/',
    tests: ['test/integration/docs-snippets.test.ts'],
    probes: [{ command: 'curl' }],
  },
  {
    name: 'jq',
    why: 'the shell examples of the README and docs/',
    tests: ['test/integration/docs-snippets.test.ts'],
    probes: [{ command: 'jq' }],
  },
  {
    name: 'fonts-noto-color-emoji',
    why: 'a host colour-emoji font the text must not use',
    tests: [TEXT_FONTS],
    probes: [{ file: '/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf' }],
  },
  {
    name: 'fonts-dejavu',
    why: 'host fonts the text must not use',
    tests: [TEXT_FONTS],
    probes: ['DejaVuSans.ttf', 'DejaVuSerif.ttf', 'DejaVuSansMono.ttf'].map((f) => ({ file: `/usr/share/fonts/truetype/dejavu/${f}` })),
  },
  {
    // Chromium's headless build, which test/support/black-box/browser.ts drives (a sixth less CPU than the full browser).
    name: 'chromium-headless-shell',
    why: 'the browser tests',
    tests: [
      'test/acceptance/web-app.test.ts',
      'test/acceptance/template-editor.test.ts',
      'test/acceptance/trial.test.ts',
      'test/acceptance/embedding.test.ts',
    ],
    probes: [{ env: 'CHROMIUM_PATH', file: '/usr/bin/chromium-headless-shell' }],
  },
  {
    name: 'nginx',
    why: 'a caching proxy in front of the service',
    tests: ['test/acceptance/embedding.test.ts'],
    probes: [{ env: 'NGINX_PATH', file: '/usr/sbin/nginx', command: 'nginx' }],
  },
  {
    name: 'bsdutils',
    why: "util-linux `script`, a terminal for the command line's test",
    tests: ['test/acceptance/cli.test.ts'],
    probes: [{ command: 'script' }],
  },
  {
    name: 'qemu-user',
    why: 'older CPUs and arm64, emulated',
    tests: ['test/determinism/cpu-baseline.test.ts', ARM64],
    probes: [
      { env: 'QEMU_X86_64', command: 'qemu-x86_64' },
      { env: 'QEMU_AARCH64', command: 'qemu-aarch64' },
    ],
  },
  {
    name: 'libc6-arm64-cross',
    why: 'arm64 glibc, for qemu-aarch64',
    tests: [ARM64],
    probes: [{ dirEnv: ARM64_SYSROOT, file: 'lib/ld-linux-aarch64.so.1' }],
  },
  {
    name: 'libstdc++6-arm64-cross',
    why: 'arm64 libstdc++, for qemu-aarch64',
    tests: [ARM64],
    probes: [{ dirEnv: ARM64_SYSROOT, file: 'lib/libstdc++.so.6' }],
  },
];

/** Where `command` is on `env.PATH` (an executable file), or undefined. */
function onPath(command, env) {
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

const exists = (file) => {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
};

/**
 * What the probe is missing: undefined when present; `{ what }` when the package would provide it;
 * `{ what, variable }` when an environment variable points where nothing is (no package helps).
 * @param {Probe} probe
 * @param {NodeJS.ProcessEnv} env
 */
function probeMissing(probe, env) {
  const under = (file) => path.join(env.RENDER_TEST_SYSTEM_ROOT || '/', file);
  if (probe.env && env[probe.env]) {
    const value = env[probe.env];
    const found = value.includes('/') ? exists(value) : onPath(value, env);
    return found ? undefined : { what: `${probe.env}=${value}`, variable: probe.env };
  }
  if (probe.dirEnv) {
    const { env: variable, dir } = probe.dirEnv;
    if (env[variable]) {
      const file = path.join(env[variable], probe.file);
      return exists(file) ? undefined : { what: `${file} (${variable}=${env[variable]})`, variable };
    }
    const file = path.join(dir, probe.file);
    return exists(under(file)) ? undefined : { what: file };
  }
  if (probe.file && exists(under(probe.file))) return undefined;
  if (probe.command && onPath(probe.command, env)) return undefined;
  const what = [probe.file, probe.command && `${probe.command} on the PATH`].filter(Boolean).join(' or ');
  return { what: probe.env ? `${what} (or ${probe.env})` : what };
}

/**
 * The packages `files` need (every package when `files` is undefined) that this machine lacks, each
 * with what is missing; `misdirected` are the environment variables that point where nothing is.
 * @param {{ files?: string[], env?: NodeJS.ProcessEnv }} [options]
 */
export function checkSystemPackages({ files, env = process.env } = {}) {
  const wanted = SYSTEM_PACKAGES.filter((p) => !files || p.tests.some((t) => files.includes(t)));
  const missing = [];
  const misdirected = [];
  for (const pkg of wanted) {
    const found = pkg.probes.map((p) => probeMissing(p, env)).filter(Boolean);
    for (const m of found.filter((m) => m.variable)) misdirected.push({ ...m, pkg });
    const lacking = found.filter((m) => !m.variable);
    if (lacking.length) missing.push({ pkg, what: lacking.map((m) => m.what) });
  }
  return { missing, misdirected };
}

/** `[]` as root, `['sudo']` with passwordless sudo, undefined when this user cannot install; never without apt-get. */
function installer(env) {
  if (env.RENDER_TEST_INSTALL === '0' || !onPath('apt-get', env)) return undefined;
  if (process.getuid?.() === 0) return [];
  if (!onPath('sudo', env)) return undefined;
  const sudo = spawnSync('sudo', ['-n', 'true'], { env, stdio: 'ignore' });
  return sudo.status === 0 ? ['sudo'] : undefined;
}

const installCommand = (names, sudo) => {
  const s = sudo ? 'sudo ' : '';
  return `${s}apt-get update && ${s}apt-get install -y --no-install-recommends ${names.join(' ')}`;
};

function report({ missing, misdirected }, { sudo, installed }) {
  const lines = [];
  if (missing.length) {
    lines.push(
      installed
        ? 'These system packages are still missing after apt-get install:'
        : `The tests need ${missing.length === 1 ? 'a system package' : 'system packages'} that ${missing.length === 1 ? 'is' : 'are'} not installed:`,
    );
    const width = Math.max(...missing.map((m) => m.pkg.name.length));
    for (const { pkg, what } of missing)
      lines.push(`  ${pkg.name.padEnd(width)}  ${pkg.why} (${pkg.tests.join(', ')}); missing ${what.join(', ')}`);
    lines.push(
      `Install ${missing.length === 1 ? 'it' : 'them'} (Debian/Ubuntu) with:`,
      `  ${installCommand(
        missing.map((m) => m.pkg.name),
        sudo,
      )}`,
    );
  }
  for (const m of misdirected)
    lines.push(`${m.what} does not exist (${m.pkg.name}, for ${m.pkg.tests.join(', ')}): set ${m.variable} to where it is, or unset it.`);
  lines.push(
    '`node scripts/run-tests.mjs <tier> [fragment]` checks only what the files it runs need; ' +
      'RENDER_TEST_SKIP_SYSTEM_CHECK=1 skips this check (docs/tests.md, "What the tests need").',
  );
  return lines.join('\n');
}

/**
 * Makes sure the system packages `files` need (every package when undefined) are installed: returns
 * quietly when they are, installs the missing ones when this user can, and otherwise prints what is
 * missing with the command to install it and exits 1.
 * @param {{ files?: string[], env?: NodeJS.ProcessEnv }} [options]
 */
export function requireSystemPackages({ files, env = process.env } = {}) {
  if (env.RENDER_TEST_SKIP_SYSTEM_CHECK === '1') return;
  let found = checkSystemPackages({ files, env });
  if (!found.missing.length && !found.misdirected.length) return;
  const sudo = installer(env);
  let installed = false;
  if (found.missing.length && sudo) {
    const names = found.missing.map((m) => m.pkg.name);
    console.error(`Installing the system packages the tests need: ${names.join(' ')}`);
    const apt = (args) => {
      // sudo resets the environment: `env` sets DEBIAN_FRONTEND under it (no prompts).
      const [cmd, ...rest] = sudo.length ? ['sudo', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args] : ['apt-get', ...args];
      // apt's progress on stderr, so a caller's stdout stays the tests'.
      const run = spawnSync(cmd, rest, { env: { ...env, DEBIAN_FRONTEND: 'noninteractive' }, stdio: ['ignore', 2, 2] });
      if (run.status !== 0) {
        console.error(`\`${[cmd, ...rest].join(' ')}\` failed (${run.error?.message ?? `exit ${run.status}`}).`);
        console.error(report(found, { sudo: sudo.length > 0, installed }));
        process.exit(1);
      }
    };
    apt(['update']);
    apt(['install', '-y', '--no-install-recommends', ...names]);
    installed = true;
    found = checkSystemPackages({ files, env });
    if (!found.missing.length && !found.misdirected.length) return;
  }
  console.error(report(found, { sudo: sudo ? sudo.length > 0 : process.getuid?.() !== 0, installed }));
  process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) requireSystemPackages();
