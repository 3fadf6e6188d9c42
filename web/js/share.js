// The Share panel's rules (web/js/share-dialog.js builds the panel on them): the expiry choices, the
// formats offered and the one chosen first, the body of the signing request, and the <img> and
// og:image tags of a signed URL. No DOM (unit-tested in Node: test/unit/web-share.test.ts).
import { formats } from './formats.js';
import { recipeBody } from './recipe.js';

const DAY = 86400;

/** The expiry choices, [label, seconds until the URL expires]; 0: it never expires. */
export const EXPIRIES = [
  ['1 day', DAY],
  ['30 days', 30 * DAY],
  ['1 year', 365 * DAY],
  ['No expiry', 0],
];

/** The choice first offered: a year (a link preview outlives a day; a URL that never expires cannot be taken back but by revoking its key). */
export const DEFAULT_EXPIRY = 365 * DAY;

/** The formats link previews are offered in; every one takes jpeg and png, not all of them webp. */
export const OG_FORMATS = ['jpeg', 'png', 'webp'];

/** The formats the panel offers: jpeg, png and webp where the generator has them, then the recipe's own (Download's). */
export const shareFormats = (gen, own) => [...new Set(OG_FORMATS.filter((f) => gen.formats.includes(f)).concat(own))];

/**
 * The format chosen first (`sizes`: bytes by format, as measured): the smallest of those every link
 * preview takes (jpeg, png), never webp; none measured, the recipe's own format.
 */
export function shareFormat(sizes, own) {
  return (
    OG_FORMATS.slice(0, 2)
      .filter((f) => sizes[f] > 0)
      .sort((a, b) => sizes[a] - sizes[b])[0] ?? own
  );
}

/**
 * The body of POST /v1/url-signing-keys/{id}/sign: the recipe in `format` (a quality only where it
 * takes one), the path form with the extension (a file name for link previews), expiring in
 * `expiresIn` seconds (0: never).
 */
export function signBody(recipe, format, expiresIn) {
  const body = { slug: recipe.slug, ...recipeBody({ ...recipe, format }), extension: true };
  if (expiresIn) body.expiresInSeconds = expiresIn;
  return body;
}

/** Text as an HTML attribute value (in double quotes). */
export const attr = (text) => String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** An <img> tag of a signed URL at the recipe's CSS size. */
export const imgTag = (url, recipe, alt) =>
  `<img src="${attr(url)}" width="${recipe.size.width}" height="${recipe.size.height}" alt="${attr(alt)}">`;

/** Open Graph and Twitter card tags of a signed URL (the image's device pixels, its media type). */
export function ogTags(url, recipe) {
  const px = (n) => Math.round(n * (recipe.size.pixelRatio ?? 1));
  const meta = (key, content, name = 'property') => `<meta ${name}="${key}" content="${attr(content)}">`;
  return [
    meta('og:image', url),
    meta('og:image:width', px(recipe.size.width)),
    meta('og:image:height', px(recipe.size.height)),
    meta('og:image:type', formats[recipe.format].contentType),
    meta('twitter:card', 'summary_large_image', 'name'),
    meta('twitter:image', url, 'name'),
  ].join('\n');
}
