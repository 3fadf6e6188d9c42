// The service's output formats and what the app decides by them. No DOM (unit-tested in Node:
// test/unit/web-recipe.test.ts).

/**
 * Each output format's { contentType, extension, kind: still, motion or text }, as the service names
 * them (`formats` of GET /v1/health): api.js sets them with the generators, since every format here is a generator's.
 */
export let formats = {};

export function setFormats(facts) {
  formats = facts ?? {};
}

/** A format's kind as the service names it: `still` (one raster frame), `motion` or `text` (svg, css). */
export const kindOf = (format) => formats[format]?.kind;

/** The quality a format renders at when a recipe names none (jpeg's), or null: it takes no `quality`. */
export const defaultQuality = (format) => formats[format]?.defaultQuality ?? null;

/** A still format for previews of a generator: png when offered, else the first non-animated one. */
export function stillFormat(gen) {
  if (gen.formats.includes('png')) return 'png';
  return gen.formats.find((f) => kindOf(f) !== 'motion') ?? gen.formats[0];
}

/** A small picture's format (a gallery card, a preset's picture): a raster still as webp when offered (lighter). */
export function thumbFormat(gen) {
  const still = stillFormat(gen);
  return kindOf(still) === 'still' && gen.formats.includes('webp') ? 'webp' : still;
}
