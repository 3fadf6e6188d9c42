// The render pipeline, as named steps: resolve (recipe, params, limits) → cache lookup → render
// (worker pool, with a time budget) → cache store. Identical concurrent misses render once.
import { type DependencyStatus, logFailure } from '../lib/dependency-status.ts';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { BlobStore } from '../blob/blob-store.ts';
import { ProblemError } from '../errors/problem.ts';
import { FORMATS, isMotionFormat } from '../lib/formats.ts';
import {
  type FieldPaths,
  type RecipeInput,
  type RecipeOverrides,
  type ResolvedRecipe,
  BODY_PATHS,
  resolveEncodedRecipe,
  resolvePinned,
  recipeTask,
  resolveRecipe,
} from '../engine/recipe.ts';
import type { RenderPool } from '../engine/render-pool.ts';
import type { GeneratorRegistry } from '../generators/registry.ts';
import type { GeneratorDefinition } from '../generators/generator.types.ts';

export interface RenderResult {
  bytes: Buffer;
  contentType: string;
  cache: 'HIT' | 'MISS';
  /** Milliseconds per pipeline step. */
  timings: Record<string, number>;
}

export interface RenderLimits {
  timeoutMs: number;
  animationBudgetMs: number;
}

export interface RenderCall {
  signal?: AbortSignal;
  /** 'sync' renders obey the synchronous budgets; 'job' renders get the job's own limit. */
  mode?: 'sync' | 'job';
  timeoutMs?: number;
  onProgress?: (frame: number, frames: number) => void;
}

interface InFlight {
  promise: Promise<Buffer>;
  controller: AbortController;
  waiters: number;
}

// The engine profile is in the key: a generator version always renders with its own (its release's),
// so this only tells apart the files of engines older than that rule, which were cached under the same hash.
export function cacheKey(resolved: ResolvedRecipe): string {
  return `${resolved.hash}_e${resolved.engine.replaceAll('.', '-')}.${FORMATS[resolved.recipe.format].extension}`;
}

/** What the render service logs through: the levels it uses of a pino logger. */
export type RenderLogger = Pick<Logger, 'warn' | 'error' | 'debug'>;

/** A recipe whose render is an animation (a gif or mp4 of more than one frame): it has the animation budget. */
export function isAnimation(resolved: ResolvedRecipe): boolean {
  return isMotionFormat(resolved.recipe.format) && resolved.frames > 1;
}

/** A logger that drops every line, without loading pino: for one-off engines (the CLI, benches, goldens). */
export const NO_LOG: RenderLogger = { warn: () => undefined, error: () => undefined, debug: () => undefined };

export interface RenderServiceOptions {
  generators: GeneratorRegistry;
  pool: RenderPool;
  /** The render cache: looked up before a render, filled after it. */
  cache: BlobStore;
  /** Undefined when FFmpeg is missing or did not answer: motion renders then fail with ffmpeg_missing. */
  ffmpegPath: string | undefined;
  limits: RenderLimits;
  /** Where a cache failure is logged (the service's logger; the one-off engines pass NO_LOG). */
  logger: RenderLogger;
  /** Told when the cache's store cannot be reached (an outage is logged there once, not per render). */
  dependencies?: DependencyStatus;
}

const resolvedUrlKey = (hash: string, encoded: string, o: RecipeOverrides) =>
  `${hash}|${o.format ?? ''}|${o.w ?? ''}|${o.h ?? ''}|${o.pr ?? ''}|${o.q ?? ''}|${encoded}`;

export class RenderService {
  private readonly inFlight = new Map<string, InFlight>();
  private readonly resolvedUrls = new LRUCache<string, ResolvedRecipe>({ max: 10_000 });
  private readonly generators: GeneratorRegistry;
  private readonly pool: RenderPool;
  private readonly cache: BlobStore;
  private readonly ffmpegPath: string | undefined;
  private readonly limits: RenderLimits;
  private readonly logger: RenderLogger;
  private readonly dependencies: DependencyStatus | undefined;

  constructor(options: RenderServiceOptions) {
    this.dependencies = options.dependencies;
    ({
      generators: this.generators,
      pool: this.pool,
      cache: this.cache,
      ffmpegPath: this.ffmpegPath,
      limits: this.limits,
      logger: this.logger,
    } = options);
  }

