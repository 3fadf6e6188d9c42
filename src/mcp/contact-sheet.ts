// The `sweep` tool's contact sheet (docs/mcp.md): the cells a sweep rendered, composed into one PNG an
// agent can look at in one go — a grid without an orphan row, small gutters, each cell numbered
// from 1 above its top-left corner. The numbers are drawn from a 5×7 bitmap font written here, as
// pixels, so no host font (fontconfig, Pango, librsvg's text) is ever asked for. The sheet is a view,
// not a recipe: each cell's recipe is the reproducible artefact.
import { createRequire } from 'node:module';
import type Sharp from 'sharp';
import type { OverlayOptions } from 'sharp';

/** The sheet's longer side at most: cells larger than fits are scaled down, never up. */
export const SHEET_MAX_SIDE = 1600;
/** Between cells and around the sheet. */
export const SHEET_GUTTER = 8;
/** Above each cell: its number (a glyph of GLYPH_SCALE × 7 px) with LABEL_PAD px above and below. */
export const LABEL_BAND = 20;
const LABEL_PAD = 3;
const GLYPH_SCALE = 2;
const GLYPH_ADVANCE = 6 * GLYPH_SCALE;
/** Background (behind transparent cells too) and the numbers' colour: RGBA. */
const BACKGROUND = [30, 30, 30, 255] as const;
const INK = [240, 240, 240, 255] as const;

// 5×7 digits, one string per row, '#' set. Written out rather than taken from a font file: ten
// glyphs are all a sheet needs, and pixels drawn here are the same bytes on any host.
const DIGITS: Record<string, readonly string[]> = {
  '0': [' ### ', '#   #', '#  ##', '# # #', '##  #', '#   #', ' ### '],
  '1': ['  #  ', ' ##  ', '  #  ', '  #  ', '  #  ', '  #  ', ' ### '],
  '2': [' ### ', '#   #', '    #', '   # ', '  #  ', ' #   ', '#####'],
  '3': ['#####', '   # ', '  #  ', '   # ', '    #', '#   #', ' ### '],
  '4': ['   # ', '  ## ', ' # # ', '#  # ', '#####', '   # ', '   # '],
  '5': ['#####', '#    ', '#### ', '    #', '    #', '#   #', ' ### '],
  '6': ['  ## ', ' #   ', '#    ', '#### ', '#   #', '#   #', ' ### '],
  '7': ['#####', '    #', '   # ', '  #  ', ' #   ', ' #   ', ' #   '],
  '8': [' ### ', '#   #', '#   #', ' ### ', '#   #', '#   #', ' ### '],
  '9': [' ### ', '#   #', '#   #', ' ####', '    #', '   # ', ' ##  '],
};

/**
 * The columns of a sheet of `n` cells: about √n, without an orphan row — the count divides evenly or
 * the last row is at least half full — in the fewest rows, then the fewest columns. The web app's
 * sweep grid follows the same rule (web/js/pictures.js, gridColumns), here with at most ⌈√n⌉ + 1
 * columns: 4 → 2×2, 6 → 2×3, 7 → 2×4 (4 and 3), 8 → 2×4, 10 → 2×5, 12 → 3×4.
 */
export function sheetColumns(n: number): number {
  const max = Math.min(n, Math.ceil(Math.sqrt(n)) + 1);
  let best = 1;
  for (let c = 2; c <= max; c++) {
    const last = n % c;
    if ((last === 0 || last >= c / 2) && Math.ceil(n / c) < Math.ceil(n / best)) best = c;
  }
  return best;
}

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface SheetLayout {
  width: number;
  height: number;
  columns: number;
  rows: number;
  /** The box each cell is drawn in, in sheet order (left to right, top to bottom). */
  slots: Box[];
  /** Where each cell's number is drawn. */
  labels: { left: number; top: number }[];
}

/** The width of `text` (digits) in the sheet's font. */
export const labelWidth = (text: string) => text.length * GLYPH_ADVANCE - GLYPH_SCALE;

/**
 * Where `n` cells of at most `cell` pixels go: the grid of sheetColumns, each slot the cell's size
 * scaled down (never up) so that the sheet's longer side is at most `maxSide`, and wide enough for
 * its number.
 */
