// Social card: an Open Graph / link-preview image (suggested size 1200×630, the Open Graph size) with a title, a subtitle
// and a small label over a designed background — a diagonal gradient, large seeded circles and
// rings towards the right edge and a dot grid, kept clear of the text column. The text is shaped
// by HarfBuzz from bundled fonts only and drawn as paths (lib/text-setter.ts): Space Grotesk for
// Latin, Noto for Greek, Cyrillic, Arabic, Hebrew, Devanagari, Thai, Chinese, Japanese and Korean,
// Twemoji for emoji in colour (or Noto Emoji in the text's colour); a recipe with a character none
// of them has, or an emoji sequence the emoji font lacks, is refused (400 unsupported_characters).
// Every paragraph takes its own direction (its first strong letter's); a card whose title is right
// to left is mirrored whole, text column and ornament. Lines break between words, at Japanese,
// Chinese and Thai phrase boundaries, at `\n`, and inside a word too long for the line (with a
// hyphen in Latin, Greek and Cyrillic). The title shrinks until it fits in at most three lines,
// the subtitle in at most three, and anything longer ends with an ellipsis, so nothing overflows
// at any size. An empty title is a card without one: the subtitle (and label) alone, or the
// background alone.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { defineGenerator } from '../generator.types.ts';
import { paragraphDirection, type Direction } from '../lib/bidi.ts';
import { colorParam, mix, paletteParam, parseHex, toHex } from '../lib/color.ts';
import { stackFor, type EmojiStyle, type TextFace } from '../lib/font-coverage.ts';
import { paintGradient, scaling } from '../lib/gradient.ts';
import { breakUnits, clampLines, paragraphsOf, toCapitals, wrapParagraph } from '../lib/line-break.ts';
import { solidBlock, writeBlock } from '../lib/pixels.ts';
import { pick, range, subRandom } from '../lib/random.ts';
import { shaperReady } from '../lib/shaper.ts';
import { drawLine, measureEm, unsupportedGraphemes } from '../lib/text-setter.ts';
import { dmath } from '../lib/dmath.ts';

export interface SocialCardParams extends Record<string, unknown> {
  title: string;
  subtitle: string;
  label: string;
  direction: 'auto' | Direction;
  emoji: EmojiStyle;
  palette: string[];
  textColor: string;
  decoration: number;
}

const defaults: SocialCardParams = {
  title: 'Deterministic renders',
  subtitle: 'Same recipe, same bytes — on every CPU.',
  label: 'render-service',
  direction: 'auto',
  emoji: 'color',
  palette: ['#14123a', '#3b1f6e', '#ff8a5c', '#ffd36e', '#5de0c4'],
  textColor: '#fff8ee',
  decoration: 1,
};

const MAX_TITLE_LINES = 3;
const MAX_SUBTITLE_LINES = 3;

/** The fonts of each field: the title and label bold, the subtitle regular, all from one stack. */
function styles(p: SocialCardParams) {
  const stack = stackFor([p.title, p.subtitle, p.label]);
  return {
    titleStyle: { weight: 700, stack, emoji: p.emoji } satisfies TextFace,
    subStyle: { weight: 400, stack, emoji: p.emoji } satisfies TextFace,
    labelStyle: { weight: 700, stack, emoji: p.emoji } satisfies TextFace,
  };
}

