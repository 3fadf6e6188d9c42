// Colour helpers shared by generators. Colours in params are '#rrggbb' strings.

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export function parseHex(hex: string): Rgb {
  const h = hex.replace('#', '');
  const full =
    h.length === 3
      ? h
          .split('')
          .map((c) => c + c)
          .join('')
      : h.slice(0, 6);
  const n = parseInt(full, 16);
  return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255 };
}

export function toHex({ r, g, b }: Rgb): string {
  const c = (v: number) =>
    Math.max(0, Math.min(255, Math.round(v)))
      .toString(16)
      .padStart(2, '0');
  return `#${c(r)}${c(g)}${c(b)}`;
}

export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return { r: a.r + (b.r - a.r) * t, g: a.g + (b.g - a.g) * t, b: a.b + (b.b - a.b) * t };
}

/** Sample a multi-stop palette at t in [0, 1]. */
export function samplePalette(stops: readonly Rgb[], t: number): Rgb {
  if (stops.length === 1) return stops[0];
  const x = Math.max(0, Math.min(1, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  return mix(stops[i], stops[i + 1], x - i);
}

export function rgba({ r, g, b }: Rgb, alpha = 1): string {
  return `rgba(${Math.round(r)}, ${Math.round(g)}, ${Math.round(b)}, ${alpha})`;
}

/** JSON Schema fragment for a '#rrggbb' colour param; the web app shows a colour picker for format "color". */
export function colorParam(title: string, description: string, defaultValue: string): Record<string, unknown> {
  return { type: 'string', title, description, pattern: '^#[0-9a-fA-F]{6}$', format: 'color', default: defaultValue };
}

/** A palette param: 2..8 colours. */
export function paletteParam(title: string, description: string, defaultValue: string[]): Record<string, unknown> {
  return {
    type: 'array',
    title,
    description,
    minItems: 2,
    maxItems: 8,
    items: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$', format: 'color' },
    default: defaultValue,
  };
}
