// Files for the asset tests, made by code (no binaries committed): well-formed images of every
// accepted kind (an EXIF orientation, 16 bits, CMYK), fonts from the packages the service already
// ships (a TTF unpacked from a bundled WOFF2, a CFF OTF from node_modules), and a corpus of hostile
// files — decompression bombs, truncations, polyglots, lying types, animated images, fonts that are
// random bytes behind a valid magic number — each with the answer it must get.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import type Sharp from 'sharp';

const require = createRequire(import.meta.url);
const sharp = require('sharp') as typeof Sharp;

// ---------------------------------------------------------------------------------------------
// PNG and WebP by hand

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG of 8-bit grey pixels whose header declares width × height, with `idat` as its (compressed) image data. */
export function pngWith(width: number, height: number, idat: Buffer, extraChunks: Buffer[] = []): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr), ...extraChunks, pngChunk('IDAT', idat), pngChunk('IEND', Buffer.alloc(0))]);
}

function riffChunk(type: string, data: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(type, 0, 'latin1');
  header.writeUInt32LE(data.length, 4);
  return Buffer.concat([header, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}
const u24 = (v: number) => {
  const b = Buffer.alloc(3);
  b.writeUIntLE(v, 0, 3);
  return b;
};

/** An animated WebP (VP8X + ANIM + one ANMF per colour), each frame a lossless w × h picture. */
export async function animatedWebp(width: number, height: number, colours: string[]): Promise<Buffer> {
  const frames: Buffer[] = [];
  for (const background of colours) {
    const still = await sharp({ create: { width, height, channels: 4, background } })
      .webp({ lossless: true })
      .toBuffer();
    const vp8l = still.subarray(12); // after RIFF size WEBP: the VP8L chunk
    frames.push(riffChunk('ANMF', Buffer.concat([u24(0), u24(0), u24(width - 1), u24(height - 1), u24(100), Buffer.from([0]), vp8l])));
  }
  const vp8x = Buffer.concat([Buffer.from([0x02 | 0x10, 0, 0, 0]), u24(width - 1), u24(height - 1)]);
  const body = Buffer.concat([Buffer.from('WEBP'), riffChunk('VP8X', vp8x), riffChunk('ANIM', Buffer.alloc(6)), ...frames]);
  const header = Buffer.alloc(8);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body]);
}

/** A minimal ZIP archive (one stored entry) around `content`. */
export function zipOf(name: string, content: Buffer): Buffer {
  const fileName = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc32(content), 14);
  local.writeUInt32LE(content.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc32(content), 16);
  central.writeUInt32LE(content.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + fileName.length, 12);
  end.writeUInt32LE(30 + fileName.length + content.length, 16);
  return Buffer.concat([local, fileName, content, central, fileName, end]);
}

// ---------------------------------------------------------------------------------------------
// Well-formed files

export const images = {
  /** 64×48, opaque red with a transparent column at x = 0. */
  png: async () => {
    const rgba = Buffer.alloc(64 * 48 * 4);
    for (let i = 0; i < 64 * 48; i++) rgba.set(i % 64 === 0 ? [0, 0, 0, 0] : [255, 0, 0, 255], i * 4);
    return sharp(rgba, { raw: { width: 64, height: 48, channels: 4 } })
      .png()
      .toBuffer();
  },
  /** 40×20 stored, EXIF orientation 6 (rotate 90° clockwise to view): 20×40 once applied; the left half green, the right half blue as stored. */
  jpegOrientation6: async () => {
    const rgb = Buffer.alloc(40 * 20 * 3);
    for (let i = 0; i < 40 * 20; i++) rgb.set(i % 40 < 20 ? [0, 255, 0] : [0, 0, 255], i * 3);
    return sharp(rgb, { raw: { width: 40, height: 20, channels: 3 } })
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
  },
  webp: async () =>
    sharp({ create: { width: 30, height: 10, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 0.5 } } })
      .webp({ lossless: true })
      .toBuffer(),
  /** 8×8, 16 bits per channel, RGBA. */
  png16: async () =>
    sharp({ create: { width: 8, height: 8, channels: 4, background: { r: 128, g: 64, b: 255, alpha: 1 } } })
      .toColourspace('rgb16')
      .png()
      .toBuffer(),
  /** 12×12 CMYK JPEG of an orange. */
  cmykJpeg: async () =>
    sharp({ create: { width: 12, height: 12, channels: 3, background: '#ff8000' } })
      .toColourspace('cmyk')
      .jpeg()
      .toBuffer(),
};

const FONT_DIR = path.join(path.dirname(require.resolve('@fontsource/space-grotesk/package.json')), 'files');

