// Public answers: those a shared cache (a CDN, nginx, Varnish) may store and hand to anyone. They are
// the answers to two kinds of request, both GET or HEAD:
//  - `signed`: a signed recipe URL (renderRecipe with `sig`, `kid` or `exp`) or a signed base's URL
//    (renderSigningBase, `/v1/bases/<id>/<sig>.<ext>`), which its signature alone decides:
//    credentials on it are ignored, and whoever holds the URL gets the same answer;
//  - `open`: a public operation whose 200 openapi.yaml declares publicly cacheable
//    (`Cache-Control: PublicCache`: the generators, pricing, the contract and its reference page).
// Every answer to such a request — success, 304 or problem — is the same for every Origin the
// service accepts (none, or a listed one): `Access-Control-Allow-Origin: *` without credentials,
// which is what an image CDN sends, so <img crossorigin>, a canvas or fetch() on any page that may
// use it can read it, and a cache holding one copy serves every accepted client alike. An unlisted
// Origin is still refused (403 origin_denied, no-store; origin.middleware.ts), so every public
// answer says `Vary: Origin` whether or not the request carried one: a cache that honours Vary keeps
// the refusal apart, and one that ignores it still hands every accepted client an answer it can use.
// A public answer carries nothing of the request or client that made it (withoutPerRequestHeaders),
// and a signed URL's problems say nothing about the workspace behind it (forAnonymousCaller).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ProblemError } from '../errors/problem.ts';
import type { ProblemCode } from '../errors/error-registry.ts';
import { openApiDocument, type OpenApiDocument } from '../lib/openapi-document.ts';
import { BASE_URL_PATH, canonicalSignedTarget } from '../lib/url-signature.ts';

export type PublicRequestKind = 'signed' | 'open';

/** The path of renderRecipe, the one operation a signed URL may call. */
const SIGNED_PATH = /^\/v1\/render\/[^/?]+\?/;
/** Whether a query may hold a signed URL's parameters (a cheap test before parsing; %-encoded names take the parser). */
const MAY_BE_SIGNED = /[?&](sig|kid|exp)(=|&|$)|%/;
const PUBLIC_CACHE_REF = '#/components/headers/PublicCache';

/**
 * The paths of the GET operations that need no credentials and whose 200 openapi.yaml declares
 * publicly cacheable (Cache-Control: PublicCache), as anchored patterns of their path templates.
 */
export function openPublicPaths(doc: OpenApiDocument = openApiDocument()): Array<{ operationId: string; pattern: RegExp }> {
  const paths: Array<{ operationId: string; pattern: RegExp }> = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    const op = item.get as
      | { operationId?: string; security?: unknown[]; responses?: Record<string, { headers?: Record<string, { $ref?: string }> }> }
      | undefined;
    if (!op?.operationId || !Array.isArray(op.security) || op.security.length > 0) continue;
    if (op.responses?.['200']?.headers?.['Cache-Control']?.$ref !== PUBLIC_CACHE_REF) continue;
    const source = template
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    paths.push({ operationId: op.operationId, pattern: new RegExp(`^${source}$`) });
  }
  return paths;
}

let openPaths: RegExp[] | undefined;
const kinds = new WeakMap<IncomingMessage, PublicRequestKind | null>();

/** Which public request this is, if any (decided once per request). */
export function publicRequestKind(req: IncomingMessage): PublicRequestKind | undefined {
  const known = kinds.get(req);
  if (known !== undefined) return known ?? undefined;
  let kind: PublicRequestKind | null = null;
  const url = req.url ?? '';
  if ((req.method === 'GET' || req.method === 'HEAD') && url.startsWith('/v1/')) {
    if (SIGNED_PATH.test(url)) {
      if (MAY_BE_SIGNED.test(url.slice(url.indexOf('?'))) && canonicalSignedTarget(url).signed) kind = 'signed';
    } else if (BASE_URL_PATH.test(url)) {
      kind = 'signed';
    } else {
      const q = url.indexOf('?');
      const path = q < 0 ? url : url.slice(0, q);
      openPaths ??= openPublicPaths().map((p) => p.pattern);
      if (openPaths.some((pattern) => pattern.test(path))) kind = 'open';
    }
  }
  kinds.set(req, kind);
  return kind ?? undefined;
}

/** Response headers a browser script may read (origin.middleware.ts's EXPOSED_HEADERS), as CORS lists them. */
export function publicCorsHeaders(exposedHeaders: readonly string[]): Record<string, string> {
  return { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': exposedHeaders.join(','), Vary: 'Origin' };
}

/** Headers that describe one request or one client: an answer a shared cache may store carries none. */
const PER_REQUEST_HEADERS = ['X-Request-Id', 'RateLimit', 'RateLimit-Policy'];

/** Whether a Cache-Control value lets a shared cache store the answer. */
export function isPubliclyCacheable(cacheControl: string | undefined): boolean {
  return cacheControl !== undefined && /(^|,)\s*public\s*(,|$)/.test(cacheControl);
}

/**
 * Removes the headers of PER_REQUEST_HEADERS from an answer a shared cache may store: a copy served
 * to every client must not carry the first one's request id (which a client may choose) or its
 * rate-limit count. The request's log line still has its id.
 */
export function withoutPerRequestHeaders(res: ServerResponse): void {
  for (const name of PER_REQUEST_HEADERS) res.removeHeader(name);
}

/**
 * What anyone holding a signed URL is told of a problem that concerns the workspace behind it: that
 * the image is unavailable and why, in general terms. The balance, the cost and the signing key's
 * limit and spending go only to the workspace's own (authenticated) callers.
 */
const ANONYMOUS_DETAILS: Partial<Record<ProblemCode, string>> = {
  insufficient_credits:
    'This image is unavailable: the account that published this URL has not enough credits to render it. The URL works again once it has.',
  signing_key_limit_reached:
    "This image is unavailable: the signing key of this URL has used up this month's credits. The URL works again next month or once its owner raises the limit.",
};

/** The problem as a signed URL's anonymous caller sees it (see ANONYMOUS_DETAILS); other problems are about the URL itself and pass as they are. */
export function forAnonymousCaller(problem: ProblemError): ProblemError {
  const detail = ANONYMOUS_DETAILS[problem.code];
  if (detail === undefined) return problem;
  return new ProblemError(problem.code, { detail, headers: problem.headers, cause: problem, transient: problem.transient });
}
