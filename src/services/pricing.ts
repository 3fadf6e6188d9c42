// What a render costs, and what can be bought. One table, used by the ledger, GET /v1/pricing,
// the X-Service-Credits header and docs/accounts-keys-credits-billing.md.
import { FORMATS } from '../lib/formats.ts';
import type { ResolvedRecipe } from '../engine/recipe.ts';
import { deviceSize } from '../lib/device-size.ts';

/** Output pixel-frames one credit buys. */
export const PIXELS_PER_CREDIT = 1_000_000;

/**
 * Credits for rendering a recipe (a cache miss): one per started million output pixel-frames
 * (width × pixelRatio × height × pixelRatio × frames), at least one. Formats of `flat` cost (svg,
 * css; src/lib/formats.ts) are one credit.
 * Cache hits, coalesced requests and 304s cost nothing (see chargeFor).
 */
export function renderCost(resolved: ResolvedRecipe): number {
  if (FORMATS[resolved.recipe.format].cost === 'flat') return 1;
  return Math.max(1, Math.ceil(pixelFrames(resolved) / PIXELS_PER_CREDIT));
}

/** The output pixel-frames pricing counts: width × pixelRatio × height × pixelRatio × frames (1 for a still). */
export function pixelFrames(resolved: ResolvedRecipe): number {
  const device = deviceSize(resolved.recipe.size);
  return device.width * device.height * Math.max(1, resolved.frames);
}

/**
 * How a render was served: rendered now (MISS), from the render cache (HIT), or by joining an
 * identical render already in flight (COALESCED).
 */
export type CacheStatus = 'HIT' | 'MISS' | 'COALESCED';

/**
 * The one charging rule, for sync renders, batch items and jobs alike: only a render that ran
 * costs its renderCost; a result that was already cached, or that an identical render in flight
 * produced, costs nothing.
 */
export function chargeFor(resolved: ResolvedRecipe, served: CacheStatus): number {
  return served === 'MISS' ? renderCost(resolved) : 0;
}

/**
 * What a render of the recipe asked for now is charged, before any work: nothing when its result is
 * in the render cache already (it will be a HIT), its renderCost otherwise. An export job holds this
 * at submission, and POST /v1/quote answers it for every kind of call.
 */
export function chargeNow(resolved: ResolvedRecipe, cached: boolean): number {
  return chargeFor(resolved, cached ? 'HIT' : 'MISS');
}

export interface CreditPack {
  id: string;
  name: string;
  credits: number;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
}

export const CREDIT_PACKS: readonly CreditPack[] = [
  { id: 'starter', name: 'Starter — 1,000 credits', credits: 1_000, amount: 1_000, currency: 'usd' },
  { id: 'studio', name: 'Studio — 12,000 credits', credits: 12_000, amount: 10_000, currency: 'usd' },
  { id: 'production', name: 'Production — 150,000 credits', credits: 150_000, amount: 100_000, currency: 'usd' },
];

export const PRICING_RULES = [
  {
    description:
      'A still render (png, webp, jpeg): one credit per started million output pixels (width × pixelRatio × height × pixelRatio); 1920×1080 costs 3.',
    credits: 1,
  },
  {
    description: 'An animation (gif, mp4): one credit per started million output pixel-frames; 640×360 for 2 s at 15 fps costs 7.',
    credits: 1,
  },
  { description: 'A vector render (svg, css).', credits: 1 },
  {
    description:
      'A cache hit (the same recipe again, by anyone in the workspace), a request that joined an identical render already in flight (X-Service-Coalesced: true), an export job whose result was already cached, or a 304 Not Modified.',
    credits: 0,
  },
] as const;
