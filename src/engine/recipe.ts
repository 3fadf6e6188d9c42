// Recipes: defaults, param merging and validation, the canonical form, its base64url encoding and
// its hash. The canonical form (RFC 8785) includes the generator slug and version, so a changed
// generator can never be served from a stale cache.
import type { RenderTask } from './render.worker.ts';
import type { TemplateTask } from '../templates/template.types.ts';
import { sha256Hex } from '../lib/hashing.ts';
import { createHash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';
import type { ValidateFunction } from 'ajv';
import { ProblemError, type ProblemIssue } from '../errors/problem.ts';
import type { GeneratorDefinition } from '../generators/generator.types.ts';
import type { GeneratorRegistry } from '../generators/registry.ts';
import { createAjv, toIssues } from '../lib/schema-validation.ts';
import { COVERED_SCRIPTS, describeGrapheme } from '../generators/lib/font-coverage.ts';
import {
  FORMATS,
  isMotionFormat,
  OUTPUT_FORMATS,
  QUALITY_FORMATS,
  QUALITY_LIMITS,
  type OutputFormat,
  takesQuality,
} from '../lib/formats.ts';
import { deviceSize } from '../lib/device-size.ts';
import { ENGINE_VERSION } from './versions.ts';
import { TEMPLATE_ENGINE_PROFILE } from './engine-profiles.ts';
import { DEFAULT_SIZE, MAX_ANIMATION_PIXELS, MAX_FRAME_PIXELS, SIZE_LIMITS } from '../config/limits.ts';

// canonicalize is CommonJS with an ESM-style type declaration; at run time the default import is the function.
const canonicalize = canonicalizeModule as unknown as (input: unknown) => string | undefined;

/**
 * The size a recipe without one renders at: 1920×1080 at pixel ratio 1 for every generator, as the
 * specification says. A generator's suggestedSize is only what the playground offers.
 */
export function defaultSize(): { width: number; height: number; pixelRatio: number } {
  return { ...DEFAULT_SIZE };
}

export const RECIPE_SCHEMA_VERSION = 1;

export interface RecipeInput {
  params?: Record<string, unknown>;
  seed?: number;
  size?: { width: number; height: number; pixelRatio?: number };
  format?: OutputFormat;
  /** 1–100, for a format that takes one (jpeg); refused with any other. */
  quality?: number;
}

/** Exactly what is hashed. */
export interface CanonicalRecipe {
  v: 1;
  generator: string;
  version: string;
  params: Record<string, unknown>;
  seed: number;
  size: { width: number; height: number; pixelRatio: number };
  format: OutputFormat;
  /**
   * The encoder's quality, for a format that takes one (jpeg): always there for such a format (its
   * default when the input had none), never for another, so png's canonical form is what it was.
   */
  quality?: number;
  /** A template's recipe only: the content hash (sha256) of every asset it draws, by asset id. */
  assets?: Record<string, string>;
}

/** Template ids (`tpl_…`) render as generators do; their recipes also pin their assets. */
export const TEMPLATE_ID = /^tpl_[A-Za-z0-9]{1,60}$/;
export const isTemplateId = (slug: string): boolean => TEMPLATE_ID.test(slug);

export type { TemplateTask } from '../templates/template.types.ts';

/** How a template differs from a registry generator when its recipe is resolved (src/services/recipes.service.ts). */
export interface TemplateResolution {
  /** The size a recipe without one renders at: the template's own. */
  size: { width: number; height: number };
  /** The asset hashes the recipe pins, for the params (after validation). */
  assets(params: Record<string, unknown>): Record<string, string>;
  /** Checks that need the params after validation (text that must fit); issues name `paths.params`. */
  check?(params: Record<string, unknown>, paths: FieldPaths): void;
}

export interface ResolvedRecipe {
  recipe: CanonicalRecipe;
  generator: GeneratorDefinition;
  /** The canonical JSON text (RFC 8785). */
  canonicalJson: string;
  /** base64url of the canonical JSON (no padding). */
  encoded: string;
  /** sha256 hex of the canonical JSON. */
  hash: string;
  /** Output size in device pixels. */
  deviceWidth: number;
  deviceHeight: number;
  frames: number;
  fps: number;
  /** The engine profile that encodes it (engine-profiles.ts): its generator version's, or TEMPLATE_ENGINE_PROFILE for a template. */
  engine: string;
  /** A version past its deprecation window: its files are served where they were rendered before, never rendered anew. */
  retired?: { sunsetAt: string; successor: string };
  /** A template's recipe: its workspace (a recipe is another workspace's 404) and what the worker draws from. */
  template?: { workspaceId: string; task: TemplateTask };
}

/** Where in the request the recipe came from, so issues name the right field. */
export interface FieldPaths {
  params: string;
  seed: string;
  size: string;
  format: string;
  quality: string;
}

/** Field paths of a recipe under a prefix, e.g. `body` or `body.items.3`. */
export function recipePaths(prefix: string): FieldPaths {
  return {
    params: `${prefix}.params`,
    seed: `${prefix}.seed`,
    size: `${prefix}.size`,
    format: `${prefix}.format`,
    quality: `${prefix}.quality`,
  };
}

/** What a recipe's `quality` with a format that takes none is told (the contract's Quality says the rule). */
export const QUALITY_FORMAT_ISSUE = `is taken only with format ${QUALITY_FORMATS.join(' or ')}`;

export const BODY_PATHS: FieldPaths = recipePaths('body');

const paramValidators = new WeakMap<GeneratorDefinition, ValidateFunction>();
/**
 * One Ajv for every recipe schema, which does not check the schemas themselves against the draft
 * 2020-12 meta-schema: compiling that meta-schema was most of a CLI render's start-up. The schemas
 * are this code's own, and the generator contract tests compile every paramSchema with a strict,
 * checking Ajv (test/unit/generators/generator-contract.ts).
 */
const ajv = createAjv({ useDefaults: false, validateSchema: false });

function paramValidator(def: GeneratorDefinition): ValidateFunction {
  let v = paramValidators.get(def);
  if (!v) {
    v = ajv.compile(def.paramSchema);
    paramValidators.set(def, v);
  }
  return v;
}

/** Seed 0 means "derive from the params": the first 4 bytes of sha256(canonical params), big-endian; 1 if that is 0. */
export function deriveSeed(params: Record<string, unknown>): number {
  const digest = createHash('sha256')
    .update(canonicalize(params) ?? '{}', 'utf8')
    .digest();
  return digest.readUInt32BE(0) || 1;
}

export function mergeParams(defaults: Record<string, unknown>, overrides: Record<string, unknown> | undefined): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    // null restores the default (or removes a param that has none).
    if (value === null) {
      if (key in defaults) merged[key] = defaults[key];
      else delete merged[key];
    } else {
      merged[key] = value;
    }
  }
  return merged;
}

