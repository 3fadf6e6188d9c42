// Which bundled font draws each grapheme, decided in JavaScript before anything is drawn (the
// machine's fonts are never consulted: text is shaped by HarfBuzz in WebAssembly and drawn as
// paths, lib/shaper.ts). Pure JS apart from that: the HTTP process uses it to refuse text no
// bundled font has (400 unsupported_characters), the render threads to split text into runs of
// one font file each.
//
// The text fonts are npm packages of the Fontsource project, all under the SIL Open Font License
// 1.1: Space Grotesk (Latin, Latin Extended, Vietnamese), Noto Sans (Greek, Cyrillic and what Space
// Grotesk lacks of Latin), Noto Sans Arabic, Hebrew, Devanagari and Thai, Noto Sans SC, JP and KR
// (CJK and Hangul, split by Fontsource into ~100 small files each, loaded only when a text has one
// of their characters). Emoji come from Twemoji as a COLR font (twemoji-colr-font, OFL 1.1: every
// sequence one glyph of flat colour layers) or, in the monochrome style and for characters whose
// default presentation is text (❤ without U+FE0F), from Noto Emoji. Coverage comes from each file's
// own cmap table (read once from the WOFF2 file), with the package's unicode-range as a quick filter.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { brotliDecompressSync } from 'node:zlib';
import { isEmojiPresentation, isExtendedPictographic } from 'unicode-segmenter/emoji';
import { splitGraphemes } from './graphemes.ts';

const require = createRequire(import.meta.url);

/** 100..900 in steps of 100; each family draws with the nearest weight it ships (social-card uses 400 and 700). */
export type FontWeight = number;
/** Emoji in colour (Twemoji) or drawn in the text's colour (Noto Emoji). */
export type EmojiStyle = 'color' | 'monochrome';

/** One font file (a Fontsource subset of one weight, or the Twemoji font). */
export interface FontFace {
  /** A unique name for the file, used in messages and caches. */
  readonly alias: string;
  /** Absolute path of the WOFF2 file. */
  readonly file: string;
  /** The subset's unicode-range from the package: a character outside it is not in the file. */
  readonly ranges: ReadonlyArray<readonly [number, number]>;
  /** A colour font (COLR/CPAL layers): its glyphs carry their own colours. */
  readonly color: boolean;
  /**
   * The font's bytes, for a face that is not a bundled file (a template's uploaded font: sfnt, or
   * WOFF2): `file` is then only its unique name (`asset:<sha256>`), never read from disk.
   */
  readonly data?: Uint8Array;
}

interface FontFamilySource {
  /** Short name used in aliases, e.g. "Noto Sans Arabic". */
  readonly name: string;
  /** npm package, e.g. @fontsource/noto-sans-arabic. */
  readonly pkg: string;
  /** File name prefix in the package's files/ folder. */
  readonly prefix: string;
  /** Subsets to use, in order; 'numbered' takes every [n] subset (CJK, emoji). */
  readonly subsets: readonly string[] | 'numbered';
  /** The lightest and heaviest weight the package ships (default 100..900). */
  readonly weights?: readonly [number, number];
}

// The order is the order of preference: a character is drawn by the first font that has it.
const LATIN: FontFamilySource = {
  name: 'Space Grotesk',
  pkg: '@fontsource/space-grotesk',
  prefix: 'space-grotesk',
  // The subsets with precomposed accented letters first: a face that has only the base letter and
  // the accent as a separate mark (the latin subset for Vietnamese "ế") would draw it decomposed.
  subsets: ['vietnamese', 'latin-ext', 'latin'],
  weights: [300, 700],
};
const NOTO_SANS: FontFamilySource = {
  name: 'Noto Sans',
  pkg: '@fontsource/noto-sans',
  prefix: 'noto-sans',
  subsets: ['greek', 'greek-ext', 'cyrillic', 'cyrillic-ext', 'vietnamese', 'latin-ext', 'latin'],
};
const single = (name: string, script: string): FontFamilySource => ({
  name,
  pkg: `@fontsource/${name.toLowerCase().replace(/ /g, '-')}`,
  prefix: name.toLowerCase().replace(/ /g, '-'),
  subsets: [script],
});
const ARABIC = single('Noto Sans Arabic', 'arabic');
const HEBREW = single('Noto Sans Hebrew', 'hebrew');
const DEVANAGARI = single('Noto Sans Devanagari', 'devanagari');
const THAI = single('Noto Sans Thai', 'thai');
const numbered = (name: string): FontFamilySource => ({ ...single(name, ''), subsets: 'numbered' });
const SC = numbered('Noto Sans SC');
const JP = numbered('Noto Sans JP');
const KR = numbered('Noto Sans KR');
const MONO_EMOJI = numbered('Noto Emoji');