  resolve(slug: string, input: RecipeInput, paths: FieldPaths = BODY_PATHS): ResolvedRecipe {
    return resolveRecipe(this.generators, slug, input, paths);
  }

  /** A recipe of one released version of a generator (a signed base pins the version it was made with). */
  resolvePinned(slug: string, version: string, input: RecipeInput, paths: FieldPaths = BODY_PATHS): ResolvedRecipe {
    return resolvePinned(this.generators, slug, version, input, paths);
  }

  /** One released version of a generator (its frozen code for a superseded one); undefined if it has none. */
  generatorVersion(slug: string, version: string): GeneratorDefinition | undefined {
    return this.generators.release(slug, version)?.release.definition;
  }

  /** The current version of a generator, by slug (undefined when no generator has it). */
  generator(slug: string): GeneratorDefinition | undefined {
    return this.generators.get(slug);
  }

  /** Recipe URLs repeat (that is what makes them cacheable), so their resolution is memoised. */
  resolveEncoded(hash: string, encoded: string, overrides: RecipeOverrides): ResolvedRecipe {
    const key = resolvedUrlKey(hash, encoded, overrides);
    let resolved = this.resolvedUrls.get(key);
    if (!resolved) {
      resolved = resolveEncodedRecipe(this.generators, hash, encoded, overrides);
      this.resolvedUrls.set(key, resolved);
    }
    return resolved;
  }

  /** A recipe URL this service resolved before (a generator's: templates are resolved per workspace), without decoding it again. */
  resolvedBefore(hash: string, encoded: string, overrides: RecipeOverrides): ResolvedRecipe | undefined {
    return this.resolvedUrls.get(resolvedUrlKey(hash, encoded, overrides));
  }

  /** Cached bytes for a recipe, without rendering. */
  async cached(resolved: ResolvedRecipe): Promise<Buffer | undefined> {
    return this.lookup(cacheKey(resolved));
  }

  /** A cache that cannot be read (an object store down) is a miss: the render still happens. */
  private async lookup(key: string): Promise<Buffer | undefined> {
    try {
      return await this.cache.get(key);
    } catch (err) {
      logFailure(this.dependencies, this.logger, 'warn', { err, key }, 'render cache read failed; rendering instead');
      return undefined;
    }
  }

  /** Cached bytes this process holds in memory (the cache's hot entries), without any I/O; else undefined. */
  cachedInMemory(resolved: ResolvedRecipe): Buffer | undefined {
    return this.cache.peek?.(cacheKey(resolved));
  }

  async render(resolved: ResolvedRecipe, call: RenderCall = {}): Promise<RenderResult> {
    const timings: Record<string, number> = {};
    const contentType = FORMATS[resolved.recipe.format].contentType;
    const key = cacheKey(resolved);
    const t = performance.now();
    const hit = await this.lookup(key);
    timings['cache-lookup'] = performance.now() - t;
    if (hit) return { bytes: hit, contentType, cache: 'HIT', timings };
    return this.renderUncached(resolved, call, timings);
  }

  /**
   * Renders (sharing an identical render in flight) and stores, without looking in the cache: for
   * a caller that just did (the metered path), so a miss costs one cache lookup, not two.
   */
  async renderUncached(resolved: ResolvedRecipe, call: RenderCall = {}, timings: Record<string, number> = {}): Promise<RenderResult> {
    if (resolved.retired) {
      const { generator, recipe } = resolved;
      throw new ProblemError('recipe_outdated', {
        detail: `The recipe pins ${generator.slug} ${recipe.version}, whose deprecation window ended on ${resolved.retired.sunsetAt}; this file was not rendered before then. Build a new recipe URL.`,
        extra: { pinnedVersion: recipe.version, currentVersion: resolved.retired.successor },
      });
    }
    const t = performance.now();
    const bytes = await this.renderOnce(cacheKey(resolved), resolved, call);
    timings.render = performance.now() - t;
    return { bytes, contentType: FORMATS[resolved.recipe.format].contentType, cache: 'MISS', timings };
  }