export function resolveRecipe(
  registry: GeneratorRegistry,
  slug: string,
  input: RecipeInput,
  paths: FieldPaths = BODY_PATHS,
): ResolvedRecipe {
  const generator = registry.get(slug);
  if (!generator) throw new ProblemError('generator_not_found', { detail: `No generator has the slug "${slug}". See GET /v1/generators.` });
  return resolvePinned(registry, slug, generator.version, input, paths);
}

/** Resolves a recipe of a generator already found: a registry's, or a template version seen as one. */
export function resolveWith(
  generator: GeneratorDefinition,
  input: RecipeInput,
  paths: FieldPaths = BODY_PATHS,
  template?: TemplateResolution,
): ResolvedRecipe {
  const format = input.format ?? 'png';
  if (!generator.formats.includes(format)) {
    throw new ProblemError('unsupported_format', {
      detail: `${generator.slug} renders ${generator.formats.join(', ')}; not ${format}.`,
      issues: [{ path: paths.format, message: `must be one of: ${generator.formats.join(', ')}`, keyword: 'enum' }],
    });
  }

  const params = mergeParams(generator.defaults, input.params);
  const validate = paramValidator(generator);
  if (!validate(params)) {
    const issues = toIssues(validate.errors, paths.params);
    throw new ProblemError('invalid_params', { detail: issues.map((i) => `${i.path} ${i.message}`).join('; '), issues });
  }
  const unsupported = generator.unsupportedText?.(params) ?? [];
  if (unsupported.length > 0) {
    const issues: ProblemIssue[] = unsupported.map((u) => ({
      path: `${paths.params}.${u.param}`,
      message: `has characters no bundled font draws: ${u.graphemes.map(describeGrapheme).join(', ')}`,
      keyword: 'characters',
    }));
    throw new ProblemError('unsupported_characters', {
      detail: `${issues.map((i) => `${i.path} ${i.message}`).join('; ')}. ${generator.slug} draws ${COVERED_SCRIPTS}.`,
      issues,
      extra: { characters: [...new Set(unsupported.flatMap((u) => u.graphemes))] },
    });
  }

  const fallback = template ? { ...template.size, pixelRatio: DEFAULT_SIZE.pixelRatio } : defaultSize();
  const size = {
    width: input.size?.width ?? fallback.width,
    height: input.size?.height ?? fallback.height,
    pixelRatio: input.size?.pixelRatio ?? fallback.pixelRatio,
  };
  // The HTTP contract checks these too; the engine checks again because the CLI and jobs call it directly.
  const issues: ProblemIssue[] = [];
  for (const side of ['width', 'height'] as const) {
    const v = size[side];
    if (!Number.isInteger(v) || v < SIZE_LIMITS.minSide || v > SIZE_LIMITS.maxSide)
      issues.push({
        path: `${paths.size}.${side}`,
        message: `must be an integer from ${SIZE_LIMITS.minSide} to ${SIZE_LIMITS.maxSide}`,
        keyword: 'range',
      });
  }
  if (!(size.pixelRatio >= SIZE_LIMITS.minPixelRatio && size.pixelRatio <= SIZE_LIMITS.maxPixelRatio)) {
    issues.push({
      path: `${paths.size}.pixelRatio`,
      message: `must be from ${SIZE_LIMITS.minPixelRatio} to ${SIZE_LIMITS.maxPixelRatio}`,
      keyword: 'range',
    });
  }
  if (template && issues.length === 0 && !sameAspect(size, template.size)) {
    issues.push({
      path: `${paths.size}`,
      message: `must keep the template's aspect ratio ${template.size.width}:${template.size.height} (for width ${size.width}, height ${Math.round((size.width * template.size.height) / template.size.width)})`,
      keyword: 'aspect',
    });
  }
  if (input.seed !== undefined && (!Number.isInteger(input.seed) || input.seed < 0 || input.seed > 4294967295)) {
    issues.push({ path: paths.seed, message: 'must be an integer from 0 to 4294967295', keyword: 'range' });
  }
  // quality is JPEG's alone: sent with another format (png when none is named) it is refused, never dropped.
  if (input.quality !== undefined) {
    if (!takesQuality(format)) issues.push({ path: paths.quality, message: QUALITY_FORMAT_ISSUE, keyword: 'format' });
    else if (!Number.isInteger(input.quality) || input.quality < QUALITY_LIMITS.min || input.quality > QUALITY_LIMITS.max)
      issues.push({
        path: paths.quality,
        message: `must be an integer from ${QUALITY_LIMITS.min} to ${QUALITY_LIMITS.max}`,
        keyword: 'range',
      });
  }
  if (issues.length > 0)
    throw new ProblemError('validation_failed', { detail: issues.map((i) => `${i.path} ${i.message}`).join('; '), issues });
  const seed = input.seed === undefined || input.seed === 0 ? deriveSeed(params) : input.seed;
  const recipe: CanonicalRecipe = {
    v: RECIPE_SCHEMA_VERSION,
    generator: generator.slug,
    version: generator.version,
    params,
    seed,
    size,
    format,
  };
  const defaultQuality = FORMATS[format].defaultQuality;
  if (defaultQuality !== null) recipe.quality = input.quality ?? defaultQuality;
  if (template) {
    template.check?.(params, paths);
    recipe.assets = template.assets(params);
  }
  return finish(recipe, generator, paths);
}

