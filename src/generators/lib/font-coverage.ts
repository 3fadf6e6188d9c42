// Which bundled font draws each character, decided in JavaScript before anything is drawn, so
// Skia never falls back to a font of the machine (issue 30). Pure JS (no canvas): the HTTP process
// uses it to refuse text no bundled font has (400 unsupported_characters) and the render threads to
// pick and register exactly the font files a text needs (lib/font.ts).
//
// The fonts are npm packages of the Fontsource project, all under the SIL Open Font License 1.1:
// Space Grotesk (Latin, Latin Extended, Vietnamese), Noto Sans (Greek, Cyrillic and what Space
// Grotesk lacks of Latin), Noto Sans Arabic, Noto Sans Hebrew, Noto Sans Devanagari, Noto Sans SC
// and Noto Sans JP (CJK, split by Fontsource into ~100 small files each, loaded only when a text
// has one of their characters) and Noto Emoji (monochrome). Coverage comes from each file's own
// cmap table (read once from the WOFF2 file), with the package's unicode-range as a quick filter.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { brotliDecompressSync } from 'node:zlib';

const require = createRequire(import.meta.url);

export type FontWeight = 400 | 700;

/** One font file (a Fontsource subset of one weight), registered with Skia under `alias`. */
export interface FontFace {
  /** The unique family name the file is registered under; no installed font has it. */
  readonly alias: string;
  /** Absolute path of the WOFF2 file. */
  readonly file: string;
  /** The subset's unicode-range from the package: a character outside it is not in the file. */
  readonly ranges: ReadonlyArray<readonly [number, number]>;
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
}

// The order is the order of preference: a character is drawn by the first font that has it.
const LATIN: FontFamilySource = {
  name: 'Space Grotesk',
  pkg: '@fontsource/space-grotesk',
  prefix: 'space-grotesk',
  // The subsets with precomposed accented letters first: Skia takes the first face in which HarfBuzz
  // finds glyphs, and a face that has only the base letter and the accent as a separate mark (the
  // latin subset for Vietnamese "ế") would draw it decomposed, the accent misplaced.
  subsets: ['vietnamese', 'latin-ext', 'latin'],
};
const NOTO_SANS: FontFamilySource = {
  name: 'Noto Sans',
  pkg: '@fontsource/noto-sans',
  prefix: 'noto-sans',
  subsets: ['greek', 'greek-ext', 'cyrillic', 'cyrillic-ext', 'vietnamese', 'latin-ext', 'latin'],
};
const ARABIC: FontFamilySource = {
  name: 'Noto Sans Arabic',
  pkg: '@fontsource/noto-sans-arabic',
  prefix: 'noto-sans-arabic',
  subsets: ['arabic'],
};
const HEBREW: FontFamilySource = {
  name: 'Noto Sans Hebrew',
  pkg: '@fontsource/noto-sans-hebrew',
  prefix: 'noto-sans-hebrew',
  subsets: ['hebrew'],
};
const DEVANAGARI: FontFamilySource = {
  name: 'Noto Sans Devanagari',
  pkg: '@fontsource/noto-sans-devanagari',
  prefix: 'noto-sans-devanagari',
  subsets: ['devanagari'],
};
const SC: FontFamilySource = { name: 'Noto Sans SC', pkg: '@fontsource/noto-sans-sc', prefix: 'noto-sans-sc', subsets: 'numbered' };
const JP: FontFamilySource = { name: 'Noto Sans JP', pkg: '@fontsource/noto-sans-jp', prefix: 'noto-sans-jp', subsets: 'numbered' };
const EMOJI: FontFamilySource = { name: 'Noto Emoji', pkg: '@fontsource/noto-emoji', prefix: 'noto-emoji', subsets: 'numbered' };

/** The bundled families, in the order of preference (Han in Chinese forms, unless the text has kana). */
const STACK_CHINESE = [LATIN, NOTO_SANS, ARABIC, HEBREW, DEVANAGARI, SC, JP, EMOJI];
const STACK_JAPANESE = [LATIN, NOTO_SANS, ARABIC, HEBREW, DEVANAGARI, JP, SC, EMOJI];

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

function facesOf(source: FontFamilySource, weight: FontWeight): FontFace[] {
  const key = `${source.pkg}/${weight}`;
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
      alias: `RS ${source.name} ${weight} ${subset}`,
      file: require.resolve(`${source.pkg}/files/${source.prefix}-${subset}-${weight}-normal.woff2`),
      ranges: parseUnicodeRange(range),
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

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });

/** The user-perceived characters of a text (extended grapheme clusters). */
export function splitGraphemes(text: string): string[] {
  return Array.from(graphemes.segment(text), (s) => s.segment);
}

function drawnCodePoints(cluster: string): number[] {
  return Array.from(cluster, (c) => c.codePointAt(0)!).filter((cp) => !FORMAT_CHARACTERS.has(cp));
}

/**
 * Which face draws one grapheme, as Skia decides it: the first face of the list in which HarfBuzz
 * finds a glyph for every character — as typed, composed (NFC) or decomposed (NFD), since it
 * composes and decomposes to find one. null when the grapheme is only format characters (drawn by
 * a neighbour's face), undefined when no face has it.
 */
function faceForCluster(stack: readonly FontFamilySource[], weight: FontWeight, cluster: string): FontFace | null | undefined {
  const forms = [...new Set([cluster.normalize('NFC'), cluster, cluster.normalize('NFD')])].map(drawnCodePoints);
  if (forms[0].length === 0) return null;
  for (const source of stack)
    for (const face of facesOf(source, weight))
      for (const cps of forms) {
        if (!cps.every((cp) => inRanges(face.ranges, cp))) continue;
        const has = codePointsOf(face.file);
        if (cps.every((cp) => has.has(cp))) return face;
      }
  return undefined;
}

/** The family order for a card whose texts are these (all its fields, so they agree). */
export function stackFor(texts: readonly string[]): readonly FontFamilySource[] {
  return texts.some((t) => KANA.test(t)) ? STACK_JAPANESE : STACK_CHINESE;
}

export interface TextFonts {
  /** The faces the text needs, in the order of preference (for ctx.font). */
  faces: FontFace[];
  /** Graphemes no bundled font draws (empty when the text can be drawn). */
  missing: string[];
}

/** The faces that draw `text` (line breaks aside) in `weight`, and the graphemes none of them has. */
export function fontsForText(text: string, weight: FontWeight, stack: readonly FontFamilySource[]): TextFonts {
  const used = new Set<FontFace>();
  const missing: string[] = [];
  for (const cluster of new Set(splitGraphemes(text.replace(/\r\n?|\n/g, ' ')))) {
    const face = faceForCluster(stack, weight, cluster);
    if (face === undefined) missing.push(cluster);
    else if (face) used.add(face);
  }
  const order = stack.flatMap((s) => facesOf(s, weight));
  return { faces: order.filter((f) => used.has(f)), missing };
}

/** "é" (U+0065 U+0301): how a refused grapheme is named in a problem. */
export function describeGrapheme(cluster: string): string {
  const codes = Array.from(cluster, (c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
  const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Co}]+$/u.test(cluster) ? `"${cluster}" ` : '';
  return `${printable}(${codes.join(' ')})`;
}

/** The scripts and symbols the bundled fonts cover, for documentation and messages. */
export const COVERED_SCRIPTS =
  'Latin (with Vietnamese), Greek, Cyrillic, Arabic, Hebrew, Devanagari, Chinese (Simplified), Japanese and emoji (monochrome)';