export function sheetLayout(n: number, cell: { width: number; height: number }, maxSide = SHEET_MAX_SIDE): SheetLayout {
  if (n < 1) throw new Error('a sheet has at least one cell');
  const columns = sheetColumns(n);
  const rows = Math.ceil(n / columns);
  const scale = Math.min(
    1,
    (maxSide - SHEET_GUTTER * (columns + 1)) / (columns * cell.width),
    (maxSide - SHEET_GUTTER * (rows + 1) - LABEL_BAND * rows) / (rows * cell.height),
  );
  const width = Math.max(1, Math.floor(cell.width * scale));
  const height = Math.max(1, Math.floor(cell.height * scale));
  const slotWidth = Math.max(width, labelWidth(String(n)));
  const slots: Box[] = [];
  const labels: { left: number; top: number }[] = [];
  for (let i = 0; i < n; i++) {
    const left = SHEET_GUTTER + (i % columns) * (slotWidth + SHEET_GUTTER);
    const top = SHEET_GUTTER + Math.floor(i / columns) * (LABEL_BAND + height + SHEET_GUTTER);
    labels.push({ left, top: top + LABEL_PAD });
    slots.push({ left, top: top + LABEL_BAND, width, height });
  }
  return {
    width: SHEET_GUTTER + columns * (slotWidth + SHEET_GUTTER),
    height: SHEET_GUTTER + rows * (LABEL_BAND + height + SHEET_GUTTER),
    columns,
    rows,
    slots,
    labels,
  };
}

/** The sheet's background with every cell's number on it: RGBA, `layout.width` × `layout.height`. */
export function sheetBackground(layout: SheetLayout, numbers: readonly string[]): Buffer {
  const { width, height } = layout;
  const pixels = Buffer.alloc(width * height * 4);
  for (let p = 0; p < pixels.length; p += 4) pixels.set(BACKGROUND, p);
  for (const [i, number] of numbers.entries()) {
    const at = layout.labels[i]!;
    for (const [k, digit] of [...number].entries()) {
      const glyph = DIGITS[digit];
      if (!glyph) throw new Error(`the sheet's font has no glyph "${digit}"`);
      for (const [gy, row] of glyph.entries())
        for (const [gx, set] of [...row].entries()) {
          if (set !== '#') continue;
          for (let dy = 0; dy < GLYPH_SCALE; dy++)
            for (let dx = 0; dx < GLYPH_SCALE; dx++) {
              const x = at.left + k * GLYPH_ADVANCE + gx * GLYPH_SCALE + dx;
              const y = at.top + gy * GLYPH_SCALE + dy;
              if (x < width && y < height) pixels.set(INK, (y * width + x) * 4);
            }
        }
    }
  }
  return pixels;
}

let sharpModule: typeof Sharp | undefined;
// Required, not imported (as src/engine/encoders.ts does: it loads 2–3× faster), and only when a sheet
// is made: `render-service mcp` loads no image library until a sweep asks for one.
const loadSharp = () => (sharpModule ??= createRequire(import.meta.url)('sharp') as typeof Sharp);

export interface ContactSheet {
  png: Buffer;
  layout: SheetLayout;
  /** Each cell's box on the sheet as drawn (its picture scaled to fit its slot, centred in it). */
  cells: Box[];
}

/**
 * The cells (png, webp or jpeg files, in sheet order) composed into one PNG, numbered from 1. Each is
 * decoded and scaled on its own, so no more than one full-size cell is held decoded at a time.
 */
export async function composeContactSheet(files: readonly Buffer[], maxSide = SHEET_MAX_SIDE): Promise<ContactSheet> {
  const sharp = loadSharp();
  const sizes = [];
  for (const file of files) {
    const { width, height } = await sharp(file).metadata();
    if (!width || !height) throw new Error('a cell of the sheet has no size');
    sizes.push({ width, height });
  }
  const cell = { width: Math.max(...sizes.map((s) => s.width)), height: Math.max(...sizes.map((s) => s.height)) };
  const layout = sheetLayout(files.length, cell, maxSide);
  const overlays: OverlayOptions[] = [];
  const cells: Box[] = [];
  for (const [i, file] of files.entries()) {
    const slot = layout.slots[i]!;
    const { data, info } = await sharp(file)
      .resize(slot.width, slot.height, { fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer({ resolveWithObject: true });
    const box = {
      left: slot.left + Math.floor((slot.width - info.width) / 2),
      top: slot.top + Math.floor((slot.height - info.height) / 2),
      width: info.width,
      height: info.height,
    };
    cells.push(box);
    overlays.push({ input: data, left: box.left, top: box.top });
  }
  const numbers = files.map((_, i) => String(i + 1));
  const png = await sharp(sheetBackground(layout, numbers), { raw: { width: layout.width, height: layout.height, channels: 4 } })
    .composite(overlays)
    .png({ compressionLevel: 6, adaptiveFiltering: false, palette: false })
    .toBuffer();
  return { png, layout, cells };
}
