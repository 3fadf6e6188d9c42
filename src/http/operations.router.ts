// The contract is the route table: openapi-backend matches each request to an operationId,
// authenticates it, validates it with Ajv (draft 2020-12) and calls that operation's handler. The
// per-request steps are request-steps.ts; what patches the library is openapi-backend.seam.ts.
import type { Request, RequestHandler, Response } from 'express';
import type { Context, Document } from 'openapi-backend';
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { AppDeps } from './app-deps.types.ts';
import { ProblemError } from '../errors/problem.ts';
import type { Handler, OperationId, RequestContext } from './handler.types.ts';
import { listOperations, numericQueryParams, openApiDocument } from '../lib/openapi-document.ts';
import { toIssues } from '../lib/schema-validation.ts';
import { sendProblem } from './problem-response.ts';
import { requestLog } from './logging.ts';
import { markOperation } from './request-metrics.ts';
import { createBodyReader } from './body.middleware.ts';
import { createContractBackend, installCompiledRouting, pathParamReader } from './openapi-backend.seam.ts';
import type { AuthRequest, AuthResult, Principal } from '../services/auth.service.ts';
import type { ValidateRequest } from './lean-hit.path.ts';
import {
  abortOnClientClose,
  type AuthorizedRequest,
  type AuthorizedStep,
  checkInput,
  RATE_LIMIT_STEP,
  refuseBeforeBody,
  SCOPE_STEP,
  runAuthorizedSteps,
  unauthorizedAnswer,
  validationFailed,
} from './request-steps.ts';

/** Refuses to build a router whose handlers and the contract's operations differ (the boot check). */
function assertHandlersMatch(handlers: Record<string, unknown>, documented: ReadonlySet<string>): void {
  const missing = [...documented].filter((id) => !(id in handlers));
  const extra = Object.keys(handlers).filter((id) => !documented.has(id));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(
      `Handlers do not match openapi.yaml.${missing.length ? ` Missing: ${missing.join(', ')}.` : ''}${extra.length ? ` Not in the contract: ${extra.join(', ')}.` : ''}`,
    );
  }
}

export interface OperationsRouter {
  handle: RequestHandler;
  /** The contract's validation of one request, without handling it (the lean path's). */
  validate: ValidateRequest;
}

export interface OperationsRouterOptions {
  handlers: Record<OperationId, Handler<never>>;
  /** Shared with the lean path (authenticateOnce: one decision per request object). */
  authenticate: (req: AuthRequest) => Promise<AuthResult>;
  /** Shared with the lean path (authorizedSteps: the rate limit counts a request once). */
  authorized: readonly AuthorizedStep[];
}

