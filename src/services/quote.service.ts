// POST /v1/quote: what a render, a batch or an export job would charge now, and how long it would
// take, without rendering, reserving or charging anything. Each call is checked and resolved exactly
// as the real one (the same problems, named under `body.render`, `body.batch` or `body.job`) and
// priced by the owner of that call's charge: the metered render service for a render and each
// distinct batch item (MeteredRenderService.price), the jobs service for a job (JobsService.hold),
// both the pricing rule of every render (pricing.ts chargeNow). The time is the render-time model's
// (render-estimate.ts) and the budget the render service's (RenderService.syncBudgetMs).
import type { components } from '../../codegen/openapi.ts';
import type { ResolvedRecipe } from '../engine/recipe.ts';
import { recipePaths } from '../engine/recipe.ts';
import type { JobCreate, JobsService } from '../jobs/jobs.service.ts';
import type { Principal } from './auth.service.ts';
import type { BatchService } from './batch.service.ts';
import type { MeteredRenderService } from './metered-render.service.ts';
import { pixelFrames } from './pricing.ts';
import type { RecipesService } from './recipes.service.ts';
import type { RenderService } from './render.service.ts';
import { estimateRenderMs } from './render-estimate.ts';

type QuoteRequest = components['schemas']['QuoteRequest'];
type Quote = components['schemas']['Quote'];
type QuoteItem = components['schemas']['QuoteItem'];
type RecipeQuote = Pick<Quote, 'credits' | 'pixels' | 'frames' | 'fitsSyncBudget' | 'estimatedMs' | 'cached' | 'hash'>;

export interface QuoteServiceOptions {
  recipes: Pick<RecipesService, 'resolve'>;
  metered: Pick<MeteredRenderService, 'price'>;
  batch: Pick<BatchService, 'plan'>;
  jobs: Pick<JobsService, 'resolveSubmission' | 'hold'>;
  render: Pick<RenderService, 'syncBudgetMs'>;
}

export class QuoteService {
  constructor(private readonly options: QuoteServiceOptions) {}

  async quote(principal: Principal, body: QuoteRequest): Promise<Quote> {
    if (body.render) {
      const { slug, ...input } = body.render;
      const resolved = await this.options.recipes.resolve(principal.workspaceId, slug, input, recipePaths('body.render'));
      return this.ofRecipe(resolved, await this.options.metered.price(resolved));
    }
    if (body.batch) return this.ofBatch(principal, body.batch.items);
    const { resolved } = await this.options.jobs.resolveSubmission(principal, body.job as JobCreate, 'body.job');
    return this.ofRecipe(resolved, await this.options.jobs.hold(resolved));
  }

  /**
   * One recipe's quote. A cached result is a hit: answered at once, whatever the budget. Otherwise
   * the model's estimate, and whether it fits the time a synchronous render of it may take.
   */
  private ofRecipe(resolved: ResolvedRecipe, price: { credits: number; cached: boolean }): RecipeQuote {
    const estimatedMs = price.cached ? 0 : estimateRenderMs(resolved);
    return {
      credits: price.credits,
      pixels: pixelFrames(resolved),
      ...(resolved.frames > 1 ? { frames: resolved.frames } : {}),
      fitsSyncBudget: estimatedMs <= this.options.render.syncBudgetMs(resolved),
      estimatedMs,
      cached: price.cached,
      hash: resolved.hash,
    };
  }

  /**
   * A batch as renderBatch plans it: an item that cannot render is reported as the batch reports it
   * (`ok: false`, its problem's code, `issues`); identical items render once, so an item like an
   * earlier one costs nothing and names that one (`duplicateOf`). The totals sum the items.
   */
  private async ofBatch(principal: Principal, items: readonly unknown[]): Promise<Quote> {
    const { failures, distinct } = await this.options.batch.plan(items, principal.workspaceId, 'body.batch');
    const results: QuoteItem[] = new Array(items.length);
    for (const [index, failed] of failures) results[index] = failed;
    let pixels = 0;
    await Promise.all(
      distinct.map(async ({ resolved, indexes: [first, ...rest] }) => {
        const quoted = this.ofRecipe(resolved, await this.options.metered.price(resolved));
        pixels += quoted.pixels;
        results[first!] = { index: first!, ok: true, ...quoted };
        for (const index of rest) results[index] = { index, ok: true, ...quoted, credits: 0, estimatedMs: 0, duplicateOf: first };
      }),
    );
    const priced = results.filter((r) => r.ok);
    return {
      credits: priced.reduce((sum, r) => sum + r.credits!, 0),
      pixels,
      fitsSyncBudget: priced.every((r) => r.fitsSyncBudget),
      estimatedMs: priced.reduce((sum, r) => sum + r.estimatedMs!, 0),
      cached: priced.length > 0 && priced.every((r) => r.cached),
      items: results,
    };
  }
}
