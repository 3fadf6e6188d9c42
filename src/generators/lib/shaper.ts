// Text shaping and glyph outlines from HarfBuzz compiled to WebAssembly (harfbuzzjs), reading only
// the bundled font files (lib/font-coverage.ts). Skia never sees text: it fills the outlines as
// paths (lib/text-setter.ts), so no font of the machine can reach a picture, not even through
// Skia's fallback for an emoji sequence. WebAssembly's arithmetic is the same on every CPU,
// architecture and Node version (no fused multiply-add, no CPU dispatch), so shaping and outlines
// are too. Fonts are WOFF2 files, unpacked once per thread by Google's woff2 decoder, also
// WebAssembly (wawoff2).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as HarfBuzz from 'harfbuzzjs';
import type { FontFace } from './font-coverage.ts';

const require = createRequire(import.meta.url);

interface Woff2Binding {
  decompress(woff2: Uint8Array): Uint8Array | false;
}
// wawoff2's decompress() awaits its runtime once; after that the binding answers synchronously,
// which drawing needs (a CJK text loads the subset files it uses while it is set).
const firstFont = require.resolve('@fontsource/space-grotesk/files/space-grotesk-latin-400-normal.woff2');
let woff2: Woff2Binding | undefined;
let firstSfnt: Uint8Array | undefined;
let hb: typeof HarfBuzz | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads HarfBuzz and the WOFF2 decoder (both WebAssembly) on its first call, once per thread, and
 * settles when they are ready; await it before the first shape — a generator registry's ready()
 * does, for the generators that set text. Nothing loads on import: a render without text (and the
 * CLI's --version) never pays for them. This module has no top-level await: a module graph with one
 * cannot be loaded by require(), which is how a render worker thread loads its module.
 */
export function shaperReady(): Promise<void> {
  loading ??= (async () => {
    const startWoff2 = require('wawoff2/decompress.js') as (woff2: Uint8Array) => Promise<Uint8Array>;
    woff2 = require('wawoff2/build/decompress_binding.js') as Woff2Binding;
    // A copy, taken as the decode settles: the decoder's result is a view of its own memory, which
    // its next call overwrites (the import of HarfBuzz may still take a while).
    const [lib, sfnt] = await Promise.all([
      import('harfbuzzjs'),
      startWoff2(readFileSync(firstFont)).then((view) => Uint8Array.from(view)),
    ]);
    firstSfnt = sfnt;
    hb = lib;
  })();
  return loading;
}

function harfbuzz(): typeof HarfBuzz {
  if (!hb) throw new Error('the text shaper is not loaded yet: await shaperReady() (or a generator registry’s ready()) first');
  return hb;
}

/** One path command in font units, y up: M x y · L x y · Q cx cy x y · C c1x c1y c2x c2y x y · Z. */
export type PathCommand = readonly [type: 'M' | 'L' | 'Q' | 'C' | 'Z', ...coordinates: number[]];

/** A glyph as HarfBuzz placed it, in font units. */
export interface ShapedGlyph {
  readonly gid: number;
  /** UTF-16 offset in the shaped text of the first character the glyph draws. */
  readonly cluster: number;
  readonly advance: number;
  readonly dx: number;
  readonly dy: number;
}

/** A colour glyph's layer: an outline and its colour (#rrggbbaa), or null for the text's colour. */
export interface ColorLayer {
  readonly gid: number;
  readonly color: string | null;
}

interface LoadedFace {
  readonly font: HarfBuzz.Font;
  readonly face: HarfBuzz.Face;
  readonly upem: number;
  readonly outlines: Map<number, PathCommand[]>;
  readonly palette: string[];
}

const loaded = new Map<string, LoadedFace>();
/**
 * Faces from bytes (uploaded fonts) kept loaded at once, per thread: the oldest is let go beyond
 * this (harfbuzzjs frees a face when it is collected; it loads again when a text needs it).
 */
const MAX_FACES_FROM_BYTES = 16;
const fromBytes: string[] = [];

function load(face: FontFace): LoadedFace {
  let l = loaded.get(face.file);
  if (l) return l;
  const hb = harfbuzz();
  const sfnt = face.data ? sfntOf(face.data) : face.file === firstFont ? firstSfnt : woff2!.decompress(readFileSync(face.file));
  if (!sfnt) throw new Error(`could not unpack ${face.file}`);
  const hbFace = new hb.Face(new hb.Blob(sfnt));
  const palette = hbFace.hasColorPalettes()
    ? hbFace
        .getColorPalettes()[0]
        .colors.map((c) => '#' + [c.red, c.green, c.blue, c.alpha].map((v) => v.toString(16).padStart(2, '0')).join(''))
    : [];
  l = { font: new hb.Font(hbFace), face: hbFace, upem: hbFace.upem, outlines: new Map(), palette };
  loaded.set(face.file, l);
  if (face.data) {
    fromBytes.push(face.file);
    if (fromBytes.length > MAX_FACES_FROM_BYTES) loaded.delete(fromBytes.shift()!);
  }
  return l;
}

/** The sfnt of a face's own bytes: as they are, or unpacked when they are WOFF2. */
function sfntOf(data: Uint8Array): Uint8Array | false {
  const woff2Signature = data[0] === 0x77 && data[1] === 0x4f && data[2] === 0x46 && data[3] === 0x32; // wOF2
  return woff2Signature ? woff2!.decompress(data) : data;
}

/** Font units per em of a face. */
export function unitsPerEm(face: FontFace): number {
  return load(face).upem;
}

/** The face's ascender and descender (descender negative), in ems. */
export function verticalMetrics(face: FontFace): { ascender: number; descender: number } {
  const l = load(face);
  const e = l.font.hExtents();
  return { ascender: e.ascender / l.upem, descender: e.descender / l.upem };
}

// Language tags select a font's local forms; the CJK faces' own, and "und" elsewhere, so nothing
// depends on the locale the WebAssembly runtime starts in.
const LANGUAGE: Array<[RegExp, string]> = [
  [/ JP /, 'ja'],
  [/ SC /, 'zh-Hans'],
  [/ KR /, 'ko'],
];

const shapedCache = new Map<string, ShapedGlyph[]>();
const SHAPED_CACHE_LIMIT = 4096;

/**
 * Shapes one run (one face, one direction). The glyphs come in visual order, left to right;
 * default-ignorable characters (ZWJ, variation selectors, bidi marks) leave no glyph.
 */
export function shape(face: FontFace, text: string, rtl: boolean): ShapedGlyph[] {
  const key = `${face.file}\u0000${rtl ? 1 : 0}\u0000${text}`;
  const cached = shapedCache.get(key);
  if (cached) return cached;
  const l = load(face);
  const hb = harfbuzz();
  const buffer = new hb.Buffer();
  buffer.addText(text);
  buffer.setDirection(rtl ? hb.Direction.RTL : hb.Direction.LTR);
  buffer.setLanguage(LANGUAGE.find(([re]) => re.test(face.alias))?.[1] ?? 'und');
  buffer.setFlags(hb.BufferFlag.BOT | hb.BufferFlag.EOT | hb.BufferFlag.REMOVE_DEFAULT_IGNORABLES);
  buffer.guessSegmentProperties();
  hb.shape(l.font, buffer);
  const glyphs = buffer.getGlyphInfosAndPositions().map((g) => ({
    gid: g.codepoint,
    cluster: g.cluster,
    advance: g.xAdvance ?? 0,
    dx: g.xOffset ?? 0,
    dy: g.yOffset ?? 0,
  }));
  if (shapedCache.size >= SHAPED_CACHE_LIMIT) shapedCache.clear();
  shapedCache.set(key, glyphs);
  return glyphs;
}

let drawing: PathCommand[] = [];
let drawFuncs: HarfBuzz.DrawFuncs | undefined;

function outlineCollector(): HarfBuzz.DrawFuncs {
  if (drawFuncs) return drawFuncs;
  drawFuncs = new (harfbuzz().DrawFuncs)();
  drawFuncs.setMoveToFunc((x, y) => drawing.push(['M', x, y]));
  drawFuncs.setLineToFunc((x, y) => drawing.push(['L', x, y]));
  drawFuncs.setQuadraticToFunc((cx, cy, x, y) => drawing.push(['Q', cx, cy, x, y]));
  drawFuncs.setCubicToFunc((c1x, c1y, c2x, c2y, x, y) => drawing.push(['C', c1x, c1y, c2x, c2y, x, y]));
  drawFuncs.setClosePathFunc(() => drawing.push(['Z']));
  return drawFuncs;
}

/** A glyph's outline in font units (y up), read once per thread. */
export function glyphOutline(face: FontFace, gid: number): readonly PathCommand[] {
  const l = load(face);
  let outline = l.outlines.get(gid);
  if (!outline) {
    drawing = [];
    l.font.drawGlyph(gid, outlineCollector());
    outline = drawing;
    l.outlines.set(gid, outline);
  }
  return outline;
}

/** A COLR glyph's layers, bottom first (empty for a glyph without colour layers). */
export function colorLayers(face: FontFace, gid: number): ColorLayer[] {
  const l = load(face);
  return l.face.getGlyphColorLayers(gid).map((layer) => ({
    gid: layer.glyph,
    color: layer.colorIndex === undefined || layer.colorIndex === 0xffff ? null : l.palette[layer.colorIndex],
  }));
}

/** Whether the face draws this grapheme as exactly one glyph (an emoji sequence it has whole). */
export function drawsAsOneGlyph(face: FontFace, grapheme: string): boolean {
  const glyphs = shape(face, grapheme, false);
  return glyphs.length === 1 && glyphs[0].gid !== 0;
}
