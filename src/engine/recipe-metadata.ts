// The recipe travels inside the file: every rendered file carries its canonical recipe (base64url,
// what X-Service-Recipe sends), the recipe's hash (X-Service-Recipe-Hash) and the engine version, in
// the format's own metadata, written the same way every time (no dates, no tool names):
//   png   an iTXt chunk, keyword `render-service:recipe`, right after IHDR
//   webp  an XMP chunk (RIFF), the file turned into the extended form (VP8X) when it is not already
//   jpeg  a COM (comment) segment after SOI and the JFIF APP0 segment (several in a row past 65,533
//         bytes, the text split between them)
//   gif   a Comment Extension block just before the trailer
//   mp4   the `comment` tag (moov/udta/meta/ilst/©cmt), written by FFmpeg (mp4MetadataArgs)
//   svg   a <metadata> element, the root element's first child
//   css   a leading comment
// Everywhere but webp the text is one JSON object, {"engineVersion","hash","recipe"}; webp's XMP
// packet holds the same three as attributes. extract() reads any of them back.

/** The PNG iTXt keyword (printable Latin-1, at most 79 characters). */
export const RECIPE_PNG_KEYWORD = 'render-service:recipe';

export interface EmbeddedRecipe {
  /** base64url of the canonical recipe JSON (the X-Service-Recipe header). */
  recipe: string;
  /** sha256 hex of the canonical recipe JSON (the X-Service-Recipe-Hash header). */
  hash: string;
  /** The engine profile that encoded the file (engine-profiles.ts): its generator version's. */
  engineVersion: string;
}

export type EmbeddableFormat = 'png' | 'webp' | 'jpeg' | 'gif' | 'svg' | 'css';
export type MetadataFormat = EmbeddableFormat | 'mp4';

const XMP_NS = 'https://render-service.dev/ns/recipe/1.0/';

/** The one text form (key order fixed), in every format but webp. */
export function metadataText(meta: EmbeddedRecipe): string {
  return JSON.stringify({ engineVersion: meta.engineVersion, hash: meta.hash, recipe: meta.recipe });
}

function parseText(text: string): EmbeddedRecipe | undefined {
  try {
    const v = JSON.parse(text) as Partial<EmbeddedRecipe>;
    if (typeof v.recipe === 'string' && typeof v.hash === 'string' && typeof v.engineVersion === 'string')
      return { recipe: v.recipe, hash: v.hash, engineVersion: v.engineVersion };
  } catch {
    // not ours
  }
  return undefined;
}

/** FFmpeg options that write the recipe into an mp4 (with +bitexact nothing else is added). */
export function mp4MetadataArgs(meta: EmbeddedRecipe): string[] {
  return ['-metadata', `comment=${metadataText(meta)}`];
}

/** The file with its recipe embedded. mp4 is written by FFmpeg itself (mp4MetadataArgs). */
export function embed(format: EmbeddableFormat, bytes: Buffer, meta: EmbeddedRecipe): Buffer {
  switch (format) {
    case 'png':
      return embedPng(bytes, meta);
    case 'webp':
      return embedWebp(bytes, meta);
    case 'jpeg':
      return embedJpeg(bytes, meta);
    case 'gif':
      return embedGif(bytes, meta);
    case 'svg':
      return embedSvg(bytes, meta);
    case 'css':
      return Buffer.from(`/* render-service:recipe ${metadataText(meta)} */\n${bytes.toString('utf8')}`, 'utf8');
  }
}

/** The recipe a file carries and its format, or undefined when it carries none. */
export function extract(bytes: Buffer): (EmbeddedRecipe & { format: MetadataFormat }) | undefined {
  const found = (format: MetadataFormat, meta: EmbeddedRecipe | undefined) => (meta ? { ...meta, format } : undefined);
  try {
    if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return found('png', extractPng(bytes));
    if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return found('webp', extractWebp(bytes));
    if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return found('jpeg', extractJpeg(bytes));
    if (bytes.toString('latin1', 0, 4) === 'GIF8') return found('gif', extractGif(bytes));
    if (bytes.toString('latin1', 4, 8) === 'ftyp') return found('mp4', extractMp4(bytes));
    const text = bytes.toString('utf8');
    const css = /^\/\* render-service:recipe (\{[^*]*\}) \*\//.exec(text);
    if (css) return found('css', parseText(css[1]));
    const svg = /<metadata id="render-service-recipe">([^<]*)<\/metadata>/.exec(text);
    if (svg && /<svg\b/.test(text)) return found('svg', parseText(unescapeXml(svg[1])));
  } catch {
    // a truncated or malformed file: it carries no readable recipe
  }
  return undefined;
}

