// A text layer set in its box: the fonts (a bundled family, or an uploaded font with the bundled
// stack behind it for what it lacks), the largest size that fits, lines broken as social-card
// breaks them (lib/line-break.ts: words, Japanese/Chinese/Thai phrases, hyphens), each paragraph
// in its own direction, and the fills that draw it (lib/text-setter.ts: HarfBuzz outlines as paths).
import { paragraphDirection, type Direction } from '../generators/lib/bidi.ts';
import { familyStack, fontFaceFromBytes, leadingFace, type TextFace } from '../generators/lib/font-coverage.ts';
import { breakUnits, clampLines, paragraphsOf, wrapParagraph } from '../generators/lib/line-break.ts';
import { verticalMetrics } from '../generators/lib/shaper.ts';
import { lineFills, measureEm, type LineFill } from '../generators/lib/text-setter.ts';
import type { TemplateAsset, TextLayer } from './template.types.ts';
import { interpolate, wholeReference } from './variables.ts';

export const DEFAULT_FAMILY = 'Space Grotesk';
export const DEFAULT_FIT_MAX = 48;
export const DEFAULT_LINE_HEIGHT = 1.2;
/** Sizes are tried on a grid of this many template pixels (from fit.max down). */
export const SIZE_STEP = 0.25;

/** The smallest size of a fit: its own min, else half its max. */
export const fitMin = (layer: TextLayer): number => {
  const max = layer.fit?.max ?? DEFAULT_FIT_MAX;
  return Math.min(max, layer.fit?.min ?? max / 2);
};

