// Social card: an Open Graph / link-preview image (suggested size 1200×630, the Open Graph size) with a title, a subtitle
// and a small label over a designed background — a diagonal gradient, large seeded circles and
// rings towards the right edge and a dot grid, kept to the right of the text column. The text is set
// in bundled fonts only (lib/font.ts, lib/font-coverage.ts): Space Grotesk for Latin, Noto for
// Greek, Cyrillic, Arabic, Hebrew, Devanagari, Chinese and Japanese, Noto Emoji; a recipe with a
// character none of them has is refused (400 unsupported_characters). Lines break between words,
// between CJK characters, at `\n`, and inside a word too long for the line (with a hyphen in Latin,
// Greek and Cyrillic); a card whose first text is Hebrew or Arabic is set right to left, right-
// aligned. The title shrinks until it fits in at most three lines, the subtitle in at most three,
// and anything longer ends with an ellipsis, so nothing overflows at any size. An empty title is a
// card without one: the subtitle (and label) alone, or the background alone.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { defineGenerator } from '../generator.types.ts';
import { colorParam, mix, paletteParam, parseHex, toHex } from '../lib/color.ts';
import { breakUnits, clampLines, fontFamilyFor, isRightToLeft, wrapText } from '../lib/font.ts';
import { fontsForText, stackFor } from '../lib/font-coverage.ts';
import { paintGradient, scaling } from '../lib/gradient.ts';
import { solidBlock, writeBlock } from '../lib/pixels.ts';
import { pick, range, subRandom } from '../lib/random.ts';
import { dmath } from '../lib/dmath.ts';

export interface SocialCardParams extends Record<string, unknown> {
  title: string;
  subtitle: string;
  label: string;
  palette: string[];
  textColor: string;
  decoration: number;
}

const defaults: SocialCardParams = {
  title: 'Deterministic renders',
  subtitle: 'Same recipe, same bytes — on every CPU.',
  label: 'render-service',
  palette: ['#14123a', '#3b1f6e', '#ff8a5c', '#ffd36e', '#5de0c4'],
  textColor: '#fff8ee',
  decoration: 1,
};

const MAX_TITLE_LINES = 3;
const MAX_SUBTITLE_LINES = 3;

