// Renders on behalf of a workspace: a cache hit is free; a miss reserves its cost before any work
// and commits it only when the render succeeds (released on failure, abort or timeout). Every
// render is recorded as usage.
import { CONTENT_TYPES } from '../engine/formats.ts';
import type { ResolvedRecipe } from '../engine/recipe.ts';
import type { Principal } from './auth.service.ts';
import type { CreditsService } from './credits.service.ts';
import { renderCost } from './pricing.ts';
import type { RenderResult, RenderService } from './render.service.ts';
import type { UsageService } from './usage.service.ts';

export interface MeteredCall {
  principal: Principal;
  /** The operationId, recorded with the usage. */
  operation: string;
  signal?: AbortSignal;
}

export interface MeteredResult extends RenderResult {
  /** Credits charged (0 for a hit, and always 0 in local mode). */
  credits: number;
}

export class MeteredRenderService {
  constructor(
    private readonly render: RenderService,
    private readonly credits: CreditsService,
    private readonly usage: UsageService,
  ) {}

  async run(resolved: ResolvedRecipe, call: MeteredCall): Promise<MeteredResult> {
    const started = performance.now();
    const { recipe } = resolved;
    const cached = await this.render.cached(resolved);
    let result: MeteredResult;
    if (cached) {
      result = { bytes: cached, contentType: CONTENT_TYPES[recipe.format], cache: 'HIT', timings: {}, credits: 0 };
    } else {
      const cost = renderCost(resolved);
      const reservation = await this.credits.reserve(call.principal.workspaceId, cost, resolved.hash, `${call.operation} ${recipe.generator} ${recipe.format}`);
      let rendered: RenderResult;
      try {
        rendered = await this.render.render(resolved, { signal: call.signal });
      } catch (err) {
        await this.credits.release(reservation);
        throw err;
      }
      // Another request may have filled the cache meanwhile: then this one was a hit after all.
      const charged = rendered.cache === 'MISS' && reservation ? cost : 0;
      if (charged > 0) await this.credits.commit(reservation);
      else await this.credits.release(reservation);
      result = { ...rendered, credits: charged };
    }
    void this.usage.record({
      workspaceId: call.principal.workspaceId,
      keyId: call.principal.keyId ?? null,
      operation: call.operation,
      generator: recipe.generator,
      format: recipe.format,
      credits: result.credits,
      bytes: result.bytes.length,
      durationMs: performance.now() - started,
      cache: result.cache,
    });
    return result;
  }
}
