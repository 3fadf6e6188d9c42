// The product's first promise on one machine: every golden renders to its committed bytes natively
// and under qemu-x86_64 emulating older CPUs (SSE4.2 without AVX; AVX2 with FMA), with FFmpeg run
// through the same emulator. Encoders choose SIMD code from the CPU, so without the pinned
// baseline (src/engine/encoders.ts) the mp4s differ between these runs.
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { resolveFfmpeg } from '../../src/engine/ffmpeg.ts';
import { goldenCases } from '../golden/golden-recipes.ts';
import { renderGoldens } from '../golden/render-golden.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const committed = JSON.parse(readFileSync(path.join(root, 'test/golden/goldens.json'), 'utf8')) as Record<string, { sha256: string }>;
/** Nehalem: SSE4.2, no AVX (the baseline itself). Haswell-v4: AVX2 + FMA, the most TCG emulates. */
const CPU_MODELS = ['Nehalem', 'Haswell-v4'];
const RUN_TIMEOUT_MS = 600_000;

function findQemu(): string | undefined {
  if (process.env.QEMU_X86_64) return process.env.QEMU_X86_64;
  try {
    return execFileSync('sh', ['-c', 'command -v qemu-x86_64'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const qemu = findQemu();
const missing =
  'qemu-x86_64 is not installed (Debian/Ubuntu: apt-get install qemu-user); the determinism tier needs it to emulate older CPUs';
if (!qemu && process.env.CI === 'true') {
  test('qemu-x86_64 is available', () => assert.fail(missing));
}
const skip = qemu ? false : `${missing}; skipped outside CI`;

const scratch = mkdtempSync(path.join(tmpdir(), 'determinism-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `node render-digests.ts` under qemu with `model`, FFmpeg under the same model. */
function digestsUnder(model: string, args: string[] = []): Promise<Record<string, string>> {
  const ffmpeg = resolveFfmpeg(process.env.FFMPEG_PATH);
  assert.ok(ffmpeg, 'FFmpeg is required');
  const wrapper = path.join(scratch, `ffmpeg-${model}`);
  writeFileSync(wrapper, `#!/bin/sh\nexec '${qemu}' -cpu '${model}' '${ffmpeg.path}' "$@"\n`);
  chmodSync(wrapper, 0o755);
  const child = spawn(qemu!, ['-cpu', model, process.execPath, '--import', 'tsx', path.join(here, 'render-digests.ts'), ...args], {
    cwd: root,
    env: { ...process.env, FFMPEG_PATH: wrapper },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: RUN_TIMEOUT_MS,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  // qemu warns about every host feature TCG cannot emulate; those lines are noise.
  child.stderr.on(
    'data',
    (d) =>
      (stderr = (stderr + d)
        .split('\n')
        .filter((l) => !l.includes("TCG doesn't support"))
        .join('\n')
        .slice(-4000)),
  );
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code !== 0) return reject(new Error(`render under qemu -cpu ${model} ended with ${code ?? signal}: ${stderr.trim()}`));
      resolve(JSON.parse(stdout) as Record<string, string>);
    });
  });
}

function drift(got: Record<string, string>): string[] {
  return Object.entries(committed)
    .filter(([id, g]) => got[id] !== g.sha256)
    .map(([id]) => id);
}

test('every golden renders to its committed bytes natively', async () => {
  const native = Object.fromEntries([...(await renderGoldens())].map(([id, r]) => [id, r.sha256]));
  assert.deepEqual(drift(native), []);
});

for (const model of CPU_MODELS) {
  test(
    `every golden renders to its committed bytes under qemu-x86_64 -cpu ${model} (FFmpeg emulated too)`,
    { skip, timeout: RUN_TIMEOUT_MS },
    async () => {
      const got = await digestsUnder(model);
      assert.deepEqual(Object.keys(got).sort(), Object.keys(committed).sort());
      assert.deepEqual(drift(got), [], `output differs on a ${model} CPU`);
    },
  );
}

// Canvas pixels at sizes where Skia's CPU-dependent paths used to show (its float pipeline rounds
// differently with AVX2/FMA; blob's and waves' only at the larger one): every generator that draws
// with canvas, as png, and starfield's gif (its frames move its drawing around). Generators keep gradients and smoothed scaling out of Skia
// (src/generators/lib/gradient.ts, resample.ts); this fails for any that stops doing so.
const CANVAS_CASES = goldenCases()
  .filter((c) => c.input.format === 'png' || (c.slug === 'starfield' && c.input.format === 'gif'))
  .map((c) => c.id);
test('canvas pixels at 640×360 and 1200×630 are the same under -cpu Nehalem', { skip, timeout: RUN_TIMEOUT_MS }, async () => {
  const args = ['--size=640x360,1200x630', ...CANVAS_CASES];
  const emulated = digestsUnder('Nehalem', args);
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(here, 'render-digests.ts'), ...args], {
    cwd: root,
    timeout: RUN_TIMEOUT_MS,
  });
  const native = JSON.parse(stdout) as Record<string, string>;
  assert.equal(Object.keys(native).length, CANVAS_CASES.length * 2);
  const got = await emulated;
  const differ = Object.keys(native).filter((id) => got[id] !== native[id]);
  assert.deepEqual(differ, [], 'these differ between this CPU and Nehalem (README, Determinism across CPUs)');
});
