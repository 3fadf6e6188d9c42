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
