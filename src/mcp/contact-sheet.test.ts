// The sweep tool's contact sheet: its grid has no orphan row, fits 1600 px, never enlarges a cell,
// and draws each cell where it says with its number above it, from pixels alone (no host font).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import type Sharp from 'sharp';
import { composeContactSheet, LABEL_BAND, labelWidth, sheetBackground, sheetColumns, sheetLayout, SHEET_GUTTER } from './contact-sheet.ts';

const sharp = createRequire(import.meta.url)('sharp') as typeof Sharp;

const solid = (width: number, height: number, rgb: [number, number, number]) =>
  sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .png()
    .toBuffer();

test('the grid: about √n columns without an orphan row (8 → 2×4, 6 → 2×3, 12 → 3×4)', () => {
  const shapes = Array.from({ length: 12 }, (_, i) => {
    const n = i + 1;
    const columns = sheetColumns(n);
    return `${Math.ceil(n / columns)}×${columns}`;
  });
  assert.deepEqual(shapes, ['1×1', '1×2', '1×3', '2×2', '2×3', '2×3', '2×4', '2×4', '3×3', '2×5', '3×4', '3×4']);
  for (let n = 1; n <= 12; n++) {
    const columns = sheetColumns(n);
    const last = n % columns;
    assert.ok(last === 0 || last >= columns / 2, `${n} cells: the last row is at least half full`);
  }
});

test('the layout: small cells keep their size, large ones shrink to fit 1600 px; slots never overlap', () => {
  const small = sheetLayout(4, { width: 40, height: 30 });
  assert.equal(small.width, SHEET_GUTTER + 2 * (40 + SHEET_GUTTER));
  assert.equal(small.height, SHEET_GUTTER + 2 * (LABEL_BAND + 30 + SHEET_GUTTER));
  assert.deepEqual(
    small.slots.map((s) => [s.left, s.top, s.width, s.height]),
    [
      [8, 28, 40, 30],
      [56, 28, 40, 30],
      [8, 86, 40, 30],
      [56, 86, 40, 30],
    ],
  );
  const large = sheetLayout(12, { width: 1920, height: 1080 });
  assert.ok(Math.max(large.width, large.height) <= 1600, `${large.width}×${large.height}`);
  assert.ok(large.width > 1500, 'the space is used');
  for (const [i, a] of large.slots.entries()) {
    assert.ok(a.left + a.width <= large.width && a.top + a.height <= large.height);
    for (const b of large.slots.slice(i + 1))
      assert.ok(a.left + a.width <= b.left || b.left + b.width <= a.left || a.top + a.height <= b.top || b.top + b.height <= a.top);
  }
  // A cell narrower than its number gets a slot wide enough for it.
  const narrow = sheetLayout(12, { width: 16, height: 16 });
  assert.equal(narrow.width, SHEET_GUTTER + 4 * (labelWidth('12') + SHEET_GUTTER));
});

test('every digit has a glyph, and different numbers draw different pixels', () => {
  const layout = sheetLayout(1, { width: 64, height: 16 });
  const drawn = new Set<string>();
  for (const number of ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'])
    drawn.add(sheetBackground(layout, [number]).toString('base64'));
  assert.equal(drawn.size, 13);
  assert.throws(() => sheetBackground(layout, ['x']), /no glyph "x"/);
});

test('the sheet: one PNG with each cell where it says, its number above it, on the background', async () => {
  const colours: [number, number, number][] = [
    [255, 0, 0],
    [0, 255, 0],
    [0, 0, 255],
    [255, 255, 0],
    [0, 255, 255],
  ];
  const files = await Promise.all(colours.map((c) => solid(40, 30, c)));
  const sheet = await composeContactSheet(files);
  const meta = await sharp(sheet.png).metadata();
  assert.equal(meta.format, 'png');
  assert.deepEqual([meta.width, meta.height], [sheet.layout.width, sheet.layout.height]);
  assert.deepEqual([sheet.layout.rows, sheet.layout.columns], [2, 3]);
  const { data, info } = await sharp(sheet.png).raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
  for (const [i, box] of sheet.cells.entries()) {
    assert.deepEqual([box.width, box.height], [40, 30], 'not scaled');
    for (const [x, y] of [
      [box.left, box.top],
      [box.left + 39, box.top + 29],
    ])
      assert.deepEqual(at(x, y), colours[i], `cell ${i + 1} at ${x},${y}`);
    // Just outside the cell: the gutter's background.
    assert.deepEqual(at(box.left - 1, box.top + 10), [30, 30, 30]);
    // The number's band holds ink: the top bar of the glyph "1" is at its third column.
    const label = sheet.layout.labels[i]!;
    let ink = 0;
    for (let y = label.top; y < label.top + 14; y++) for (let x = label.left; x < label.left + 10; x++) if (at(x, y)[0] === 240) ink++;
    assert.ok(ink > 0, `cell ${i + 1} is numbered`);
  }

  // Large cells shrink to fit; the sheet stays within 1600 px, each cell the same colour throughout.
  const big = await composeContactSheet(await Promise.all(colours.slice(0, 4).map((c) => solid(1600, 900, c))));
  assert.ok(Math.max(big.layout.width, big.layout.height) <= 1600);
  const bigRaw = await sharp(big.png).raw().toBuffer({ resolveWithObject: true });
  for (const [i, box] of big.cells.entries()) {
    assert.ok(box.width < 1600 && box.width > 700, `cell ${i + 1} is ${box.width} wide`);
    const o = ((box.top + Math.floor(box.height / 2)) * bigRaw.info.width + box.left + Math.floor(box.width / 2)) * bigRaw.info.channels;
    assert.deepEqual([...bigRaw.data.subarray(o, o + 3)], colours[i]);
  }
});
