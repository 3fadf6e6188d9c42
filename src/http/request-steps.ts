// The steps every API request goes through, each a named function of plain inputs (headers, a
// principal, a place to put response headers) rather than express's req/res where it can be, so
// both request paths (the full one and the lean one for recipe URLs held in memory) run the same
// ones. In order:
//  1. checkInput: path parameters' percent-encoding and NUL (U+0000) anywhere, before any work;
//  2. authenticate (once per request; the body is read only when it succeeds or is not needed; an
//     upload, megabytes of body, runs steps 4–5 before it is read);
//     a failure is answered by unauthorizedAnswer (401, or 429 for too many failures);
//  3. schema validation (openapi-backend with our Ajv, see openapi-backend.seam.ts);
//  4.–5. authorizedSteps, the one ordered list both paths run once a request is authenticated and
//     valid: the key's scope (an API key created with scopes may call only the operations whose
//     security requirement names one of them: 403 insufficient_scope; the full path also asks it
//     before reading a body, so an out-of-scope request is refused before validation), then
//     checkCookieOrigin (a signed-in browser's unsafe request must come from an allowed origin),
//     then the rate limit (RateLimit headers — none on a signed URL's answer, which a shared cache
//     may store —, 429 over the limit; counted once per request);
//  6. abortOnClientClose: the handler's AbortSignal, aborted when the client leaves;
//  7. the idempotency replay (IdempotencyService.respondOnce), then the operation's handler.
// operations.router.ts composes them for the full path, lean-hit.path.ts for the lean one; the
// steps in front of both (request log, security headers, origin policy, …) are the request
// pipeline's list in src/app.ts.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { ProblemError, type ProblemIssue } from '../errors/problem.ts';
import type { AuthResult, Principal } from '../services/auth.service.ts';
import { assertOperationScope, type KeyScope, operationScopes } from '../services/key-scopes.ts';
import type { Decision, RateLimiter } from '../services/rate-limit.service.ts';
import type { OperationId } from './handler.types.ts';
import { assertCookieRequestAllowed, type OriginPolicy } from './origin.middleware.ts';

export function validationFailed(issues: ProblemIssue[]): ProblemError {
  return new ProblemError('validation_failed', { detail: issues.map((i) => `${i.path} ${i.message}`).join('; '), issues });
}

/**
 * Inputs no operation accepts, refused before any handler or database sees them: a path parameter
 * that is not valid percent-encoding, and NUL (U+0000) in a path parameter, a query value or any
 * JSON string or member name (Postgres cannot store it in text; SQLite answers the same).
 */
/** The one syntax of a number in a query string: decimal digits, an optional sign and fraction (no 0x, no exponent, no spaces). */
const DECIMAL = /^-?\d+(\.\d+)?$/;

export function inputIssues(
  pathParams: Record<string, string>,
  query: Record<string, unknown>,
  body: unknown,
  /** The operation's numeric query parameters (numericQueryParams in src/lib/openapi-document.ts). */
  numericQuery: ReadonlySet<string> = new Set(),
): ProblemIssue[] {
  const issues: ProblemIssue[] = [];
  for (const name of numericQuery) {
    const value = query[name];
    if (typeof value === 'string' && !DECIMAL.test(value))
      issues.push({ path: `query.${name}`, message: 'must be a decimal number (digits, an optional fraction)', keyword: 'type' });
  }
  const nul = (path: string) => issues.push({ path, message: 'must not contain NUL (U+0000)', keyword: 'pattern' });
  for (const [name, raw] of Object.entries(pathParams)) {
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      issues.push({ path: `path.${name}`, message: 'is not valid percent-encoding', keyword: 'format' });
      continue;
    }
    if (value.includes('\0')) nul(`path.${name}`);
  }
  for (const [name, value] of Object.entries(query)) {
    if (name.includes('\0')) nul('query');
    else if ((Array.isArray(value) ? value : [value]).some((v) => typeof v === 'string' && v.includes('\0'))) nul(`query.${name}`);
  }
  // Iterative, and paths are built only for a finding: a 1 MB body can nest 200 000 levels deep.
  type Node = { value: unknown; key: string; parent: Node | undefined };
  const pathOf = (node: Node) => {
    const keys: string[] = [];
    for (let n: Node | undefined = node; n; n = n.parent) keys.push(n.key);
    return keys.reverse().join('.');
  };
  const stack: Node[] = [{ value: body, key: 'body', parent: undefined }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const { value } = node;
    if (typeof value === 'string') {
      if (value.includes('\0')) nul(pathOf(node));
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (k.includes('\0')) nul(pathOf(node));
        else stack.push({ value: v, key: k, parent: node });
      }
    }
  }
  return issues;
}

