// `node --import tsx scripts/bench/editor-preview.ts` — how long a designer waits for the template
// editor's first picture after an edit: POST /v1/templates/preview (free, never cached) of a starter
// template (starters/*.json, with the sample assets of starters/assets/ uploaded and its docs
// picture's params) with one box moved, at the quick size the editor asks for first — shown 800 CSS
// px wide at pixel ratio 0.3, webp: 240 device pixels wide, asked as a 240 px wide size at pixel
// ratio 1 (the API's pixel ratio starts at 0.5; the pixels are the same) — on the in-process service (local mode, render workers, an empty
// cache). Each edit puts the box somewhere new, so nothing can be answered from a cache; the time is
// the request's, end to end (sent to the last byte read), after 2 edits of each starter to warm up.
//   target (issue 44): p50 ≤ 300 ms per edit on a quiet machine.
//   --edits 30          edits of each starter (default 30)
//   [starter ...]       only these starters (default: all of starters/)
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { STARTERS, STARTER_ASSETS_DIR, starterFile, starterNames } from '../docs/starters.ts';
import { startInProcessService } from './in-process-service.ts';
import { BENCH_KEY } from './service-process.ts';

const { values, positionals } = parseArgs({ options: { edits: { type: 'string', default: '30' } }, allowPositionals: true });
const edits = Number(values.edits);
const WARM_UP = 2;
const TARGET_P50 = 300;
/** The editor's quick picture: the canvas shown 800 CSS px wide, at pixel ratio 0.3. */
const QUICK = { width: 800, pixelRatio: 0.3 };
/** Its pixels: 240 wide, at pixel ratio 1. */
const QUICK_WIDTH = Math.round(QUICK.width * QUICK.pixelRatio);
const TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp' };
/** The box moved: the template's main text where it has one, else its first layer with a box. */
const MOVED = ['title', 'headline', 'initials'];

interface Layer {
  id: string;
  box?: { x: number; y: number; width: number; height: number };
}
interface Template {
  size: { width: number; height: number };
  layers: Layer[];
}

const auth = { authorization: `Bearer ${BENCH_KEY}` };
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (list: number[], p: number) =>
  `${percentile(
    [...list].sort((a, b) => a - b),
    p,
  )
    .toFixed(0)
    .padStart(5)} ms`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const startLoad = load();
const service = await startInProcessService();
try {
  // The sample assets, uploaded: a starter's docs params name their files, the API takes their ids.
  const assets = new Map<string, string>();
  for (const file of readdirSync(STARTER_ASSETS_DIR).filter((f) => TYPES[path.extname(f)])) {
    const res = await fetch(`${service.base}/v1/assets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': TYPES[path.extname(file)]! },
      body: readFileSync(path.join(STARTER_ASSETS_DIR, file)),
    });
    if (!res.ok) throw new Error(`upload ${file}: ${res.status} ${await res.text()}`);
    assets.set(file, ((await res.json()) as { id: string }).id);
  }

  const names = starterNames().filter((n) => positionals.length === 0 || positionals.includes(n));
  const all: number[] = [];
  console.log(
    `the editor's first picture after a box moves: POST /v1/templates/preview, ${QUICK.width} CSS px wide @${QUICK.pixelRatio}, webp`,
  );
  console.log(`(${edits} edits per starter after ${WARM_UP} to warm up, each box somewhere new; target p50 ≤ ${TARGET_P50} ms)`);
  console.log(`load average at start: ${startLoad}`);
  console.log('starter                moved         p50      p95   picture    bytes');
  for (const name of names) {
    const template = JSON.parse(readFileSync(starterFile(name), 'utf8')) as Template;
    const sample = STARTERS.find((s) => s.name === name)?.samples[0]?.params ?? {};
    const params = Object.fromEntries(Object.entries(sample).map(([k, v]) => [k, typeof v === 'string' ? (assets.get(v) ?? v) : v]));
    const preferred = template.layers.findIndex((l) => l.box && MOVED.includes(l.id));
    const moved = preferred >= 0 ? preferred : template.layers.findIndex((l) => l.box);
    const box = template.layers[moved]!.box!;
    const size = { width: QUICK_WIDTH, height: Math.round((QUICK_WIDTH * template.size.height) / template.size.width), pixelRatio: 1 };
    // Edit i moves the box by a distinct offset (a permutation of 30 steps of 4 px, never 0), in an order that jumps around.
    const offset = (i: number) => ((((i * 7) % 30) - 15) * 4 + 2) * (1 + Math.floor(i / 30));
    const times: number[] = [];
    let picture = '';
    let bytes = 0;
    let refused = '';
    for (let i = 0; i < edits + WARM_UP && !refused; i++) {
      const layers = structuredClone(template.layers);
      layers[moved]!.box = { ...box, x: box.x + offset(i), y: box.y + (i % 2 ? 2 : -2) };
      const started = performance.now();
      const res = await fetch(`${service.base}/v1/templates/preview`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ template: { ...template, layers }, params, size, format: 'webp' }),
      });
      const body = Buffer.from(await res.arrayBuffer());
      const elapsed = performance.now() - started;
      if (!res.ok) {
        refused = `${res.status} ${body.toString('utf8').slice(0, 300)}`;
        break;
      }
      // A free webp picture, or the bench measures something else.
      if (res.headers.get('content-type') !== 'image/webp' || res.headers.get('x-service-credits') !== '0')
        throw new Error(`${name}: ${res.headers.get('content-type')}, ${res.headers.get('x-service-credits')} credits`);
      if (i >= WARM_UP) times.push(elapsed);
      bytes = body.length;
      picture = `${size.width}×${size.height}`;
    }
    const layerId = template.layers[moved]!.id;
    if (refused) {
      console.log(`${name.padEnd(22)} ${layerId.padEnd(10)} refused: ${refused}`);
      continue;
    }
    all.push(...times);
    console.log(
      `${name.padEnd(22)} ${layerId.padEnd(10)} ${ms(times, 50)} ${ms(times, 95)}   ${picture.padEnd(9)} ${String(bytes).padStart(6)}`,
    );
  }
  if (all.length) {
    const p50 = percentile(
      [...all].sort((a, b) => a - b),
      50,
    );
    console.log(`${`all (${all.length})`.padEnd(33)} ${ms(all, 50)} ${ms(all, 95)}   p50 ${p50 <= TARGET_P50 ? 'within' : 'over'} target`);
  }
  console.log(`load average at end:   ${load()}`);
} finally {
  await service.close();
}