export async function createOperationsRouter(deps: AppDeps, options: OperationsRouterOptions): Promise<OperationsRouter> {
  const { handlers, authenticate, authorized } = options;
  const countRequest = authorized.find((step) => step.name === RATE_LIMIT_STEP);
  const scopeStep = authorized.find((step) => step.name === SCOPE_STEP);
  const operations = listOperations();
  assertHandlersMatch(handlers, new Set(operations.map((o) => o.operationId)));
  const document = openApiDocument();
  const api = createContractBackend(document as unknown as Document);
  // Handlers are registered after init: init checks each one registered before it against the
  // operation list, which the library flattens again for every check (installCompiledRouting keeps one).
  await api.init();
  const flattened = installCompiledRouting(api, document);
  const clientAddress = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';
  const authorizedRequest = (operationId: string, req: Request, res: Response, principal: Principal | null): AuthorizedRequest => ({
    request: req,
    operationId: operationId as OperationId,
    method: req.method,
    headers: req.headers,
    principal,
    clientAddress: clientAddress(req),
    response: res,
  });

  // Every scheme shares one decision (authenticateOnce); a signed URL's principal satisfies only the
  // signedUrl scheme, which renderRecipe alone lists, and a key or session never satisfies it.
  const security = (signed: boolean) => async (_c: Context, req: Request) => {
    const result = await authenticate(req);
    return result.ok && (result.principal.method === 'signed_url') === signed ? result.principal : false;
  };
  api.registerSecurityHandler('bearerAuth', security(false));
  api.registerSecurityHandler('sessionCookie', security(false));
  api.registerSecurityHandler('signedUrl', security(true));

  api.register({
    notFound: (_c: Context, req: Request, res: Response) =>
      sendProblem(req, res, new ProblemError('route_not_found', { detail: `No route matches ${req.method} ${req.path}.` })),
    methodNotAllowed: (_c: Context, req: Request, res: Response) => {
      const allowed = operations.filter(
        (o) => api.router.matchOperation({ method: o.method, path: req.path, headers: {} }, false)?.operationId === o.operationId,
      );
      sendProblem(
        req,
        res,
        new ProblemError('method_not_allowed', {
          detail: `${req.method} is not allowed on ${req.path}.`,
          headers: { Allow: [...new Set(allowed.flatMap((o) => (o.method === 'GET' ? ['GET', 'HEAD'] : [o.method])))].join(', ') },
        }),
      );
    },
    // req.ip honours TRUST_PROXY.
    unauthorizedHandler: async (_c: Context, req: Request, res: Response) =>
      sendProblem(req, res, await unauthorizedAnswer(await authenticate(req), deps.services.rateLimiter, clientAddress(req))),
    validationFail: async (c: Context, req: Request, res: Response) => {
      // Refused by the contract but authenticated: still counted against the rate limit.
      if (c.security?.authorized) {
        const auth = await authenticate(req);
        await countRequest?.run(authorizedRequest(c.operation.operationId!, req, res, auth.ok ? auth.principal : null));
      }
      sendProblem(req, res, validationFailed(toIssues(c.validation.errors as ErrorObject[])));
    },
  });

  for (const { operationId } of operations) {
    const handler = handlers[operationId as OperationId] as Handler;
    api.register(operationId, async (c: Context, req: Request, res: Response) => {
      const auth = c.security?.authorized ? await authenticate(req) : undefined;
      const principal = auth?.ok ? auth.principal : null;
      await runAuthorizedSteps(authorized, authorizedRequest(operationId, req, res, principal));
      const ctx: RequestContext = {
        operationId: operationId as OperationId,
        req,
        res,
        body: req.body as never,
        params: (c.request.params ?? {}) as never,
        query: (c.request.query ?? {}) as never,
        principal,
        deps,
        get log() {
          return requestLog(req);
        },
        signal: abortOnClientClose(res),
      };
      // Idempotency-Key (mutating operations): a replay answers from the stored response.
      if (principal)
        await deps.services.idempotency.respondOnce(operationId as OperationId, principal.workspaceId, req, res, async () => handler(ctx));
      else await handler(ctx);
    });
  }

  const uploads = {
    createAsset: {
      accept: (mediaType: string) => deps.services.assets.uploadLimit(mediaType),
      unsupported: (mediaType: string) => deps.services.assets.unsupportedType(mediaType),
    },
  };
  const readBody = createBodyReader({
    limitBytes: deps.config.bodyLimitBytes,
    timeoutMs: deps.config.requestTimeouts.bodyMs,
    uploads,
  });
  const uploadOperations = new Set<string>(Object.keys(uploads));
  const paramReaders = new Map(flattened.map((op) => [op, pathParamReader(op.path)]));
  const numericQuery = numericQueryParams();

  const validate: ValidateRequest = (request, operationId) => api.validateRequest(request, operationId).valid;
  const handle: RequestHandler = async (req, res, next) => {
    try {
      const request = { method: req.method, path: req.path, headers: req.headers as Record<string, string | string[]> };
      const op = api.router.matchOperation(request, false);
      if (op) {
        markOperation(res, op.operationId!);
        const query = req.query as Record<string, unknown>;
        // Broken percent-encoding and NUL first: nothing reads the request before (a signed URL's key row included).
        checkInput(paramReaders.get(op)!(api.router.normalizePath(req.path)), query, undefined);
        // Authenticate before reading the body: a request that will be refused is never buffered
        // (its connection closes after the 401, see sendProblem). Public operations read it as is.
        const secured = (op.security ?? []).length > 0;
        const auth = secured ? await authenticate(req) : undefined;
        // A refused signed URL is 401 (410 expired) whatever its numbers hold: a changed or added
        // parameter is refused as tampering, as the contract says, not as a malformed number.
        if (auth?.ok !== false || auth.reason !== 'signed_url') checkInput({}, query, undefined, numericQuery.get(op.operationId!));
        if (!secured || auth!.ok) {
          // A key outside its scopes is refused before its body is read or validated (403 whatever the body holds).
          if (auth?.ok) await scopeStep?.run(authorizedRequest(op.operationId!, req, res, auth.principal));
          // An upload (megabytes) is refused by the origin check and the rate limit before it is
          // read; they count the request once, so the handler's run of the same steps passes.
          if (auth?.ok && uploadOperations.has(op.operationId!))
            await refuseBeforeBody(authorized, authorizedRequest(op.operationId!, req, res, auth.principal));
          await readBody(req, res, op.operationId);
          checkInput({}, {}, req.body);
        }
      }
      await api.handleRequest(
        {
          method: req.method,
          path: req.path,
          query: req.query as Record<string, string | string[]>,
          headers: req.headers as Record<string, string | string[]>,
          body: req.body,
        },
        req,
        res,
      );
    } catch (err) {
      next(err);
    }
  };
  return { handle, validate };
}
