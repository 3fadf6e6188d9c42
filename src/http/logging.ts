// JSON request logs with request ids. Only an allow-list of request fields is logged, so
// Authorization, cookies, signatures and key material never reach a log; redaction
// (src/lib/logger.ts) is a second line of defence for anything a handler logs by mistake.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** Query parameters that carry credentials (OAuth callbacks, tokens); their values never reach a log. */
const SECRET_QUERY_PARAMS = /^(code|state|token|access_token|id_token|refresh_token|client_secret|secret|key|api_key|signature|sig)$/i;

/** Whether a query string may name one of SECRET_QUERY_PARAMS (a cheap test before parsing it). */
const MAY_HOLD_SECRET =
  /(^|[?&])(code|state|token|access_token|id_token|refresh_token|client_secret|secret|key|api_key|signature|sig)(=|&|$)/i;

/** The request URL with credential-bearing query values replaced. */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  // Every request is logged and recipe URLs are long: most name no such parameter (parsing is the cost).
  // A percent-encoded name (%73ig is sig) always takes the parser.
  if (!url.includes('%', q) && !MAY_HOLD_SECRET.test(url.slice(q))) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let changed = false;
  for (const name of [...new Set(params.keys())]) {
    if (SECRET_QUERY_PARAMS.test(name)) {
      params.set(name, '[redacted]');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q)}?${params.toString()}` : url;
}

/** The request id: the client's X-Request-Id when well-formed, else a new UUID; echoed in the response. */
export function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** What a request log line says of the request: an allow-list (no headers but the user agent). */
export function loggedRequest(req: { id: string; method: string; url: string; remoteAddress?: string; headers?: Record<string, unknown> }) {
  return {
    id: req.id,
    method: req.method,
    url: loggableUrl(req.url),
    remoteAddress: req.remoteAddress,
    userAgent: req.headers?.['user-agent'],
  };
}

/** A response that never finished went to a client that left: 499 (nginx's convention), whatever status was pending when the socket closed. */
export function loggedResponse(res: { statusCode: number; raw?: ServerResponse }) {
  return { statusCode: res.raw && !res.raw.writableFinished ? 499 : res.statusCode };
}

export function requestLogLevel(res: ServerResponse, err?: Error): 'info' | 'warn' | 'error' {
  if (!res.writableFinished) return 'info';
  // 501: a feature this deployment did not configure (billing without Stripe keys) answered as
  // designed: the operator's choice, not a fault to page anyone about.
  if (!err && res.statusCode === 501) return 'warn';
  if (err || res.statusCode >= 500) return 'error';
  if (res.statusCode >= 400) return 'warn';
  return 'info';
}

/** pino-http's message for a finished request. */
export const REQUEST_COMPLETED = 'request completed';

const answeredByLeanPath = new WeakSet<ServerResponse>();

/** The request's log line will say `"path":"lean"`: the lean path (lean-hit.path.ts) answered it. */
export function markAnsweredByLeanPath(res: ServerResponse): void {
  answeredByLeanPath.add(res);
}

export function requestLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: requestIdFor,
    serializers: { req: loggedRequest, res: loggedResponse },
    customLogLevel: (_req, res, err) => requestLogLevel(res, err),
    customSuccessMessage: () => REQUEST_COMPLETED,
    customErrorMessage(_req, res, err) {
      return res.writableFinished ? err.message : 'client closed request';
    },
    customAttributeKeys: { reqId: 'requestId' },
    // Read when the request starts (nothing marked yet) and when it is logged.
    customProps: (_req, res) => (answeredByLeanPath.has(res) ? { path: 'lean' } : (undefined as unknown as object)),
    wrapSerializers: true,
  });
}
