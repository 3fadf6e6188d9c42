// Small pictures of recipes (web/js/pictures.js, plain JS run here in Node): a preset's picture and a
// sweep cell ask for the pixels they are shown at, priced by the service's own rule; a sweep grid has no
// orphan; a page never has more than a few pictures in flight.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PIXELS_PER_CREDIT } from '../../src/services/pricing.ts';
import { generator } from '../support/web-generators.ts';
import { MIN_SIDE, PICTURES_AT_ONCE, columnsThatFit, gridColumns, limiter, pictureFormat, shownPicture } from '../../web/js/pictures.js';
import type { Size } from '../../web/js/types.js';

const recipe = (width: number, height: number, format = 'webp', pixelRatio = 1) => ({
  slug: 'mesh-gradient',
  params: { softness: 0.5 },
  seed: 7,
  size: { width, height, pixelRatio },
  format,
});
/** The device pixels a size renders (width × pixelRatio × height × pixelRatio), as pricing counts them. */
const devicePixels = ({ width, height, pixelRatio = 1 }: Size) => Math.round(width * pixelRatio) * Math.round(height * pixelRatio);
/** A still's price: one credit per started million output pixels (src/services/pricing.ts). */
const credits = (size: Size) => Math.ceil(devicePixels(size) / PIXELS_PER_CREDIT);

test('a 4096² preset shown at 48×27 CSS px on a 2x screen asks for at most 96×54 device pixels: 1 credit, not 5', () => {
  const big = recipe(4096, 4096);
  const shown = shownPicture(big, { width: 48, height: 27 }, 2);
  assert.deepEqual(shown, { ...big, size: { width: 54, height: 54, pixelRatio: 1 } }, 'same params, seed and format; the aspect kept');
  assert.ok(shown.size.width <= 96 && shown.size.height <= 54);
  assert.equal(credits(shown.size), 1);
  // What it asked for before: the whole preset at pixel ratio 0.5.
  assert.equal(credits({ width: 4096, height: 4096, pixelRatio: 0.5 }), 5);
});

test('a picture never has more pixels than its box shows, keeps its aspect, and keeps the recipe whole where pixel ratio ≥ 0.5 gives the pixels', () => {
  for (const [w, hgt] of [
    [1200, 630],
    [630, 1200],
    [4096, 4096],
    [1920, 1080],
    [256, 256],
    [4096, 16],
  ])
    for (const box of [
      { width: 48, height: 27 },
      { width: 180, height: Infinity },
      { width: 300, height: 300 },
      { width: 900, height: 600 },
    ])
      for (const dpr of [1, 1.5, 2, 3]) {
        const { size } = shownPicture(recipe(w, hgt), box, dpr);
        const label = `${w}×${hgt} in ${box.width}×${box.height} @${dpr}`;
        const [pw, ph] = [size.width * size.pixelRatio!, size.height * size.pixelRatio!];
        if (size.pixelRatio === 1 && size.width < w) {
          // Resized: fitted to the box's device pixels (MIN_SIDE at least), the aspect within a pixel.
          assert.ok(pw <= Math.max(MIN_SIDE, box.width * dpr) && ph <= Math.max(MIN_SIDE, box.height * dpr), label);
          if (Math.min(size.width, size.height) > MIN_SIDE) assert.ok(Math.abs(size.width / size.height - w / hgt) < 0.1, label);
        } else {
          // Whole: the recipe's own size at the pixel ratio of the pixels shown (0.5–3, in 0.05 steps).
          assert.deepEqual([size.width, size.height], [w, hgt], label);
          assert.ok(size.pixelRatio! >= 0.5 && size.pixelRatio! <= 3, label);
          assert.ok(pw <= Math.max(w * 0.5, Math.min(w, box.width, (box.height * w) / hgt) * dpr) + 1e-9, label);
        }
      }
  // A 1200×630 social card in a 300 px cell at dpr 2: its own size at pixel ratio 0.5, the composition kept.
  assert.deepEqual(shownPicture(recipe(1200, 630), { width: 300, height: Infinity }, 2).size, {
    width: 1200,
    height: 630,
    pixelRatio: 0.5,
  });
  // The same card in a 180 px cell at dpr 1 is smaller than pixel ratio 0.5 gives: resized to 180×94.
  assert.deepEqual(shownPicture(recipe(1200, 630), { width: 180, height: Infinity }, 1).size, { width: 180, height: 94, pixelRatio: 1 });
  // A thin recipe stays within the API's sides.
  assert.deepEqual(shownPicture(recipe(4096, 16), { width: 48, height: 27 }, 1).size, { width: 48, height: MIN_SIDE, pixelRatio: 1 });
});