/** A template renders scaled whole: the size must have its aspect ratio, to the nearest pixel on either side. */
function sameAspect(size: { width: number; height: number }, of: { width: number; height: number }): boolean {
  return size.height === Math.round((size.width * of.height) / of.width) || size.width === Math.round((size.height * of.width) / of.height);
}

function finish(recipe: CanonicalRecipe, generator: GeneratorDefinition, paths: FieldPaths): ResolvedRecipe {
  const { width: deviceWidth, height: deviceHeight } = deviceSize(recipe.size);
  const animation =
    generator.animated && generator.animation && isMotionFormat(recipe.format)
      ? generator.animation(recipe.params as never)
      : { fps: 1, frames: 1 };

  const framePixels = deviceWidth * deviceHeight;
  const issues: ProblemIssue[] = [];
  if (framePixels > MAX_FRAME_PIXELS) {
    throw new ProblemError('render_too_large', {
      detail: `${deviceWidth}×${deviceHeight} output pixels exceed the engine's ${MAX_FRAME_PIXELS.toLocaleString('en-US')} pixels per frame. Lower size or pixelRatio.`,
      issues: [{ path: paths.size, message: `output pixels per frame must be at most ${MAX_FRAME_PIXELS}`, keyword: 'maximum' }],
      extra: { limit: MAX_FRAME_PIXELS, requested: framePixels },
    });
  }
  if (framePixels * animation.frames > MAX_ANIMATION_PIXELS) {
    throw new ProblemError('render_too_large', {
      detail: `${deviceWidth}×${deviceHeight} × ${animation.frames} frames exceed the engine's ${MAX_ANIMATION_PIXELS.toLocaleString('en-US')} pixel-frames. Lower the size, fps or duration.`,
      issues: [{ path: paths.size, message: `output pixels × frames must be at most ${MAX_ANIMATION_PIXELS}`, keyword: 'maximum' }],
      extra: { limit: MAX_ANIMATION_PIXELS, requested: framePixels * animation.frames },
    });
  }
  if (FORMATS[recipe.format].evenSides && (deviceWidth % 2 !== 0 || deviceHeight % 2 !== 0)) {
    // H.264 in yuv420p needs even sides; we never pad or crop silently.
    if (deviceWidth % 2 !== 0)
      issues.push({
        path: `${paths.size}.width`,
        message: `output width ${deviceWidth} (width × pixelRatio) must be even for ${recipe.format}`,
        keyword: 'multipleOf',
      });
    if (deviceHeight % 2 !== 0)
      issues.push({
        path: `${paths.size}.height`,
        message: `output height ${deviceHeight} (height × pixelRatio) must be even for ${recipe.format}`,
        keyword: 'multipleOf',
      });
    throw new ProblemError('validation_failed', { detail: issues.map((i) => `${i.path} ${i.message}`).join('; '), issues });
  }

  const canonicalJson = canonicalize(recipe);
  if (canonicalJson === undefined) throw new Error('recipe cannot be canonicalized');
  return {
    recipe,
    generator,
    canonicalJson,
    encoded: Buffer.from(canonicalJson, 'utf8').toString('base64url'),
    hash: sha256Hex(canonicalJson),
    deviceWidth,
    deviceHeight,
    frames: animation.frames,
    fps: animation.fps,
    // A template's; a generator's recipe takes its release's profile (resolveRecipe, resolveEncodedRecipe).
    engine: TEMPLATE_ENGINE_PROFILE,
  };
}

