// `npm run bench:jpeg` — what a JPEG quality costs and gives: every generator of the catalogue at
// 1200×630 and its defaults (the seed its params derive), its frame encoded as png and webp (the
// engine's settings) and as JPEG at a range of qualities, with 4:2:0 and with 4:4:4 chroma, and at
// the engine's default with optimised Huffman coding off and as a progressive file. Each JPEG is
// decoded again and compared with the frame the generator drew:
//   SSIM      the mean SSIM of the luma (BT.601 Y) over 8×8 windows every 4 pixels (Wang et al. 2004)
//   ΔE p99    a butteraugli-like error: the distance in Oklab (×100; about 2 is just noticeable)
//             between each decoded pixel and the drawn one, its 99th percentile over the picture —
//             where the worst of the picture is, which SSIM's mean hides (chroma bleeding at edges).
// The default (DEFAULT_JPEG_QUALITY, in src/lib/formats.ts) is the knee of the catalogue's curve at
// 4:2:0: the highest quality whose step up from the one before still bought at least 0.75 % less
// error (the largest ΔE p99) per 1 % more bytes (the median file); past it each step buys about half
// of that or less ("gain" below; docs/benchmarks.md, "JPEG quality"). SSIM hardly moves with quality
// on the grainy generators (JPEG smooths film grain at any quality), so it is reported, not ruled by.
//   node --import tsx scripts/bench/jpeg.ts [--qualities=50,60,…] [--size=WxH] [slug ...]
import { createRequire } from 'node:module';
import type Sharp from 'sharp';
import type { JpegOptions } from 'sharp';
import { DEFAULT_JPEG_QUALITY, JPEG_SETTINGS, encodeStill, withJfif } from '../../src/engine/encoders.ts';
import { recipeTask, resolveWith } from '../../src/engine/recipe.ts';
import { drawFrame } from '../../src/engine/render.worker.ts';
import { ALL_GENERATORS } from '../../src/generators/index.ts';
import { GeneratorRegistry } from '../../src/generators/registry.ts';

const sharp = createRequire(import.meta.url)('sharp') as typeof Sharp;
sharp.concurrency(1);
sharp.cache(false);

const args = process.argv.slice(2);
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const QUALITIES = (flag('qualities') ?? '60,70,75,80,82,85,90,95').split(',').map(Number);
const [WIDTH, HEIGHT] = (flag('size') ?? '1200x630').split('x').map(Number) as [number, number];
const wanted = args.filter((a) => !a.startsWith('--'));
const generators = ALL_GENERATORS.filter((g) => g.formats.includes('png') && (wanted.length === 0 || wanted.includes(g.slug)));
const registry = new GeneratorRegistry(ALL_GENERATORS);
/** The knee: a step up in quality is worth it while it buys this much less error per more bytes (% per %). */
const MIN_GAIN = 0.75;

// ---- Metrics -------------------------------------------------------------------------------------

/** BT.601 luma of RGBA (4 channels) or RGB (3) pixels. */
function luma(px: Uint8Array, channels: number, n: number): Float64Array {
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) y[i] = 0.299 * px[i * channels] + 0.587 * px[i * channels + 1] + 0.114 * px[i * channels + 2];
  return y;
}

/** Summed-area table of `src` (w × h), (w + 1) × (h + 1). */
function integral(src: Float64Array, w: number, h: number): Float64Array {
  const out = new Float64Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += src[y * w + x];
      out[(y + 1) * (w + 1) + x + 1] = out[y * (w + 1) + x + 1] + row;
    }
  }
  return out;
}

/** Mean SSIM over 8×8 windows every 4 pixels (the common fast form of Wang et al.'s index). */
function ssim(a: Float64Array, b: Float64Array, w: number, h: number): number {
  const mul = (p: Float64Array, q: Float64Array) => p.map((v, i) => v * q[i]);
  const [sa, sb, saa, sbb, sab] = [a, b, mul(a, a), mul(b, b), mul(a, b)].map((m) => integral(m, w, h));
  const W = 8;
  const n = W * W;
  const C1 = (0.01 * 255) ** 2;
  const C2 = (0.03 * 255) ** 2;
  const box = (t: Float64Array, x: number, y: number) =>
    t[(y + W) * (w + 1) + x + W] - t[y * (w + 1) + x + W] - t[(y + W) * (w + 1) + x] + t[y * (w + 1) + x];
  let sum = 0;
  let count = 0;
  for (let y = 0; y + W <= h; y += 4)
    for (let x = 0; x + W <= w; x += 4) {
      const ma = box(sa, x, y) / n;
      const mb = box(sb, x, y) / n;
      const va = box(saa, x, y) / n - ma * ma;
      const vb = box(sbb, x, y) / n - mb * mb;
      const cov = box(sab, x, y) / n - ma * mb;
      sum += ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
      count++;
    }
  return sum / count;
}

