#!/usr/bin/env node
// `npm run bench:test-cpu [-- tier|file filters]` — where a test run's CPU goes: runs
// scripts/run-tests.mjs (the tiers and filters given, all by default) with a hook in every Node process
// it starts (test-cpu-hook.cjs) and prints the run's whole CPU (every descendant waited for, from
// /proc) after the tests' own output, beside the CPU of its Node processes grouped by test file, tier and tool. What the Node
// processes do not account for is the rest: Postgres, Chromium, FFmpeg, nginx, qemu-aarch64 (its
// environment is cleaned) and processes killed by a signal.
//   npm run bench:test-cpu                    every tier
//   npm run bench:test-cpu -- integration     one tier
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'test-cpu-'));
const file = path.join(dir, 'census.tsv');
const hook = path.join(root, 'scripts/bench/test-cpu-hook.cjs');

/** CPU seconds of this process's waited-for descendants: the run's whole CPU once run-tests has ended. */
const { childrenCpu } = createRequire(import.meta.url)(hook);

const started = Date.now();
const before = childrenCpu();
const child = spawn(process.execPath, [path.join(root, 'scripts/run-tests.mjs'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, TEST_CPU_FILE: file, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${hook}`.trim() },
});
const code = await new Promise((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
const whole = childrenCpu() - before;

/** The group a process counts under: its test file, else its tool or entry point, relative to the repository. */
function group(entry) {
  const rel = path.relative(root, entry);
  if (/\.test\.ts$/.test(rel)) return rel;
  // A process that runs several files of a tier (scripts/run-tests.mjs, sharedProcessEntries), from
  // its entry or from its bundle (scripts/test-bundles.mjs).
  const shared = /^test-results\/(?:shared-processes|test-bundles)\/\d+\/(\w+)-(\d+)\.test\.mjs$/.exec(rel);
  if (shared) return `test/${shared[1]}/(shared process ${shared[2]})`;
  // A test file's bundle: the file it was compiled from.
  const bundle = /^test-results\/test-bundles\/\d+\/(.+\.test)\.mjs$/.exec(rel);
  if (bundle) return `${bundle[1]}.ts`;
  if (rel.startsWith('node_modules/.bin/')) return rel.slice('node_modules/.bin/'.length);
  return rel.startsWith('..') ? entry : rel;
}
const byGroup = new Map();
/** The test files' processes (a file's, or a shared one's): when each started and ended. */
const spans = [];
for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
  const [seconds, children, entry, start, end] = line.split('\t');
  const g = group(entry);
  if (/\.test\.ts$|\(shared process \d+\)$/.test(g)) spans.push({ g, start: Number(start), end: Number(end), seconds: Number(seconds) });
  const was = byGroup.get(g) ?? { seconds: 0, children: 0, processes: 0 };
  byGroup.set(g, { seconds: was.seconds + Number(seconds), children: was.children + Number(children), processes: was.processes + 1 });
}
rmSync(dir, { recursive: true, force: true });
const counted = [...byGroup.values()].reduce((s, g) => s + g.seconds, 0);
const tiers = new Map();
for (const [g, { seconds }] of byGroup) {
  const tier = /^(?:test\/(\w+)|src)\//.exec(g) ? (g.startsWith('src/') ? 'unit (src)' : g.split('/')[1]) : 'tools and entry points';
  tiers.set(tier, (tiers.get(tier) ?? 0) + seconds);
}
const s = (n) => `${n.toFixed(0).padStart(6)} s`;
console.log(
  `npm test's tiers ${process.argv.slice(2).join(' ') || '(all)'}: exit ${code}, ${((Date.now() - started) / 60000).toFixed(1)} min`,
);
console.log(`${s(whole)}  CPU of the whole run (every process waited for)`);
console.log(`${s(counted)}  of it in Node processes, by tier:`);
for (const [tier, seconds] of [...tiers].sort((a, b) => b[1] - a[1])) console.log(`${s(seconds)}    ${tier}`);
console.log(`${s(whole - counted)}  elsewhere: Postgres, Chromium, FFmpeg, nginx, qemu-aarch64, processes killed by a signal`);
console.log('\nThe 25 largest groups (their own CPU, processes):');
for (const [g, { seconds, processes }] of [...byGroup].sort((a, b) => b[1].seconds - a[1].seconds).slice(0, 25))
  console.log(`${s(seconds)} ${String(processes).padStart(4)}  ${g}`);
// What a test file started and waited for: where the CPU outside Node comes from (Node children
// counted above are in it too).
const files = [...byGroup].filter(([g, { children }]) => /\.test\.ts$|\(shared process \d+\)$/.test(g) && children >= 1);
console.log('\nTest files by the CPU of the processes they started and waited for (Node ones included):');
for (const [g, { children }] of files.sort((a, b) => b[1].children - a[1].children).slice(0, 15)) console.log(`${s(children)}  ${g}`);
// The run's tail: a file that ends long after the others leaves a core idle (the queue's order,
// scripts/run-tests.mjs QUEUE_ORDER, decides what starts last).
console.log('\nThe last test processes to end (seconds after the run started, their own CPU):');
for (const { g, start, end, seconds } of spans.sort((a, b) => b.end - a.end).slice(0, 8))
  console.log(
    `${((start - started) / 1000).toFixed(0).padStart(6)} → ${((end - started) / 1000).toFixed(0).padStart(4)} s ${s(seconds)}  ${g}`,
  );
process.exit(code);
