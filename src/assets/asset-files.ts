// The files a workspace uploads as assets (images and fonts), checked and normalized before anything
// stores them. Pure functions of the bytes and the limits (no database, no store, no HTTP), so the
// unit tests hold every rule: which media types are accepted, what the bytes must start with, the
// size and pixel limits (checked from the header, before any decode), and the one normalized form of
// an image — 8-bit sRGB RGBA, EXIF orientation applied, first page only, stored as a lossless PNG —
// that decodeNormalizedImage reads back exactly on every CPU. Fonts are parsed in a worker thread of
// their own (font-check.ts); this module only sniffs them.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type Sharp from 'sharp';
import type { Metadata, OutputInfo, SharpOptions } from 'sharp';
import { ProblemError } from '../errors/problem.ts';

// Required, not imported, as src/engine/encoders.ts does: sharp loads 2–3× faster that way.
const sharp = createRequire(import.meta.url)('sharp') as typeof Sharp;

export type AssetKind = 'image' | 'font';

/** The accepted media types and the kind each uploads. Anything else is 415 `unsupported_asset_type` (SVG included). */
export const ASSET_MEDIA_TYPES = {
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/webp': 'image',
  'font/ttf': 'font',
  'font/otf': 'font',
  'font/woff2': 'font',
} as const satisfies Record<string, AssetKind>;

export type AssetMediaType = keyof typeof ASSET_MEDIA_TYPES;

export interface AssetLimits {
  /** Largest image upload, in bytes. */
  imageMaxBytes: number;
  /** Largest font upload, in bytes. */
  fontMaxBytes: number;
  /** Largest image, in pixels (width × height, read from the header). */
  maxPixels: number;
}

export const DEFAULT_ASSET_LIMITS: AssetLimits = { imageMaxBytes: 10 * 1024 * 1024, fontMaxBytes: 20 * 1024 * 1024, maxPixels: 40_000_000 };

const BODY = 'body';
const CONTENT_TYPE = 'header.Content-Type';

/** `image/PNG; charset=x` → `image/png`; undefined when absent. */
export function mediaTypeOf(header: string | undefined): string | undefined {
  const type = header?.split(';')[0]?.trim().toLowerCase();
  return type ? type : undefined;
}

export function isAssetMediaType(type: string | undefined): type is AssetMediaType {
  return type !== undefined && Object.hasOwn(ASSET_MEDIA_TYPES, type);
}

/** The media type of an upload, or 415 `unsupported_asset_type` naming the header. */
export function assetMediaType(header: string | undefined): AssetMediaType {
  const type = mediaTypeOf(header);
  if (isAssetMediaType(type)) return type;
  throw unsupportedAssetType(type);
}

/** 415 `unsupported_asset_type` for a media type (undefined: none was sent). */
export function unsupportedAssetType(type: string | undefined): ProblemError {
  return new ProblemError('unsupported_asset_type', {
    detail: `Content-Type ${type ? `"${type}"` : '(none)'} is not an accepted asset type. Send the file as the raw body with one of: ${Object.keys(ASSET_MEDIA_TYPES).join(', ')}.`,
    issues: [{ path: CONTENT_TYPE, message: `must be one of: ${Object.keys(ASSET_MEDIA_TYPES).join(', ')}`, keyword: 'enum' }],
  });
}

/** The size limit of an upload of this type, in bytes. */
export function maxBytesOf(type: AssetMediaType, limits: AssetLimits): number {
  return ASSET_MEDIA_TYPES[type] === 'image' ? limits.imageMaxBytes : limits.fontMaxBytes;
}

/** 413 `asset_too_large` naming the limit (thrown while the body is read, as soon as it passes the limit). */
export function assetTooLarge(type: AssetMediaType, limits: AssetLimits): ProblemError {
  const kind = ASSET_MEDIA_TYPES[type];
  const limit = maxBytesOf(type, limits);
  return new ProblemError('asset_too_large', {
    detail: `An ${kind} asset may be at most ${limit} bytes (${formatBytes(limit)}); this ${type} body is larger.`,
    issues: [{ path: BODY, message: `must be at most ${limit} bytes`, keyword: 'maxLength' }],
    extra: { limit },
  });
}

