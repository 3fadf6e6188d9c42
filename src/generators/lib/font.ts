// A font bundled with the service (the npm package @fontsource/space-grotesk, SIL Open Font
// Licence 1.1), registered with Skia once per thread, so text never depends on the fonts a machine
// has installed. Text is drawn with fillText in solid colours; the determinism tier checks it.
import { createRequire } from 'node:module';
import { GlobalFonts } from '@napi-rs/canvas';

const require = createRequire(import.meta.url);

/** Family names to use in ctx.font; each is one weight of Space Grotesk (latin, then latin-ext). */
export const BUNDLED_FONT = {
  bold: '"Bundled Space Grotesk Bold", "Bundled Space Grotesk Bold Ext"',
  regular: '"Bundled Space Grotesk Regular", "Bundled Space Grotesk Regular Ext"',
} as const;

let registered = false;

/** Registers the bundled font files (idempotent). Call before drawing text. */
export function ensureBundledFont(): void {
  if (registered) return;
  const files: Array<[string, string]> = [
    ['space-grotesk-latin-700-normal.woff2', 'Bundled Space Grotesk Bold'],
    ['space-grotesk-latin-ext-700-normal.woff2', 'Bundled Space Grotesk Bold Ext'],
    ['space-grotesk-latin-400-normal.woff2', 'Bundled Space Grotesk Regular'],
    ['space-grotesk-latin-ext-400-normal.woff2', 'Bundled Space Grotesk Regular Ext'],
  ];
  for (const [file, family] of files) {
    GlobalFonts.registerFromPath(require.resolve(`@fontsource/space-grotesk/files/${file}`), family);
  }
  registered = true;
}

/**
 * Greedy word wrap with measure(text) → width; words wider than the line are broken between
 * characters. Returns the lines (none for empty text).
 */
export function wrapText(text: string, maxWidth: number, measure: (s: string) => number): string[] {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (measure(candidate) <= maxWidth) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    if (measure(word) <= maxWidth) {
      line = word;
      continue;
    }
    // Break a long word between characters.
    let part = '';
    for (const ch of Array.from(word)) {
      if (part && measure(part + ch) > maxWidth) {
        lines.push(part);
        part = ch;
      } else part += ch;
    }
    line = part;
  }
  if (line) lines.push(line);
  return lines;
}

/** Cuts lines to at most `max`, ending the last kept one with an ellipsis that fits maxWidth. */
export function clampLines(lines: string[], max: number, maxWidth: number, measure: (s: string) => number): string[] {
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  let last = kept[max - 1];
  while (last.length > 0 && measure(`${last}…`) > maxWidth) last = last.slice(0, -1).trimEnd();
  kept[max - 1] = `${last}…`;
  return kept;
}
