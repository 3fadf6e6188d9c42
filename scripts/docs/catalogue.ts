// The generator catalogue of docs/generators.md and its pictures under docs/generators/, written by
// `npm run docs`. Every picture is rendered by the service's own engine (createRenderEngine, as the
// CLI and the golden suite build it), so each file is byte for byte what `POST /v1/generate/{slug}`
// answers for the recipe shown, and carries that recipe in its metadata (`render-service inspect`).
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { FORMATS } from '../../src/lib/formats.ts';
import type { ResolvedRecipe } from '../../src/engine/recipe.ts';
import { extract } from '../../src/engine/recipe-metadata.ts';
import { ENGINE_VERSION } from '../../src/engine/versions.ts';
import type { GeneratorDefinition } from '../../src/generators/generator.types.ts';
import { GeneratorRegistry } from '../../src/generators/registry.ts';
import { ALL_GENERATORS } from '../../src/generators/index.ts';
import { resolveRecipe } from '../../src/engine/recipe.ts';
import { createRenderEngine } from '../../src/services/render-engine.factory.ts';

/** The seeds every generator is shown at (the seed-spread measure's seeds: neighbours must differ). */
export const SEEDS = [1, 2, 3] as const;
/** Tile height; the width follows the generator's suggested shape (400×210 for the 1.9:1 default). */
export const TILE_HEIGHT = 210;
const DEFAULT_TILE_WIDTH = 400;
export const TILE_FORMAT = 'webp';
/** Where the pictures live, relative to docs/. */
export const IMAGE_DIR = 'generators';
/** The README's picture: seed 1 of these generators, in two rows. */
export const STRIP_GENERATORS = [
  'mesh-gradient',
  'aurora',
  'truchet',
  'halftone',
  'social-card',
  'plasma',
  'isometric',
  'topography',
  'orbits',
  'voronoi',
];
const STRIP_COLUMNS = 5;
export const STRIP_FILE = `${IMAGE_DIR}/strip.webp`;
/** Extra lines under a generator's entry (pages that say more about it). */
const NOTES: Record<string, string> = {
  'social-card':
    'Text, fonts and the scripts it draws: [text and fonts](text-and-fonts.md). Signed URLs for `og:image`: [embedding](embedding.md).',
};

export const registry = new GeneratorRegistry(ALL_GENERATORS);
// Resolving a social-card recipe checks its text with the shaper, which loads asynchronously.
await registry.ready();

export interface Tile {
  slug: string;
  seed: number;
  /** Path under docs/. */
  file: string;
  resolved: ResolvedRecipe;
}

function tileSize(gen: GeneratorDefinition): { width: number; height: number } {
  if (!gen.suggestedSize) return { width: DEFAULT_TILE_WIDTH, height: TILE_HEIGHT };
  return { width: Math.round((TILE_HEIGHT * gen.suggestedSize.width) / gen.suggestedSize.height), height: TILE_HEIGHT };
}

/** Every picture of the catalogue, resolved (cheap: no rendering). */
export function tiles(): Tile[] {
  return registry.list().flatMap((gen) =>
    SEEDS.map((seed) => ({
      slug: gen.slug,
      seed,
      file: `${IMAGE_DIR}/${gen.slug}-${seed}.${TILE_FORMAT}`,
      resolved: resolveRecipe(registry, gen.slug, { seed, size: { ...tileSize(gen), pixelRatio: 1 }, format: TILE_FORMAT }),
    })),
  );
}

/** Renders every tile through the engine; the bytes by path under docs/. */
export function renderTiles(list: Tile[] = tiles()): Promise<Map<string, Buffer>> {
  return renderPictures(list, 120_000);
}

/** Renders pictures of the docs (resolved recipes, by path under docs/) through the engine; the bytes by path, sorted. */
export async function renderPictures(
  list: ReadonlyArray<{ file: string; resolved: ResolvedRecipe }>,
  timeoutMs: number,
): Promise<Map<string, Buffer>> {
  const engine = await createRenderEngine({
    ffmpegPath: undefined,
    render: { workers: 2, queueLimit: 1000, timeoutMs, animationBudgetMs: timeoutMs },
  });
  try {
    const out = new Map<string, Buffer>();
    await Promise.all(
      list.map(async (t) => {
        out.set(t.file, (await engine.service.render(t.resolved, { mode: 'job' })).bytes);
      }),
    );
    return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
  } finally {
    await engine.close();
  }
}

/**
 * Why a tile on disk is not what the engine would render now, judged without rendering: the recipe
 * and engine version it carries against the recipe resolved today. A generator whose output changes
 * bumps its version (the golden suite enforces it), which changes the recipe hash.
 */
export function staleTile(t: Pick<Tile, 'resolved'>, bytes: Buffer | undefined): string | undefined {
  if (!bytes) return 'missing';
  const meta = extract(bytes);
  if (!meta) return 'carries no recipe';
  if (meta.hash !== t.resolved.hash)
    return `rendered from another recipe (${meta.hash.slice(0, 12)}…, now ${t.resolved.hash.slice(0, 12)}…)`;
  if (meta.engineVersion !== ENGINE_VERSION) return `rendered by engine ${meta.engineVersion}, now ${ENGINE_VERSION}`;
  return undefined;
}

