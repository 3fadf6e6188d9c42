// Shared by every operation that answers with a rendered file: conditional requests (ETag: the
// quoted recipe hash, matched by conditional-request.ts's rule), the X-Service-* headers, immutable
// caching, and the 499 convention for clients that leave.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestContext } from './handler.types.ts';
import { FORMATS } from '../lib/formats.ts';
import type { ResolvedRecipe } from '../engine/recipe.ts';
import { ProblemError } from '../errors/problem.ts';
import type { MeteredResult } from '../services/metered-render.service.ts';
import { requirePrincipal } from './handler.types.ts';
import { answerNotModified, ifNoneMatchMatches } from './conditional-request.ts';
import type { Principal } from '../services/auth.service.ts';
import { isPubliclyCacheable, withoutPerRequestHeaders } from './public-answer.ts';
import type { CreditsService } from '../services/credits.service.ts';

/** The workspace's available balance after this response's charge (issue #45). */
export const CREDITS_REMAINING_HEADER = 'X-Service-Credits-Remaining';

/**
 * What X-Service-Credits-Remaining says to `principal`: the workspace's available balance, to an
 * authenticated caller in hosted mode; undefined (no header) to a signed URL's or signed base's
 * anonymous caller, who learns nothing of the workspace, and in local mode, which keeps no balance.
 */
export async function creditsRemainingFor(
  credits: Pick<CreditsService, 'remaining'>,
  principal: Principal | null,
): Promise<number | undefined> {
  if (!principal || principal.signed || principal.method === 'signed_url') return undefined;
  return credits.remaining(principal.workspaceId);
}

export const IMMUTABLE = 'private, max-age=31536000, immutable';

/**
 * How a rendered answer may be cached and embedded: privately, same-origin (a key or a session),
 * or, for a signed public URL, by anyone (a CDN, another site's <img>) for the URL's lifetime.
 */
export interface RenderCaching {
  cacheControl: string;
  crossOriginResourcePolicy: 'same-origin' | 'cross-origin';
  vary?: string;
}

export const PRIVATE_CACHING: RenderCaching = {
  cacheControl: IMMUTABLE,
  crossOriginResourcePolicy: 'same-origin',
  vary: 'Authorization, Cookie',
};

/** The caching of a render answered to `principal`. */
export function renderCaching(principal: Principal | null): RenderCaching {
  if (!principal?.signed) return PRIVATE_CACHING;
  // The signature alone decides (an Authorization header is ignored): no credential to vary on. The
  // origin policy has set its public CORS headers and `Vary: Origin` (public-answer.ts).
  return { cacheControl: `public, max-age=${principal.signed.maxAgeSeconds}, immutable`, crossOriginResourcePolicy: 'cross-origin' };
}

function etagOf(resolved: ResolvedRecipe): string {
  return `"${resolved.hash}"`;
}

function recipeHeaders(resolved: ResolvedRecipe, caching: RenderCaching): Record<string, string> {
  return {
    'X-Service-Recipe': resolved.encoded,
    'X-Service-Recipe-Hash': resolved.hash,
    'X-Service-Engine': resolved.engine,
    ETag: etagOf(resolved),
    'Cache-Control': caching.cacheControl,
    'Cross-Origin-Resource-Policy': caching.crossOriginResourcePolicy,
    ...(caching.vary ? { Vary: caching.vary } : {}),
  };
}

/** The answer's Vary joined to one already set (the CORS layer's `Origin`): a cache must key on both. */
function joinVary(res: ServerResponse, headers: Record<string, string>): Record<string, string> {
  const existing = res.getHeader('Vary');
  if (!headers.Vary || existing === undefined) return headers;
  const tokens = new Set([...String(existing).split(','), ...headers.Vary.split(',')].map((t) => t.trim()).filter(Boolean));
  return { ...headers, Vary: [...tokens].join(', ') };
}

/** Answers 304 (with the headers its 200 carries but the body's) when the client already has this recipe's bytes; returns true if it did. */
export function answerRenderNotModified(ctx: RequestContext, resolved: ResolvedRecipe): boolean {
  const caching = renderCaching(ctx.principal);
  if (!ifNoneMatchMatches(ctx.req.headers['if-none-match'], etagOf(resolved))) return false;
  if (isPubliclyCacheable(caching.cacheControl)) withoutPerRequestHeaders(ctx.res);
  return answerNotModified(ctx.req, ctx.res, etagOf(resolved), joinVary(ctx.res, recipeHeaders(resolved, caching)));
}

/**
 * The 200 with the file. Written with node's own response API, so the lean path
 * (lean-hit.path.ts), which runs before express, sends exactly what the full path sends.
 */
export function sendRendered(
  req: IncomingMessage,
  res: ServerResponse,
  resolved: ResolvedRecipe,
  result: MeteredResult,
  caching: RenderCaching = PRIVATE_CACHING,
  creditsRemaining?: number,
): void {
  const contentType = FORMATS[resolved.recipe.format].contentType;
  // A copy a shared cache keeps is served to everyone: nothing of this request or client goes with it.
  if (isPubliclyCacheable(caching.cacheControl)) withoutPerRequestHeaders(res);
  res.statusCode = 200;
  for (const [name, value] of Object.entries(joinVary(res, recipeHeaders(resolved, caching)))) res.setHeader(name, value);
  // The spec's two values: a request that joined a render in flight was not rendered for, like a hit, and says so apart.
  res.setHeader('X-Service-Cache', result.cache === 'MISS' ? 'MISS' : 'HIT');
  if (result.cache === 'COALESCED') res.setHeader('X-Service-Coalesced', 'true');
  res.setHeader('X-Service-Credits', String(result.credits));
  if (creditsRemaining !== undefined) res.setHeader(CREDITS_REMAINING_HEADER, String(creditsRemaining));
  // Text formats say their charset (as express would add it).
  res.setHeader('Content-Type', contentType.startsWith('text/') ? `${contentType}; charset=utf-8` : contentType);
  res.setHeader('Content-Length', String(result.bytes.length));
  res.end(req.method === 'HEAD' ? undefined : result.bytes);
}

/**
 * Runs a render for a request. A client that disconnects gets no answer; the request is logged
 * with status 499 and the render is stopped.
 */
export async function renderForRequest(ctx: RequestContext, resolved: ResolvedRecipe): Promise<void> {
  if (answerRenderNotModified(ctx, resolved)) return;
  try {
    const result = await ctx.deps.services.meteredRender.renderMetered(resolved, {
      principal: requirePrincipal(ctx),
      operation: ctx.operationId,
      signal: ctx.signal,
    });
    ctx.log.debug({ hash: resolved.hash, cache: result.cache, timings: result.timings }, 'rendered');
    const remaining = await creditsRemainingFor(ctx.deps.services.credits, ctx.principal);
    sendRendered(ctx.req, ctx.res, resolved, result, renderCaching(ctx.principal), remaining);
  } catch (err) {
    if (err instanceof ProblemError && err.code === 'client_closed_request' && ctx.signal.aborted) {
      ctx.res.statusCode = 499;
      ctx.log.info({ hash: resolved.hash }, 'client closed request; render stopped');
      return;
    }
    throw err;
  }
}