export const fonts = {
  /** Space Grotesk 400 (latin), as the service bundles it. */
  woff2: () => readFileSync(path.join(FONT_DIR, 'space-grotesk-latin-400-normal.woff2')),
  /** The same font unpacked to a TrueType sfnt by wawoff2. */
  ttf: async () => {
    const { decompress } = require('wawoff2') as { decompress: (b: Uint8Array) => Promise<Uint8Array> };
    return Buffer.from(await decompress(fonts.woff2()));
  },
  /** Space Grotesk 700: another family member, weight 700. */
  woff2Bold: () => readFileSync(path.join(FONT_DIR, 'space-grotesk-latin-700-normal.woff2')),
  /** Source Code Pro, an OpenType font with CFF outlines (shipped in node_modules by redoc's polished). */
  otf: () =>
    readFileSync(path.join(path.dirname(require.resolve('polished/package.json')), 'docs/assets/fonts/OTF/SourceCodePro-Regular.otf')),
};

/** Sets a TrueType font's maxp.numGlyphs (the table directory is left as it is). */
export function withNumGlyphs(sfnt: Buffer, numGlyphs: number): Buffer {
  const out = Buffer.from(sfnt);
  const tables = out.readUInt16BE(4);
  for (let i = 0; i < tables; i++) {
    const entry = 12 + i * 16;
    if (out.toString('latin1', entry, entry + 4) === 'maxp') {
      out.writeUInt16BE(numGlyphs, out.readUInt32BE(entry + 8) + 4);
      return out;
    }
  }
  throw new Error('no maxp table');
}

/** A TrueType collection header in front of one font (its offsets not adjusted: a TTC is refused by its magic alone). */
export const ttcOf = (sfnt: Buffer) => Buffer.concat([Buffer.from('ttcf'), Buffer.from([0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 16]), sfnt]);

/** Deterministic noise (xorshift), so a failure replays. */
export function noise(length: number, seed = 1): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 255;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The hostile corpus

export interface HostileFile {
  name: string;
  contentType: string | undefined;
  body: Buffer;
  status: number;
  code: string;
}

