#!/usr/bin/env node
// Runs an entry point of this repository (TypeScript, or the compiled dist/main.js and dist/cli.js)
// as linux-arm64, under qemu-aarch64, with the arm64 Node and dependencies scripts/arm64/prepare.mjs
// keeps in its cache:
//   node scripts/arm64/run.mjs test/determinism/render-digests.ts [args…]
//   node scripts/arm64/run.mjs src/generators/lib/dmath.test.ts      (node:test runs in-process)
// The sources the engine needs (dist, dist-test, src, test/golden, test/determinism, package.json, tsconfig.json)
// are copied into a temporary directory whose node_modules is the arm64 one, because modules
// resolve their packages from where they lie. tsx compiles the TypeScript as it does natively, its
// esbuild service an arm64 program under qemu too (ESBUILD_BINARY_PATH), and the render pool's
// worker threads load the same way. FFmpeg is the arm64 build (FFMPEG_PATH). Nothing may spawn
// process.execPath (an arm64 binary the host kernel cannot start), so node --test is out: a test
// file is run directly.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { arm64Missing, prepareArm64 } from './prepare.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// What the engine, the CLI and the service read at run time (web/dist is the built web app).
const STAGED = [
  'dist',
  'dist-test',
  'src',
  'handlers',
  'codegen',
  'db',
  'web',
  'openapi.yaml',
  'test/golden',
  'test/determinism',
  'package.json',
  'tsconfig.json',
];

/**
 * Runs `entry` (a path relative to the repository) with `args` as arm64. Resolves with its exit
 * code (or signal) and output; `onStdout`/`onStderr` see output as it comes; `env` adds settings;
 * aborting `signal` sends SIGTERM (how a service run is ended).
 * @param {string} entry
 * @param {string[]} [args]
 * @param {{ timeoutMs?: number, onStderr?: (chunk: string) => void, onStdout?: (chunk: string) => void, log?: (line: string) => void, env?: Record<string, string>, signal?: AbortSignal }} [options]
 * @returns {Promise<{ code: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string, ms: number }>}
 */
export async function runArm64(entry, args = [], { timeoutMs = 1_800_000, onStderr, onStdout, log, env: extraEnv, signal } = {}) {
  const arm = prepareArm64({ log });
  const stage = mkdtempSync(path.join(tmpdir(), 'render-service-arm64-'));
  try {
    for (const rel of STAGED) {
      // dist-test/ exists once the determinism tier built it (test/support/render-digests-bundle.ts).
      if (!existsSync(path.join(root, rel))) continue;
      mkdirSync(path.dirname(path.join(stage, rel)), { recursive: true });
      cpSync(path.join(root, rel), path.join(stage, rel), { recursive: true });
    }
    symlinkSync(arm.nodeModules, path.join(stage, 'node_modules'), 'dir');
    const env = { ...process.env, ...extraEnv, ...arm.env };
    // A node:test file run from a test would otherwise report to its parent's runner protocol.
    delete env.NODE_TEST_CONTEXT;
    delete env.NODE_OPTIONS;
    const started = Date.now();
    // The compiled service and CLI (dist/, scripts/build-service.mjs) run as they are; TypeScript through tsx.
    const child = spawn(arm.bin.node, [...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []), entry, ...args], {
      cwd: stage,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
      // A service is stopped as its supervisor would stop it; it drains and exits.
      signal,
      killSignal: 'SIGTERM',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      onStdout?.(String(d));
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      onStderr?.(String(d));
      stderr = (stderr + d).slice(-20_000);
    });
    const [code, exitSignal] = await new Promise((resolve, reject) => {
      // An abort (signal) is how a service run ends; its exit code still comes with 'close'.
      child.once('error', (e) => (e.name === 'AbortError' ? undefined : reject(e)));
      child.once('close', (c, s) => resolve([c, s]));
    });
    return { code, signal: exitSignal, stdout, stderr, ms: Date.now() - started };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [entry, ...args] = process.argv.slice(2);
  if (!entry) {
    console.error('usage: node scripts/arm64/run.mjs <entry.ts> [args…]');
    process.exit(2);
  }
  const missing = arm64Missing();
  if (missing) {
    console.error(missing);
    process.exit(1);
  }
  const { code, signal, stdout, ms } = await runArm64(entry, args, { onStderr: (s) => process.stderr.write(s) });
  process.stdout.write(stdout);
  console.error(`arm64: ${entry} ended with ${code ?? signal} after ${(ms / 1000).toFixed(1)} s`);
  process.exit(code ?? 1);
}