const ENCODED_RECIPE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['v', 'generator', 'version'],
  properties: {
    v: { const: RECIPE_SCHEMA_VERSION },
    generator: { type: 'string', pattern: '^([a-z0-9][a-z0-9-]{0,63}|tpl_[A-Za-z0-9]{1,60})$' },
    version: { type: 'string', minLength: 1, maxLength: 32 },
    params: { type: 'object' },
    seed: { type: 'integer', minimum: 0, maximum: 4294967295 },
    size: {
      type: 'object',
      additionalProperties: false,
      required: ['width', 'height'],
      properties: {
        width: { type: 'integer', minimum: SIZE_LIMITS.minSide, maximum: SIZE_LIMITS.maxSide },
        height: { type: 'integer', minimum: SIZE_LIMITS.minSide, maximum: SIZE_LIMITS.maxSide },
        pixelRatio: { type: 'number', minimum: SIZE_LIMITS.minPixelRatio, maximum: SIZE_LIMITS.maxPixelRatio },
      },
    },
    format: { enum: OUTPUT_FORMATS },
    quality: { type: 'integer', minimum: QUALITY_LIMITS.min, maximum: QUALITY_LIMITS.max },
    assets: {
      type: 'object',
      propertyNames: { pattern: '^ast_[0-9a-f]{32}$' },
      additionalProperties: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    },
  },
};
/** Compiled on first use: a process that never decodes a recipe URL (a CLI render of a slug) skips it. */
let encodedRecipeValidator: ValidateFunction | undefined;

