// Every file the service renders carries its recipe (src/engine/recipe-metadata.ts): png iTXt, webp
// XMP, gif Comment Extension, mp4 ©cmt, svg <metadata>, css leading comment. Rather than parse six
// containers, a byte search finds the one text they share: `"recipe":"<base64url>"` in the JSON
// (XML-escaped in svg), `rs:recipe="<base64url>"` in webp's XMP. Only gif splits its comment into
// sub-blocks of up to 255 bytes, so it is joined back first.
import { decodeRecipe } from './state.js';

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
  const encoded = PATTERN.exec(text)?.[1];
  const recipe = encoded && decodeRecipe(encoded);
  if (!recipe || typeof recipe.generator !== 'string') return null;
  const { generator: slug, params = {}, seed, size, format, version } = recipe;
  return { slug, params, seed, size, format, version };
}
