// The one table of output formats: everything the service knows about a format is in its row, and
// recipe validation, pricing, the render pool and worker, the FFmpeg probe, the cache, the blob
// stores, job results and the HTTP responses read it. It sits with the low-level libs so that all of
// them (generators and blob stores too) import it downward. The contract (openapi.yaml's Format)
// lists the same names; a unit test keeps them equal.

/**
 * kind: how it is made — `text` (the generator writes an SVG or CSS document itself: no pixels, no
 *   encoder), `still` (one frame, the poster, encoded by sharp) or `motion` (the animation's
 *   frames, piped into FFmpeg).
 * cost: how pricing counts it — `flat` (one credit) or `pixels` (per started million output
 *   pixel-frames; see src/services/pricing.ts).
 * evenSides: the encoder needs even device width and height (x264's yuv420p).
 * defaultQuality: the format takes a recipe `quality` (1–100), and this is what a recipe without
 *   one renders at (it is written into the canonical recipe); null: the format takes none, and a
 *   recipe that sends one is refused. JPEG's alone: measured by `npm run bench:jpeg`.
 */
export const FORMATS = {
  png: { contentType: 'image/png', extension: 'png', kind: 'still', cost: 'pixels', evenSides: false, defaultQuality: null },
  webp: { contentType: 'image/webp', extension: 'webp', kind: 'still', cost: 'pixels', evenSides: false, defaultQuality: null },
  jpeg: { contentType: 'image/jpeg', extension: 'jpg', kind: 'still', cost: 'pixels', evenSides: false, defaultQuality: 82 },
  gif: { contentType: 'image/gif', extension: 'gif', kind: 'motion', cost: 'pixels', evenSides: false, defaultQuality: null },
  mp4: { contentType: 'video/mp4', extension: 'mp4', kind: 'motion', cost: 'pixels', evenSides: true, defaultQuality: null },
  svg: { contentType: 'image/svg+xml', extension: 'svg', kind: 'text', cost: 'flat', evenSides: false, defaultQuality: null },
  css: { contentType: 'text/css', extension: 'css', kind: 'text', cost: 'flat', evenSides: false, defaultQuality: null },
} as const satisfies Record<string, FormatSpec>;

export interface FormatSpec {
  contentType: string;
  extension: string;
  kind: 'text' | 'still' | 'motion';
  cost: 'flat' | 'pixels';
  evenSides: boolean;
  defaultQuality: number | null;
}

/** A recipe's `quality`: an integer in this range, for a format that takes one (defaultQuality). */
export const QUALITY_LIMITS = { min: 1, max: 100 } as const;

/** The formats that take a `quality`, in the table's order (jpeg). */
export const QUALITY_FORMATS = (Object.keys(FORMATS) as OutputFormat[]).filter((f) => FORMATS[f].defaultQuality !== null);

/** Whether a format takes a recipe `quality`. */
export function takesQuality(format: OutputFormat): boolean {
  return FORMATS[format].defaultQuality !== null;
}

export type OutputFormat = keyof typeof FORMATS;
export type FormatKind = FormatSpec['kind'];
/** The formats of one kind, as a type (e.g. FormatOfKind<'motion'> is 'gif' | 'mp4'). */
export type FormatOfKind<K extends FormatKind> = { [F in OutputFormat]: (typeof FORMATS)[F]['kind'] extends K ? F : never }[OutputFormat];

/** Every format, in the table's order (the default, png, first). */
export const OUTPUT_FORMATS = Object.keys(FORMATS) as OutputFormat[];

export function isFormatKind<K extends FormatKind>(format: OutputFormat, kind: K): format is FormatOfKind<K> {
  return FORMATS[format].kind === kind;
}

/** Formats whose frames come from the animation (the others render a single frame, the poster). */
export function isMotionFormat(format: OutputFormat): format is FormatOfKind<'motion'> {
  return isFormatKind(format, 'motion');
}

/** What a client needs to handle a format's files (GET /v1/health `formats`): pricing and even sides stay the service's. */
export type FormatFacts = Pick<FormatSpec, 'contentType' | 'extension' | 'kind' | 'defaultQuality'>;

/** Every format's FormatFacts, in the table's order: the web app names, shows and opens files by them, and offers a quality where one is taken. */
export function formatFacts(): Record<OutputFormat, FormatFacts> {
  return Object.fromEntries(
    OUTPUT_FORMATS.map((format) => {
      const { contentType, extension, kind, defaultQuality } = FORMATS[format];
      return [format, { contentType, extension, kind, defaultQuality }];
    }),
  ) as Record<OutputFormat, FormatFacts>;
}

/** The file extension of a format named by stored data (a job's row), which was validated when it was written. */
export function extensionOf(format: string): string {
  return FORMATS[format as OutputFormat].extension;
}

/**
 * The format of a small picture of a generator (a job's thumbnail): a still, webp where the
 * generator offers it (the lighter file), else png.
 */
export function thumbnailFormat(offered: readonly OutputFormat[]): FormatOfKind<'still'> {
  return offered.includes('webp') ? 'webp' : 'png';
}