export interface RecipeOverrides {
  format?: OutputFormat;
  w?: number;
  h?: number;
  pr?: number;
  /** The quality of a format that takes one (jpeg). */
  q?: number;
}

export const QUERY_PATHS: FieldPaths = { ...recipePaths('query.r'), format: 'query.format', quality: 'query.q' };

/**
 * Decodes a recipe URL: base64url → JSON → canonical form → sha256, which must equal the path's
 * hash (when one is given). Then applies the query overrides, which obey exactly the same validation and limits.
 */
export function resolveEncodedRecipe(
  registry: GeneratorRegistry,
  expectedHash: string | undefined,
  encoded: string,
  overrides: RecipeOverrides = {},
): ResolvedRecipe {
  const recipe = decodeRecipe(expectedHash, encoded);
  const pinned = pinnedRelease(registry, recipe.generator, recipe.version);
  return pinned.finish(resolveDecoded(pinned.definition, recipe, overrides, undefined, pinned.defaultSize));
}

/**
 * A recipe of the generator version `version` (a superseded one renders with its own code and engine
 * profile): what a signed base pins (signing-bases.service.ts). Bodies name no version: resolveRecipe.
 */
export function resolvePinned(
  registry: GeneratorRegistry,
  slug: string,
  version: string,
  input: RecipeInput,
  paths: FieldPaths = BODY_PATHS,
): ResolvedRecipe {
  const pinned = pinnedRelease(registry, slug, version);
  return pinned.finish(resolveWith(pinned.definition, input, paths));
}

/**
 * The release a recipe pins, or 404 generator_not_found / 410 recipe_outdated (a version never
 * released, or one whose code was not kept); `finish` gives a resolution its release's engine profile
 * and, past the version's sunset, marks it retired (RenderService then serves only what it rendered before).
 */
function pinnedRelease(registry: GeneratorRegistry, slug: string, version: string) {
  const current = registry.get(slug);
  if (!current) throw new ProblemError('generator_not_found', { detail: `No generator has the slug "${slug}".` });
  const pinned = registry.release(slug, version);
  const definition = pinned?.release.definition;
  if (!pinned || !definition)
    throw new ProblemError('recipe_outdated', {
      detail: pinned
        ? `The recipe pins ${slug} ${version}, which is no longer served: it ${pinned.release.notKept}. Build a new recipe URL (${slug} ${current.version}).`
        : `The recipe pins ${slug} ${version}, which was never released. Build a new recipe URL (${slug} ${current.version}).`,
      extra: { pinnedVersion: version, currentVersion: current.version },
    });
  const engine = pinned.release.engine || ENGINE_VERSION;
  return {
    definition,
    defaultSize: pinned.release.defaultSize,
    finish: (resolved: ResolvedRecipe): ResolvedRecipe =>
      pinned.status === 'retired'
        ? { ...resolved, engine, retired: { sunsetAt: pinned.sunsetAt!, successor: current.version } }
        : { ...resolved, engine },
  };
}

/** A recipe URL's `r` as sent: decoded, checked against the schema and, when given, the path's hash. */
export type DecodedRecipe = Partial<CanonicalRecipe> & Pick<CanonicalRecipe, 'generator' | 'version'>;