/** The README's picture, composed from the tiles (seed 1 of STRIP_GENERATORS) with fixed encoder settings. */
export async function composeStrip(tileBytes: (file: string) => Buffer | undefined): Promise<Buffer> {
  const w = DEFAULT_TILE_WIDTH;
  const h = TILE_HEIGHT;
  const rows = Math.ceil(STRIP_GENERATORS.length / STRIP_COLUMNS);
  const composite = await Promise.all(
    STRIP_GENERATORS.map(async (slug, i) => {
      const file = `${IMAGE_DIR}/${slug}-${SEEDS[0]}.${TILE_FORMAT}`;
      const bytes = tileBytes(file);
      if (!bytes) throw new Error(`the strip needs ${file}`);
      // Suggested shapes other than 400×210 are cropped to it from the centre.
      const input = await sharp(bytes).resize(w, h, { fit: 'cover' }).png().toBuffer();
      return { input, left: (i % STRIP_COLUMNS) * w, top: Math.floor(i / STRIP_COLUMNS) * h };
    }),
  );
  return sharp({ create: { width: w * STRIP_COLUMNS, height: h * rows, channels: 3, background: '#000000' } })
    .composite(composite)
    .webp({ quality: 80, effort: 4 })
    .toBuffer();
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

function formatValue(value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => formatValue(v)).join(' ');
  if (typeof value === 'string') return value === '' ? '(empty)' : `\`${value.replaceAll('\n', '\\n')}\``;
  return `\`${JSON.stringify(value)}\``;
}

function paramValues(schema: Record<string, unknown>): string {
  const type = schema.type as string | undefined;
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).map((v) => formatValue(v)).join(', ');
  const range = (lo: unknown, hi: unknown) =>
    lo !== undefined && hi !== undefined ? `${lo}–${hi}` : lo !== undefined ? `≥ ${lo}` : hi !== undefined ? `≤ ${hi}` : '';
  if (type === 'number' || type === 'integer')
    return `${type === 'integer' ? 'integer' : 'number'} ${range(schema.minimum, schema.maximum)}`.trim();
  if (type === 'boolean') return 'boolean';
  if (type === 'string') {
    if (schema.format === 'color') return 'colour `#rrggbb`';
    return schema.maxLength !== undefined ? `text, ≤ ${schema.maxLength} characters` : 'text';
  }
  if (type === 'array') {
    const items = (schema.items ?? {}) as Record<string, unknown>;
    const what = items.format === 'color' ? 'colours' : `${paramValues(items)} values`;
    return `${range(schema.minItems, schema.maxItems)} ${what}`.trim();
  }
  return type ?? 'any';
}

function paramsTable(gen: GeneratorDefinition): string[] {
  const rows = Object.entries(gen.paramSchema.properties).map(([name, schema]) => {
    const def = name in gen.defaults ? formatValue(gen.defaults[name]) : '—';
    const what = [schema.title, schema.description].filter(Boolean).join(': ');
    return `| \`${name}\` | ${cell(paramValues(schema))} | ${cell(def)} | ${cell(String(what))} |`;
  });
  return ['| Param | Values | Default | What it does |', '|---|---|---|---|', ...rows];
}

function kindLine(gen: GeneratorDefinition): string {
  const formats = gen.formats.map((f) => `\`${f}\``).join(', ');
  const size = gen.suggestedSize
    ? ` · made for ${gen.suggestedSize.width}×${gen.suggestedSize.height} (send it as \`size\`: without one a recipe renders 1920×1080)`
    : '';
  if (!gen.animated) return `**${gen.slug}** ${gen.version} · still · ${formats}${size}`;
  const loop = gen.animation?.(gen.defaults);
  const motion = gen.formats.filter((f) => FORMATS[f].kind === 'motion');
  const stills = gen.formats.filter((f) => FORMATS[f].kind !== 'motion');
  const at = loop ? ` (by default ${loop.frames} frames at ${loop.fps} fps)` : '';
  return `**${gen.slug}** ${gen.version} · animated · ${motion.map((f) => `\`${f}\``).join(', ')}${at}; ${stills.map((f) => `\`${f}\``).join(', ')} of its first frame${size}`;
}

/** docs/generators.md's generated part: an overview table, then each generator with its pictures and params. */
export function catalogueMarkdown(list: Tile[] = tiles()): string {
  const gens = registry.list();
  const animated = gens.filter((g) => g.animated).length;
  const out: string[] = [
    `${gens.length} generators, ${animated} of them animated, rendered by engine ${ENGINE_VERSION}.`,
    '',
    '| Generator | Version | Kind | Formats |',
    '|---|---|---|---|',
    ...gens.map(
      (g) => `| [${g.name}](#${g.slug}) (\`${g.slug}\`) | ${g.version} | ${g.animated ? 'animated' : 'still'} | ${g.formats.join(', ')} |`,
    ),
  ];
  for (const gen of gens) {
    const own = list.filter((t) => t.slug === gen.slug);
    const { width, height } = own[0]!.resolved.recipe.size;
    out.push(
      '',
      `## ${gen.slug}`,
      '',
      own.map((t) => `![${gen.name}, seed ${t.seed}](${t.file})`).join(' '),
      '',
      `*${gen.name}.* ${gen.description}`,
      '',
      `${kindLine(gen)}. Above: seeds ${SEEDS.join(', ')} at ${width}×${height}, default params.`,
    );
    if (NOTES[gen.slug]) out.push('', NOTES[gen.slug]!);
    out.push('', ...paramsTable(gen));
  }
  return out.join('\n');
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
