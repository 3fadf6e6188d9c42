// Sets a line of text and draws it as filled paths: fonts per grapheme (lib/font-coverage.ts), the
// bidi algorithm's visual order (lib/bidi.ts), HarfBuzz shaping and outlines (lib/shaper.ts).
// Skia is given paths and colours only — never a string, a font name or a font file — so it has
// no font to fall back to; generators may not call fillText or measureText (the linter says so).
// Widths are measured in ems, which do not depend on the size (outlines are unhinted), so a
// layout that tries many sizes shapes each line once.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { embeddingLevels, visualOrder, type Direction } from './bidi.ts';
import { fontRuns, stackId, type FontFace, type TextFace } from './font-coverage.ts';
import { splitGraphemes } from './graphemes.ts';
import { colorLayers, drawsAsOneGlyph, glyphOutline, shape, unitsPerEm, type PathCommand } from './shaper.ts';

/** A glyph placed on a line, in ems from the line's left end and its baseline (y up). */
interface PlacedGlyph {
  readonly face: FontFace;
  readonly gid: number;
  readonly x: number;
  readonly y: number;
  readonly scale: number;
}

interface LaidLine {
  /** Runs of one face each, left to right. */
  readonly runs: PlacedGlyph[][];
  readonly width: number;
}

const layouts = new Map<string, LaidLine>();
const LAYOUT_CACHE_LIMIT = 2048;

/** Lays out one line in its paragraph's direction; throws when a grapheme has no bundled face. */
function layoutLine(text: string, style: TextFace, direction: Direction): LaidLine {
  const primary = style.primary?.map((f) => f.file).join(',') ?? '';
  const key = `${style.weight}\u0000${style.emoji}\u0000${stackId(style.stack)}\u0000${primary}\u0000${direction}\u0000${text}`;
  const cached = layouts.get(key);
  if (cached) return cached;
  const { runs, missing } = fontRuns(text, style);
  if (missing.length) throw new Error(`no bundled font has ${missing.join(' ')}`);
  const levels = embeddingLevels(text, direction);
  // Runs of one face and one embedding level, in logical order, then in visual order.
  const pieces: Array<{ face: FontFace; text: string; level: number }> = [];
  for (const run of runs) {
    let from = 0;
    for (let i = 1; i <= run.text.length; i++) {
      if (i < run.text.length && levels[run.start + i] === levels[run.start + from]) continue;
      pieces.push({ face: run.face, text: run.text.slice(from, i), level: levels[run.start + from] });
      from = i;
    }
  }
  const laid: PlacedGlyph[][] = [];
  let x = 0;
  for (const piece of visualOrder(pieces)) {
    const scale = 1 / unitsPerEm(piece.face);
    const placed: PlacedGlyph[] = [];
    for (const g of shape(piece.face, piece.text, piece.level % 2 === 1)) {
      placed.push({ face: piece.face, gid: g.gid, x: x + g.dx * scale, y: g.dy * scale, scale });
      x += g.advance * scale;
    }
    laid.push(placed);
  }
  const line = { runs: laid, width: x };
  if (layouts.size >= LAYOUT_CACHE_LIMIT) layouts.clear();
  layouts.set(key, line);
  return line;
}

/** A line's width in ems. */
export function measureEm(text: string, style: TextFace, direction: Direction): number {
  return layoutLine(text, style, direction).width;
}

/** Appends an outline to the current path, placed at (x, baseline) and scaled to `size`. */
function tracePath(
  ctx: Pick<SKRSContext2D, 'moveTo' | 'lineTo' | 'quadraticCurveTo' | 'bezierCurveTo' | 'closePath'>,
  outline: readonly PathCommand[],
  x: number,
  baseline: number,
  k: number,
): void {
  for (const [op, ...c] of outline) {
    if (op === 'M') ctx.moveTo(x + c[0] * k, baseline - c[1] * k);
    else if (op === 'L') ctx.lineTo(x + c[0] * k, baseline - c[1] * k);
    else if (op === 'Q') ctx.quadraticCurveTo(x + c[0] * k, baseline - c[1] * k, x + c[2] * k, baseline - c[3] * k);
    else if (op === 'C')
      ctx.bezierCurveTo(x + c[0] * k, baseline - c[1] * k, x + c[2] * k, baseline - c[3] * k, x + c[4] * k, baseline - c[5] * k);
    else ctx.closePath();
  }
}

