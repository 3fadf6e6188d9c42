// The product's first promise on one machine: every golden renders to its committed bytes under
// qemu-x86_64 emulating older CPUs (SSE4.2 without AVX; AVX2 with FMA), with FFmpeg run through the
// same emulator, as it does natively (test/unit/goldens.test.ts). Encoders choose SIMD code from the
// CPU, so without the pinned baseline (src/engine/encoders.ts) the mp4s differ between these runs.
// Each CPU model renders in one process, once per run.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { resolveFfmpeg } from '../../src/engine/ffmpeg.ts';
import { CANVAS_SIZES, goldenCases } from '../golden/golden-recipes.ts';
import { testBundle } from '../support/render-digests-bundle.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
// The current versions' goldens: the superseded versions' (also in goldens.json) were emulated once by
// hand, as docs/superseded-versions.md says, to keep this tier's time.
const CURRENT = new Set(goldenCases().map((c) => c.id));
const committed = Object.fromEntries(
  Object.entries(
    JSON.parse(readFileSync(path.join(root, 'test/golden/goldens.json'), 'utf8')) as Record<string, { sha256: string }>,
  ).filter(([id]) => CURRENT.has(id)),
);
const committedTemplates = JSON.parse(readFileSync(path.join(root, 'test/golden/template-goldens.json'), 'utf8')) as Record<string, string>;
const committedCanvas = JSON.parse(readFileSync(path.join(root, 'test/golden/canvas-sizes.json'), 'utf8')) as Record<string, string>;
/** Nehalem: SSE4.2, no AVX (the baseline itself). Haswell-v4: AVX2 + FMA, the most TCG emulates. */
const CPU_MODELS = ['Nehalem', 'Haswell-v4'];
/** A backstop against a hang: under load Nehalem's run (goldens and canvas sizes) took up to 14 minutes. */
const RUN_TIMEOUT_MS = 2_400_000;

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

/** Runs the compiled render-digests script under qemu with `model`, FFmpeg under the same model. */
async function digestsUnder(model: string, args: string[] = []): Promise<Record<string, string>> {
  const ffmpeg = resolveFfmpeg(process.env.FFMPEG_PATH);
  assert.ok(ffmpeg, 'FFmpeg is required');
  const wrapper = path.join(scratch, `ffmpeg-${model}`);
  writeFileSync(wrapper, `#!/bin/sh\nexec '${qemu}' -cpu '${model}' '${ffmpeg.path}' "$@"\n`);
  chmodSync(wrapper, 0o755);
  const script = path.join(root, await testBundle('render-digests'));
  const child = spawn(qemu!, ['-cpu', model, process.execPath, script, ...args], {
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

const drift = (got: Record<string, string>, expected: Record<string, string>) =>
  Object.keys(expected).filter((id) => got[id] !== expected[id]);
const goldenDigests = Object.fromEntries(Object.entries(committed).map(([id, g]) => [id, g.sha256]));

// Nehalem renders the goldens and the canvas cases at larger sizes in one process; Haswell-v4 the goldens.
const runs = new Map<string, Promise<Record<string, string>>>();
before(() => {
  if (skip) return;
  for (const model of CPU_MODELS) {
    const args = ['--templates'].concat(
      model === 'Nehalem' ? [`--canvas-sizes=${CANVAS_SIZES.map((s) => `${s.width}x${s.height}`).join(',')}`] : [],
    );
    const run = digestsUnder(model, args);
    run.catch(() => undefined); // reported by the tests that await it
    runs.set(model, run);
  }
});

for (const model of CPU_MODELS) {
  test(
    `every golden renders to its committed bytes under qemu-x86_64 -cpu ${model} (FFmpeg emulated too)`,
    { skip, timeout: RUN_TIMEOUT_MS },
    async () => {
      const got = await runs.get(model)!;
      assert.deepEqual(
        Object.keys(got)
          .filter((id) => id in committed)
          .sort(),
        Object.keys(committed).sort(),
      );
      assert.deepEqual(drift(got, goldenDigests), [], `output differs on a ${model} CPU`);
    },
  );
}

// The compositor's goldens (test/golden/templates/template-goldens.ts): every layer kind, blended in JavaScript.
for (const model of CPU_MODELS) {
  test(
    `every template golden renders to its committed bytes under qemu-x86_64 -cpu ${model}`,
    { skip, timeout: RUN_TIMEOUT_MS },
    async () => {
      const got = await runs.get(model)!;
      assert.ok(Object.keys(committedTemplates).length > 0);
      assert.deepEqual(drift(got, committedTemplates), [], `template output differs on a ${model} CPU`);
    },
  );
}

// Canvas pixels at sizes where Skia's CPU-dependent paths used to show (test/golden/golden-recipes.ts,
// canvasCases), against the digests this machine's render gives (test/unit/goldens.test.ts checks them).
test('canvas pixels at 640×360 and 1200×630 are the same under -cpu Nehalem', { skip, timeout: RUN_TIMEOUT_MS }, async () => {
  const got = await runs.get('Nehalem')!;
  assert.deepEqual(drift(got, committedCanvas), [], 'these differ between this CPU and Nehalem (README, Determinism across CPUs)');
});
