// `npm run bench:estimate` — the rates of the render-time model POST /v1/quote answers `estimatedMs`
// by (src/services/render-estimate.ts): every generator in every format it offers, rendered alone
// through the engine (one worker, no cache, no time limit) at a small and a large size, the fastest
// of a few runs each (the one other work on the machine disturbed least). A render's time is the CPU it took — this process's threads (the render
// worker, libvips) and its children (FFmpeg) — not the wall clock, so that other work on a shared
// machine does not inflate it: alone on a quiet machine a render takes about that long or less (FFmpeg
// encodes while the worker draws). Per format it prints the slowest generator's fixed part (the small
// render's time) and its milliseconds per million pixel-frames (the large render's extra time over the
// extra pixel-frames), which is what RENDER_RATES holds, then how the model compares with every render
// it measured (model ÷ measured: ≥ 1 means the estimate was on the safe side).
//   node --import tsx scripts/bench/estimate.ts [--runs=N] [slug ...]
import { readFileSync } from 'node:fs';
import { loadConfig } from '../../src/config/config.ts';
import { ALL_GENERATORS } from '../../src/generators/index.ts';
import { isMotionFormat, type OutputFormat } from '../../src/lib/formats.ts';
import { createRenderEngine } from '../../src/services/render-engine.factory.ts';
import { estimateRenderMs } from '../../src/services/render-estimate.ts';
import { pixelFrames } from '../../src/services/pricing.ts';

const args = process.argv.slice(2);
const runs = Number(/^--runs=(\d+)$/.exec(args.find((a) => a.startsWith('--runs=')) ?? '')?.[1] ?? 3);
const wanted = args.filter((a) => !a.startsWith('--'));
const generators = ALL_GENERATORS.filter((g) => wanted.length === 0 || wanted.includes(g.slug));
/** Stills and text at 320×180 and 1920×1080; animations (their default duration and fps: 72 frames) at 160×90 and 1280×720. */
const SIZES = {
  still: [
    { width: 320, height: 180 },
    { width: 1920, height: 1080 },
  ],
  motion: [
    { width: 160, height: 90 },
    { width: 1280, height: 720 },
  ],
} as const;
const NO_LIMIT_MS = 600_000;

const config = loadConfig(process.env);
const engine = await createRenderEngine({
  ffmpegPath: config.ffmpegPath,
  render: { workers: 1, queueLimit: 10, timeoutMs: NO_LIMIT_MS, animationBudgetMs: NO_LIMIT_MS },
});

/** Milliseconds of CPU this process and its finished children (FFmpeg) have used: /proc/self/stat's utime, stime, cutime, cstime. */
function cpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  // After the command's closing parenthesis, field 14 (utime) is the 12th; ticks of 1/100 s (getconf CLK_TCK).
  return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) * 10;
}

let seed = 7000;
/** The least CPU milliseconds (and wall milliseconds) of `runs` renders (a new seed each: nothing cached), and the recipe's pixel-frames. */
async function measure(slug: string, format: OutputFormat, size: { width: number; height: number }) {
  const times: number[] = [];
  const walls: number[] = [];
  let resolved = engine.service.resolve(slug, { format, size, seed: seed++ });
  for (let i = 0; i < runs; i++) {
    resolved = engine.service.resolve(slug, { format, size, seed: seed++ });
    const cpu = cpuMs();
    const started = performance.now();
    await engine.service.render(resolved, { mode: 'job' });
    walls.push(performance.now() - started);
    times.push(cpuMs() - cpu);
  }
  return { ms: Math.min(...times), wallMs: Math.min(...walls), pixels: pixelFrames(resolved), resolved };
}

interface Row {
  slug: string;
  format: OutputFormat;
  small: { ms: number; pixels: number };
  large: { ms: number; wallMs: number; pixels: number; model: number };
  perMegapixel: number;
}

try {
  const rows: Row[] = [];
  for (const gen of generators) {
    // Warm-up: the generator's first render on the worker loads what it draws with.
    await engine.service.render(engine.service.resolve(gen.slug, { format: gen.formats[0], size: { width: 64, height: 36 }, seed: 1 }), {
      mode: 'job',
    });
    for (const format of gen.formats) {
      const [a, b] = SIZES[isMotionFormat(format) ? 'motion' : 'still'];
      const small = await measure(gen.slug, format, a);
      const large = await measure(gen.slug, format, b);
      const perMegapixel = Math.max(0, ((large.ms - small.ms) / (large.pixels - small.pixels)) * 1_000_000);
      rows.push({ slug: gen.slug, format, small, large: { ...large, model: estimateRenderMs(large.resolved) }, perMegapixel });
      console.log(
        `${gen.slug.padEnd(17)} ${format.padEnd(5)} small ${small.ms.toFixed(0).padStart(6)} ms CPU (${(small.pixels / 1e6).toFixed(2)} Mpx)` +
          `  large ${large.ms.toFixed(0).padStart(6)} ms CPU, ${large.wallMs.toFixed(0).padStart(6)} ms wall (${(large.pixels / 1e6).toFixed(2)} Mpx)` +
          `  ${perMegapixel.toFixed(1).padStart(7)} ms/Mpx`,
      );
    }
  }
  console.log(`\nper format, the slowest generator (CPU milliseconds, the fastest of ${runs} runs each):`);
  console.log('format  baseMs  msPerMegapixel  (generators)   model ÷ measured at the large size: min   median');
  const formats = [...new Set(rows.map((r) => r.format))];
  for (const format of formats) {
    const of = rows.filter((r) => r.format === format);
    const base = Math.max(...of.map((r) => r.small.ms));
    const rate = Math.max(...of.map((r) => r.perMegapixel));
    const ratios = of.map((r) => r.large.model / r.large.ms).sort((x, y) => x - y);
    console.log(
      `${format.padEnd(7)} ${base.toFixed(0).padStart(6)}  ${rate.toFixed(1).padStart(14)}  ${String(of.length).padStart(12)}` +
        `   ${ratios[0]!.toFixed(2).padStart(38)}  ${ratios[Math.floor(ratios.length / 2)]!.toFixed(2).padStart(6)}`,
    );
  }
} finally {
  await engine.close();
}