export default defineGenerator<SocialCardParams>({
  slug: 'social-card',
  name: 'Social card',
  description:
    'A link-preview card (suggested at 1200×630, the Open Graph size): your title, subtitle and label in any of Latin, Greek, Cyrillic, Arabic, Hebrew, Devanagari, Thai, Chinese, Japanese and Korean, with colour emoji, set in bundled fonts over a gradient with circles, rings and dots. A right-to-left title mirrors the card.',
  version: '3.0.0',
  animated: false,
  formats: ['png', 'webp', 'jpeg'],
  // The Open Graph / link-preview size.
  suggestedSize: { width: 1200, height: 630 },
  defaults,
  paramSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      title: {
        type: 'string',
        title: 'Title',
        description:
          'The headline. It shrinks to fit in at most three lines; a line break starts a new line. Leave it empty for a card without a title.',
        maxLength: 80,
        default: defaults.title,
        'x-multiline': true,
      },
      subtitle: {
        type: 'string',
        title: 'Subtitle',
        description: 'A line or two under the title (empty for none); a line break starts a new line.',
        maxLength: 140,
        default: defaults.subtitle,
        'x-multiline': true,
      },
      label: {
        type: 'string',
        title: 'Label',
        description: 'A short tag above the title, such as a site or section name, set in capitals (empty for none).',
        maxLength: 40,
        default: defaults.label,
      },
      direction: {
        type: 'string',
        title: 'Direction',
        description:
          'auto: every line of text runs in the direction of its first letter (Hebrew and Arabic right to left), and a right-to-left title mirrors the card. ltr or rtl: all of it one way.',
        enum: ['auto', 'ltr', 'rtl'],
        default: defaults.direction,
      },
      emoji: {
        type: 'string',
        title: 'Emoji',
        description: 'color: emoji in their own colours (Twemoji). monochrome: emoji in the text colour (Noto Emoji).',
        enum: ['color', 'monochrome'],
        default: defaults.emoji,
      },
      palette: paletteParam(
        'Palette',
        'The first two colours make the background gradient; the others colour the circles, rings, dots and accents.',
        defaults.palette,
      ),
      textColor: colorParam('Text colour', 'Colour of the title; the subtitle uses a softer tone of it.', defaults.textColor),
      decoration: {
        type: 'number',
        title: 'Decoration',
        description: 'How much of the background ornament to draw (0 = the gradient alone).',
        minimum: 0,
        maximum: 1,
        default: defaults.decoration,
      },
    },
  },

  prepare: shaperReady,

  unsupportedText(p) {
    const { titleStyle, subStyle, labelStyle } = styles(p);
    const checks: Array<[string, string, TextFace]> = [
      ['title', p.title, titleStyle],
      ['subtitle', p.subtitle, subStyle],
      ['label', toCapitals(p.label), labelStyle],
    ];
    return checks
      .map(([param, text, style]) => ({ param, graphemes: unsupportedGraphemes(text, style) }))
      .filter((u) => u.graphemes.length > 0);
  },

  draw(ctx: SKRSContext2D, input) {
    const { params: p, width: W, height: H, seed, pixelRatio } = input;
    const rnd = subRandom(seed, 'social-card/layout');
    const colors = p.palette.map(parseHex);
    const bg0 = colors[0];
    const bg1 = colors[1];
    const accents = colors.length > 2 ? colors.slice(2) : [mix(bg1, parseHex(p.textColor), 0.5)];

    const title = p.title.trim();
    const subtitle = p.subtitle.trim();
    const label = toCapitals(p.label.trim());
    const { titleStyle, subStyle, labelStyle } = styles(p);
    const forced = p.direction === 'auto' ? undefined : p.direction;
    // The card's direction is its title's (or, without one, its first text's): right to left
    // mirrors the whole card. A paragraph with no strong letter (digits alone) follows it.
    const cardDir = forced ?? paragraphDirection(title || subtitle || label, 'ltr');
    /** A horizontal position of the left-to-right layout, mirrored on a right-to-left card. */
    const mx = (x: number) => (cardDir === 'rtl' ? W - x : x);

    // Background: a diagonal gradient in JavaScript (canvas gradients differ between CPUs).
    const angle = range(rnd, -0.6, 0.6) + Math.PI / 4;
    const cx = W / 2,
      cy = H / 2;
    const reach = (Math.abs(dmath.cos(angle)) * W + Math.abs(dmath.sin(angle)) * H) / 2;
    const block = solidBlock(ctx.canvas.width, ctx.canvas.height, bg0);
    paintGradient(block, {
      shape: {
        kind: 'linear',
        x0: mx(cx - dmath.cos(angle) * reach),
        y0: cy - dmath.sin(angle) * reach,
        x1: mx(cx + dmath.cos(angle) * reach),
        y1: cy + dmath.sin(angle) * reach,
      },
      stops: [
        { offset: 0, color: bg0 },
        { offset: 1, color: bg1 },
      ],
      transform: scaling(pixelRatio),
    });
    writeBlock(ctx, block);

    const S = Math.min(W, H);
    // The text column (on the left, or the right of a mirrored card); the ornament keeps clear of it.
    const padX = Math.max(2, W * 0.075);
    const padY = Math.max(2, H * 0.1);
    const textW = Math.max(4, W * 0.7 - padX);
    const columnLeft = cardDir === 'rtl' ? W - padX - textW : padX;
    const columnRight = columnLeft + textW;
    const clearX = padX + textW + S * 0.02;
    const deco = p.decoration;
    if (deco > 0) {
      // Large circles and rings gathered towards the outer edge, away from the text.
      const shapes = Math.round(3 + 4 * deco);
      for (let i = 0; i < shapes; i++) {
        const c = pick(rnd, accents);
        const r = S * range(rnd, 0.08, 0.36) * (0.6 + 0.4 * deco);
        const x0 = W * 0.7 + r * 0.8 + W * range(rnd, 0, 0.3);
        const y = H * range(rnd, -0.1, 1.1);
        const kind = rnd();
        const lineWidth = Math.max(1, S * range(rnd, 0.008, 0.022));
        const x = Math.max(x0, clearX + r + lineWidth);
        ctx.beginPath();
        ctx.arc(mx(x), y, r, 0, Math.PI * 2);
        if (kind < 0.45) {
          ctx.fillStyle = toHex(mix(bg1, c, range(rnd, 0.12, 0.3)));
          ctx.fill();
        } else {
          ctx.strokeStyle = toHex(c);
          ctx.lineWidth = lineWidth;
          ctx.stroke();
        }
      }
      // A dot grid in a corner.
      const step = S * 0.045;
      let cols = Math.round(range(rnd, 5, 9));
      const rows = Math.round(range(rnd, 3, 6));
      let gx = W - step * (cols + range(rnd, 1, 4));
      // Columns that would reach into the text column are left out.
      while (cols > 0 && gx - S * 0.0065 < clearX) {
        gx += step;
        cols--;
      }
      const gy = rnd() < 0.5 ? step : H - step * rows;
      ctx.fillStyle = toHex(mix(bg1, pick(rnd, accents), 0.8));
      for (let j = 0; j < rows; j++)
        for (let i = 0; i < cols; i++) {
          ctx.beginPath();
          ctx.arc(mx(gx + i * step), gy + j * step, Math.max(0.6, S * 0.0065), 0, Math.PI * 2);
          ctx.fill();
        }
      // A thin band along the bottom edge in the accent colours.
      const band = Math.max(1, H * 0.018);
      const n = accents.length;
      for (let i = 0; i < n; i++) {
        ctx.fillStyle = toHex(accents[i]);
        const x = (W * i) / n;
        const w = W / n + 1;
        ctx.fillRect(cardDir === 'rtl' ? W - x - w : x, H - band, w, band);
      }
    }

    // Text: every paragraph (the label, each line of the title and subtitle that `\n` starts) set in
    // its own direction, aligned to its own start edge inside the text column.
    const lineAt = (line: Line, size: number, baseline: number, style: TextFace, color: string) =>
      drawLine(ctx, line.text, style, { x: line.dir === 'rtl' ? columnRight : columnLeft, baseline, size, direction: line.dir, color });
    const text = parseHex(p.textColor);
    const accent = accents[0];

    let y = padY;
    if (label) {
      const size = Math.max(4, S * 0.045);
      const dir = forced ?? paragraphDirection(label, cardDir);
      const width = textW - size * 1.4;
      const lines = clampLines(wrapLines(label, labelStyle, width / size, cardDir, forced), 1, width / size, emWidth(labelStyle));
      const middle = y + size * 0.6;
      const sign = dir === 'rtl' ? -1 : 1;
      const start = dir === 'rtl' ? columnRight : columnLeft;
      ctx.fillStyle = toHex(accent);
      ctx.beginPath();
      ctx.arc(start + sign * size * 0.35, middle, size * 0.35, 0, Math.PI * 2);
      ctx.fill();
      if (lines[0])
        drawLine(ctx, lines[0].text, labelStyle, {
          x: start + sign * size * 1.1,
          baseline: middle + size * CAP_HEIGHT * 0.5,
          size,
          direction: lines[0].dir,
          color: toHex(mix(text, accent, 0.25)),
        });
      y += size * 1.2;
    }

    // Title and subtitle, sized together to fit the space left, then centred in it vertically.
    const top = y + S * 0.04;
    const bottom = H - padY;
    const avail = Math.max(1, bottom - top);
    const size0 = Math.min(S * 0.14, W * 0.075);
    let size = size0;
    // Whether some unit is wider than the column at this size (it would be broken inside).
    const breaksWord = (s: string, style: TextFace, size: number) =>
      paragraphsOf(s).some((para) => {
        const dir = forced ?? paragraphDirection(para, cardDir);
        return breakUnits(para).some((u) => measureEm(u.trim(), style, dir) * size > textW);
      });
    let titleLines: Line[] = [];
    let subLines: Line[] = [];
    let subSize = 0;
    let blockH = 0;
    for (let tries = 0; tries < 40; tries++) {
      subSize = Math.max(size * 0.42, Math.min(size * 0.5, S * 0.05));
      titleLines = wrapLines(title, titleStyle, textW / size, cardDir, forced);
      subLines = wrapLines(subtitle, subStyle, textW / subSize, cardDir, forced);
      blockH = blockHeight(titleLines.length, size, subLines.length, subSize);
      // Words are broken inside only when the title would otherwise be under half its full size.
      const wordsWhole = size < size0 * 0.5 || (!breaksWord(title, titleStyle, size) && !breaksWord(subtitle, subStyle, subSize));
      if (titleLines.length <= MAX_TITLE_LINES && subLines.length <= MAX_SUBTITLE_LINES && blockH <= avail && wordsWhole) break;
      size *= 0.92;
    }
    titleLines = clampLines(titleLines, MAX_TITLE_LINES, textW / size, emWidth(titleStyle));
    subLines = clampLines(subLines, MAX_SUBTITLE_LINES, textW / subSize, emWidth(subStyle));
    blockH = blockHeight(titleLines.length, size, subLines.length, subSize);

    let ty = top + Math.max(0, (avail - blockH) / 2);
    for (const line of titleLines) {
      if (line.text) lineAt(line, size, ty + size * ASCENT, titleStyle, toHex(text));
      ty += size * 1.08;
    }
    if (titleLines.length && subLines.length) {
      ty += size * 0.25;
      ctx.fillStyle = toHex(accent);
      const ruleW = Math.max(2, size * 1.2);
      ctx.fillRect(cardDir === 'rtl' ? columnRight - ruleW : columnLeft, ty, ruleW, Math.max(1, size * 0.09));
      ty += size * 0.09 + size * 0.35;
    }
    for (const line of subLines) {
      if (line.text) lineAt(line, subSize, ty + subSize * ASCENT, subStyle, toHex(mix(text, bg1, 0.28)));
      ty += subSize * 1.3;
    }
  },
});

