// The lean path: the hottest request there is — a recipe URL (GET or HEAD /v1/render/{hash}?r=…)
// whose bytes this process holds in memory — answered by a step of the request pipeline (src/app.ts)
// just before the operations router, so it skips express and openapi-backend, the costly part of
// the full path. Every step in front of it (metrics, the request log, security headers, the origin
// policy, the local gateway, …) has run for it as for any request. It answers a hit, or a refusal
// of the authorized steps it shares with the full path (cookie origin, rate limit); anything else —
// a miss, a failed authentication, a conditional or cross-origin request, a URL the contract does not
// accept — goes on to the operations router untouched, which decides and answers it. Signed URLs
// (`sig`, `kid`, `exp`) and the path form with a file extension always go on. What it runs are the
// full path's own rules, not copies: the contract's validator (its answer memoised per URL),
// checkInput, the shared authenticateOnce, the shared authorized steps, metering and the response
// writer. test/integration/lean-hit-path.test.ts runs every case against both paths.
import querystring from 'node:querystring';
import { LRUCache } from 'lru-cache';
import type { ResolvedRecipe } from '../engine/recipe.ts';
import { numericQueryParams } from '../lib/openapi-document.ts';
import { canonicalSignedTarget } from '../lib/url-signature.ts';
import type { AuthRequest, AuthResult } from '../services/auth.service.ts';
import type { AppDeps } from './app-deps.types.ts';
import { markAnsweredByLeanPath } from './logging.ts';
import { markOperation } from './request-metrics.ts';
import { creditsRemainingFor, sendRendered } from './render-response.ts';
import type { RequestStep } from './request-pipeline.ts';
import { type AuthorizedStep, checkInput, runAuthorizedSteps } from './request-steps.ts';

/** The contract's request validation for one operation, as the full path runs it (openapi-backend with our Ajv). */
export type ValidateRequest = (
  request: { method: string; path: string; query: Record<string, string | string[]>; headers: Record<string, string> },
  operationId: 'renderRecipe',
) => boolean;

const PREFIX = '/v1/render/';
/** renderRecipe's numeric query parameters (w, h, pr, q): checked as the full path checks them. */
const RECIPE_URL_NUMBERS = numericQueryParams().get('renderRecipe');
const RECIPE_PATH = /^\/v1\/render\/([0-9a-f]{64})$/;
/** Memoised URL resolutions, by URL length (URLs are up to ~16 KiB). */
const RESOLVED_URLS_BYTES = 8 * 1024 * 1024;

export interface LeanHitPathOptions {
  /** Shared with the full path (authenticateOnce). */
  authenticate: (req: AuthRequest) => Promise<AuthResult>;
  /** The full path's contract validation (OperationsRouter.validate). */
  validate: ValidateRequest;
  /** Shared with the full path (authorizedSteps: the rate limit counts a request once). */
  authorized: readonly AuthorizedStep[];
}

/** The step's name; its failures are logged as "lean path failed". */
export const LEAN_PATH_STEP = 'lean path';

export function leanHitPathStep(deps: AppDeps, options: LeanHitPathOptions): RequestStep {
  const { authenticate, validate, authorized } = options;
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
    // A signed URL (or one that names a signing key, in any spelling) is verified by the full path
    // only: the same test of what is signed as the full path's authentication (src/lib/url-signature.ts).
    const signed = canonicalSignedTarget(url).signed;
    if (hash && single && !signed && validate({ method: 'GET', path, query, headers: {} }, 'renderRecipe')) {
      try {
        checkInput({ recipeHash: hash }, query, undefined, RECIPE_URL_NUMBERS);
        const { r, format, w, h, pr, q: quality } = query as Record<string, string | undefined>;
        const number = (v: string | undefined) => (v === undefined ? undefined : Number(v));
        resolved = deps.services.render.resolveEncoded(hash, r!, {
          format: format as never,
          w: number(w),
          h: number(h),
          pr: number(pr),
          q: number(quality),
        });
      } catch {
        resolved = false;
      }
    }
    resolvedUrls.set(url, resolved);
    return resolved;
  }

  return {
    name: LEAN_PATH_STEP,
    async handle(req, res, next) {
      const url = req.url ?? '';
      if ((req.method !== 'GET' && req.method !== 'HEAD') || !url.startsWith(PREFIX)) return next();
      const { headers } = req;
      // Cross-origin (CORS), conditional (304) and body-carrying requests take the full path.
      if (headers.origin !== undefined || headers['if-none-match'] !== undefined) return next();
      if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return next();
      const resolved = resolveUrl(url);
      if (!resolved) return next();

      const started = performance.now();
      const auth = await authenticate(req as typeof req & AuthRequest);
      if (!auth.ok) return next();
      const { principal } = auth;
      try {
        await runAuthorizedSteps(authorized, {
          request: req,
          operationId: 'renderRecipe',
          method: req.method,
          headers,
          principal,
          // Read only for signed URLs (counted by client address), which never take this path.
          clientAddress: req.socket.remoteAddress ?? 'unknown',
          response: res,
        });
      } catch (err) {
        // The full path would refuse it the same way: answered here (the pipeline sends the problem).
        markOperation(res, 'renderRecipe');
        markAnsweredByLeanPath(res);
        throw err;
      }
      // Only a hit held in memory is answered here; the lookup costs no I/O, so a miss goes on to the
      // full path having cost nothing it will repeat (authentication and the rate limit count once).
      const hit = deps.services.meteredRender.inMemoryHit(resolved);
      if (!hit) return next();

      markOperation(res, 'renderRecipe');
      markAnsweredByLeanPath(res);
      deps.services.meteredRender.recordUsage(resolved, { principal, operation: 'renderRecipe' }, hit, started);
      // A hit charged nothing: the balance this process last saw (no query within BALANCE_MEMO_MS).
      sendRendered(req, res, resolved, hit, undefined, await creditsRemainingFor(deps.services.credits, principal));
    },
  };
}
