// `npm run bench:animations` — animated renders at the documented defaults, as a user meets them:
// a synchronous POST /v1/generate/{slug} over HTTP (local mode, default settings), every
// animated generator with its default params and duration,
//   1. mp4 at 1920×1080 (the default size): target 200 within 5 s
//   2. gif at 640×360: target 200 within 2 s
//   3. both again with a second render of the same kind running beside it (another seed): target
//      still within the budget, never 504.
// Each line prints the time, the file size and the ratio to its target. Output bytes are those of
// the goldens' engine (the determinism tier checks them); this script only times them.
import { ALL_GENERATORS } from '../../src/generators/index.ts';
import { startInProcessService } from './in-process-service.ts';
import { BENCH_KEY as KEY } from './service-process.ts';

const animated = ALL_GENERATORS.filter((g) => g.animated).map((g) => g.slug);
interface Case {
  format: 'mp4' | 'gif';
  size?: { width: number; height: number };
  label: string;
  targetMs: number;
}
const CASES: Case[] = [
  { format: 'mp4', label: 'mp4 1920×1080', targetMs: 5000 },
  { format: 'gif', size: { width: 640, height: 360 }, label: 'gif 640×360', targetMs: 2000 },
];

let nextSeed = 1000;
async function render(base: string, slug: string, c: Case) {
  const started = performance.now();
  const res = await fetch(`${base}/v1/generate/${slug}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ seed: nextSeed++, format: c.format, ...(c.size ? { size: c.size } : {}) }),
  });
  const bytes = (await res.arrayBuffer()).byteLength;
  return { ms: performance.now() - started, status: res.status, bytes };
}

const row = (slug: string, label: string, r: { ms: number; status: number; bytes: number }, targetMs: number) =>
  `${slug.padEnd(17)} ${label.padEnd(22)} ${String(r.status).padEnd(4)} ${(r.ms / 1000).toFixed(2).padStart(6)} s` +
  `  ${(r.bytes / 1024).toFixed(0).padStart(6)} KiB  ${(r.ms / targetMs).toFixed(2)}× of ${targetMs / 1000} s ${r.status === 200 && r.ms <= targetMs ? 'met' : 'NOT met'}`;

async function main() {
  // Default settings; a fresh data dir keeps the cache empty, and every request uses a new seed.
  const service = await startInProcessService();
  try {
    await render(service.base, animated[0], { ...CASES[1], size: { width: 64, height: 36 } }); // warm the workers up
    console.log('generator         case                   HTTP   time       size   against the target');
    for (const c of CASES) {
      for (const slug of animated) console.log(row(slug, `${c.label}, alone`, await render(service.base, slug, c), c.targetMs));
      for (const slug of animated) {
        const [mine] = await Promise.all([render(service.base, slug, c), render(service.base, slug, c)]);
        console.log(row(slug, `${c.label}, beside one`, mine, c.targetMs));
      }
    }
  } finally {
    await service.close();
  }
}

await main();
