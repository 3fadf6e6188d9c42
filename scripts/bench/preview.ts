// `npm run bench:preview` — how long a designer waits for the playground's preview: in a real
// Chromium (playwright-core; CHROMIUM_PATH, else the full /usr/bin/chromium, else the tests'
// chromium-headless-shell) at deviceScaleFactor 2 and a
// 1280×800 window, the time from a param change (an `input` event on the param's number field) to
// the new preview painted (its recipe hash shown, the image decoded, the next animation frame), for
// every still generator at 1200×630. Each change is a new value, so every render is a cache MISS.
//   target: p50 ≤ 300 ms and p95 ≤ 800 ms on a quiet 2-core machine.
//   node --import tsx scripts/bench/preview.ts [--changes=N] [slug ...]
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { buildWeb } from '../build-web.mjs';
import { BENCH_KEY, startServiceProcess } from './service-process.ts';

const CHROMIUM = process.env.CHROMIUM_PATH || (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : '/usr/bin/chromium-headless-shell');
const args = process.argv.slice(2);
const changes = Number(/^--changes=(\d+)$/.exec(args.find((a) => a.startsWith('--changes=')) ?? '')?.[1] ?? 6);
const wanted = args.filter((a) => !a.startsWith('--'));
const TARGET = { p50: 300, p95: 800 };
const SIZE = { width: 1200, height: 630, pixelRatio: 1 };

interface Generator {
  slug: string;
  animated: boolean;
  formats: string[];
  paramSchema?: { properties?: Record<string, { type?: string | string[]; minimum?: number; maximum?: number }> };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** The param a designer drags: the first number (or integer with room for `changes` values) with a range. */
function draggedParam(gen: Generator): { name: string; values: number[] } | undefined {
  for (const [name, s] of Object.entries(gen.paramSchema?.properties ?? {})) {
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    if ((type !== 'number' && type !== 'integer') || s.minimum === undefined || s.maximum === undefined) continue;
    if (type === 'integer' && s.maximum - s.minimum < changes + 1) continue;
    // Spread over the range, away from its ends, in an order that jumps around (each one a new render).
    const values = Array.from({ length: changes }, (_, i) => {
      const v = s.minimum! + ((s.maximum! - s.minimum!) * (1 + ((i * 5) % changes) + 0.37)) / (changes + 2);
      return type === 'integer' ? Math.round(v) : Number(v.toFixed(3));
    });
    return { name, values };
  }
  return undefined;
}

/**
 * In-page code (a string: tsx's helpers do not exist in the page) that changes a field and resolves
 * with the milliseconds until a new picture is painted (a new preview image decoded, the frame after
 * it drawn: the quick soft one where the page sends one first) and until the sharp one is (its
 * recipe hash shown, the stage no longer loading).
 */
const measure = (id: string, value: number) => `new Promise((resolve) => {
  const input = document.getElementById(${JSON.stringify(id)});
  const before = document.querySelector('#meta-hash')?.textContent;
  const old = document.querySelector('#preview-media');
  let first;
  input.value = ${JSON.stringify(String(value))};
  const started = performance.now();
  input.dispatchEvent(new Event('input', { bubbles: true }));
  const check = () => {
    const img = document.querySelector('#preview-media');
    if (first === undefined && img && img !== old && img.complete) requestAnimationFrame(() => (first ??= performance.now() - started));
    const hash = document.querySelector('#meta-hash')?.textContent;
    if (hash !== before && !document.querySelector('#preview')?.classList.contains('loading') && img?.complete)
      requestAnimationFrame(() => resolve([first ?? performance.now() - started, performance.now() - started]));
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})`;

await buildWeb();
const service = await startServiceProcess();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
try {
  const list = (await (
    await fetch(`${service.url}/v1/generators`, { headers: { Authorization: `Bearer ${BENCH_KEY}` } })
  ).json()) as Generator[];
  const stills = list.filter((g) => !g.animated && (wanted.length === 0 || wanted.includes(g.slug)));
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 });
  context.setDefaultTimeout(120_000);
  const page = await context.newPage();
  const all: number[] = [];
  const allFirsts: number[] = [];
  console.log(`preview after a param change, ${SIZE.width}×${SIZE.height} png recipe, Chromium at deviceScaleFactor 2, 1280×800`);
  console.log(`(${changes} changes per generator; target p50 ≤ ${TARGET.p50} ms, p95 ≤ ${TARGET.p95} ms)`);
  console.log('                                   first picture     sharp picture');
  console.log('generator          param            p50     p95       p50     p95   sharp pixels');
  const ms = (list: number[], p: number) => `${percentile(list, p).toFixed(0).padStart(5)} ms`;
  const row = (firsts: number[], sharps: number[]) => {
    const [f, t] = [[...firsts].sort((a, b) => a - b), [...sharps].sort((a, b) => a - b)];
    return `${ms(f, 50)} ${ms(f, 95)}  ${ms(t, 50)} ${ms(t, 95)}`;
  };
  for (const gen of stills) {
    const dragged = draggedParam(gen);
    if (!dragged) continue;
    const r = Buffer.from(JSON.stringify({ params: {}, seed: 7, size: SIZE, format: 'png' })).toString('base64url');
    await page.goto(`${service.url}/#/playground/${gen.slug}?r=${r}`);
    await page.waitForFunction(() => /^[0-9a-f]{64}$/.test(document.querySelector('#meta-hash')?.textContent ?? ''));
    let asked = '';
    const onRequest = (req: import('playwright-core').Request) => {
      if (!req.url().includes('/v1/generate/')) return;
      const size = (req.postDataJSON() as { size?: typeof SIZE }).size;
      if (size) asked = `${Math.round(size.width * size.pixelRatio)}×${Math.round(size.height * size.pixelRatio)}`;
    };
    page.on('request', onRequest);
    const times: number[] = [];
    const firsts: number[] = [];
    for (const value of dragged.values) {
      const [first, sharp] = (await page.evaluate(measure(`params-${dragged.name}`, value))) as [number, number];
      firsts.push(first);
      times.push(sharp);
    }
    page.off('request', onRequest);
    all.push(...times);
    allFirsts.push(...firsts);
    console.log(`${gen.slug.padEnd(18)} ${dragged.name.padEnd(14)} ${row(firsts, times)}   ${asked}`);
  }
  const within = (list: number[]) => {
    const sorted = [...list].sort((a, b) => a - b);
    return percentile(sorted, 50) <= TARGET.p50 && percentile(sorted, 95) <= TARGET.p95;
  };
  console.log(
    `${`all (${all.length})`.padEnd(33)} ${row(allFirsts, all)}   first ${within(allFirsts) ? 'within' : 'over'} target, sharp ${within(all) ? 'within' : 'over'} target`,
  );
} finally {
  await browser.close();
  await service.stop();
}