/** Step 1: throws 400 validation_failed naming every field inputIssues finds. */
export function checkInput(
  pathParams: Record<string, string>,
  query: Record<string, unknown>,
  body: unknown,
  numericQuery?: ReadonlySet<string>,
): void {
  const issues = inputIssues(pathParams, query, body, numericQuery);
  if (issues.length > 0) throw validationFailed(issues);
}

/**
 * Step 2: `authenticate` run at most once per request object (the security handlers of both
 * schemes, the body gate and the handler all ask), so one decision holds: a bad bearer cannot be
 * rescued by a cookie.
 */
export function authenticateOnce<R extends object>(authenticate: (request: R) => Promise<AuthResult>): (request: R) => Promise<AuthResult> {
  const results = new WeakMap<R, Promise<AuthResult>>();
  return (request) => {
    let result = results.get(request);
    if (!result) {
      result = authenticate(request);
      results.set(request, result);
    }
    return result;
  };
}

/** Step 2's failure: the problem to answer (401 with a challenge, or 429 once the client's failures pass the limit). */
export async function unauthorizedAnswer(
  result: AuthResult,
  rateLimiter: Pick<RateLimiter, 'consumeFailedAuth'>,
  clientAddress: string,
): Promise<ProblemError> {
  if (!result.ok && result.reason === 'signed_url') {
    // A genuine URL past its exp: permanent (a crawler drops a 410), not a credentials failure.
    if (result.expired) return new ProblemError('signed_url_expired', { detail: result.detail });
    const decision = await rateLimiter.consumeFailedAuth(clientAddress);
    if (!decision.allowed) return new ProblemError('rate_limited', { detail: decision.detail, headers: decision.headers });
    return new ProblemError('unauthorized', {
      detail: result.detail,
      headers: { ...decision.headers, 'WWW-Authenticate': 'Signature realm="render-service"' },
    });
  }
  const reason = result.ok ? 'invalid' : result.reason;
  const detail =
    reason === 'missing'
      ? 'Send Authorization: Bearer <API key>, or sign in.'
      : reason === 'malformed'
        ? 'The Authorization header must be "Bearer <API key>".'
        : reason === 'revoked'
          ? 'This API key has been revoked.'
          : 'The credentials are not valid.';
  const challenge = reason === 'missing' ? 'Bearer realm="render-service"' : 'Bearer realm="render-service", error="invalid_token"';
  // Failed authentication is counted per client address.
  const decision = await rateLimiter.consumeFailedAuth(clientAddress);
  if (!decision.allowed) return new ProblemError('rate_limited', { detail: decision.detail, headers: decision.headers });
  return new ProblemError('unauthorized', { detail, headers: { ...decision.headers, 'WWW-Authenticate': challenge } });
}

/** Step 4: a session (cookie) request that changes something must carry an allowed Origin; API keys need none. */
export function checkCookieOrigin(
  policy: OriginPolicy,
  operationId: OperationId,
  method: string,
  headers: IncomingHttpHeaders,
  principal: Principal | null,
): void {
  if (principal?.method === 'session') assertCookieRequestAllowed(policy, operationId, method, headers);
}

/** What the authorized steps read of a request, on either path. */
export interface AuthorizedRequest {
  /** The request object itself: what "once per request" is counted by. */
  readonly request: object;
  readonly operationId: OperationId;
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  readonly principal: Principal | null;
  readonly clientAddress: string;
  /** Where the rate limit's headers go. */
  readonly response: Pick<ServerResponse, 'setHeader'>;
}