export interface LinePlacement {
  /** The line's start edge: its left end when left to right, its right end when right to left. */
  readonly x: number;
  readonly baseline: number;
  readonly size: number;
  readonly direction: Direction;
  /** The text's colour, which monochrome glyphs and a colour glyph's foreground layers take. */
  readonly color: string;
}

/** One fill of a line: a path (in the context's user space) and its colour (#rrggbb or #rrggbbaa). */
export interface LineFill {
  readonly color: string;
  /** Appends the path to the current path of `c`. */
  trace(c: Pick<SKRSContext2D, 'moveTo' | 'lineTo' | 'quadraticCurveTo' | 'bezierCurveTo' | 'closePath'>): void;
  /** Bounds of the path's points (control points included): [x0, y0, x1, y1]. */
  readonly bounds: readonly [number, number, number, number];
}

/**
 * The fills that draw one line, in order. Each run's glyphs are one path filled once (marks and
 * joined letters overlap without darker seams); a colour glyph is its layers, bottom first, each
 * filled in its colour.
 */
export function lineFills(text: string, style: TextFace, at: LinePlacement): LineFill[] {
  const line = layoutLine(text, style, at.direction);
  const left = at.direction === 'rtl' ? at.x - line.width * at.size : at.x;
  const fills: LineFill[] = [];
  const fill = (glyphs: Array<{ outline: readonly PathCommand[]; x: number; baseline: number; k: number }>, color: string) => {
    let x0 = Infinity,
      y0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity;
    for (const g of glyphs)
      for (const [op, ...c] of g.outline)
        for (let i = 0; op !== 'Z' && i < c.length; i += 2) {
          const x = g.x + c[i] * g.k;
          const y = g.baseline - c[i + 1] * g.k;
          if (x < x0) x0 = x;
          if (x > x1) x1 = x;
          if (y < y0) y0 = y;
          if (y > y1) y1 = y;
        }
    fills.push({
      color,
      bounds: [x0, y0, x1, y1],
      trace: (c) => {
        for (const g of glyphs) tracePath(c, g.outline, g.x, g.baseline, g.k);
      },
    });
  };
  for (const run of line.runs) {
    if (run.length === 0) continue;
    const place = (g: PlacedGlyph, gid: number) => ({
      outline: glyphOutline(g.face, gid),
      x: left + g.x * at.size,
      baseline: at.baseline - g.y * at.size,
      k: g.scale * at.size,
    });
    if (!run[0].face.color) {
      fill(
        run.map((g) => place(g, g.gid)),
        at.color,
      );
      continue;
    }
    for (const g of run) {
      const layers = colorLayers(g.face, g.gid);
      for (const layer of layers.length ? layers : [{ gid: g.gid, color: null }]) fill([place(g, layer.gid)], layer.color ?? at.color);
    }
  }
  return fills;
}

/**
 * Draws one line: its fills (lineFills), each a path filled once in its colour.
 */
export function drawLine(ctx: SKRSContext2D, text: string, style: TextFace, at: LinePlacement): void {
  for (const f of lineFills(text, style, at)) {
    ctx.beginPath();
    f.trace(ctx);
    ctx.fillStyle = f.color;
    ctx.fill();
  }
}

/**
 * The graphemes of a text that cannot be drawn: those no bundled face has, and emoji sequences the
 * emoji font does not draw as one glyph (a newer emoji, a family it lacks), which are refused
 * rather than drawn in pieces.
 */
export function unsupportedGraphemes(text: string, style: TextFace): string[] {
  const { runs, missing } = fontRuns(text.replace(/\r\n?|\n/g, ' '), style);
  for (const run of runs)
    if (run.emoji) for (const g of splitGraphemes(run.text)) if (!drawsAsOneGlyph(run.face, g) && !missing.includes(g)) missing.push(g);
  return missing;
}
