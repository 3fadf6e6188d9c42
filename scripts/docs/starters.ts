// The starter templates (starters/*.json) and their pictures in docs/templates/starters/, written by
// `npm run docs`. Each starter is a `POST /v1/templates` body; its pictures are rendered from the
// file as the command line renders it (`render-service render --template FILE --assets DIR`:
// readTemplateFiles and resolveTemplateFiles, the template checked whole, the sample assets of
// starters/assets/ named by file) through the service's own engine, so every picture carries its
// recipe (`render-service inspect`).
//
// A template's recipe names the template's id and version, not its layers: a file without an id
// renders as `tpl_local` version 1 whatever it draws. So each picture renders under an id derived
// from what makes its pixels — the starter's text, the sample assets' bytes, the version of every
// generator its layers draw and the compositor's goldens' digests (test/golden/template-goldens.json,
// which change whenever the compositor's pixels do) — and its recipe hash changes whenever any of them
// does: `npm run docs -- --check --no-render` finds a stale picture without rendering it.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { recipePaths, type ResolvedRecipe } from '../../src/engine/recipe.ts';
import type { OutputFormat } from '../../src/lib/formats.ts';
import { readTemplateFiles, resolveTemplateFiles, type TemplateFiles } from '../../src/services/template-files.ts';
import { registry, renderPictures, staleTile } from './catalogue.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const STARTERS_DIR = path.join(ROOT, 'starters');
export const STARTER_ASSETS_DIR = path.join(STARTERS_DIR, 'assets');
/** Where the pictures live, relative to docs/. */
export const STARTER_IMAGE_DIR = 'templates/starters';
const COMPOSITOR_GOLDENS = path.join(ROOT, 'test/golden/template-goldens.json');

/** One picture of a starter: the params it shows (a file of starters/assets/ where an image goes), at a size, in a format. */
export interface StarterSample {
  /** The picture's file name under docs/templates/starters/. */
  file: string;
  params: Record<string, unknown>;
  /** Default: the template's own size. */
  size?: { width: number; height: number };
  format: OutputFormat;
}

/** The starters, in the order the docs show them, with the pictures of each. */
export const STARTERS: ReadonlyArray<{ name: string; samples: StarterSample[] }> = [
  {
    name: 'blog-og-image',
    samples: [
      {
        file: 'blog-og-image.webp',
        params: {
          title: 'How we made every render byte-for-byte reproducible',
          author: 'Maya Lindqvist',
          meta: 'Engineering blog · 7 min read',
          logo: 'logo.png',
          photo: 'author.jpg',
        },
        format: 'webp',
      },
    ],
  },
  {
    name: 'product-announcement',
    samples: [
      {
        file: 'product-announcement.webp',
        params: {
          headline: 'Meet Pulse 2, the watch that knows your rhythm',
          description: 'Seven days of battery, sleep coaching and a brighter screen.',
          link: 'pulse.example.com →',
          product: 'product.webp',
        },
        format: 'webp',
      },
    ],
  },
  {
    name: 'avatar-initials',
    samples: ['AL', 'MK', 'JRR'].map((initials, i) => ({
      file: `avatar-initials-${i + 1}.webp`,
      params: { initials },
      format: 'webp' as const,
    })),
  },
  {
    name: 'event-banner',
    samples: [
      {
        file: 'event-banner.webp',
        params: { title: 'Render Summit 2026', date: '14–15 May 2026', place: 'Kulturhuset, Stockholm & online' },
        format: 'webp',
      },
      {
        file: 'event-banner.gif',
        params: { title: 'Render Summit 2026', date: '14–15 May 2026', place: 'Kulturhuset, Stockholm & online' },
        size: { width: 600, height: 200 },
        format: 'gif',
      },
    ],
  },
];

/** Where a starter's mistakes are named (`starter.params.title`). */
export const STARTER_PATHS = recipePaths('starter');

export const starterFile = (name: string): string => path.join(STARTERS_DIR, `${name}.json`);