/** A line of a text field and the direction of the paragraph it belongs to. */
interface Line {
  readonly text: string;
  readonly dir: Direction;
}

/** Space Grotesk's ascender and cap height, in ems: where a line's baseline sits below its top. */
const ASCENT = 0.984;
const CAP_HEIGHT = 0.7;

/** A line's width in ems. */
const emWidth = (style: TextFace) => (line: Line) => measureEm(line.text, style, line.dir);

/**
 * A text field's lines, `widthEm` wide: each paragraph takes its own direction (its first strong
 * letter's, or the card's when it has none) unless the card's direction is forced; an empty
 * paragraph between two others is an empty line.
 */
function wrapLines(text: string, style: TextFace, widthEm: number, cardDir: Direction, forced: Direction | undefined): Line[] {
  if (!text) return [];
  const lines: Line[] = [];
  for (const para of paragraphsOf(text)) {
    const dir = forced ?? paragraphDirection(para, cardDir);
    const wrapped = wrapParagraph(para, widthEm, (s) => measureEm(s, style, dir));
    if (wrapped.length === 0 && lines.length > 0) lines.push({ text: '', dir });
    for (const t of wrapped) lines.push({ text: t, dir });
  }
  while (lines.length && lines[lines.length - 1].text === '') lines.pop();
  return lines;
}

/** Height of the title and subtitle block as drawn above. */
function blockHeight(titleCount: number, size: number, subCount: number, subSize: number): number {
  let h = titleCount * size * 1.08;
  if (titleCount && subCount) h += size * (0.25 + 0.09 + 0.35);
  return h + subCount * subSize * 1.3;
}