export default defineGenerator<SocialCardParams>({
  slug: 'social-card',
  name: 'Social card',
  description:
    'A link-preview card (suggested at 1200×630, the Open Graph size): your title, subtitle and label set in bundled fonts (Latin, Greek, Cyrillic, Arabic, Hebrew, Devanagari, Chinese, Japanese, emoji) over a gradient with circles, rings and dots.',
  version: '2.0.0',
  animated: false,
  formats: ['png', 'webp'],
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
          'The headline; it shrinks to fit in at most three lines. A newline (`\\n`) forces a line break. Empty for a card without a title (the subtitle moves up). Characters no bundled font draws (e.g. Korean) are refused with 400 unsupported_characters.',
        maxLength: 80,
        default: defaults.title,
      },
      subtitle: {
        type: 'string',
        title: 'Subtitle',
        description: 'A line or two under the title (empty for none); a newline (`\\n`) forces a line break.',
        maxLength: 140,
        default: defaults.subtitle,
      },
      label: {
        type: 'string',
        title: 'Label',
        description: 'A short tag above the title, such as a site or section name (empty for none).',
        maxLength: 40,
        default: defaults.label,
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

  unsupportedText(p) {
    const stack = stackFor([p.title, p.subtitle, p.label]);
    const checks: Array<[string, string, 400 | 700]> = [
      ['title', p.title, 700],
      ['subtitle', p.subtitle, 400],
      ['label', p.label.toUpperCase(), 700],
    ];
    return checks
      .map(([param, text, weight]) => ({ param, graphemes: fontsForText(text, weight, stack).missing }))
      .filter((u) => u.graphemes.length > 0);
  },

  draw(ctx: SKRSContext2D, input) {
    const { params: p, width: W, height: H, seed, pixelRatio } = input;
    const rnd = subRandom(seed, 'social-card/layout');
    const colors = p.palette.map(parseHex);
    const bg0 = colors[0];
    const bg1 = colors[1];
    const accents = colors.length > 2 ? colors.slice(2) : [mix(bg1, parseHex(p.textColor), 0.5)];

    // Background: a diagonal gradient in JavaScript (canvas gradients differ between CPUs).
    const angle = range(rnd, -0.6, 0.6) + Math.PI / 4;
    const cx = W / 2,
      cy = H / 2;
    const reach = (Math.abs(dmath.cos(angle)) * W + Math.abs(dmath.sin(angle)) * H) / 2;
    const block = solidBlock(ctx.canvas.width, ctx.canvas.height, bg0);
    paintGradient(block, {
      shape: {
        kind: 'linear',
        x0: cx - dmath.cos(angle) * reach,
        y0: cy - dmath.sin(angle) * reach,
        x1: cx + dmath.cos(angle) * reach,
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
    // The text column; the ornament keeps to the right of it, so no text runs under it.
    const padX = Math.max(2, W * 0.075);
    const padY = Math.max(2, H * 0.1);
    const textW = Math.max(4, W * 0.7 - padX);
    const textRight = padX + textW;
    const clearX = textRight + S * 0.02;
    const deco = p.decoration;
    if (deco > 0) {
      // Large circles and rings gathered towards the right edge, away from the text.
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
        ctx.arc(x, y, r, 0, Math.PI * 2);
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
          ctx.arc(gx + i * step, gy + j * step, Math.max(0.6, S * 0.0065), 0, Math.PI * 2);
          ctx.fill();
        }
      // A thin band along the bottom edge in the accent colours.
      const band = Math.max(1, H * 0.018);
      const n = accents.length;
      for (let i = 0; i < n; i++) {
        ctx.fillStyle = toHex(accents[i]);
        ctx.fillRect((W * i) / n, H - band, W / n + 1, band);
      }
    }

    // Text: each field in the bundled faces that draw it (lib/font.ts), right-aligned when the card's
    // first text is Hebrew or Arabic.
    const stack = stackFor([p.title, p.subtitle, p.label]);
    const title = p.title.trim();
    const subtitle = p.subtitle.trim();
    const label = p.label.trim().toUpperCase();
    const titleFamily = fontFamilyFor(title, 700, stack);
    const subFamily = fontFamilyFor(subtitle, 400, stack);
    const labelFamily = fontFamilyFor(label, 700, stack);
    const rtl = isRightToLeft(title || subtitle || label);
    ctx.direction = rtl ? 'rtl' : 'ltr';
    ctx.textAlign = rtl ? 'right' : 'left';
    const text = parseHex(p.textColor);
    const accent = accents[0];
    // The start edge of the text: x + width × sign runs along a line.
    const startX = rtl ? textRight : padX;
    const sign = rtl ? -1 : 1;
    const measureWith = (font: string) => (s: string) => {
      ctx.font = font;
      return ctx.measureText(s).width;
    };

    let y = padY;
    if (label) {
      const size = Math.max(4, S * 0.045);
      const font = `${size}px ${labelFamily}`;
      const shown = clampLines(wrapText(label, textW - size * 1.4, measureWith(font)), 1, textW - size * 1.4, measureWith(font));
      ctx.font = font;
      ctx.textBaseline = 'middle';
      ctx.fillStyle = toHex(accent);
      ctx.beginPath();
      ctx.arc(startX + sign * size * 0.35, y + size * 0.6, size * 0.35, 0, Math.PI * 2);
      ctx.fill();
      ctx.fillStyle = toHex(mix(text, accent, 0.25));
      ctx.fillText(shown[0] ?? '', startX + sign * size * 1.1, y + size * 0.6);
      y += size * 1.2;
    }

    // Title and subtitle, sized together to fit the space left, then centred in it vertically.
    const top = y + S * 0.04;
    const bottom = H - padY;
    const avail = Math.max(1, bottom - top);
    const size0 = Math.min(S * 0.14, W * 0.075);
    let size = size0;
    // Whether some word is wider than the column in this font (it would be broken inside).
    const breaksWord = (text: string, font: string) => breakUnits(text).some((u) => measureWith(font)(u.trim()) > textW);
    let titleLines: string[] = [];
    let subLines: string[] = [];
    let subSize = 0;
    let blockH = 0;
    for (let tries = 0; tries < 40; tries++) {
      const tFont = `${size}px ${titleFamily}`;
      subSize = Math.max(size * 0.42, Math.min(size * 0.5, S * 0.05));
      const sFont = `${subSize}px ${subFamily}`;
      titleLines = wrapText(title, textW, measureWith(tFont));
      subLines = wrapText(subtitle, textW, measureWith(sFont));
      blockH = blockHeight(titleLines.length, size, subLines.length, subSize);
      // Words are broken inside only when the title would otherwise be under half its full size.
      const wordsWhole = size < size0 * 0.5 || (!breaksWord(title, tFont) && !breaksWord(subtitle, sFont));
      if (titleLines.length <= MAX_TITLE_LINES && subLines.length <= MAX_SUBTITLE_LINES && blockH <= avail && wordsWhole) break;
      size *= 0.92;
    }
    titleLines = clampLines(titleLines, MAX_TITLE_LINES, textW, measureWith(`${size}px ${titleFamily}`));
    subLines = clampLines(subLines, MAX_SUBTITLE_LINES, textW, measureWith(`${subSize}px ${subFamily}`));
    blockH = blockHeight(titleLines.length, size, subLines.length, subSize);

    let ty = top + Math.max(0, (avail - blockH) / 2);
    ctx.textBaseline = 'top';
    ctx.font = `${size}px ${titleFamily}`;
    ctx.fillStyle = toHex(text);
    for (const line of titleLines) {
      ctx.fillText(line, startX, ty);
      ty += size * 1.08;
    }
    if (titleLines.length && subLines.length) {
      ty += size * 0.25;
      ctx.fillStyle = toHex(accent);
      const ruleW = Math.max(2, size * 1.2);
      ctx.fillRect(rtl ? startX - ruleW : startX, ty, ruleW, Math.max(1, size * 0.09));
      ty += size * 0.09 + size * 0.35;
    }
    ctx.font = `${subSize}px ${subFamily}`;
    ctx.fillStyle = toHex(mix(text, bg1, 0.28));
    for (const line of subLines) {
      ctx.fillText(line, startX, ty);
      ty += subSize * 1.3;
    }
  },
});

/** Height of the title and subtitle block as drawn above. */
function blockHeight(titleCount: number, size: number, subCount: number, subSize: number): number {
  let h = titleCount * size * 1.08;
  if (titleCount && subCount) h += size * (0.25 + 0.09 + 0.35);
  return h + subCount * subSize * 1.3;
}
