// Every file the service renders carries its recipe (src/engine/recipe-metadata.ts): png iTXt, webp
// XMP, jpeg COM, gif Comment Extension, mp4 ©cmt, svg <metadata>, css leading comment. Rather than
// parse seven containers, a byte search finds the one text they share: `"recipe":"<base64url>"` in
// the JSON (XML-escaped in svg), `rs:recipe="<base64url>"` in webp's XMP. gif splits its comment into
// sub-blocks of up to 255 bytes, and jpeg one past 65,533 bytes into COM segments: joined back first. No DOM (unit-tested in Node with files the
// engine rendered: test/unit/web-recipe-file.test.ts).
import { decodeRecipe, playgroundHref } from './recipe.js';

const PATTERN = /(?:"recipe":"|&quot;recipe&quot;:&quot;|rs:recipe=")([A-Za-z0-9_-]+)/;

/**
 * The recipe a rendered file carries, as the playground takes it ({slug, params, seed, size, format}),
 * with the generator `version` that rendered it; or null.
 */
export async function recipeOfFile(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  // One character per byte, so offsets in the text are offsets in the file.
  let text = new TextDecoder('latin1').decode(bytes);
  const json = text.indexOf('{"engineVersion"');
  // A gif comment: 0x21 0xfe, then sub-blocks (a length byte, that many bytes) up to a 0 byte.
  if (json >= 3 && bytes[json - 3] === 0x21 && bytes[json - 2] === 0xfe) {
    let joined = '';
    for (let at = json - 1; at < bytes.length && bytes[at] !== 0; at += bytes[at] + 1) joined += text.slice(at + 1, at + 1 + bytes[at]);
    text = joined;
  }
  // A jpeg: the COM segments' heads (0xff 0xfe and a 2-byte length) go, joining a text split between
  // segments. 0xff 0xfe occurs nowhere else: JSON text is ASCII, and image data stuffs every 0xff.
  if (bytes[0] === 0xff && bytes[1] === 0xd8) text = text.replace(/\xff\xfe[^]{2}/g, '');
  const encoded = PATTERN.exec(text)?.[1];
  const recipe = encoded && decodeRecipe(encoded);
  if (!recipe || typeof recipe.generator !== 'string') return null;
  const { generator: slug, params = {}, seed, size, format, quality, version } = recipe;
  return { slug, params, seed, size, format, ...(quality === undefined ? {} : { quality }), version };
}

/**
 * What opening a file does: the playground route of its recipe (`href`, none when it cannot be
 * opened) and what the toast says. `found` is recipeOfFile's answer, `generators` the service's. A
 * recipe pinning a superseded version (which its recipe URL still renders) opens with the current
 * version, which is what the playground edits, and says so.
 */
export function openedFile(name, found, generators) {
  if (!found) return { message: `No recipe in ${name}: only files this service rendered carry one.` };
  const gen = generators.find((g) => g.slug === found.slug);
  if (!gen) return { message: `${name} was made by "${found.slug}", which this service does not offer.` };
  const { version, ...opened } = found;
  return {
    href: playgroundHref(found.slug, opened),
    message:
      version && version !== gen.version
        ? `${name} was rendered by ${found.slug} ${version}; the playground edits the current version, ${gen.version}, whose output differs. Opened its recipe with ${gen.version}.`
        : `Opened the recipe of ${name}`,
  };
}
