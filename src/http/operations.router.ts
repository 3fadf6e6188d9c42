// The contract is the route table: openapi-backend matches each request to an operationId,
// authenticates it, validates it with Ajv (draft 2020-12) and calls that operation's handler.
import type { Request, RequestHandler, Response } from 'express';
import { OpenAPIBackend, type Context, type Document } from 'openapi-backend';
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { AppDeps } from './app-deps.types.ts';
import { ProblemError, type ProblemIssue } from '../errors/problem.ts';
import type { AuthResult } from '../services/auth.service.ts';
import type { Handler, OperationId, RequestContext } from './handler.types.ts';
import { listOperations, openApiDocument } from '../lib/openapi-document.ts';
import { createAjv, toIssues } from '../lib/schema-validation.ts';
import { sendProblem } from './problem-response.ts';
import { createBodyReader } from './body.middleware.ts';
import { assertCookieRequestAllowed, originPolicy } from './origin.middleware.ts';

/** openapi-backend checks definitions against the 3.0 schema; redocly lint is our definition gate. */
class ContractBackend extends OpenAPIBackend {
  override validateDefinition() {
    return this.document;
  }
}

/** A path template as a RegExp: each `{param}` matches (and captures) one segment. */
function templatePattern(templatePath: string): RegExp {
  const escape = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${templatePath.replace(/\{[^}]+\}/g, '\0').split('\0').map(escape).join('([^/]+)')}$`);
}

function validationFailed(issues: ProblemIssue[]): ProblemError {
  return new ProblemError('validation_failed', { detail: issues.map((i) => `${i.path} ${i.message}`).join('; '), issues });
}

type Router = OpenAPIBackend['router'];
type RouterOperation = ReturnType<Router['getOperations']>[number];

/** openapi-backend's matchOperation with its patterns compiled once instead of on every request. */
export function compileOperationMatcher(router: Router, operations: readonly RouterOperation[]) {
  const byPath = new Map<string, RouterOperation[]>();
  for (const op of operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  const templates = operations
    .map((op) => ({
      op,
      pattern: templatePattern(op.path),
      specificity: op.path.replace(/\{.*?\}/g, '').length,
    }))
    // Most specific first; ties keep the document's order (sort is stable, as lodash's orderBy).
    .sort((a, b) => b.specificity - a.specificity);
  return (req: Parameters<Router['matchOperation']>[0], strict?: boolean): RouterOperation | undefined => {
    const normalized = router.normalizeRequest(req);
    const fail = (message: string) => {
      if (strict) throw Error(message);
      return undefined;
    };
    const path = router.normalizePath(normalized.path);
    // HEAD runs the GET operation (RFC 9110 §9.3.2: same headers, no body; Node drops the body).
    const method = normalized.method === 'head' ? 'get' : normalized.method;
    const exact = byPath.get(path)?.find((op) => op.method === method);
    if (exact) return exact;
    const matching = templates.filter((t) => t.pattern.test(path));
    if (matching.length === 0) return fail('404-notFound: no route matches request');
    return matching.find((t) => t.op.method === method)?.op ?? fail('405-methodNotAllowed: this method is not registered for the route');
  };
}

/**
 * Inputs no operation accepts, refused before any handler or database sees them: a path parameter
 * that is not valid percent-encoding, and NUL (U+0000) in a path parameter, a query value or any
 * JSON string or member name (Postgres cannot store it in text; SQLite answers the same).
 */
export function inputIssues(pathParams: Record<string, string>, query: Record<string, unknown>, body: unknown): ProblemIssue[] {
  const issues: ProblemIssue[] = [];
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

/** The raw (still percent-encoded) path parameters of a templated path, e.g. /v1/jobs/{id}. */
function pathParamReader(templatePath: string): (path: string) => Record<string, string> {
  const names = [...templatePath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  if (names.length === 0) return () => ({});
  const pattern = templatePattern(templatePath);
  return (path) => {
    const m = pattern.exec(path);
    return Object.fromEntries(names.map((n, i) => [n, m?.[i + 1] ?? '']));
  };
}

const authResults = new WeakMap<Request, Promise<AuthResult>>();

export async function createOperationsRouter(deps: AppDeps, handlers: Record<OperationId, Handler<never>>): Promise<RequestHandler> {
  const policy = originPolicy(deps.config);
  const operations = listOperations();
  const documented = new Set(operations.map((o) => o.operationId));
  const missing = [...documented].filter((id) => !(id in handlers));
  const extra = Object.keys(handlers).filter((id) => !documented.has(id));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(
      `Handlers do not match openapi.yaml.${missing.length ? ` Missing: ${missing.join(', ')}.` : ''}${extra.length ? ` Not in the contract: ${extra.join(', ')}.` : ''}`,
    );
  }

  const api = new ContractBackend({
    definition: structuredClone(openApiDocument()) as unknown as Document,
    strict: true,
    coerceTypes: true,
    // openapi-backend makes a new Ajv for every operation and context and would precompile response
    // validators we never run. `quick` makes compiling lazy (request validators are compiled right
    // after init, below); no schema is checked against the meta-schema, which every new Ajv would
    // compile again (redocly lint checks the document). createApp went from ~3.5 s to well under one.
    quick: true,
    ajvOpts: { strict: false, allErrors: true, validateSchema: false },
    customizeAjv: (_original: unknown, ajvOpts: unknown) => createAjv(ajvOpts as Record<string, unknown>),
  });

  const authenticate = (req: Request): Promise<AuthResult> => {
    let result = authResults.get(req);
    if (!result) {
      result = deps.services.auth.authenticate(req);
      authResults.set(req, result);
    }
    return result;
  };
  // Both schemes share one decision, so a bad bearer cannot be rescued by a cookie.
  const security = async (_c: Context, req: Request) => {
    const result = await authenticate(req);
    return result.ok ? result.principal : false;
  };
  api.registerSecurityHandler('bearerAuth', security);
  api.registerSecurityHandler('sessionCookie', security);
  // Rate limits, authenticated operations only: RateLimit headers on the response, 429 over the limit.
  const enforceRateLimit = async (req: Request, res: Response, auth: AuthResult | undefined): Promise<void> => {
    if (!auth?.ok) return;
    const decision = await deps.services.rateLimiter.consume(auth.principal, req.headers.authorization);
    res.set(decision.headers);
    if (!decision.allowed) throw new ProblemError('rate_limited', { detail: decision.detail, headers: decision.headers });
  };

  api.register({
    notFound: (_c: Context, req: Request, res: Response) =>
      sendProblem(req, res, new ProblemError('route_not_found', { detail: `No route matches ${req.method} ${req.path}.` })),
    methodNotAllowed: (_c: Context, req: Request, res: Response) => {
      const allowed = operations.filter((o) => api.router.matchOperation({ method: o.method, path: req.path, headers: {} }, false)?.operationId === o.operationId);
      sendProblem(
        req,
        res,
        new ProblemError('method_not_allowed', {
          detail: `${req.method} is not allowed on ${req.path}.`,
          headers: { Allow: [...new Set(allowed.flatMap((o) => (o.method === 'GET' ? ['GET', 'HEAD'] : [o.method])))].join(', ') },
        }),
      );
    },
    unauthorizedHandler: async (_c: Context, req: Request, res: Response) => {
      const result = await authenticate(req);
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
      // Failed authentication is counted per client address (req.ip honours TRUST_PROXY).
      const decision = await deps.services.rateLimiter.consumeFailedAuth(req.ip ?? req.socket.remoteAddress ?? 'unknown');
      if (!decision.allowed) return sendProblem(req, res, new ProblemError('rate_limited', { detail: decision.detail, headers: decision.headers }));
      res.set(decision.headers);
      sendProblem(req, res, new ProblemError('unauthorized', { detail, headers: { 'WWW-Authenticate': challenge } }));
    },
    validationFail: async (c: Context, req: Request, res: Response) => {
      if (c.security?.authorized) await enforceRateLimit(req, res, await authenticate(req));
      sendProblem(req, res, validationFailed(toIssues(c.validation.errors as ErrorObject[])));
    },
  });

  for (const { operationId } of operations) {
    const handler = handlers[operationId as OperationId] as Handler;
    api.register(operationId, async (c: Context, req: Request, res: Response) => {
      const auth = c.security?.authorized ? await authenticate(req) : undefined;
      if (auth?.ok && auth.principal.method === 'session') assertCookieRequestAllowed(policy, operationId as OperationId, req.method, req.headers);
      await enforceRateLimit(req, res, auth);
      const controller = new AbortController();
      const onClose = () => {
        if (!res.writableFinished) controller.abort(new ProblemError('client_closed_request'));
      };
      res.once('close', onClose);
      const ctx: RequestContext = {
        operationId: operationId as OperationId,
        req,
        res,
        body: req.body as never,
        params: (c.request.params ?? {}) as never,
        query: (c.request.query ?? {}) as never,
        principal: auth?.ok ? auth.principal : null,
        deps,
        log: req.log,
        signal: controller.signal,
      };
      // Idempotency-Key (mutating operations): a replay answers from the stored response.
      if (auth?.ok) await deps.services.idempotency.respondOnce(operationId as OperationId, auth.principal.workspaceId, req, res, async () => handler(ctx));
      else await handler(ctx);
    });
  }

  await api.init();
  // Compile every request validator now, so a bad schema fails the startup and no request waits.
  api.validator.preCompileRequestValidators();
  // openapi-backend rebuilds its flattened operation list on every match (twice for templated
  // paths); the document never changes after init, so compute it once.
  const flattened = api.router.getOperations();
  api.router.getOperations = () => flattened;
  // It also builds a RegExp per operation on every match; precompile them (same rules: exact path
  // first, then templates by specificity, 405 when the path matches but the method does not).
  api.router.matchOperation = compileOperationMatcher(api.router, flattened) as typeof api.router.matchOperation;

  const readBody = createBodyReader({ limitBytes: deps.config.bodyLimitBytes, timeoutMs: deps.config.requestTimeouts.bodyMs });
  const paramReaders = new Map(flattened.map((op) => [op, pathParamReader(op.path)]));

  return async (req, res, next) => {
    try {
      const request = { method: req.method, path: req.path, headers: req.headers as Record<string, string | string[]> };
      const op = api.router.matchOperation(request, false);
      if (op) {
        const rawParams = paramReaders.get(op)!(api.router.normalizePath(req.path));
        const early = inputIssues(rawParams, req.query as Record<string, unknown>, undefined);
        if (early.length > 0) throw validationFailed(early);
        // Authenticate before reading the body: a request that will be refused is never buffered
        // (its connection closes after the 401, see sendProblem). Public operations read it as is.
        const secured = (op.security ?? []).length > 0;
        if (!secured || (await authenticate(req)).ok) {
          await readBody(req, res);
          const issues = inputIssues({}, {}, req.body);
          if (issues.length > 0) throw validationFailed(issues);
        }
      }
      await api.handleRequest(
        { method: req.method, path: req.path, query: req.query as Record<string, string | string[]>, headers: req.headers as Record<string, string | string[]>, body: req.body },
        req,
        res,
      );
    } catch (err) {
      next(err);
    }
  };
}