const formatBytes = (n: number) => (n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`);

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** `ast_` + the first 32 hex characters of the upload's SHA-256: the same bytes are the same asset. */
export function assetIdOf(sha256: string): string {
  return `ast_${sha256.slice(0, 32)}`;
}

export const ASSET_ID = /^ast_[0-9a-f]{32}$/;

/** What the first bytes say the file is (magic numbers); undefined for anything else. */
export type SniffedFormat = 'png' | 'jpeg' | 'webp' | 'gif' | 'sfnt' | 'woff2' | 'woff' | 'collection' | 'svg' | 'zip' | 'html' | 'pdf';

export function sniff(bytes: Uint8Array): SniffedFormat | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (start: number, end: number) => b.toString('latin1', start, end);
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (b.length >= 6 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a')) return 'gif';
  if (b.length >= 4) {
    const tag = ascii(0, 4);
    if (b.readUInt32BE(0) === 0x00010000 || tag === 'OTTO' || tag === 'true') return 'sfnt';
    if (tag === 'wOF2') return 'woff2';
    if (tag === 'wOFF') return 'woff';
    if (tag === 'ttcf') return 'collection';
    if (tag === 'PK\x03\x04') return 'zip';
    if (tag === '%PDF') return 'pdf';
  }
  const head = ascii(0, Math.min(b.length, 256)).trimStart().toLowerCase();
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'))) return 'svg';
  if (head.startsWith('<!doctype html') || head.startsWith('<html')) return 'html';
  return undefined;
}

/** The magic each declared type must carry. */
const EXPECTED: Record<AssetMediaType, readonly SniffedFormat[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpeg'],
  'image/webp': ['webp'],
  // An OpenType font may hold TrueType or CFF outlines whichever extension it was given.
  'font/ttf': ['sfnt'],
  'font/otf': ['sfnt'],
  'font/woff2': ['woff2'],
};

/**
 * Refuses an empty body (400 `validation_failed`) and bytes whose magic number is not the declared
 * type's (415 `asset_type_mismatch`): a lying Content-Type, HTML or a ZIP sent as an image, a GIF,
 * SVG or WOFF1 under an accepted name, a font collection (TTC: upload one face as .ttf or .otf).
 */
export function checkMagic(type: AssetMediaType, bytes: Uint8Array): void {
  if (bytes.byteLength === 0)
    throw new ProblemError('validation_failed', {
      detail: 'The body is empty: send the file as the raw request body.',
      issues: [{ path: BODY, message: 'must not be empty', keyword: 'minLength' }],
    });
  const found = sniff(bytes);
  if (EXPECTED[type].includes(found as SniffedFormat)) return;
  const what =
    found === 'collection'
      ? 'a font collection (TTC), which is not accepted: upload the one face you need as font/ttf or font/otf'
      : found
        ? `${found === 'sfnt' ? 'an sfnt font (TTF/OTF)' : `${found.toUpperCase()} data`}`
        : 'not a file of any known type';
  throw new ProblemError('asset_type_mismatch', {
    detail: `The body was declared ${type} but its bytes are ${what}.`,
    issues: [{ path: BODY, message: `must be a ${type} file (its first bytes say otherwise)`, keyword: 'contentMediaType' }],
  });
}

/** The image as stored: a PNG of 8-bit straight sRGB RGBA, orientation applied, first page only. */
export interface NormalizedImage {
  png: Buffer;
  width: number;
  height: number;
}

const invalidImage = (type: string, why: string, cause?: unknown) =>
  new ProblemError('invalid_image', {
    detail: `The ${type} body cannot be decoded: ${why}.`,
    issues: [{ path: BODY, message: `is not a complete, valid ${type} image`, keyword: 'contentMediaType' }],
    cause,
  });

/** libvips' own words for a broken file, one line, without its repetitions. */
function decoderReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const lines = [...new Set(message.split('\n').map((l) => l.trim()))].filter(Boolean);
  return lines.join('; ').slice(0, 300) || 'the decoder refused it';
}

/** An APNG (a PNG with an `acTL` chunk before its image data) is animated; libvips would read its first frame only. */
function isAnimatedPng(b: Buffer): boolean {
  let offset = 8;
  while (offset + 8 <= b.length) {
    const length = b.readUInt32BE(offset);
    const type = b.toString('latin1', offset + 4, offset + 8);
    if (type === 'acTL') return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    offset += 12 + length;
  }
  return false;
}

/**
 * Decodes an uploaded image once and returns its normalized form. Before any pixel is decoded the
 * header is read: sides of at least 1 and at most `maxPixels` pixels (413 `image_too_large`, so a
 * tiny file declaring 100000×100000 is refused unread), one frame only (400 `animated_image`).
 * Decoding fails on any warning (a truncated or corrupt file: 400 `invalid_image`); sharp's
 * `limitInputPixels` holds the same pixel limit as a second guard.
 */
export async function normalizeImage(
  type: AssetMediaType,
  bytes: Uint8Array,
  limits: Pick<AssetLimits, 'maxPixels'>,
): Promise<NormalizedImage> {
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const options: SharpOptions = { limitInputPixels: limits.maxPixels, failOn: 'warning', sequentialRead: true };
  let meta: Metadata;
  try {
    meta = await sharp(input, options).metadata();
  } catch (err) {
    if (/pixel limit/i.test(decoderReason(err))) throw tooManyPixels(undefined, undefined, limits.maxPixels);
    throw invalidImage(type, decoderReason(err), err);
  }
  const { width, height } = meta;
  if (!width || !height || width < 1 || height < 1) throw invalidImage(type, 'its header declares no size');
  if (width * height > limits.maxPixels) throw tooManyPixels(width, height, limits.maxPixels);
  if ((meta.pages ?? 1) > 1 || (type === 'image/png' && isAnimatedPng(input)))
    throw new ProblemError('animated_image', {
      detail: `The ${type} body is animated (${meta.pages ?? 'several'} frames); assets are still images: upload one frame.`,
      issues: [{ path: BODY, message: 'must be a still image (one frame)', keyword: 'animated' }],
    });
  let raw: { data: Buffer; info: OutputInfo };
  try {
    raw = await sharp(input, { ...options, pages: 1 })
      .autoOrient()
      .toColourspace('srgb')
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
  } catch (err) {
    if (/pixel limit/i.test(decoderReason(err))) throw tooManyPixels(width, height, limits.maxPixels);
    throw invalidImage(type, decoderReason(err), err);
  }
  const { info } = raw;
  if (info.channels !== 4 || raw.data.length !== info.width * info.height * 4)
    throw invalidImage(type, `it decoded to ${info.channels} channels`);
  const png = await sharp(raw.data, { raw: { width: info.width, height: info.height, channels: 4 } })
    .png({ compressionLevel: 6, adaptiveFiltering: false, palette: false })
    .toBuffer();
  return { png, width: info.width, height: info.height };
}

function tooManyPixels(width: number | undefined, height: number | undefined, maxPixels: number): ProblemError {
  const size = width && height ? `${width}×${height} (${width * height} pixels)` : 'larger than the limit';
  return new ProblemError('image_too_large', {
    detail: `The image is ${size}; an image asset may have at most ${maxPixels} pixels (width × height, read from its header).`,
    issues: [{ path: BODY, message: `must have at most ${maxPixels} pixels`, keyword: 'maximum' }],
    extra: { limit: maxPixels },
  });
}

/**
 * The pixels of a stored (normalized) image: straight, not premultiplied, 8-bit sRGB RGBA, width ×
 * height × 4 bytes. A PNG decodes to the same bytes on every CPU, so a template renders the same.
 */
export async function decodeNormalizedImage(png: Buffer): Promise<{ width: number; height: number; rgba: Uint8Array }> {
  const { data, info } = await sharp(png, { failOn: 'error' }).ensureAlpha().raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  if (info.channels !== 4) throw new Error(`a normalized image decoded to ${info.channels} channels`);
  return { width: info.width, height: info.height, rgba: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}