/** Twemoji as a COLR/CPAL font: one file, every emoji and sequence a glyph of flat colour layers. */
const COLOR_EMOJI_FACE: FontFace = {
  alias: 'RS Twemoji',
  file: require.resolve('twemoji-colr-font/twemoji.woff2'),
  ranges: [[0, 0x10ffff]],
  color: true,
};

/** The bundled text families, in the order of preference (Han in Chinese forms, unless the text has kana). */
const STACK_CHINESE = [LATIN, NOTO_SANS, ARABIC, HEBREW, DEVANAGARI, THAI, SC, JP, KR];
const STACK_JAPANESE = [LATIN, NOTO_SANS, ARABIC, HEBREW, DEVANAGARI, THAI, JP, SC, KR];

/**
 * Format characters that select a form rather than draw one: the zero-width joiner and non-joiner
 * (emoji sequences, Arabic, Devanagari), the text/emoji variation selectors and the bidi marks.
 * HarfBuzz hides them in whichever bundled font draws their neighbours; they need no glyph.
 */
const FORMAT_CHARACTERS = new Set([0x200c, 0x200d, 0x200e, 0x200f, 0xfe0e, 0xfe0f]);

/** Texts with any of these are Japanese: their Han characters take the Japanese forms. */
const KANA = /[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]/u;

function parseUnicodeRange(css: string): Array<[number, number]> {
  return css.split(',').map((part) => {
    const s = part.trim().replace(/^U\+/i, '');
    if (s.includes('?')) return [parseInt(s.replace(/\?/g, '0'), 16), parseInt(s.replace(/\?/g, 'f'), 16)];
    const [a, b] = s.split('-');
    return [parseInt(a, 16), parseInt(b ?? a, 16)];
  });
}

const facesCache = new Map<string, FontFace[]>();

/** The weight of `source` that draws `weight`: the nearest it ships, in steps of 100. */
function nearestWeight(source: FontFamilySource, weight: FontWeight): number {
  const [lightest, heaviest] = source.weights ?? [100, 900];
  return Math.min(heaviest, Math.max(lightest, Math.round(weight / 100) * 100));
}

function facesOf(source: FontFamilySource, weight: FontWeight): FontFace[] {
  // Noto Emoji draws every emoji at one weight; the 400 files are the regular ones.
  const w = source === MONO_EMOJI ? 400 : nearestWeight(source, weight);
  const key = `${source.pkg}/${w}`;
  let faces = facesCache.get(key);
  if (faces) return faces;
  const unicode = require(`${source.pkg}/unicode.json`) as Record<string, string>;
  const subsets =
    source.subsets === 'numbered'
      ? Object.keys(unicode)
          .filter((k) => /^\[\d+\]$/.test(k))
          .map((k) => k.slice(1, -1))
          .sort((a, b) => Number(a) - Number(b))
      : source.subsets;
  faces = subsets.map((subset) => {
    const range = unicode[source.subsets === 'numbered' ? `[${subset}]` : subset];
    if (range === undefined) throw new Error(`${source.pkg} has no subset ${subset}`);
    return {
      alias: `RS ${source.name} ${w} ${subset}`,
      file: require.resolve(`${source.pkg}/files/${source.prefix}-${subset}-${w}-normal.woff2`),
      ranges: parseUnicodeRange(range),
      color: false,
    };
  });
  facesCache.set(key, faces);
  return faces;
}

