// The values behind the web app's param form (web/js/param-values.js, plain JS run here in Node):
// what a field's text reads as, slider steps and log scales, colours pasted as text, palettes, and
// what Shuffle draws. Random draws come from a stand-in (randoms) or are repeated many times.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { propertiesOf } from '../support/web-generators.ts';
import { randoms } from '../support/web-logic.ts';
import {
  PALETTES,
  SHUFFLE_PALETTES,
  enumValue,
  fitColors,
  isLogRange,
  jsonText,
  jsonValue,
  niceStep,
  numberValue,
  paramType,
  parseHex,
  presetColors,
  shuffledColor,
  shuffledColors,
  shuffledNumber,
  shufflePalette,
  sliderScale,
  typedColor,
} from '../../web/js/param-values.js';

test('field values: numbers, enums and JSON read back as the recipe takes them; empty is left out', () => {
  assert.equal(paramType({ type: ['number', 'null'] }), 'number');
  assert.equal(paramType({ type: 'string' }), 'string');
  assert.equal(numberValue('11'), 11);
  assert.equal(numberValue('0.25'), 0.25);
  assert.equal(numberValue(''), undefined);
  assert.equal(numberValue('abc'), undefined);
  assert.equal(enumValue([1, 2, 3], '2'), 2);
  assert.equal(enumValue(['noise', 'sine'], 'sine'), 'sine');
  assert.equal(enumValue(['noise'], 'other'), undefined);
  assert.deepEqual(jsonValue('{"a":[1,2]}'), { a: [1, 2] });
  assert.equal(jsonValue('not json'), 'not json');
  assert.equal(jsonValue('  '), undefined);
  assert.equal(jsonText(undefined), '');
  assert.equal(jsonText([1, 'a']), '[1,"a"]');
});

test('slider steps: 1 for integers, about a hundredth of the range otherwise', () => {
  assert.equal(niceStep(2, 16, true), 1);
  assert.equal(niceStep(0, 0.3, false), 0.003);
  assert.equal(niceStep(0.3, 1.5, false), 0.01);
  assert.equal(niceStep(0, 360, false), 4);
});

test('a range over orders of magnitude slides on a log scale: voronoi’s cells 3–2000, the middle of the track is √(3 × 2000), not 1000', () => {
  const cells = propertiesOf('voronoi').cells;
  const range = { min: cells.minimum!, max: cells.maximum!, integer: cells.type === 'integer' };
  assert.deepEqual([range.min, range.max], [3, 2000]);
  const { log, step, toSlider, fromSlider } = sliderScale(range);
  assert.equal(log, true);
  assert.equal(step, 1);
  assert.equal(fromSlider(500), 77);
  assert.equal(toSlider(2000), 1000);
  assert.equal(toSlider(3), 0);
  assert.equal(fromSlider(0), 3);
  assert.equal(fromSlider(1000), 2000);
  // Not integer: 3 significant digits.
  assert.equal(sliderScale({ min: 0.01, max: 10 }).fromSlider(500), 0.316);
  // A plain range slides on the value itself.
  const points = sliderScale({ min: 2, max: 16, integer: true });
  assert.deepEqual([points.log, points.toSlider(7), points.fromSlider(7)], [false, 7, 7]);
  assert.equal(isLogRange(3, 2000), true);
  assert.equal(isLogRange(0, 2000), false);
  assert.equal(isLogRange(2, 16), false);
  assert.equal(isLogRange(undefined, undefined), false);
});

