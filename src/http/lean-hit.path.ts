// The lean path: the hottest request there is — a recipe URL (GET or HEAD /v1/render/{hash}?r=…)
// whose bytes this process holds in memory — answered in front of express, at a fraction of the
// full path's cost. It answers only that success (or the 429 of the rate limit it has just
// counted); anything else — a miss, a refusal, a conditional or cross-origin request, a URL the
// contract does not accept — falls through untouched to the full path, which decides and answers
// it. Signed URLs (`sig`, `kid`, `exp`) and the path form with a file extension always fall
// through. What it runs are the full path's own steps, not copies: the contract's validator (its answer
// memoised per URL), checkInput, the local gateway's rule, the shared authenticateOnce, the cookie
// origin rule, the rate limit, metering, the response writer and the request log line.
// test/integration/lean-hit-path.test.ts runs every case against both paths.
import type { IncomingMessage, ServerResponse } from 'node:http';
import querystring from 'node:querystring';
import { LRUCache } from 'lru-cache';
import type { ResolvedRecipe } from '../engine/recipe.ts';
import { isProblemError } from '../errors/problem.ts';
import { numericQueryParams } from '../lib/openapi-document.ts';
import { EXPIRES_PARAM, KEY_ID_PARAM, SIGNATURE_PARAM } from '../lib/url-signature.ts';
import type { AuthRequest, AuthResult } from '../services/auth.service.ts';
import type { AppDeps } from './app-deps.types.ts';
import { isGatewayEligible } from './local-gateway.middleware.ts';
import { REQUEST_COMPLETED, loggedRequest, loggedResponse, requestIdFor, requestLogLevel } from './logging.ts';
import { originPolicy } from './origin.middleware.ts';
import { sendProblem } from './problem-response.ts';
import { markOperation } from './request-metrics.ts';
import { sendRendered } from './render-response.ts';
import { checkCookieOrigin, checkInput, enforceRateLimit } from './request-steps.ts';
import { SECURITY_HEADERS } from './security-headers.ts';

/** The contract's request validation for one operation, as the full path runs it (openapi-backend with our Ajv). */
export type ValidateRequest = (
  request: { method: string; path: string; query: Record<string, string | string[]>; headers: Record<string, string> },
  operationId: 'renderRecipe',
) => boolean;

/** Answers the request and resolves true, or resolves false having written nothing (the full path takes it). */
export type LeanPath = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

const PREFIX = '/v1/render/';
/** renderRecipe's numeric query parameters (w, h, pr): checked as the full path checks them. */
const RECIPE_URL_NUMBERS = numericQueryParams().get('renderRecipe');
/** The parameters of a signed URL (src/lib/url-signature.ts): such a URL is verified by the full path only. */
const SIGNED_URL_PARAMS = [SIGNATURE_PARAM, KEY_ID_PARAM, EXPIRES_PARAM];
const RECIPE_PATH = /^\/v1\/render\/([0-9a-f]{64})$/;
/** Memoised URL resolutions, by URL length (URLs are up to ~16 KiB). */
const RESOLVED_URLS_BYTES = 8 * 1024 * 1024;

export function createLeanHitPath(
  deps: AppDeps,
  authenticate: (req: AuthRequest) => Promise<AuthResult>,
  validate: ValidateRequest,
): LeanPath {
  const policy = originPolicy(deps.config);
  // Services are read from deps.services at each request, as the full path does (a test may replace one).
  // The verdict per URL; false: the full path must answer it (the contract or the recipe refuses it).
  const resolvedUrls = new LRUCache<string, ResolvedRecipe | false>({
    maxSize: RESOLVED_URLS_BYTES,
    sizeCalculation: (_value, url) => url.length + 64,
  });

  function resolveUrl(url: string): ResolvedRecipe | false {
    const known = resolvedUrls.get(url);
    if (known !== undefined) return known;
    let resolved: ResolvedRecipe | false = false;
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const hash = RECIPE_PATH.exec(path)?.[1];
    // The same query parser as express's 'simple' one (node:querystring).
    const query = querystring.parse(q < 0 ? '' : url.slice(q + 1)) as Record<string, string | string[]>;
    const single = Object.values(query).every((v) => typeof v === 'string');
    // A signed URL (or one that names a signing key) is verified by the full path only.
    const signed = SIGNED_URL_PARAMS.some((name) => name in query);
    if (hash && single && !signed && validate({ method: 'GET', path, query, headers: {} }, 'renderRecipe')) {
      try {
        checkInput({ recipeHash: hash }, query, undefined, RECIPE_URL_NUMBERS);
        const { r, format, w, h, pr } = query as Record<string, string | undefined>;
        const number = (v: string | undefined) => (v === undefined ? undefined : Number(v));
        resolved = deps.services.render.resolveEncoded(hash, r!, { format: format as never, w: number(w), h: number(h), pr: number(pr) });
      } catch {
        resolved = false;
      }
    }
    resolvedUrls.set(url, resolved);
    return resolved;
  }

  return async (req, res) => {
    const url = req.url ?? '';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !url.startsWith(PREFIX)) return false;
    const { headers } = req;
    // Cross-origin (CORS), conditional (304) and body-carrying requests take the full path.
    if (headers.origin !== undefined || headers['if-none-match'] !== undefined) return false;
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    const resolved = resolveUrl(url);
    if (!resolved) return false;

    const started = performance.now();
    const authRequest = req as IncomingMessage & AuthRequest;
    if (deps.config.localGateway && isGatewayEligible(authRequest)) authRequest.localGateway = true;
    const auth = await authenticate(authRequest);
    if (!auth.ok) return false;
    const { principal } = auth;
    try {
      checkCookieOrigin(policy, 'renderRecipe', req.method, headers, principal);
    } catch {
      return false;
    }
    // Only a hit held in memory is answered here; the lookup costs no I/O, so a miss goes on to the
    // full path having cost nothing it will repeat but authentication (which it shares).
    const hit = deps.services.meteredRender.inMemoryHit(resolved);
    if (!hit) return false;

    markOperation(res, 'renderRecipe');
    const id = requestIdFor(req, res);
    (req as IncomingMessage & { id?: string }).id = id;
    res.once('close', () => {
      const fields = {
        req: loggedRequest({ id, method: req.method!, url, remoteAddress: req.socket.remoteAddress, headers }),
        res: loggedResponse({ statusCode: res.statusCode, raw: res }),
        responseTime: Math.round(performance.now() - started),
        path: 'lean',
      };
      deps.logger[requestLogLevel(res)](fields, res.writableFinished ? REQUEST_COMPLETED : 'client closed request');
    });
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    try {
      await enforceRateLimit(deps.services.rateLimiter, principal, headers.authorization, (limits) => {
        for (const [name, value] of Object.entries(limits)) res.setHeader(name, value);
      });
    } catch (err) {
      if (!isProblemError(err)) throw err;
      sendProblem(req, res, err);
      return true;
    }
    deps.services.meteredRender.recordUsage(resolved, { principal, operation: 'renderRecipe' }, hit, started);
    sendRendered(req, res, resolved, hit);
    return true;
  };
}