// PNG ---------------------------------------------------------------------------------------------

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

function crc32(data: Buffer): number {
  let c = -1;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

function embedPng(bytes: Buffer, meta: EmbeddedRecipe): Buffer {
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString('latin1', 12, 16) !== 'IHDR') throw new Error('not a PNG');
  const afterIhdr = 8 + 12 + bytes.readUInt32BE(8);
  // iTXt: keyword, NUL, compression flag 0, method 0, empty language tag, NUL, empty translated keyword, NUL, UTF-8 text.
  const data = Buffer.concat([Buffer.from(`${RECIPE_PNG_KEYWORD}\0\0\0\0\0`, 'latin1'), Buffer.from(metadataText(meta), 'utf8')]);
  return Buffer.concat([bytes.subarray(0, afterIhdr), pngChunk('iTXt', data), bytes.subarray(afterIhdr)]);
}

function extractPng(bytes: Buffer): EmbeddedRecipe | undefined {
  for (let at = 8; at + 12 <= bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'iTXt' && data.toString('latin1', 0, RECIPE_PNG_KEYWORD.length + 1) === `${RECIPE_PNG_KEYWORD}\0`) {
      // Skip the keyword's NUL, the two compression bytes, then the language tag and translated keyword (each NUL-ended).
      let i = RECIPE_PNG_KEYWORD.length + 3;
      i = data.indexOf(0, i) + 1;
      i = data.indexOf(0, i) + 1;
      if (data[RECIPE_PNG_KEYWORD.length + 1] !== 0) return undefined; // compressed: never written by the engine
      return parseText(data.subarray(i).toString('utf8'));
    }
    if (type === 'IEND') break;
    at += 12 + length;
  }
  return undefined;
}

// WebP --------------------------------------------------------------------------------------------

interface RiffChunk {
  type: string;
  data: Buffer;
}

function riffChunks(bytes: Buffer): RiffChunk[] {
  const chunks: RiffChunk[] = [];
  const end = Math.min(bytes.length, 8 + bytes.readUInt32LE(4));
  for (let at = 12; at + 8 <= end;) {
    const size = bytes.readUInt32LE(at + 4);
    chunks.push({ type: bytes.toString('latin1', at, at + 4), data: bytes.subarray(at + 8, at + 8 + size) });
    at += 8 + size + (size & 1);
  }
  return chunks;
}

function riff(chunks: RiffChunk[]): Buffer {
  const parts: Buffer[] = [];
  for (const { type, data } of chunks) {
    const header = Buffer.alloc(8);
    header.write(type, 0, 'latin1');
    header.writeUInt32LE(data.length, 4);
    parts.push(header, data);
    if (data.length & 1) parts.push(Buffer.alloc(1));
  }
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length + 4, 4);
  head.write('WEBP', 8, 'latin1');
  return Buffer.concat([head, body]);
}

/** Canvas size and alpha of a simple-format WebP's only image chunk. */
function simpleImageInfo(chunk: RiffChunk): { width: number; height: number; alpha: boolean } {
  if (chunk.type === 'VP8 ') {
    // Frame tag (3 bytes), start code (3), then 14-bit width and height (little-endian, 2 scale bits above).
    return { width: chunk.data.readUInt16LE(6) & 0x3fff, height: chunk.data.readUInt16LE(8) & 0x3fff, alpha: false };
  }
  if (chunk.type === 'VP8L') {
    const bits = chunk.data.readUInt32LE(1);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1, alpha: ((bits >>> 28) & 1) === 1 };
  }
  throw new Error(`unexpected WebP chunk ${chunk.type}`);
}

function xmpPacket(meta: EmbeddedRecipe): string {
  return (
    '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>' +
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    `<rdf:Description rdf:about="" xmlns:rs="${XMP_NS}" rs:engineVersion="${escapeXml(meta.engineVersion)}" ` +
    `rs:hash="${escapeXml(meta.hash)}" rs:recipe="${escapeXml(meta.recipe)}"/>` +
    '</rdf:RDF></x:xmpmeta><?xpacket end="r"?>'
  );
}