const inRanges = (ranges: FontFace['ranges'], cp: number) => ranges.some(([a, b]) => cp >= a && cp <= b);

// ---- The cmap of a WOFF2 file --------------------------------------------------------------

const cmapCache = new Map<string, ReadonlySet<number>>();

/** The code points a font file maps to a glyph other than .notdef (read once per file and thread). */
export function codePointsOf(file: string): ReadonlySet<number> {
  let set = cmapCache.get(file);
  if (!set) {
    set = parseCmap(cmapTableOfWoff2(readFileSync(file)));
    cmapCache.set(file, set);
  }
  return set;
}

/**
 * The code points a face maps to a glyph: a bundled file's (codePointsOf), or those of a face that
 * carries its bytes (an uploaded sfnt or WOFF2 font), read once per name and thread.
 */
export function codePointsOfFace(face: FontFace): ReadonlySet<number> {
  if (!face.data) return codePointsOf(face.file);
  let set = cmapCache.get(face.file);
  if (!set) {
    const buf = Buffer.from(face.data.buffer, face.data.byteOffset, face.data.byteLength);
    set = parseCmap(buf.toString('latin1', 0, 4) === 'wOF2' ? cmapTableOfWoff2(buf) : cmapTableOfSfnt(buf));
    cmapCache.set(face.file, set);
    // Uploaded fonts come and go: only the last few are kept.
    cmapsFromBytes.push(face.file);
    if (cmapsFromBytes.length > 64) cmapCache.delete(cmapsFromBytes.shift()!);
  }
  return set;
}

const cmapsFromBytes: string[] = [];

/** The raw cmap table of an sfnt font (TrueType or CFF outlines): its table directory names it. */
export function cmapTableOfSfnt(buf: Buffer): Buffer {
  const flavor = buf.toString('latin1', 0, 4);
  if (flavor === 'ttcf') throw new Error('font collections are not supported');
  if (flavor !== 'OTTO' && flavor !== 'true' && buf.readUInt32BE(0) !== 0x00010000) throw new Error('not an sfnt font');
  const numTables = buf.readUInt16BE(4);
  for (let t = 0; t < numTables; t++) {
    const at = 12 + t * 16;
    if (buf.toString('latin1', at, at + 4) !== 'cmap') continue;
    const offset = buf.readUInt32BE(at + 8);
    const length = buf.readUInt32BE(at + 12);
    if (offset + length > buf.length) throw new Error('the font is truncated');
    return buf.subarray(offset, offset + length);
  }
  throw new Error('the font has no cmap table');
}

/** The raw cmap table of a WOFF2 font (W3C WOFF2 §4–5: a table directory, then one Brotli stream). */
export function cmapTableOfWoff2(buf: Buffer): Buffer {
  if (buf.toString('latin1', 0, 4) !== 'wOF2') throw new Error('not a WOFF2 file');
  const numTables = buf.readUInt16BE(12);
  const compressedSize = buf.readUInt32BE(20);
  let pos = 48;
  const base128 = () => {
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const byte = buf[pos++];
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) return value;
    }
    throw new Error('bad UIntBase128');
  };
  let offset = 0;
  let cmap: { offset: number; length: number } | undefined;
  for (let t = 0; t < numTables; t++) {
    const flags = buf[pos++];
    const tagIndex = flags & 0x3f;
    let tag = '';
    if (tagIndex === 63) {
      tag = buf.toString('latin1', pos, pos + 4);
      pos += 4;
    }
    const transform = flags >> 6;
    const isGlyfOrLoca = tagIndex === 10 || tagIndex === 11 || tag === 'glyf' || tag === 'loca';
    const origLength = base128();
    const transformed = isGlyfOrLoca ? transform !== 3 : transform !== 0;
    const length = transformed ? base128() : origLength;
    if (tagIndex === 0 || tag === 'cmap') cmap = { offset, length };
    offset += length;
  }
  if (!cmap) throw new Error('the font has no cmap table');
  const flavor = buf.toString('latin1', 4, 8);
  if (flavor === 'ttcf') throw new Error('font collections are not supported');
  const tables = brotliDecompressSync(buf.subarray(pos, pos + compressedSize));
  return tables.subarray(cmap.offset, cmap.offset + cmap.length);
}