test('Shuffle keeps the finish (grain) modest: mesh-gradient’s grain stays in the lowest fifth of 0–0.3', () => {
  const { grain, softness, points } = propertiesOf('mesh-gradient');
  const range = (s: typeof grain) => ({ min: s.minimum!, max: s.maximum!, integer: s.type === 'integer' });
  for (let i = 0; i < 500; i++) {
    const g = shuffledNumber('grain', range(grain));
    assert.ok(g >= 0 && g <= 0.06, `grain ${g}`);
    const s = shuffledNumber('softness', range(softness));
    assert.ok(s >= 0.3 && s <= 1.5, `softness ${s}`);
    const p = shuffledNumber('points', range(points));
    assert.ok(Number.isInteger(p) && p >= 2 && p <= 16, `points ${p}`);
  }
  assert.equal(
    shuffledNumber('grain', range(grain), () => 0.999),
    0.06,
  );
  assert.equal(
    shuffledNumber('softness', range(softness), () => 0.999),
    1.5,
    'the whole range for the rest',
  );
  assert.equal(
    shuffledNumber('noise', { min: 0, max: 1 }, () => 1),
    0.2,
  );
  // On a log range it is drawn along the track: the small values get most of it.
  const cells = { min: 3, max: 2000, integer: true };
  assert.equal(
    shuffledNumber('cells', cells, () => 0.5),
    77,
  );
});

test('Shuffle draws one curated palette for every colour: a background its darkest or lightest colour', () => {
  assert.ok(!SHUFFLE_PALETTES.includes(PALETTES.Mono), 'Mono is not curated for Shuffle');
  assert.equal(SHUFFLE_PALETTES.length, Object.keys(PALETTES).length - 1);
  for (let i = 0; i < 200; i++) {
    const palette = shufflePalette();
    assert.ok(SHUFFLE_PALETTES.includes(palette));
    const colors = shuffledColors(palette, 5);
    const background = shuffledColor('background', palette);
    assert.ok(colors.every((c) => palette.includes(c)));
    assert.ok(palette.includes(background), 'the background comes from the same palette');
  }
  const ocean = PALETTES.Ocean;
  assert.equal(
    shuffledColor('background', ocean, () => 0),
    '#03045e',
    'darkest',
  );
  assert.equal(
    shuffledColor('background', ocean, () => 0.99),
    '#caf0f8',
    'lightest',
  );
  assert.equal(
    shuffledColor('sky', ocean, () => 0.99),
    '#caf0f8',
  );
  assert.equal(
    shuffledColor('gapColor', ocean, () => 0.5),
    '#00b4d8',
    'any colour for anything else',
  );
  assert.deepEqual(
    shuffledColors(ocean, 3, () => 0.6),
    ['#90e0ef', '#caf0f8', '#03045e'],
    'in order, from a random one',
  );
  assert.equal(shufflePalette(randoms(0)), SHUFFLE_PALETTES[0]);
});

test('colours pasted as text: every #rrggbb, rrggbb or #rgb, lower-cased; a single field takes a whole one', () => {
  assert.deepEqual(parseHex('#ff0000, #00ff00 0000ff'), ['#ff0000', '#00ff00', '#0000ff']);
  assert.deepEqual(parseHex('#ABC and 1E90FF; not #12345 or #ggg'), ['#aabbcc', '#1e90ff']);
  assert.deepEqual(parseHex('nothing'), []);
  assert.equal(typedColor('#123456'), '#123456');
  assert.equal(typedColor('1e90ff'), '#1e90ff');
  assert.equal(typedColor('#12345'), null, 'not yet a whole colour');
  assert.equal(typedColor('#abc'), null, 'three digits wait for more');
});

test('colour lists stay within minItems–maxItems; a preset gives as many colours as the list holds', () => {
  assert.deepEqual(fitColors(['#ff0000', '#00ff00', '#0000ff'], 2, 8), ['#ff0000', '#00ff00', '#0000ff']);
  assert.deepEqual(fitColors(['#ff0000'], 3, 8), ['#ff0000', '#ff0000', '#ff0000'], 'a short list repeats its colours');
  assert.deepEqual(fitColors(PALETTES.Sunset, 2, 3), PALETTES.Sunset.slice(0, 3));
  assert.deepEqual(fitColors([], 2, 8), []);
  assert.deepEqual(presetColors('Ocean', 3, 2), ['#03045e', '#0077b6', '#00b4d8']);
  assert.deepEqual(presetColors('Ocean', 1, 2), ['#03045e', '#0077b6'], 'at least minItems');
  assert.deepEqual(presetColors('Ocean', 8, 2), PALETTES.Ocean, 'no more than the preset has');
});