const LINEAR = Float64Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

/** Oklab (Björn Ottosson, 2020) of one sRGB pixel. */
function oklab(r: number, g: number, b: number): [number, number, number] {
  const [lr, lg, lb] = [LINEAR[r], LINEAR[g], LINEAR[b]];
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

/** Oklab (L, a, b interleaved) of RGBA (4 channels) or RGB (3) pixels. */
function oklabOf(px: Uint8Array, channels: number, n: number): Float32Array {
  const out = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) out.set(oklab(px[i * channels], px[i * channels + 1], px[i * channels + 2]), 3 * i);
  return out;
}

/** The 99th percentile of the Oklab distance (×100) between two pictures' Oklab pixels (a histogram of 0.01 steps up to 100). */
function deltaE99(drawn: Float32Array, decoded: Float32Array, n: number): number {
  const bins = new Uint32Array(10_001);
  for (let i = 0; i < n; i++) {
    const d = 100 * Math.hypot(drawn[3 * i] - decoded[3 * i], drawn[3 * i + 1] - decoded[3 * i + 1], drawn[3 * i + 2] - decoded[3 * i + 2]);
    bins[Math.min(10_000, Math.round(d * 100))]++;
  }
  const target = 0.99 * n;
  let seen = 0;
  for (let b = 0; b < bins.length; b++) if ((seen += bins[b]) >= target) return b / 100;
  return 100;
}

// ---- The run -------------------------------------------------------------------------------------

interface Measure {
  bytes: number;
  ssim: number;
  deltaE: number;
}

async function encodeVariant(frame: Uint8Array, options: JpegOptions): Promise<Buffer> {
  return withJfif(
    await sharp(frame, { raw: { width: WIDTH, height: HEIGHT, channels: 4 } })
      .removeAlpha()
      .jpeg(options)
      .toBuffer(),
  );
}

async function measure(frame: Uint8Array, drawn: { y: Float64Array; lab: Float32Array }, options: JpegOptions): Promise<Measure> {
  const jpeg = await encodeVariant(frame, options);
  const decoded = new Uint8Array(await sharp(jpeg).raw().toBuffer());
  const n = WIDTH * HEIGHT;
  return {
    bytes: jpeg.length,
    ssim: ssim(drawn.y, luma(decoded, 3, n), WIDTH, HEIGHT),
    deltaE: deltaE99(drawn.lab, oklabOf(decoded, 3, n), n),
  };
}

const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows: Array<{ slug: string; png: number; webp: number; jpeg: Map<string, Measure> }> = [];
const variant = (q: number, chroma: '4:2:0' | '4:4:4', extra = '') => `${q} ${chroma}${extra}`;

console.log(`${generators.length} generators at ${WIDTH}×${HEIGHT}, their defaults; JPEG settings ${JSON.stringify(JPEG_SETTINGS)}`);
for (const gen of generators) {
  await registry.ready(gen.slug);
  const resolved = resolveWith(gen, { size: { width: WIDTH, height: HEIGHT }, format: 'png' });
  const task = { ...recipeTask(resolved), ffmpegPath: undefined, cancel: new Int32Array(1), timeoutMs: 0 };
  const frame = drawFrame(gen, task, 0, WIDTH, HEIGHT);
  const drawn = { y: luma(frame, 4, WIDTH * HEIGHT), lab: oklabOf(frame, 4, WIDTH * HEIGHT) };
  const png = (await encodeStill(frame, WIDTH, HEIGHT, 'png')).length;
  const webp = (await encodeStill(frame, WIDTH, HEIGHT, 'webp')).length;
  const jpeg = new Map<string, Measure>();
  for (const q of QUALITIES)
    for (const chroma of ['4:2:0', '4:4:4'] as const)
      jpeg.set(variant(q, chroma), await measure(frame, drawn, { ...JPEG_SETTINGS, quality: q, chromaSubsampling: chroma }));
  const q = DEFAULT_JPEG_QUALITY;
  jpeg.set(variant(q, '4:2:0', ' no-opt'), await measure(frame, drawn, { ...JPEG_SETTINGS, quality: q, optimiseCoding: false }));
  jpeg.set(variant(q, '4:2:0', ' progressive'), await measure(frame, drawn, { ...JPEG_SETTINGS, quality: q, progressive: true }));
  // Checked against the engine: the bench's 4:2:0 at the default is exactly what a jpeg render encodes.
  const engine = await encodeStill(frame, WIDTH, HEIGHT, 'jpeg', { quality: q });
  if (!engine.equals(await encodeVariant(frame, { ...JPEG_SETTINGS, quality: q })))
    throw new Error(`${gen.slug}: the bench's encode is not the engine's`);
  rows.push({ slug: gen.slug, png, webp, jpeg });
  process.stderr.write(`${gen.slug} `);
}
process.stderr.write('\n');