/** Code points of the best Unicode subtable: format 12 (full repertoire) if present, else format 4 (BMP). */
export function parseCmap(cmap: Buffer): Set<number> {
  const count = cmap.readUInt16BE(2);
  let best: { offset: number; format: number } | undefined;
  for (let i = 0; i < count; i++) {
    const platform = cmap.readUInt16BE(4 + i * 8);
    const encoding = cmap.readUInt16BE(6 + i * 8);
    const offset = cmap.readUInt32BE(8 + i * 8);
    const format = cmap.readUInt16BE(offset);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode || (format !== 4 && format !== 12)) continue;
    if (!best || (format === 12 && best.format !== 12)) best = { offset, format };
  }
  const set = new Set<number>();
  if (!best) return set;
  const o = best.offset;
  if (best.format === 12) {
    const groups = cmap.readUInt32BE(o + 12);
    for (let g = 0; g < groups; g++) {
      const start = cmap.readUInt32BE(o + 16 + g * 12);
      const end = cmap.readUInt32BE(o + 20 + g * 12);
      const glyph = cmap.readUInt32BE(o + 24 + g * 12);
      for (let cp = start; cp <= end; cp++) if (glyph + (cp - start) !== 0) set.add(cp);
    }
    return set;
  }
  const segX2 = cmap.readUInt16BE(o + 6);
  const ends = o + 14;
  const starts = ends + segX2 + 2;
  const deltas = starts + segX2;
  const rangeOffsets = deltas + segX2;
  for (let s = 0; s < segX2 / 2; s++) {
    const end = cmap.readUInt16BE(ends + s * 2);
    const start = cmap.readUInt16BE(starts + s * 2);
    const delta = cmap.readInt16BE(deltas + s * 2);
    const ro = cmap.readUInt16BE(rangeOffsets + s * 2);
    for (let cp = start; cp <= end && cp !== 0xffff; cp++) {
      let glyph: number;
      if (ro === 0) glyph = (cp + delta) & 0xffff;
      else {
        const at = rangeOffsets + s * 2 + ro + (cp - start) * 2;
        glyph = cmap.readUInt16BE(at);
        if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
      }
      if (glyph !== 0) set.add(cp);
    }
  }
  return set;
}

// ---- Text → fonts ----------------------------------------------------------------------------

function drawnCodePoints(cluster: string): number[] {
  return Array.from(cluster, (c) => c.codePointAt(0)!).filter((cp) => !FORMAT_CHARACTERS.has(cp));
}

const isRegionalIndicator = (cp: number) => cp >= 0x1f1e6 && cp <= 0x1f1ff;
const isSkinTone = (cp: number) => cp >= 0x1f3fb && cp <= 0x1f3ff;
const isTag = (cp: number) => cp >= 0xe0020 && cp <= 0xe007f;

/**
 * Whether a grapheme is drawn as an emoji (Unicode TR51's presentation rules): U+FE0F asks for it,
 * U+FE0E refuses it; keycaps, flags, skin tones, tag sequences and ZWJ sequences of pictographs are
 * emoji; a lone character is one when its default presentation is (🚀 yes, ❤ and © no). The data
 * is unicode-segmenter's, pinned with the package, not the runtime's ICU.
 */
export function isEmojiGrapheme(cluster: string): boolean {
  const cps = Array.from(cluster, (c) => c.codePointAt(0)!);
  if (cps.includes(0xfe0e)) return false;
  if (cps.some((cp) => cp === 0xfe0f || cp === 0x20e3 || isRegionalIndicator(cp) || isSkinTone(cp) || isTag(cp))) return true;
  if (cps.includes(0x200d) && cps.filter(isExtendedPictographic).length > 1) return true;
  return cps.length === 1 && isEmojiPresentation(cps[0]);
}