/** The rate limit's step name: a request the contract refuses after authentication is still counted (operations.router.ts). */
export const RATE_LIMIT_STEP = 'rate limit';
/** The scope step's name: the full path runs it before reading a body (operations.router.ts). */
export const SCOPE_STEP = 'scope';

export interface AuthorizedStep {
  readonly name: string;
  run(request: AuthorizedRequest): void | Promise<void>;
}

export interface AuthorizedStepsOptions {
  policy: OriginPolicy;
  rateLimiter: Pick<RateLimiter, 'consume' | 'consumeSigned'>;
  /** Told of a signed URL refused by the rate limit (the refusals metric). */
  onSignedUrlRefused?: () => void;
  /** The scope each operation needs; by default read from openapi.yaml (operationScopes). */
  scopes?: ReadonlyMap<string, KeyScope | null>;
}

/**
 * Steps 4–5: the one ordered list both request paths run for an authenticated, valid request
 * before its handler (the lean path before it answers a hit). The rate limit counts a request once
 * however often it is asked: a lean-path miss is counted there and not again by the full path.
 */
export function authorizedSteps(options: AuthorizedStepsOptions): readonly AuthorizedStep[] {
  // Kept on the request object itself (a WeakMap entry per request costs the collector more).
  const decided = Symbol('rate-limit decision');
  type Counted = { [decided]?: Promise<Decision | undefined> };
  const countOnce = (r: AuthorizedRequest): Promise<Decision | undefined> => {
    const request = r.request as Counted;
    let decision = request[decided];
    if (!decision) {
      const { principal } = r;
      decision = !principal
        ? Promise.resolve(undefined)
        : principal.method === 'signed_url'
          ? options.rateLimiter.consumeSigned(r.clientAddress)
          : options.rateLimiter.consume(principal, r.headers.authorization);
      request[decided] = decision;
    }
    return decision;
  };
  const scopes = options.scopes ?? operationScopes();
  return [
    // First: a key refused for its scope does nothing more, and is not counted against a rate limit.
    { name: SCOPE_STEP, run: (r) => assertOperationScope(scopes, r.operationId, r.principal) },
    { name: 'cookie origin', run: (r) => checkCookieOrigin(options.policy, r.operationId, r.method, r.headers, r.principal) },
    {
      name: RATE_LIMIT_STEP,
      run: async (r) => {
        const decision = await countOnce(r);
        if (!decision) return;
        // A signed URL's answer may be stored by a shared cache and handed to every client: it carries
        // no client's count (public-answer.ts). Only its 429, never stored, says the limit.
        const signed = r.principal?.method === 'signed_url';
        if (!signed) for (const name in decision.headers) r.response.setHeader(name, decision.headers[name]!);
        if (decision.allowed) return;
        if (signed) options.onSignedUrlRefused?.();
        throw new ProblemError('rate_limited', { detail: decision.detail, headers: decision.headers });
      },
    },
  ];
}

/** Runs the authorized steps in their order; the first refusal throws. */
export async function runAuthorizedSteps(steps: readonly AuthorizedStep[], request: AuthorizedRequest): Promise<void> {
  for (const step of steps) {
    const pending = step.run(request);
    if (pending) await pending;
  }
}

/** A response that keeps no header: the steps' decisions without their headers. */
const NO_HEADERS: AuthorizedRequest['response'] = { setHeader: (() => NO_HEADERS) as never };

/**
 * The steps' refusals only, before an upload's body is read (megabytes not worth reading for a 429):
 * a refusal throws with its own headers; a request let through gets its RateLimit headers when the
 * steps run again before its handler (the count is taken once), so an answer the body decides (a
 * 408, a 413) carries none.
 */
export function refuseBeforeBody(steps: readonly AuthorizedStep[], request: AuthorizedRequest): Promise<void> {
  return runAuthorizedSteps(steps, { ...request, response: NO_HEADERS });
}

/** What abortOnClientClose watches: a response that reports its connection closing. */
export interface ClosableResponse {
  once(event: 'close', listener: () => void): unknown;
  readonly writableFinished: boolean;
}

/** Step 6: a signal aborted with 499 client_closed_request when the connection closes before the response is finished. */
export function abortOnClientClose(res: ClosableResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new ProblemError('client_closed_request'));
  });
  return controller.signal;
}
