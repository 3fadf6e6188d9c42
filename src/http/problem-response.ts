// Every error leaves the service through here, as application/problem+json.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ProblemError, isProblemError } from '../errors/problem.ts';
import { DEPENDENCY_RETRY_AFTER_SECONDS, unavailableDependency } from '../lib/dependency-failure.ts';
import type { DependencyStatus } from '../lib/dependency-status.ts';
import { hasBody } from './body.middleware.ts';
import { logAsRefused, logFailureWith } from './logging.ts';
import { forAnonymousCaller, publicRequestKind } from './public-answer.ts';

export function requestIdOf(req: IncomingMessage): string | undefined {
  return (req as IncomingMessage & { id?: string }).id;
}

/**
 * Written with node's own response API (not express's), so the lean path (lean-hit.path.ts),
 * which runs before express, answers a problem exactly as the full path does.
 */
export function sendProblem(req: IncomingMessage, res: ServerResponse, problem: ProblemError): void {
  // Whoever holds a signed URL is told why it failed, never what the workspace behind it holds.
  const err = publicRequestKind(req) === 'signed' ? forAnonymousCaller(problem) : problem;
  if (res.headersSent) {
    // Too late for a problem document: cut the connection so the client sees a failure, not a truncated success.
    res.destroy();
    return;
  }
  res.statusCode = err.status;
  for (const [name, value] of Object.entries(err.headers ?? {})) res.setHeader(name, value);
  // A 402 to an authenticated caller says the balance it read (its `balance`); a signed answer's problem has none.
  const available = (err.extra?.balance as { available?: unknown } | undefined)?.available;
  if (err.code === 'insufficient_credits' && typeof available === 'number') res.setHeader('X-Service-Credits-Remaining', String(available));
  // A body left unread (refused before reading it, or cut off by its deadline) is not drained:
  // the connection closes after this response, so a client cannot hold it by trickling bytes.
  if (hasBody(req) && !req.complete) res.setHeader('Connection', 'close');
  res.setHeader('Cache-Control', 'no-store');
  const body = JSON.stringify(err.toProblem(requestIdOf(req)));
  res.setHeader('Content-Type', 'application/problem+json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * How a failure answered with `problem` is logged: a 500 with its stack on the request's line (never
 * sent); a 503 `not_ready` as a refusal — counted in its dependency's outage, which is logged once
 * (src/lib/dependency-status.ts), and an info line of its own. Returns the problem.
 */
export function recordProblem(
  err: unknown,
  problem: ProblemError,
  res: ServerResponse,
  dependencies: DependencyStatus | undefined,
): ProblemError {
  if (problem.code === 'not_ready') {
    const dependency = unavailableDependency(err);
    if (dependency) dependencies?.refused(dependency, err);
    logAsRefused(res, dependency);
  } else if (problem.code === 'internal_error') logFailureWith(res, err as Error);
  return problem;
}

/** express 5 forwards rejected promises here. */
export function problemErrorHandler(dependencies?: DependencyStatus): ErrorRequestHandler {
  return (err, req, res, _next) => {
    sendProblem(req, res, recordProblem(err, problemFor(err, req), res, dependencies));
  };
}

/** A dependency that cannot be reached now (database, object storage): 503 with Retry-After, never a 500. */
export function dependencyProblem(err: unknown): ProblemError | undefined {
  const dependency = unavailableDependency(err);
  if (!dependency) return undefined;
  const what = dependency === 'storage' ? 'Object storage' : 'The database';
  return new ProblemError('not_ready', {
    detail: `${what} is unavailable right now; retry after ${DEPENDENCY_RETRY_AFTER_SECONDS} seconds.`,
    headers: { 'Retry-After': String(DEPENDENCY_RETRY_AFTER_SECONDS) },
    cause: err,
  });
}

/** The problem any error is answered with: the one mapping of errors to problems. Anything unknown is a 500 with no internals. */
export function problemFor(err: unknown, req: IncomingMessage): ProblemError {
  if (isProblemError(err)) return err;
  const unavailable = dependencyProblem(err);
  if (unavailable) return unavailable;
  const bodyParserType = (err as { type?: string }).type;
  if (bodyParserType === 'entity.too.large') {
    return new ProblemError('payload_too_large', { detail: `The request body exceeds ${(err as { limit?: number }).limit} bytes.` });
  }
  if (bodyParserType === 'entity.parse.failed') {
    return new ProblemError('malformed_json', { detail: 'The request body is not valid JSON.' });
  }
  if (bodyParserType === 'encoding.unsupported' || bodyParserType === 'charset.unsupported') {
    return new ProblemError('unsupported_media_type', { detail: 'Send the body as UTF-8 JSON.' });
  }
  if (bodyParserType === 'request.aborted') return new ProblemError('client_closed_request');
  // express's router decoding a path parameter (routes outside the contract, e.g. /v1/auth/*).
  if (err instanceof URIError) {
    return new ProblemError('validation_failed', {
      detail: 'The path has an invalid percent-encoding.',
      issues: [{ path: 'path', message: 'is not valid percent-encoding', keyword: 'format' }],
    });
  }
  // Any other client error raised while reading the request (e.g. a body shorter or longer than its Content-Length).
  const status = (err as { status?: unknown }).status;
  if (bodyParserType !== undefined && typeof status === 'number' && status >= 400 && status < 500) {
    return new ProblemError('malformed_request', { detail: (err as Error).message });
  }
  return new ProblemError('internal_error', {
    detail: `Something went wrong. Quote request id ${requestIdOf(req) ?? 'unknown'} when reporting it.`,
  });
}

export const routeNotFound: RequestHandler = (req, res) => {
  sendProblem(req, res, new ProblemError('route_not_found', { detail: `No route matches ${req.method} ${req.path}.` }));
};