test('only a raster still is resized: svg and css cost one credit whatever their size', () => {
  for (const format of ['svg', 'css']) {
    const r = recipe(4096, 4096, format);
    assert.equal(shownPicture(r, { width: 48, height: 27 }, 2), r);
  }
});

test('a small picture is a still: webp where offered, a jpeg as itself, an animation as its generator still, svg and css as themselves', () => {
  assert.equal(pictureFormat(generator('mesh-gradient'), 'png'), 'webp');
  assert.equal(pictureFormat(generator('mesh-gradient'), 'jpeg'), 'jpeg');
  assert.equal(pictureFormat(generator('mesh-gradient'), 'svg'), 'svg');
  assert.equal(pictureFormat(generator('plasma'), 'mp4'), 'webp');
  assert.equal(pictureFormat(generator('plasma'), 'gif'), 'webp');
  assert.equal(pictureFormat(generator('linear-gradient'), 'css'), 'css');
  assert.equal(pictureFormat({ formats: ['png'] }, 'png'), 'png');
});

test('a sweep grid has no orphan: the count divides evenly or the last row is at least half full, in the fewest rows, balanced', () => {
  assert.equal(gridColumns(8, 7), 4, '8 cells in at most 7 columns: 2 rows of 4, not 7 and 1');
  assert.equal(gridColumns(8, 8), 8);
  assert.equal(gridColumns(8, 3), 3, '3, 3, 2');
  assert.equal(gridColumns(9, 7), 5, '5 and 4');
  assert.equal(gridColumns(48, 7), 7, '6 rows of 7 and one of 6');
  assert.equal(gridColumns(2, 1), 1);
  assert.equal(gridColumns(5, 10), 5);
  for (let n = 2; n <= 48; n++)
    for (let max = 1; max <= 10; max++) {
      const c = gridColumns(n, max);
      const last = n % c;
      assert.ok(c >= 1 && c <= Math.min(n, max), `${n} in ${max}: ${c}`);
      assert.ok(last === 0 || last >= c / 2, `${n} in ${max}: ${c} columns leave ${last} in the last row`);
    }
  // Columns of at least 180 px with 8 px gaps: 5 in 1000 px, 2 on a 390 px phone, 1 when even one does not fit.
  assert.equal(columnsThatFit(1000, 180, 8), 5);
  assert.equal(columnsThatFit(370, 180, 8), 2);
  assert.equal(columnsThatFit(100, 180, 8), 1);
});

test(`a limiter never has more than ${PICTURES_AT_ONCE} tasks in flight, starts the next as one ends, in order, and passes on results and failures`, async () => {
  const run = limiter(PICTURES_AT_ONCE);
  let inFlight = 0;
  let most = 0;
  const started: number[] = [];
  const finish: ((fail?: boolean) => void)[] = [];
  const outcomes = Array.from({ length: 8 }, (_, i) =>
    run(
      () =>
        new Promise<number>((resolve, reject) => {
          started.push(i);
          most = Math.max(most, ++inFlight);
          finish[i] = (fail) => {
            inFlight--;
            if (fail) reject(new Error(`task ${i}`));
            else resolve(i * 10);
          };
        }),
    ).then(
      (value) => ({ value }),
      (err: Error) => ({ error: err.message }),
    ),
  );
  /** Lets the limiter react (its promise callbacks) before looking. */
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  await settle();
  assert.deepEqual(started, [0, 1, 2], 'three start at once, the rest wait');
  finish[1]();
  await settle();
  assert.deepEqual(started, [0, 1, 2, 3], 'one ends, the next starts');
  finish[0](true);
  finish[2]();
  await settle();
  assert.deepEqual(started, [0, 1, 2, 3, 4, 5]);
  for (const i of [3, 4, 5]) finish[i]();
  await settle();
  for (const i of [6, 7]) finish[i]();
  assert.deepEqual(await Promise.all(outcomes), [
    { error: 'task 0' },
    { value: 10 },
    { value: 20 },
    { value: 30 },
    { value: 40 },
    { value: 50 },
    { value: 60 },
    { value: 70 },
  ]);
  assert.equal(most, PICTURES_AT_ONCE);
  // A task that throws at once frees its place too.
  const failing = limiter(1);
  await assert.rejects(
    failing(() => {
      throw new Error('at once');
    }),
    /at once/,
  );
  assert.equal(await failing(() => 'next'), 'next');
});