/** The font asset a layer draws with (its id, after a "{{variable}}" is resolved), if any. */
export function fontAssetId(layer: TextLayer, params: Readonly<Record<string, unknown>>): string | undefined {
  const asset = layer.font?.asset;
  if (asset === undefined) return undefined;
  const name = wholeReference(asset);
  if (name === undefined) return asset;
  const value = params[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** What draws a layer's text: the uploaded font first (if any), then the family's stack. */
export function textFaceOf(
  layer: TextLayer,
  text: string,
  params: Readonly<Record<string, unknown>>,
  assets: ReadonlyMap<string, TemplateAsset>,
): TextFace {
  const stack = familyStack(layer.font?.family ?? DEFAULT_FAMILY, [text]);
  const weight = layer.font?.weight ?? 400;
  const id = fontAssetId(layer, params);
  if (id === undefined) return { weight, stack, emoji: 'color' };
  const asset = assets.get(id);
  if (!asset || asset.kind !== 'font') throw new Error(`font asset ${id} is missing`);
  return { weight, stack, emoji: 'color', primary: [fontFaceFromBytes(asset.sha256, asset.data)] };
}

export interface SetLine {
  readonly text: string;
  readonly dir: Direction;
  /** Width in ems. */
  readonly width: number;
}

export interface TextSetting {
  /** The font size, in template pixels. */
  readonly size: number;
  readonly lines: readonly SetLine[];
  /** Even `min` did not fit: the last line was cut with an ellipsis. */
  readonly overflow: boolean;
  readonly face: TextFace;
}

/** A text's lines at a width in ems, each paragraph in its own direction; `whole`: no unit was wider than the line. */
function wrap(text: string, face: TextFace, widthEm: number): { lines: SetLine[]; whole: boolean } {
  const lines: SetLine[] = [];
  let whole = true;
  for (const para of paragraphsOf(text)) {
    const dir = paragraphDirection(para, 'ltr');
    const measure = (s: string) => measureEm(s, face, dir);
    if (whole && breakUnits(para.trim()).some((u) => measure(u.trimEnd()) > widthEm)) whole = false;
    const wrapped = wrapParagraph(para, widthEm, measure);
    if (wrapped.length === 0 && lines.length > 0) lines.push({ text: '', dir, width: 0 });
    for (const t of wrapped) lines.push({ text: t, dir, width: measure(t) });
  }
  while (lines.length && lines[lines.length - 1].text === '') lines.pop();
  return { lines, whole };
}

/** How many lines of a size the box holds (at most maxLines). */
function linesThatFit(layer: TextLayer, size: number): number {
  const byHeight = Math.floor(layer.box.height / (size * (layer.lineHeight ?? DEFAULT_LINE_HEIGHT)) + 1e-9);
  return Math.min(byHeight, layer.fit?.maxLines ?? Infinity);
}

/**
 * Sets a layer's text: the largest size on the grid from fit.max down to fit.min (steps of
 * SIZE_STEP) at which every line fits the box's width without breaking a word, and the lines fit
 * its height and maxLines. When none does, the text is set at min, words broken where they must,
 * and what does not fit is cut with an ellipsis (`overflow`).
 */
export function setText(layer: TextLayer, text: string, face: TextFace): TextSetting {
  const max = layer.fit?.max ?? DEFAULT_FIT_MAX;
  const min = fitMin(layer);
  const width = layer.box.width;
  const fits = (size: number) => {
    const room = linesThatFit(layer, size);
    if (room < 1) return undefined;
    const { lines, whole } = wrap(text, face, width / size);
    return whole && lines.length <= room ? lines : undefined;
  };
  if (!text.trim()) return { size: max, lines: [], overflow: false, face };
  // Fitting only gets easier as the size falls: a binary search over the grid.
  const steps = Math.floor((max - min) / SIZE_STEP + 1e-9);
  const sizeAt = (k: number) => max - k * SIZE_STEP;
  let found = fits(sizeAt(0));
  if (found) return { size: max, lines: found, overflow: false, face };
  let lo = 0; // does not fit
  let hi = steps + 1; // fits (steps + 1: none found yet)
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    const got = fits(sizeAt(mid));
    if (got) {
      hi = mid;
      found = got;
    } else lo = mid;
  }
  if (found && hi <= steps) return { size: sizeAt(hi), lines: found, overflow: false, face };
  // Not even at min: words broken, then cut to the lines the box holds.
  const { lines } = wrap(text, face, width / min);
  const room = Math.max(1, linesThatFit(layer, min));
  if (lines.length <= room) return { size: min, lines, overflow: false, face };
  const cut = clampLines(lines, room, width / min, (l) => measureEm(l.text, face, l.dir)).map((l) => ({
    ...l,
    width: measureEm(l.text, face, l.dir),
  }));
  return { size: min, lines: cut, overflow: true, face };
}

/** The layer's text with its variables filled in. */
export const layerText = (layer: TextLayer, params: Readonly<Record<string, unknown>>): string => interpolate(layer.text, params);

/**
 * The fills that draw a set text, in template pixels: lines `lineHeight` apart, the first baseline
 * placed as CSS does (half the leading above the font's ascent), the block placed by valign and
 * each line by align (default: a paragraph's start edge, left for left-to-right text).
 */
export function textFills(layer: TextLayer, setting: TextSetting, color: string): LineFill[] {
  const { size, lines, face } = setting;
  if (lines.length === 0) return [];
  const metrics = verticalMetrics(face.primary?.[0] ?? leadingFace(face.stack, face.weight));
  const step = size * (layer.lineHeight ?? DEFAULT_LINE_HEIGHT);
  const box = layer.box;
  const blockHeight = lines.length * step;
  const top =
    box.y + (layer.valign === 'middle' ? (box.height - blockHeight) / 2 : layer.valign === 'bottom' ? box.height - blockHeight : 0);
  const firstBaseline = top + (step - (metrics.ascender - metrics.descender) * size) / 2 + metrics.ascender * size;
  const fills: LineFill[] = [];
  lines.forEach((line, i) => {
    if (!line.text) return;
    const w = line.width * size;
    const align = layer.align ?? (line.dir === 'rtl' ? 'right' : 'left');
    const left = align === 'left' ? box.x : align === 'right' ? box.x + box.width - w : box.x + (box.width - w) / 2;
    fills.push(
      ...lineFills(line.text, face, {
        x: line.dir === 'rtl' ? left + w : left,
        baseline: firstBaseline + i * step,
        size,
        direction: line.dir,
        color,
      }),
    );
  });
  return fills;
}
