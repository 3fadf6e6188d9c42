// Batches: each item is resolved and rendered on its own, so one bad item never fails the others;
// identical items render once; renders go through the cache, so their recipe URLs then HIT.
// A database that goes away during a batch stops it: the items not yet rendered are reported
// `not_ready` (nothing charged for them) beside those that were (charged, now or when the database is
// back), so the client knows what it paid for. Only a batch of which nothing rendered answers 503.
import { DEPENDENCY_RETRY_AFTER_SECONDS, type Dependency, unavailableDependency } from '../lib/dependency-failure.ts';
import type { ValidateFunction } from 'ajv';
import type { components } from '../../codegen/openapi.ts';
import { ProblemError } from '../errors/problem.ts';
import { openApiDocument } from '../lib/openapi-document.ts';
import { createAjv, toIssues } from '../lib/schema-validation.ts';
import { type RecipeInput, type ResolvedRecipe, recipePaths } from '../engine/recipe.ts';
import type { RecipesService } from './recipes.service.ts';
import type { MeteredRenderService } from './metered-render.service.ts';
import type { Principal } from './auth.service.ts';

type BatchItem = components['schemas']['BatchItem'];
type BatchResultItem = components['schemas']['BatchResultItem'];

let itemValidator: ValidateFunction | undefined;
/**
 * The contract's BatchItem schema, compiled with the router's Ajv settings. The request schema
 * accepts any object per item, so that one bad item is reported in its result, not refused with the batch.
 */
function validateItem(item: unknown, path: string): BatchItem {
  if (!itemValidator) {
    const ajv = createAjv();
    ajv.addSchema({ $id: 'openapi.json', components: structuredClone(openApiDocument().components) });
    itemValidator = ajv.getSchema('openapi.json#/components/schemas/BatchItem')!;
  }
  if (itemValidator(item)) return item as BatchItem;
  const issues = toIssues(itemValidator.errors, path);
  throw new ProblemError('validation_failed', { detail: issues.map((i) => `${i.path} ${i.message}`).join('; '), issues });
}

/** A failed item, as the batch reports it: `ok: false` with its problem's code. */
export type BatchFailure = BatchResultItem & { ok: false };

/**
 * A batch's items checked and resolved, in order: each item that cannot render (its problem, as its
 * result) and each distinct recipe with the indexes of the items that ask for it — identical items
 * render once, and are charged once. POST /v1/quote prices the batch by the same plan.
 */
export interface BatchPlan {
  failures: Map<number, BatchFailure>;
  distinct: { resolved: ResolvedRecipe; indexes: number[] }[];
}

export class BatchService {
  constructor(
    private readonly recipes: RecipesService,
    /** Each item is charged and recorded on its own. */
    private readonly metered: MeteredRenderService,
    /** Renders in flight at once; matching the worker count keeps the pool's queue free for others. */
    private readonly concurrency: number,
  ) {}

  /** The plan of a batch's items (`at`: where the request holds the batch, which issues name: `body.items.2.seed`). */
  async plan(items: readonly unknown[], workspaceId: string, at = 'body'): Promise<BatchPlan> {
    const failures = new Map<number, BatchFailure>();
    const unique = new Map<string, { resolved: ResolvedRecipe; indexes: number[] }>();
    // In order, so identical items share the first one's render whatever resolves first.
    for (const [index, item] of items.entries()) {
      try {
        const path = `${at}.items.${index}`;
        const { slug, ...input } = validateItem(item, path);
        const resolved = await this.recipes.resolve(workspaceId, slug, input as RecipeInput, recipePaths(path));
        const entry = unique.get(resolved.hash);
        if (entry) entry.indexes.push(index);
        else unique.set(resolved.hash, { resolved, indexes: [index] });
      } catch (err) {
        failures.set(index, failure(index, err));
      }
    }
    return { failures, distinct: [...unique.values()] };
  }

  async renderAll(items: readonly unknown[], principal: Principal, signal?: AbortSignal): Promise<BatchResultItem[]> {
    const results: BatchResultItem[] = new Array(items.length);
    const { failures, distinct } = await this.plan(items, principal.workspaceId);
    for (const [index, failed] of failures) results[index] = failed;

    const queue = [...distinct];
    /** The first item that met a dependency outage: no item starts after it. */
    let outage: { err: unknown; dependency: Dependency } | undefined;
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const { resolved, indexes } = next;
        if (outage) {
          for (const index of indexes) results[index] = unavailable(index, outage.dependency);
          continue;
        }
        try {
          const result = await this.metered.renderMetered(resolved, { principal, operation: 'renderBatch', signal });
          for (const index of indexes) {
            results[index] = {
              index,
              ok: true,
              hash: resolved.hash,
              bytes: result.bytes.length,
              contentType: result.contentType,
              cache: result.cache === 'MISS' ? 'MISS' : 'HIT',
              ...(result.cache === 'COALESCED' ? { coalesced: true } : {}),
              url: `/v1/render/${resolved.hash}?r=${resolved.encoded}`,
            };
          }
        } catch (err) {
          if (signal?.aborted) throw err;
          const dependency = unavailableDependency(err);
          if (dependency) {
            // Its credits were never reserved (or were released): this item costs nothing.
            outage ??= { err, dependency };
            for (const index of indexes) results[index] = unavailable(index, dependency);
          } else for (const index of indexes) results[index] = failure(index, err);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(this.concurrency, queue.length)) }, worker));
    // Nothing rendered: the whole batch is refused (503 with Retry-After) and costs nothing; retry it.
    if (outage && !results.some((r) => r.ok)) throw outage.err;
    return results;
  }
}

/** An item not rendered because a dependency is down: nothing charged for it; retry it. */
function unavailable(index: number, dependency: Dependency): BatchResultItem {
  const what = dependency === 'storage' ? 'Object storage' : 'The database';
  return {
    index,
    ok: false,
    code: 'not_ready',
    error: `${what} became unavailable during the batch, so this item was not rendered (nothing was charged for it); retry it after ${DEPENDENCY_RETRY_AFTER_SECONDS} seconds.`,
  };
}

function failure(index: number, err: unknown): BatchFailure {
  if (err instanceof ProblemError)
    return { index, ok: false, code: err.code, error: err.detail ?? err.message, ...(err.issues?.length ? { issues: err.issues } : {}) };
  return { index, ok: false, code: 'internal_error', error: 'The item could not be rendered.' };
}