  private renderOnce(key: string, resolved: ResolvedRecipe, call: RenderCall): Promise<Buffer> {
    let entry = this.inFlight.get(key);
    // A render whose waiters all left is being stopped: a newcomer starts afresh instead of inheriting the abort.
    if (!entry || entry.controller.signal.aborted || call.onProgress) {
      // Progress reporting belongs to one caller (a job), so such renders are not shared.
      const controller = new AbortController();
      const promise = this.renderAndStore(key, resolved, call, controller.signal);
      // Every waiter may leave before it settles (a caller aborted before joining): its failure is then nobody's to handle.
      const settled = promise.catch(() => {});
      const created: InFlight = { promise, controller, waiters: 0 };
      if (!call.onProgress) {
        this.inFlight.set(key, created);
        void settled.finally(() => this.inFlight.get(key) === created && this.inFlight.delete(key));
      }
      entry = created;
    }
    return this.join(entry, call.signal);
  }

  /**
   * Waits for a shared render; the render itself stops only when every waiter has gone. Not
   * raceSignal: a leaving waiter must be counted out within the abort event itself, so a newcomer in
   * the same tick never joins a render that is about to be stopped.
   */
  private join(entry: InFlight, signal: AbortSignal | undefined): Promise<Buffer> {
    entry.waiters++;
    if (!signal) return entry.promise;
    return new Promise<Buffer>((resolve, reject) => {
      const leave = () => {
        entry.waiters--;
        if (entry.waiters === 0) entry.controller.abort(signal.reason);
        reject(signal.reason instanceof ProblemError ? signal.reason : new ProblemError('client_closed_request'));
      };
      if (signal.aborted) return leave();
      signal.addEventListener('abort', leave, { once: true });
      entry.promise.then(
        (b) => {
          signal.removeEventListener('abort', leave);
          resolve(b);
        },
        (e) => {
          signal.removeEventListener('abort', leave);
          reject(e);
        },
      );
    });
  }

  /**
   * The time a synchronous render of the recipe may take (POST /v1/generate, a batch item, a recipe
   * URL): ANIMATION_BUDGET_MS for an animation (504 animation_budget_exceeded past it), else
   * RENDER_TIMEOUT_MS (504 render_timeout). POST /v1/quote compares its estimate with it.
   */
  syncBudgetMs(resolved: ResolvedRecipe): number {
    return isAnimation(resolved) ? this.limits.animationBudgetMs : this.limits.timeoutMs;
  }

  /**
   * Renders a draft (POST /v1/templates/preview): through the same pool and budgets, but neither
   * looked up nor stored in the render cache, since a draft's every edit is a new recipe that nobody
   * asks for again; nor shared with another render in flight.
   */
  async renderDraft(resolved: ResolvedRecipe, call: RenderCall = {}): Promise<Buffer> {
    const signal = call.signal ?? new AbortController().signal;
    try {
      return await this.renderOnPool(resolved, call, signal);
    } catch (err) {
      if (signal.aborted) throw signal.reason instanceof ProblemError ? signal.reason : new ProblemError('client_closed_request');
      throw err;
    }
  }

  private async renderAndStore(key: string, resolved: ResolvedRecipe, call: RenderCall, signal: AbortSignal): Promise<Buffer> {
    const bytes = await this.renderOnPool(resolved, call, signal);
    try {
      await this.cache.put(key, bytes);
    } catch (err) {
      // A cache that cannot store still lets the caller have the file.
      logFailure(this.dependencies, this.logger, 'warn', { err, key }, 'render cache store failed');
    }
    return bytes;
  }

  private async renderOnPool(resolved: ResolvedRecipe, call: RenderCall, signal: AbortSignal): Promise<Buffer> {
    const motion = isAnimation(resolved);
    const sync = (call.mode ?? 'sync') === 'sync';
    const timeoutMs = call.timeoutMs ?? (sync ? this.syncBudgetMs(resolved) : this.limits.timeoutMs);
    const output = await this.pool.render(
      {
        ...recipeTask(resolved),
        ffmpegPath: this.ffmpegPath,
        timeoutMs,
      },
      {
        signal,
        onProgress: call.onProgress,
        timeoutProblem: () =>
          sync && motion
            ? new ProblemError('animation_budget_exceeded', {
                detail: `This animation takes longer than the ${timeoutMs} ms synchronous budget. Export it with POST /v1/jobs instead.`,
                extra: { budgetMs: timeoutMs, jobsUrl: '/v1/jobs' },
              })
            : new ProblemError('render_timeout', { detail: `The render took longer than ${timeoutMs} ms.` }),
      },
    );
    return Buffer.from(output.bytes.buffer, output.bytes.byteOffset, output.bytes.byteLength);
  }
}
