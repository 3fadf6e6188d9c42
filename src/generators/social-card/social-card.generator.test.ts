// social-card: the shared generator contract (lib/generator-contract.ts), then what is its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stillGeneratorContract, meanAbsDiff } from '../../../test/unit/generators/generator-contract.ts';
import { renderFrameForTest } from '../../../test/unit/generators/render-for-test.ts';
import gen from './social-card.generator.ts';

stillGeneratorContract(gen, {
  invalid: [{ title: 'x'.repeat(81) }, { subtitle: 'x'.repeat(141) }, { label: 7 }, { decoration: 1.5 }, { textColor: 'white' }],
  variants: [
    { title: '', subtitle: '', label: '', decoration: 0 },
    { title: 'W'.repeat(80), subtitle: 'Supercalifragilisticexpialidocious '.repeat(4).trim(), palette: ['#ffffff', '#eeeeee'] },
    { title: 'Ünïcödé — “quotes” & ligatures fi fl', textColor: '#111111', palette: ['#f8f4e3', '#e9dcc9', '#2a9d8f'] },
  ],
});

test('social-card: the text is drawn (changing the title changes the picture)', () => {
  const a = renderFrameForTest(gen, { seed: 4, width: 600, height: 315 });
  const b = renderFrameForTest(gen, { seed: 4, width: 600, height: 315, params: { title: 'Another title' } });
  assert.ok(meanAbsDiff(a.pixels, b.pixels) > 0.1);
});

test('social-card: a very long title stays inside the card', () => {
  // With the decoration off the background is a smooth gradient: text pixels stand out against it.
  const { pixels, width, height } = renderFrameForTest(gen, {
    seed: 2,
    width: 1200,
    height: 630,
    params: { title: 'W'.repeat(80), subtitle: 'M'.repeat(140), label: '', decoration: 0, textColor: '#ffffff' },
  });
  let maxX = 0;
  let maxY = 0;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      if (pixels[o] > 200 && pixels[o + 1] > 200) {
        maxX = Math.max(maxX, x);
        maxY = Math.max(maxY, y);
      }
    }
  assert.ok(maxX > 0, 'text was drawn');
  assert.ok(maxX < width * 0.95 && maxY < height * 0.95, `text ends at ${maxX}, ${maxY}`);
});

// ---- Bidirectional text (issue 39) -----------------------------------------------------------

type Frame = ReturnType<typeof renderFrameForTest>;
const FLAT = { palette: ['#1d1b3a', '#1d1b3a', '#ff8a5c'], decoration: 0, label: '' };

/** The rows holding ink (pixels unlike the flat ground), grouped into bands of adjacent rows. */
function inkBands({ pixels, width, height }: Frame): Array<{ top: number; bottom: number; left: number; right: number }> {
  const ground = [pixels[0], pixels[1], pixels[2]];
  const bands: Array<{ top: number; bottom: number; left: number; right: number }> = [];
  for (let y = 0; y < height; y++) {
    let left = width;
    let right = -1;
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      if (Math.abs(pixels[o] - ground[0]) + Math.abs(pixels[o + 1] - ground[1]) + Math.abs(pixels[o + 2] - ground[2]) > 6) {
        left = Math.min(left, x);
        right = x;
      }
    }
    if (right < 0) continue;
    const last = bands[bands.length - 1];
    if (last && last.bottom === y - 1)
      Object.assign(last, { bottom: y, left: Math.min(last.left, left), right: Math.max(last.right, right) });
    else bands.push({ top: y, bottom: y, left, right });
  }
  return bands;
}

function crop({ pixels, width }: Frame, b: { top: number; bottom: number; left: number; right: number }): number[] {
  const out: number[] = [];
  for (let y = b.top; y <= b.bottom; y++) out.push(...pixels.subarray((y * width + b.left) * 4, (y * width + b.right + 1) * 4));
  return out;
}

test('social-card: a Latin subtitle keeps its own direction and pixels under a right-to-left title', () => {
  const subtitle = 'Launch week: v2.0 ships today (finally)!';
  const ltr = renderFrameForTest(gen, { seed: 3, width: 600, height: 315, params: { ...FLAT, title: 'Hello world', subtitle } });
  const rtl = renderFrameForTest(gen, { seed: 3, width: 600, height: 315, params: { ...FLAT, title: 'שלום עולם', subtitle } });
  const [ltrTitle, , ltrSub] = inkBands(ltr);
  const [rtlTitle, , rtlSub] = inkBands(rtl);
  assert.ok(ltrSub && rtlSub, 'title, rule and subtitle are three bands');
  // The same line, pixel for pixel: not "!Launch week: … (finally)" in the title's direction.
  assert.equal(rtlSub.right - rtlSub.left, ltrSub.right - ltrSub.left);
  assert.deepEqual(crop(rtl, rtlSub), crop(ltr, ltrSub));
  // The right-to-left card is mirrored: its title ends at the right edge of a text column on the
  // right, where the left-to-right one starts at the left edge of a column on the left.
  assert.equal(600 - 1 - rtlTitle.right, ltrTitle.left);
  // The Latin subtitle is aligned to its own start (left) edge, inside that right-hand column.
  assert.ok(rtlSub.left > 600 * 0.25 && rtlSub.left < ltrTitle.left + 600 * 0.3, `subtitle starts at ${rtlSub.left}`);
});

test('social-card: a right-to-left card mirrors its ornament', () => {
  const params = { title: '', subtitle: '', label: '', decoration: 1 };
  const ltr = renderFrameForTest(gen, { seed: 5, width: 320, height: 168, params: { ...params, direction: 'ltr' } });
  const rtl = renderFrameForTest(gen, { seed: 5, width: 320, height: 168, params: { ...params, direction: 'rtl' } });
  const { width, height } = ltr;
  let off = 0;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const a = (y * width + x) * 4;
      const b = (y * width + (width - 1 - x)) * 4;
      if (
        Math.abs(ltr.pixels[a] - rtl.pixels[b]) +
          Math.abs(ltr.pixels[a + 1] - rtl.pixels[b + 1]) +
          Math.abs(ltr.pixels[a + 2] - rtl.pixels[b + 2]) >
        6
      )
        off++;
    }
  // Antialiasing may round a mirrored edge differently; the layout itself is the mirror image.
  assert.ok(off < width * height * 0.005, `${off} pixels differ from the mirror image`);
  assert.ok(meanAbsDiff(ltr.pixels, rtl.pixels) > 1, 'the two cards differ');
});