export function decodeRecipe(expectedHash: string | undefined, encoded: string): DecodedRecipe {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    throw new ProblemError('invalid_recipe', {
      detail: 'r cannot be decoded: it must be the base64url encoding of a JSON recipe.',
      issues: [{ path: 'query.r', message: 'is not base64url JSON' }],
    });
  }
  encodedRecipeValidator ??= ajv.compile(ENCODED_RECIPE_SCHEMA);
  if (!encodedRecipeValidator(decoded)) {
    const issues = toIssues(encodedRecipeValidator.errors, 'query.r');
    throw new ProblemError('invalid_recipe', {
      detail: `r decoded, but the recipe is not valid: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
      issues,
    });
  }
  const actualHash = sha256Hex(canonicalize(decoded)!);
  if (expectedHash !== undefined && actualHash !== expectedHash) {
    throw new ProblemError('recipe_hash_mismatch', {
      detail: `The recipe hashes to ${actualHash}, not ${expectedHash}.`,
      issues: [{ path: 'path.recipeHash', message: 'does not match sha256 of the canonical recipe in r' }],
    });
  }
  return decoded as DecodedRecipe;
}

/** Resolves a decoded recipe with its generator (or template version), the query's overrides applied. */
export function resolveDecoded(
  generator: GeneratorDefinition,
  recipe: DecodedRecipe,
  overrides: RecipeOverrides = {},
  template?: TemplateResolution,
  /** The size a recipe without one renders at in this generator version, where it is not the default (a superseded version's). */
  versionDefaultSize?: { width: number; height: number },
): ResolvedRecipe {
  if (generator.version !== recipe.version) {
    throw new ProblemError('recipe_outdated', {
      detail: `The recipe pins ${generator.slug} ${recipe.version}; the service now runs ${generator.version}, whose output differs. Build a new recipe URL.`,
      extra: { pinnedVersion: recipe.version, currentVersion: generator.version },
    });
  }
  const size =
    recipe.size ??
    ((template ?? versionDefaultSize)
      ? { ...(template?.size ?? versionDefaultSize!), pixelRatio: DEFAULT_SIZE.pixelRatio }
      : defaultSize());
  const format = overrides.format ?? recipe.format;
  // `q` overrides the recipe's quality. The recipe's own quality belongs to the format it names: a
  // `format` override to one that takes none (a jpeg recipe asked for as webp) leaves it behind.
  const recipeQuality =
    recipe.quality !== undefined && (overrides.format === undefined || takesQuality(overrides.format)) ? recipe.quality : undefined;
  return resolveWith(
    generator,
    {
      params: recipe.params,
      seed: recipe.seed,
      format,
      size: {
        width: overrides.w ?? size.width,
        height: overrides.h ?? size.height,
        pixelRatio: overrides.pr ?? size.pixelRatio ?? DEFAULT_SIZE.pixelRatio,
      },
      quality: overrides.q ?? recipeQuality,
    },
    overrides.q === undefined && recipeQuality !== undefined ? { ...QUERY_PATHS, quality: 'query.r.quality' } : QUERY_PATHS,
    template,
  );
}

/** The part of a render worker's task (render.worker.ts) that a resolved recipe decides; the run adds its own settings. */
export type RecipeTask = Omit<RenderTask, 'ffmpegPath' | 'cancel' | 'timeoutMs' | 'progress'>;

export function recipeTask(resolved: ResolvedRecipe): RecipeTask {
  const { recipe } = resolved;
  return {
    slug: recipe.generator,
    version: recipe.version,
    engine: resolved.engine,
    params: recipe.params,
    seed: recipe.seed,
    width: recipe.size.width,
    height: recipe.size.height,
    pixelRatio: recipe.size.pixelRatio,
    deviceWidth: resolved.deviceWidth,
    deviceHeight: resolved.deviceHeight,
    format: recipe.format,
    ...(recipe.quality !== undefined ? { quality: recipe.quality } : {}),
    recipe: { encoded: resolved.encoded, hash: resolved.hash },
    frames: resolved.frames,
    fps: resolved.fps,
    ...(resolved.template ? { template: resolved.template.task } : {}),
  };
}