/**
 * Spaces, digits and punctuation that every script shares: they stay in the face of the text
 * before them when it has them (as a browser keeps the current font), so "مرحبا، 2024" is one run.
 */
function isShared(cp: number): boolean {
  return (
    (cp >= 0x20 && cp <= 0x40) ||
    (cp >= 0x5b && cp <= 0x60) ||
    (cp >= 0x7b && cp <= 0x7e) ||
    (cp >= 0xa0 && cp <= 0xbf) ||
    cp === 0xd7 ||
    cp === 0xf7 ||
    (cp >= 0x2000 && cp <= 0x206f) ||
    (cp >= 0x3000 && cp <= 0x3003) ||
    (cp >= 0x3008 && cp <= 0x3011) ||
    (cp >= 0xff01 && cp <= 0xff0f) ||
    (cp >= 0xff1a && cp <= 0xff20)
  );
}

function faceHas(face: FontFace, cps: readonly number[]): boolean {
  if (!cps.every((cp) => inRanges(face.ranges, cp))) return false;
  const has = codePointsOfFace(face);
  return cps.every((cp) => has.has(cp));
}

/**
 * The first face of `sources` in which every character of the grapheme has a glyph — as typed,
 * composed (NFC) or decomposed (NFD), since HarfBuzz composes and decomposes to find one.
 */
function firstFace(sources: readonly FontFamilySource[], weight: FontWeight, forms: readonly number[][]): FontFace | undefined {
  for (const source of sources) for (const face of facesOf(source, weight)) for (const cps of forms) if (faceHas(face, cps)) return face;
  return undefined;
}

/** The family order for a card whose texts are these (all its fields, so they agree). */
export function stackFor(texts: readonly string[]): readonly FontFamilySource[] {
  return texts.some((t) => KANA.test(t)) ? STACK_JAPANESE : STACK_CHINESE;
}

export type FontStack = ReturnType<typeof stackFor>;

/** The bundled text families by name, as a template names them (`font.family`). */
export const BUNDLED_FAMILIES: readonly string[] = STACK_CHINESE.map((f) => f.name);

const familyStacks = new Map<string, FontStack>();
const stackIds = new Map<FontStack, string>([
  [STACK_JAPANESE, 'ja'],
  [STACK_CHINESE, 'zh'],
]);

/**
 * The stack of texts set in a bundled family: that family first, then the others in their usual
 * order for what it lacks (Han in Japanese forms when a text has kana). Unknown names throw.
 */
export function familyStack(family: string, texts: readonly string[]): FontStack {
  const base = stackFor(texts);
  const key = `${stackIds.get(base)}\u0000${family}`;
  let stack = familyStacks.get(key);
  if (!stack) {
    const first = base.find((f) => f.name === family);
    if (!first) throw new Error(`no bundled font family is named "${family}"`);
    stack = first === base[0] ? base : [first, ...base.filter((f) => f !== first)];
    familyStacks.set(key, stack);
    if (!stackIds.has(stack)) stackIds.set(stack, key);
  }
  return stack;
}

/** A short name of a stack, for caches. */
export const stackId = (stack: FontStack): string => stackIds.get(stack) ?? stack.map((f) => f.name).join(',');

/** The first face of a stack's first family at a weight (whose metrics place a text's lines). */
export function leadingFace(stack: FontStack, weight: FontWeight): FontFace {
  return facesOf(stack[0], weight)[0];
}

/**
 * A face from a font's bytes (an uploaded sfnt — TrueType or CFF outlines — or WOFF2), named by a
 * key unique to those bytes (the asset's sha256): HarfBuzz shapes it and its cmap says what it
 * draws, as for the bundled files.
 */
export function fontFaceFromBytes(key: string, data: Uint8Array): FontFace {
  return { alias: `asset ${key.slice(0, 16)}`, file: `asset:${key}`, ranges: [[0, 0x10ffff]], color: false, data };
}

