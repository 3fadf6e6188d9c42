// Browser origin rules. ALLOWED_ORIGINS is an explicit list (the config refuses "*"):
//  - a request carrying an Origin that is not listed is refused with 403 origin_denied;
//  - a public request (a signed URL, a publicly cacheable public operation: public-answer.ts) is
//    answered alike for no Origin and every listed one — `Access-Control-Allow-Origin: *` without
//    credentials and `Vary: Origin` — so a shared cache cannot hand one client's copy to another
//    that cannot use it; its refusal of an unlisted Origin says why to the page that asked;
//  - on every other request, CORS (through the `cors` package) grants credentials to listed origins only;
//  - a cookie-authenticated mutation needs a listed Origin (missing or "null" → 403), and a
//    cookie-authenticated render must prove it is same-origin (see assertCookieRequestAllowed), so an
//    <img>, link or form on another site — or a sibling subdomain — cannot spend a user's credits.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import cors from 'cors';
import { type Config, isLoopbackHost } from '../config/config.ts';
import { ProblemError } from '../errors/problem.ts';
import type { OperationId } from './handler.types.ts';
import { sendProblem } from './problem-response.ts';
import { publicCorsHeaders, publicRequestKind } from './public-answer.ts';

export interface OriginPolicy {
  allowedOrigins: readonly string[];
  /** Local mode with the gateway on: the service's own loopback origin is allowed too. */
  allowSelfLoopback: boolean;
}

export function originPolicy(config: Pick<Config, 'allowedOrigins' | 'localGateway'>): OriginPolicy {
  return { allowedOrigins: config.allowedOrigins, allowSelfLoopback: config.localGateway };
}

/**
 * Operations that spend credits or render. getJobResult and streamJobEvents spend nothing (the job
 * paid when created) and Cross-Origin-Resource-Policy keeps their bytes from other sites.
 */
const RENDERING_OPERATIONS: ReadonlySet<OperationId> = new Set([
  'generate',
  'renderRecipe',
  'renderBatch',
  'renderPreset',
  'createJob',
  'getJobThumbnail',
]);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin of the request itself (scheme + Host), when Host is a loopback name. */
export function loopbackSelfOrigin(headers: IncomingHttpHeaders): string | undefined {
  const host = headers.host;
  if (!host) return undefined;
  try {
    const url = new URL(`http://${host}`);
    return isLoopbackHost(url.hostname) ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

export function isAllowedOrigin(policy: OriginPolicy, origin: string, headers: IncomingHttpHeaders): boolean {
  if (policy.allowedOrigins.includes(origin)) return true;
  return policy.allowSelfLoopback && origin === loopbackSelfOrigin(headers);
}

/**
 * Every response header a browser client reads (the contract's response headers that are not
 * CORS-safelisted, plus X-Request-Id and Idempotent-Replayed); a script sees no other.
 */
export const EXPOSED_HEADERS = [
  'ETag',
  'Location',
  'Link',
  'Retry-After',
  'WWW-Authenticate',
  'Content-Disposition',
  'Accept-Encoding',
  'Allow',
  'X-Request-Id',
  'Idempotent-Replayed',
  'RateLimit',
  'RateLimit-Policy',
  'X-Service-Recipe',
  'X-Service-Recipe-Hash',
  'X-Service-Cache',
  'X-Service-Engine',
  'X-Service-Credits',
  'X-Service-Credits-Remaining',
  'X-Service-Text-Fit',
  'X-Service-Coalesced',
  'Cross-Origin-Resource-Policy',
  'Vary',
  // Addressed to the browser or a proxy rather than to scripts, but declared by the contract like
  // every header the service sends, and harmless to read.
  'X-Content-Type-Options',
  'Referrer-Policy',
  'Content-Security-Policy',
  'X-Accel-Buffering',
  'Access-Control-Allow-Origin',
  'Access-Control-Allow-Credentials',
  'Access-Control-Expose-Headers',
];

/**
 * The origin policy as one middleware: an unlisted Origin is refused (403 origin_denied), a listed
 * one gets CORS. A public request gets the same CORS headers with or without a listed Origin (see
 * public-answer.ts), and its refusal is readable by the page that asked (`*`, and a signed URL's
 * `Cross-Origin-Resource-Policy: cross-origin`). Any other request without Origin (same-origin
 * GETs, API clients) passes straight through: the cors package would add nothing to it.
 */
export function originMiddleware(policy: OriginPolicy): (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void {
  const publicCors = Object.entries(publicCorsHeaders(EXPOSED_HEADERS));
  const corsHandler = cors((req, callback) => {
    const origin = req.headers.origin;
    callback(null, {
      origin: origin !== undefined && isAllowedOrigin(policy, origin, req.headers) ? origin : false,
      credentials: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type', 'If-None-Match', 'Idempotency-Key', 'X-Request-Id'],
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 600,
    });
  });
  return (req, res, next) => {
    const origin = req.headers.origin;
    const publicKind = publicRequestKind(req);
    if (publicKind !== undefined) {
      for (const [name, value] of publicCors) res.setHeader(name, value);
      // A failed signed URL is shown to the page that embeds it, not blocked as another site's answer.
      if (publicKind === 'signed') res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    }
    if (origin === undefined) return next();
    if (!isAllowedOrigin(policy, origin, req.headers)) {
      return sendProblem(
        req,
        res,
        new ProblemError('origin_denied', { detail: `Requests from the origin ${JSON.stringify(origin)} are not allowed.` }),
      );
    }
    if (publicKind !== undefined) return next();
    corsHandler(req as never, res as never, next);
  };
}

/**
 * Extra rules for cookie-authenticated requests (a bearer key is not sent by browsers on their
 * own, so it needs none of this). Throws 403 origin_denied.
 *
 * A cookie render must prove it was asked for by our own pages: `Sec-Fetch-Site: same-origin`
 * (browsers set it and pages cannot forge it) or a listed Origin. Anything else is refused before
 * a credit is reserved — no fetch metadata (older browsers: an <img> looks like this), `same-site`
 * (a sibling subdomain), `cross-site`, `none` (a pasted or bookmarked URL) — and Referer is never
 * evidence (it is optional and this service sends Referrer-Policy: no-referrer).
 */
export function assertCookieRequestAllowed(
  policy: OriginPolicy,
  operationId: OperationId,
  method: string,
  headers: IncomingHttpHeaders,
): void {
  const origin = headers.origin;
  const listed = origin !== undefined && origin !== 'null' && isAllowedOrigin(policy, origin, headers);
  if (!SAFE_METHODS.has(method) && !listed) {
    throw new ProblemError('origin_denied', {
      detail: 'A signed-in browser request that changes something must carry an allowed Origin header.',
    });
  }
  if (RENDERING_OPERATIONS.has(operationId) && !listed && headers['sec-fetch-site'] !== 'same-origin') {
    throw new ProblemError('origin_denied', {
      detail:
        'A render with a session cookie must come from this site (Sec-Fetch-Site: same-origin, or an allowed Origin header); other sites, sibling subdomains, pasted links and browsers without fetch metadata must use an API key.',
    });
  }
}