console.log('\nBy quality, over the catalogue: median and largest file, the lowest SSIM, the highest ΔE p99 (and which generator),');
console.log('and the gain of the step up from the quality before: % less of that ΔE per % more median bytes (4:2:0)');
console.log('quality chroma  median size  largest   min SSIM               max ΔE p99                gain');
let previous: { size: number; deltaE: number } | undefined;
let knee: number | undefined;
for (const q of QUALITIES)
  for (const chroma of ['4:2:0', '4:4:4'] as const) {
    const ms = rows.map((r) => ({ slug: r.slug, ...r.jpeg.get(variant(q, chroma))! }));
    const worstSsim = ms.reduce((a, b) => (b.ssim < a.ssim ? b : a));
    const worstDe = ms.reduce((a, b) => (b.deltaE > a.deltaE ? b : a));
    const size = median(ms.map((m) => m.bytes));
    let gain = '';
    if (chroma === '4:2:0') {
      if (previous) {
        const g = (1 - worstDe.deltaE / previous.deltaE) / (size / previous.size - 1);
        gain = g.toFixed(2);
        if (g >= MIN_GAIN) knee = q;
      }
      previous = { size, deltaE: worstDe.deltaE };
    }
    console.log(
      `${String(q).padStart(7)} ${chroma}  ${kb(size).padStart(10)}  ${kb(Math.max(...ms.map((m) => m.bytes))).padStart(9)}` +
        `  ${worstSsim.ssim.toFixed(4)} ${worstSsim.slug.padEnd(16)} ${worstDe.deltaE.toFixed(2).padStart(6)} ${worstDe.slug.padEnd(16)} ${gain.padStart(5)}`,
    );
  }
console.log(`the knee (the highest quality whose step up gained ≥ ${MIN_GAIN}): ${knee}; the default is ${DEFAULT_JPEG_QUALITY}`);

const q = DEFAULT_JPEG_QUALITY;
console.log(`\nEach generator: png and webp (the engine's), JPEG at the default ${q} (4:2:0, 4:4:4), no optimised coding, progressive`);
console.log('generator              png        webp    jpeg 4:2:0   SSIM  ΔE p99    jpeg 4:4:4   SSIM  ΔE p99     no-opt  progressive');
for (const r of rows) {
  const a = r.jpeg.get(variant(q, '4:2:0'))!;
  const b = r.jpeg.get(variant(q, '4:4:4'))!;
  console.log(
    `${r.slug.padEnd(17)} ${kb(r.png).padStart(10)} ${kb(r.webp).padStart(10)} ${kb(a.bytes).padStart(11)} ${a.ssim.toFixed(4)} ${a.deltaE.toFixed(2).padStart(6)}` +
      ` ${kb(b.bytes).padStart(12)} ${b.ssim.toFixed(4)} ${b.deltaE.toFixed(2).padStart(6)} ${kb(r.jpeg.get(variant(q, '4:2:0', ' no-opt'))!.bytes).padStart(10)}` +
      ` ${kb(r.jpeg.get(variant(q, '4:2:0', ' progressive'))!.bytes).padStart(11)}`,
  );
}
const total = (pick: (r: (typeof rows)[number]) => number) => kb(rows.reduce((s, r) => s + pick(r), 0));
console.log(
  `${'all'.padEnd(17)} ${total((r) => r.png).padStart(10)} ${total((r) => r.webp).padStart(10)} ${total((r) => r.jpeg.get(variant(q, '4:2:0'))!.bytes).padStart(11)}` +
    `${' '.repeat(14)} ${total((r) => r.jpeg.get(variant(q, '4:4:4'))!.bytes).padStart(12)}${' '.repeat(14)} ${total((r) => r.jpeg.get(variant(q, '4:2:0', ' no-opt'))!.bytes).padStart(10)}` +
    ` ${total((r) => r.jpeg.get(variant(q, '4:2:0', ' progressive'))!.bytes).padStart(11)}`,
);
