// The values behind the param form: a schema's control type, what a field's text reads as, slider
// steps and log scales, colours pasted as text, palettes, and what Shuffle draws. No DOM: the form
// (form.js) wires these to its controls (unit-tested in Node: test/unit/web-param-values.test.ts).
// `random` is Math.random unless a test passes its own.

/** A schema's type without "null" (["number", "null"] → "number"). */
export const paramType = (schema) => (Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type);

/** A select's value back as the enum's own value (a number stays a number). */
export const enumValue = (values, text) => values.find((v) => String(v) === text);

/** A number field's value: undefined when empty or not a number (left out of the recipe). */
export function numberValue(text) {
  if (text === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** A JSON field's value (any other param type): JSON, or the text itself when it is not JSON; undefined when empty. */
export function jsonValue(text) {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A JSON field's text for a value. */
export const jsonText = (value) => (value === undefined ? '' : JSON.stringify(value));

/** A slider's step over min..max: 1 for integers, else about a hundredth of the range, rounded to one significant digit. */
export function niceStep(min, max, integer) {
  if (integer) return 1;
  const raw = (max - min) / 100;
  const pow = 10 ** Math.floor(Math.log10(raw));
  return Number((Math.round(raw / pow) * pow).toPrecision(6));
}

/** A range over orders of magnitude (cells 3–2000): slid and swept on a log scale. */
export const isLogRange = (min, max) => min > 0 && max / min >= 40;

/**
 * A ranged number's slider: on a log range a track of 0–1000 where the small values, where each step
 * shows, get most of it (fromSlider rounds to an integer or 3 significant digits); else the value itself.
 */
export function sliderScale({ min, max, integer }) {
  const log = isLogRange(min, max);
  return {
    log,
    step: log ? 1 : niceStep(min, max, integer),
    toSlider: (v) => (log ? Math.round((1000 * Math.log(v / min)) / Math.log(max / min)) : v),
    fromSlider: (t) => {
      if (!log) return t;
      const v = min * (max / min) ** (t / 1000);
      return integer ? Math.round(v) : Number(v.toPrecision(3));
    },
  };
}

/** Params that finish a picture (a texture over it): Shuffle keeps them modest. */
const FINISH = /grain|noise|dither/i;

/**
 * Shuffle's value for a ranged number: within the range, on the slider's step (even over a log
 * slider's track). A finish (grain, noise) stays in the lowest fifth of its range: a texture, not the picture.
 */
export function shuffledNumber(name, range, random = Math.random) {
  const { min, max, integer } = range;
  const step = niceStep(min, max, integer);
  const { log, fromSlider } = sliderScale(range);
  let n;
  if (FINISH.test(name)) n = min + Math.round((random() * 0.2 * (max - min)) / step) * step;
  else if (log) n = fromSlider(Math.round(random() * 1000));
  else n = min + Math.round((random() * (max - min)) / step) * step;
  return Number(Math.min(max, n).toPrecision(6));
}

const pick = (list, random) => list[Math.floor(random() * list.length)];

/** Every #rrggbb (or rrggbb, #rgb) in pasted text, lower-cased as #rrggbb. */
export function parseHex(text) {
  return [...String(text).matchAll(/#?\b([0-9a-f]{6}|[0-9a-f]{3})\b/gi)].map(([, x]) =>
    `#${x.length === 3 ? [...x].map((c) => c + c).join('') : x}`.toLowerCase(),
  );
}

/** A single colour's hex field: its colour once it holds a whole one (six digits), else null. */
export const typedColor = (text) => (String(text).trim().length >= 6 && parseHex(text)[0]) || null;

/** Palette presets for colour lists. */
export const PALETTES = {
  Sunset: ['#ff7e5f', '#feb47b', '#ffcf71', '#e0577a', '#6a3093'],
  Ocean: ['#03045e', '#0077b6', '#00b4d8', '#90e0ef', '#caf0f8'],
  Forest: ['#1b4332', '#2d6a4f', '#52b788', '#95d5b2', '#d8f3dc'],
  Candy: ['#ff70a6', '#ff9770', '#ffd670', '#e9ff70', '#70d6ff'],
  Mono: ['#111111', '#444444', '#777777', '#aaaaaa', '#eeeeee'],
  Nordic: ['#2e3440', '#5e81ac', '#88c0d0', '#a3be8c', '#ebcb8b'],
  Terracotta: ['#264653', '#2a9d8f', '#e9c46a', '#f4a261', '#e76f51'],
  Pastel: ['#cdb4db', '#ffc8dd', '#ffafcc', '#bde0fe', '#a2d2ff'],
  Citrus: ['#f94144', '#f3722c', '#f8961e', '#f9c74f', '#90be6d'],
  Lagoon: ['#05668d', '#028090', '#00a896', '#02c39a', '#f0f3bd'],
  Ember: ['#03071e', '#6a040f', '#d00000', '#e85d04', '#ffba08'],
};
/** The curated palettes Shuffle draws from (one per shuffle, for every colour): all but Mono. */
export const SHUFFLE_PALETTES = Object.entries(PALETTES)
  .filter(([name]) => name !== 'Mono')
  .map(([, colors]) => colors);
/** One of them, for a shuffle. */
export const shufflePalette = (random = Math.random) => pick(SHUFFLE_PALETTES, random);

/** Relative luminance-ish of #rrggbb, enough to order a palette from dark to light. */
const lightness = (hex) => [1, 3, 5].reduce((sum, i, k) => sum + parseInt(hex.slice(i, i + 2), 16) * [0.2126, 0.7152, 0.0722][k], 0);

/** Shuffle's colour from its palette: a background (or sky) its darkest or lightest colour, anything else any of them. */
export function shuffledColor(name, palette, random = Math.random) {
  const byLight = [...palette].sort((x, y) => lightness(x) - lightness(y));
  return /background|sky/i.test(name) ? pick([byLight[0], byLight.at(-1)], random) : pick(palette, random);
}

/** Shuffle's colour list: `count` colours of the palette in its order, from a random one of them. */
export function shuffledColors(palette, count, random = Math.random) {
  const from = Math.floor(random() * palette.length);
  return Array.from({ length: count }, (_, i) => palette[(from + i) % palette.length]);
}

/** A colour list kept within minItems..maxItems: a short one repeats its colours, a long one is cut ([] stays []). */
export function fitColors(colors, min, max) {
  if (!colors.length) return [];
  const n = Math.min(max, Math.max(min, colors.length));
  return Array.from({ length: n }, (_, i) => colors[i % colors.length]);
}

/** A palette preset for a list holding `count` colours: the preset's first colours, as many as the list holds (at least minItems). */
export function presetColors(name, count, min) {
  const colors = PALETTES[name] ?? [];
  return colors.slice(0, Math.max(min, Math.min(count, colors.length)));
}
