// `npm run bench:cli` — how long the `render-service` command takes as a whole process, against
// `node -e 0` (Node's own start-up) measured in the same run, round by round, so the ratios hold
// on a busy machine whose speed drifts. Targets (issue 41): `--version` at most 4× `node -e 0`, a
// small render (320×180 png) at most 6×. The compiled CLI (dist/, built first if out of date) is
// what `render-service` runs; the same commands from the TypeScript sources through tsx are
// measured beside it for comparison (BENCH_SOURCE=0 leaves them out).
//   BENCH_RUNS  rounds (default 11); each runs every command once, in a rotating order
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildService } from '../build-service.mjs';
import { currentServiceEntry, ROOT } from '../build-stamp.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const SOURCE = process.env.BENCH_SOURCE !== '0';
const out = mkdtempSync(path.join(os.tmpdir(), 'render-service-bench-cli-'));
const RENDER = ['render', 'mesh-gradient', '--size', '320x180', '-o', path.join(out, 'x.png')];

interface Command {
  name: string;
  args: string[];
  /** The most a median ratio to `node -e 0` may be. */
  target?: number;
}

const commands: Command[] = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'render-service --version', args: ['bin/render-service.mjs', '--version'], target: 4 },
  { name: 'render-service render (320×180 png)', args: ['bin/render-service.mjs', ...RENDER], target: 6 },
  ...(SOURCE
    ? [
        { name: 'from source: --version', args: ['--import', 'tsx', 'src/cli.ts', '--version'] },
        { name: 'from source: render', args: ['--import', 'tsx', 'src/cli.ts', ...RENDER] },
      ]
    : []),
];

/** CPU seconds of this process's waited-for children so far (Linux: /proc), else undefined. */
function childrenCpu(): number | undefined {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // After the name: state is field 3, so cutime and cstime (16 and 17) are at 13 and 14.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

function time(command: Command): { wall: number; cpu: number | undefined } {
  const cpuBefore = childrenCpu();
  const started = performance.now();
  const result = spawnSync(process.execPath, command.args, {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH },
  });
  const wall = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`${command.name} ended with ${result.status ?? result.signal}: ${result.stderr}`);
  const cpuAfter = childrenCpu();
  return { wall, cpu: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const { built } = await buildService();
if (!currentServiceEntry('cli')) throw new Error('the compiled CLI is not current after the build');
const load = os.loadavg();
console.log(
  `node ${process.versions.node}, ${os.availableParallelism()} cores, load ${load.map((l) => l.toFixed(1)).join(' ')}; ${RUNS} rounds${built ? ' (built dist/ first)' : ''}`,
);
// A warm-up round (file caches, the build's first run), not counted.
for (const c of commands) time(c);
const walls = commands.map(() => [] as number[]);
const cpus = commands.map(() => [] as number[]);
const ratios = commands.map(() => [] as number[]);
for (let round = 0; round < RUNS; round++) {
  const times = new Map<number, { wall: number; cpu: number | undefined }>();
  for (let k = 0; k < commands.length; k++) {
    const i = (k + round) % commands.length;
    times.set(i, time(commands[i]!));
  }
  const baseline = times.get(0)!.wall;
  for (const [i, t] of times) {
    walls[i]!.push(t.wall);
    if (t.cpu !== undefined) cpus[i]!.push(t.cpu);
    ratios[i]!.push(t.wall / baseline);
  }
}
rmSync(out, { recursive: true, force: true });

let failed = false;
console.log(
  `${'command'.padEnd(38)} ${'wall s'.padStart(7)} ${'cpu s'.padStart(7)} ${'× node -e 0'.padStart(12)}  (wall and ratio: medians; cpu: mean; ratio min–max)`,
);
commands.forEach((c, i) => {
  const ratio = median(ratios[i]!);
  const verdict = c.target === undefined ? '' : ratio <= c.target ? `  met (≤ ${c.target}×)` : `  NOT met (≤ ${c.target}×)`;
  if (c.target !== undefined && ratio > c.target) failed = true;
  // The mean: the kernel counts children's CPU time in 10 ms ticks, too coarse for one run of node -e 0.
  const cpu = cpus[i]!.length ? (cpus[i]!.reduce((a, b) => a + b, 0) / cpus[i]!.length).toFixed(3) : '–';
  const range = `${Math.min(...ratios[i]!).toFixed(2)}–${Math.max(...ratios[i]!).toFixed(2)}`;
  console.log(
    `${c.name.padEnd(38)} ${median(walls[i]!).toFixed(3).padStart(7)} ${cpu.padStart(7)} ${ratio.toFixed(2).padStart(12)}  (${range})${verdict}`,
  );
});
console.log(
  `load at the end ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
process.exitCode = failed ? 1 : 0;