/** What draws a text: its fonts, and how. */
export interface TextFace {
  readonly weight: FontWeight;
  readonly stack: FontStack;
  readonly emoji: EmojiStyle;
  /** Faces tried before the stack (a template's uploaded font); the stack draws what they lack. */
  readonly primary?: readonly FontFace[];
}

/** A stretch of text drawn from one font file; `start` is its offset (UTF-16) in the text. */
export interface FontRun {
  readonly start: number;
  readonly text: string;
  readonly face: FontFace;
  /** An emoji run: every grapheme of it must be one glyph of the face. */
  readonly emoji: boolean;
}

/**
 * Which face draws one grapheme: null when it is only format characters (drawn with a neighbour),
 * undefined when no bundled face has it.
 */
function faceForGrapheme(cluster: string, style: TextFace, previous: FontFace | undefined): FontFace | null | undefined {
  const forms = [...new Set([cluster.normalize('NFC'), cluster, cluster.normalize('NFD')])].map(drawnCodePoints);
  if (forms[0].length === 0) return null;
  if (isEmojiGrapheme(cluster)) {
    // A sequence is drawn whole or not at all: the shaper checks that it is one glyph.
    const cps = Array.from(cluster, (c) => c.codePointAt(0)!).filter((cp) => cp !== 0xfe0f && cp !== 0x200d);
    if (style.emoji === 'color') return faceHas(COLOR_EMOJI_FACE, cps) ? COLOR_EMOJI_FACE : undefined;
    return firstFace([MONO_EMOJI], style.weight, [cps]);
  }
  // The subsets carry the space and no-break space beyond their unicode-range: their own cmap says.
  if (previous && !previous.color && forms[0].every(isShared) && forms[0].every((cp) => codePointsOfFace(previous).has(cp)))
    return previous;
  for (const face of style.primary ?? []) for (const cps of forms) if (faceHas(face, cps)) return face;
  return firstFace(style.stack, style.weight, forms) ?? firstFace([MONO_EMOJI], style.weight, forms);
}

/**
 * Splits a text (one line, in logical order) into runs of one face each, and lists the graphemes
 * no bundled face has. Format characters (ZWJ, variation selectors, bidi marks) join the run
 * around them.
 */
export function fontRuns(text: string, style: TextFace): { runs: FontRun[]; missing: string[] } {
  const runs: Array<{ start: number; text: string; face: FontFace | null; emoji: boolean }> = [];
  const missing: string[] = [];
  let offset = 0;
  let previous: FontFace | undefined;
  for (const cluster of splitGraphemes(text)) {
    const found = faceForGrapheme(cluster, style, previous);
    const emoji = !!found && isEmojiGrapheme(cluster);
    if (found === undefined) {
      if (!missing.includes(cluster)) missing.push(cluster);
    } else {
      const last = runs[runs.length - 1];
      if (last && (found === null || last.face === null || (last.face === found && last.emoji === emoji))) {
        last.text += cluster;
        if (last.face === null) {
          last.face = found;
          last.emoji = emoji;
        }
      } else runs.push({ start: offset, text: cluster, face: found, emoji });
      if (found) previous = found;
    }
    offset += cluster.length;
  }
  // A text of format characters alone draws nothing.
  return { runs: runs.filter((r): r is FontRun => r.face !== null), missing };
}

/** "é" (U+0065 U+0301): how a refused grapheme is named in a problem. */
export function describeGrapheme(cluster: string): string {
  const codes = Array.from(cluster, (c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
  const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Co}]+$/u.test(cluster) ? `"${cluster}" ` : '';
  return `${printable}(${codes.join(' ')})`;
}

/** The scripts and symbols the bundled fonts cover, for documentation and messages. */
export const COVERED_SCRIPTS =
  'Latin (with Vietnamese), Greek, Cyrillic, Arabic, Hebrew, Devanagari, Thai, Chinese (Simplified), Japanese, Korean and emoji (Twemoji 15.0, in colour or monochrome)';