/** At least 20 files a hostile or broken client could send, and the 4xx each must get. */
export async function hostileCorpus(): Promise<HostileFile[]> {
  const png = await images.png();
  const jpeg = await images.jpegOrientation6();
  const webp = await images.webp();
  const ttf = await fonts.ttf();
  const woff2 = fonts.woff2();
  const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#123456' } })
    .gif()
    .toBuffer();
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
  const html = Buffer.concat([
    Buffer.from('<!DOCTYPE html><html><body><script>alert(1)</script><!--'),
    png,
    Buffer.from('--></body></html>'),
  ]);
  const declared = (type: string | undefined, body: Buffer) => ({ contentType: type, body });
  const refused = (status: number, code: string) => ({ status, code });
  return [
    { name: 'an empty body', ...declared('image/png', Buffer.alloc(0)), ...refused(400, 'validation_failed') },
    {
      name: 'a 100-byte PNG declaring 100000×100000 pixels (a decompression bomb by its header)',
      ...declared('image/png', pngWith(100_000, 100_000, deflateSync(Buffer.alloc(100)))),
      ...refused(413, 'image_too_large'),
    },
    {
      name: 'a zlib bomb: 8000×8000 grey pixels (256 MB as RGBA) in a 64 KB IDAT',
      ...declared('image/png', pngWith(8000, 8000, deflateSync(Buffer.alloc(8001 * 8000), { level: 9 }))),
      ...refused(413, 'image_too_large'),
    },
    { name: 'a PNG cut in its image data', ...declared('image/png', png.subarray(0, png.length - 30)), ...refused(400, 'invalid_image') },
    { name: 'a PNG signature and nothing else', ...declared('image/png', PNG_SIGNATURE), ...refused(400, 'invalid_image') },
    {
      name: 'a PNG whose image data is short of its declared size',
      ...declared('image/png', pngWith(100, 100, deflateSync(Buffer.alloc(50)))),
      ...refused(400, 'invalid_image'),
    },
    {
      name: 'a PNG with a corrupted header checksum',
      ...declared(
        'image/png',
        (() => {
          const b = Buffer.from(png);
          b[29] ^= 0xff; // IHDR's CRC
          return b;
        })(),
      ),
      ...refused(400, 'invalid_image'),
    },
    {
      name: 'a PNG declaring a width of 0',
      ...declared('image/png', pngWith(0, 10, deflateSync(Buffer.alloc(10)))),
      ...refused(400, 'invalid_image'),
    },
    {
      name: 'an animated PNG (acTL chunk)',
      ...declared('image/png', pngWith(2, 2, deflateSync(Buffer.alloc(6)), [pngChunk('acTL', Buffer.from([0, 0, 0, 2, 0, 0, 0, 0]))])),
      ...refused(400, 'animated_image'),
    },
    {
      name: 'a JPEG cut in half',
      ...declared('image/jpeg', jpeg.subarray(0, Math.floor(jpeg.length / 2))),
      ...refused(400, 'invalid_image'),
    },
    {
      name: 'a JPEG marker followed by noise',
      ...declared('image/jpeg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), noise(2000)])),
      ...refused(400, 'invalid_image'),
    },
    {
      name: 'a WebP missing its last bytes',
      ...declared('image/webp', webp.subarray(0, webp.length - 10)),
      ...refused(400, 'invalid_image'),
    },
    {
      name: 'a RIFF/WEBP header followed by noise',
      ...declared(
        'image/webp',
        Buffer.concat([Buffer.from('RIFF'), Buffer.from([0xf0, 0x07, 0, 0]), Buffer.from('WEBPVP8 '), noise(2000, 7)]),
      ),
      ...refused(400, 'invalid_image'),
    },
    {
      name: 'an animated WebP',
      ...declared('image/webp', await animatedWebp(16, 16, ['#f00', '#0f0'])),
      ...refused(400, 'animated_image'),
    },
    {
      name: 'an HTML page carrying a PNG, declared image/png (polyglot)',
      ...declared('image/png', html),
      ...refused(415, 'asset_type_mismatch'),
    },
    {
      name: 'a ZIP holding a PNG, declared image/png',
      ...declared('image/png', zipOf('a.png', png)),
      ...refused(415, 'asset_type_mismatch'),
    },
    { name: 'a JPEG declared image/png (a lying Content-Type)', ...declared('image/png', jpeg), ...refused(415, 'asset_type_mismatch') },
    { name: 'a GIF declared image/webp', ...declared('image/webp', gif), ...refused(415, 'asset_type_mismatch') },
    { name: 'an SVG with a script, declared image/png', ...declared('image/png', svg), ...refused(415, 'asset_type_mismatch') },
    { name: 'an SVG as image/svg+xml', ...declared('image/svg+xml', svg), ...refused(415, 'unsupported_asset_type') },
    { name: 'a GIF as image/gif', ...declared('image/gif', gif), ...refused(415, 'unsupported_asset_type') },
    { name: 'a PNG as application/octet-stream', ...declared('application/octet-stream', png), ...refused(415, 'unsupported_asset_type') },
    { name: 'a PNG without a Content-Type', ...declared(undefined, png), ...refused(415, 'unsupported_asset_type') },
    {
      name: 'a JSON object',
      ...declared('application/json', Buffer.from('{"url":"https://example.com/a.png"}')),
      ...refused(415, 'unsupported_asset_type'),
    },
    {
      name: 'noise behind a TrueType magic number',
      ...declared('font/ttf', Buffer.concat([Buffer.from([0, 1, 0, 0]), noise(4000, 3)])),
      ...refused(400, 'invalid_font'),
    },
    {
      name: 'noise behind an OpenType (CFF) magic number',
      ...declared('font/otf', Buffer.concat([Buffer.from('OTTO'), noise(4000, 4)])),
      ...refused(400, 'invalid_font'),
    },
    {
      name: 'noise behind a WOFF2 magic number',
      ...declared('font/woff2', Buffer.concat([Buffer.from('wOF2'), noise(4000, 5)])),
      ...refused(400, 'invalid_font'),
    },
    {
      name: 'a TrueType font cut in half',
      ...declared('font/ttf', ttf.subarray(0, Math.floor(ttf.length / 2))),
      ...refused(400, 'invalid_font'),
    },
    {
      name: 'a WOFF2 font cut in half',
      ...declared('font/woff2', woff2.subarray(0, Math.floor(woff2.length / 2))),
      ...refused(400, 'invalid_font'),
    },
    { name: 'a TrueType font with no glyphs but .notdef', ...declared('font/ttf', withNumGlyphs(ttf, 1)), ...refused(400, 'invalid_font') },
    { name: 'a TrueType collection (TTC)', ...declared('font/ttf', ttcOf(ttf)), ...refused(415, 'asset_type_mismatch') },
    { name: 'a WOFF2 font declared font/ttf', ...declared('font/ttf', woff2), ...refused(415, 'asset_type_mismatch') },
    { name: 'a PNG declared font/otf', ...declared('font/otf', png), ...refused(415, 'asset_type_mismatch') },
  ];
}