/** The starter files on disk (starters/*.json), by name. */
export function starterNames(): string[] {
  return readdirSync(STARTERS_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

/**
 * A starter read as the command line reads a template file with `--assets starters/assets`, under
 * an id derived from everything that makes its pixels (see the top of this file).
 */
export async function readStarter(name: string): Promise<TemplateFiles> {
  const file = starterFile(name);
  const files = await readTemplateFiles(file, STARTER_ASSETS_DIR);
  const hash = createHash('sha256').update(readFileSync(file));
  for (const asset of readdirSync(STARTER_ASSETS_DIR).sort())
    hash.update(`\0${asset}\0`).update(readFileSync(path.join(STARTER_ASSETS_DIR, asset)));
  for (const layer of files.spec.layers)
    if (layer.kind === 'generator') hash.update(`\0${layer.slug}@${registry.get(layer.slug)?.version ?? 'unknown'}`);
  // The goldens' digests, not their ids: renaming a golden changes no pixel.
  const digests = Object.values(JSON.parse(readFileSync(COMPOSITOR_GOLDENS, 'utf8')) as Record<string, string>).sort();
  hash.update(`\0${digests.join(',')}`);
  files.id = `tpl_${hash.digest('hex').slice(0, 24)}`;
  return files;
}

export interface StarterPicture {
  starter: string;
  /** Path under docs/. */
  file: string;
  resolved: ResolvedRecipe;
}

/** Every starter picture, resolved (no rendering). */
export async function starterPictures(): Promise<StarterPicture[]> {
  const out: StarterPicture[] = [];
  for (const { name, samples } of STARTERS) {
    const files = await readStarter(name);
    for (const s of samples) {
      const size = s.size ? { ...s.size, pixelRatio: 1 } : undefined;
      const resolved = await resolveTemplateFiles(files, registry, { params: s.params, size, format: s.format }, STARTER_PATHS);
      out.push({ starter: name, file: `${STARTER_IMAGE_DIR}/${s.file}`, resolved });
    }
  }
  return out;
}

/** Renders the starter pictures through the engine; the bytes by path under docs/. */
export function renderStarterPictures(list: StarterPicture[]): Promise<Map<string, Buffer>> {
  return renderPictures(list, 300_000);
}

interface VariableSchema {
  type?: string;
  description?: string;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: { pattern?: string };
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/**
 * A starter's variables as a markdown table: the generated region `starter-variables <name>` of
 * docs/templates.md, read from the file, so the page says what the file declares.
 */
export function starterVariablesMarkdown(name: string): string {
  const json = JSON.parse(readFileSync(starterFile(name), 'utf8')) as {
    variables: { required?: string[]; properties: Record<string, VariableSchema> };
    layers: Array<{ kind: string; asset?: string }>;
  };
  const images = new Set(
    json.layers.flatMap((l) => (l.kind === 'image' && l.asset ? [/^\{\{\s*(\w+)\s*\}\}$/.exec(l.asset)?.[1] ?? ''] : [])),
  );
  const required = new Set(json.variables.required ?? []);
  const rows = Object.entries(json.variables.properties).map(([key, v]) => {
    const what = images.has(key)
      ? 'an image: its asset id (`ast_…`); with the CLI, a file of `--assets`'
      : v.type === 'array'
        ? `${v.minItems ?? 1}–${v.maxItems ?? '…'} colours \`#rrggbb\``
        : v.type === 'string'
          ? `text, ${v.minLength ? `${v.minLength}–${v.maxLength}` : `≤ ${v.maxLength}`} characters`
          : (v.type ?? 'any');
    const def =
      v.default === undefined
        ? required.has(key)
          ? '(required)'
          : '—'
        : Array.isArray(v.default)
          ? v.default.map((c) => `\`${String(c)}\``).join(' ')
          : v.default === ''
            ? '(empty)'
            : `\`${JSON.stringify(v.default).replace(/^"|"$/g, '')}\``;
    return `| \`${key}\` | ${cell(what)} | ${cell(def)} | ${cell(v.description ?? '')} |`;
  });
  return ['| Variable | Values | Default | What it is |', '|---|---|---|---|', ...rows].join('\n');
}

/** Why a starter picture on disk is not what the engine would render now, judged by the recipe it carries (as a generator's tile). */
export const staleStarterPicture = (p: StarterPicture, bytes: Buffer | undefined): string | undefined => staleTile(p, bytes);