function embedWebp(bytes: Buffer, meta: EmbeddedRecipe): Buffer {
  if (bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WEBP') throw new Error('not a WebP');
  let chunks = riffChunks(bytes);
  if (chunks[0]?.type === 'VP8X') {
    const vp8x = Buffer.from(chunks[0].data);
    vp8x[0] |= 0x04; // XMP metadata present
    chunks = [{ type: 'VP8X', data: vp8x }, ...chunks.slice(1).filter((c) => c.type !== 'XMP ')];
  } else {
    const { width, height, alpha } = simpleImageInfo(chunks[0]);
    const vp8x = Buffer.alloc(10);
    vp8x[0] = 0x04 | (alpha ? 0x10 : 0);
    vp8x.writeUIntLE(width - 1, 4, 3);
    vp8x.writeUIntLE(height - 1, 7, 3);
    chunks = [{ type: 'VP8X', data: vp8x }, ...chunks];
  }
  // XMP comes last (after the image data and any EXIF), as the container specification orders it.
  return riff([...chunks, { type: 'XMP ', data: Buffer.from(xmpPacket(meta), 'utf8') }]);
}

function extractWebp(bytes: Buffer): EmbeddedRecipe | undefined {
  const xmp = riffChunks(bytes).find((c) => c.type === 'XMP ');
  if (!xmp) return undefined;
  const text = xmp.data.toString('utf8');
  if (!text.includes(XMP_NS)) return undefined;
  const attr = (name: string) => new RegExp(`rs:${name}="([^"]*)"`).exec(text)?.[1];
  const recipe = attr('recipe');
  const hash = attr('hash');
  const engineVersion = attr('engineVersion');
  if (recipe === undefined || hash === undefined || engineVersion === undefined) return undefined;
  return { recipe: unescapeXml(recipe), hash: unescapeXml(hash), engineVersion: unescapeXml(engineVersion) };
}

// JPEG --------------------------------------------------------------------------------------------

/** The most a JPEG segment holds after its marker and length (a 16-bit length that counts itself). */
const JPEG_SEGMENT_MAX = 65533;

/** The markers before the image data (SOI excepted): [marker, start of the marker, end of the segment]. */
function jpegSegments(bytes: Buffer): Array<{ marker: number; at: number; end: number }> {
  const segments: Array<{ marker: number; at: number; end: number }> = [];
  for (let at = 2; at + 4 <= bytes.length && bytes[at] === 0xff;) {
    const marker = bytes[at + 1];
    const end = at + 2 + bytes.readUInt16BE(at + 2);
    if (end > bytes.length) throw new Error('truncated JPEG');
    segments.push({ marker, at, end });
    if (marker === 0xda) break; // start of scan: the image data follows
    at = end;
  }
  return segments;
}

function embedJpeg(bytes: Buffer, meta: EmbeddedRecipe): Buffer {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new Error('not a JPEG');
  // After SOI and the APP segments that must open the file (JFIF's APP0; an EXIF APP1 if there were one).
  const head = jpegSegments(bytes).find((s) => s.marker < 0xe0 || s.marker > 0xef);
  const at = head?.at ?? 2;
  const text = Buffer.from(metadataText(meta), 'utf8');
  const parts: Buffer[] = [bytes.subarray(0, at)];
  for (let i = 0; i < text.length; i += JPEG_SEGMENT_MAX) {
    const piece = text.subarray(i, i + JPEG_SEGMENT_MAX);
    const header = Buffer.from([0xff, 0xfe, 0, 0]);
    header.writeUInt16BE(piece.length + 2, 2);
    parts.push(header, piece);
  }
  parts.push(bytes.subarray(at));
  return Buffer.concat(parts);
}

function extractJpeg(bytes: Buffer): EmbeddedRecipe | undefined {
  const segments = jpegSegments(bytes);
  for (let i = 0; i < segments.length; i++) {
    if (segments[i].marker !== 0xfe) continue;
    // The recipe's text, and the COM segments right after it that continue it.
    const pieces: Buffer[] = [];
    for (let j = i; j < segments.length && segments[j].marker === 0xfe; j++)
      pieces.push(bytes.subarray(segments[j].at + 4, segments[j].end));
    for (let n = pieces.length; n > 0; n--) {
      const meta = parseText(Buffer.concat(pieces.slice(0, n)).toString('utf8'));
      if (meta) return meta;
    }
  }
  return undefined;
}

// GIF ---------------------------------------------------------------------------------------------

/** Offset of each top-level block after the header and global colour table; the last is the trailer (0x3b). */
function gifBlocks(bytes: Buffer): { at: number; introducer: number; label: number }[] {
  const packed = bytes[10];
  let at = 13 + (packed & 0x80 ? 3 * (1 << ((packed & 0x07) + 1)) : 0);
  const skipSubBlocks = (from: number) => {
    let i = from;
    while (bytes[i] !== 0) {
      if (i >= bytes.length) throw new Error('truncated GIF');
      i += bytes[i] + 1;
    }
    return i + 1;
  };
  const blocks: { at: number; introducer: number; label: number }[] = [];
  while (at < bytes.length) {
    const introducer = bytes[at];
    if (introducer === 0x3b) {
      blocks.push({ at, introducer, label: 0 });
      return blocks;
    }
    if (introducer === 0x21) {
      blocks.push({ at, introducer, label: bytes[at + 1] });
      at = skipSubBlocks(at + 2);
    } else if (introducer === 0x2c) {
      blocks.push({ at, introducer, label: 0 });
      const local = bytes[at + 9];
      at += 10 + (local & 0x80 ? 3 * (1 << ((local & 0x07) + 1)) : 0);
      at = skipSubBlocks(at + 1); // LZW minimum code size, then the image data
    } else {
      throw new Error(`unexpected GIF block 0x${introducer.toString(16)}`);
    }
  }
  throw new Error('GIF without a trailer');
}

function embedGif(bytes: Buffer, meta: EmbeddedRecipe): Buffer {
  if (bytes.toString('latin1', 0, 4) !== 'GIF8') throw new Error('not a GIF');
  const trailer = gifBlocks(bytes).at(-1)!.at;
  const text = Buffer.from(metadataText(meta), 'utf8');
  const parts: Buffer[] = [bytes.subarray(0, trailer), Buffer.from([0x21, 0xfe])];
  for (let i = 0; i < text.length; i += 255) {
    const piece = text.subarray(i, i + 255);
    parts.push(Buffer.from([piece.length]), piece);
  }
  parts.push(Buffer.from([0x00, 0x3b]));
  return Buffer.concat(parts);
}

function extractGif(bytes: Buffer): EmbeddedRecipe | undefined {
  for (const block of gifBlocks(bytes)) {
    if (block.introducer !== 0x21 || block.label !== 0xfe) continue;
    const pieces: Buffer[] = [];
    for (let i = block.at + 2; bytes[i] !== 0; i += bytes[i] + 1) pieces.push(bytes.subarray(i + 1, i + 1 + bytes[i]));
    const meta = parseText(Buffer.concat(pieces).toString('utf8'));
    if (meta) return meta;
  }
  return undefined;
}

// MP4 ---------------------------------------------------------------------------------------------

/** The children of an ISO BMFF box's payload, [type, payload]. */
function* boxes(bytes: Buffer, from = 0, to = bytes.length): Generator<[string, Buffer]> {
  for (let at = from; at + 8 <= to;) {
    let size = bytes.readUInt32BE(at);
    let header = 8;
    if (size === 1) {
      size = Number(bytes.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header) return;
    yield [bytes.toString('latin1', at + 4, at + 8), bytes.subarray(at + header, Math.min(to, at + size))];
    at += size;
  }
}

function child(payload: Buffer | undefined, type: string, skip = 0): Buffer | undefined {
  if (!payload) return undefined;
  for (const [t, p] of boxes(payload, skip)) if (t === type) return p;
  return undefined;
}

function extractMp4(bytes: Buffer): EmbeddedRecipe | undefined {
  // meta is a full box: its children follow 4 bytes of version and flags.
  const ilst = child(child(child(child(bytes, 'moov'), 'udta'), 'meta'), 'ilst', 4);
  const data = child(child(ilst, '\u00a9cmt'), 'data');
  // data: type indicator (4 bytes) and locale (4 bytes), then the UTF-8 value.
  return data ? parseText(data.subarray(8).toString('utf8')) : undefined;
}

// SVG ---------------------------------------------------------------------------------------------

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function unescapeXml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&');
}

function embedSvg(bytes: Buffer, meta: EmbeddedRecipe): Buffer {
  const text = bytes.toString('utf8');
  // The root element's start tag (attribute values may hold '>').
  const root = /<svg\b(?:[^>"']|"[^"]*"|'[^']*')*>/.exec(text);
  if (!root || root[0].endsWith('/>')) throw new Error('not an SVG document with content');
  const at = root.index + root[0].length;
  const element = `<metadata id="render-service-recipe">${escapeXml(metadataText(meta))}</metadata>`;
  return Buffer.from(text.slice(0, at) + element + text.slice(at), 'utf8');
}
