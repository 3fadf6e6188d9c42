// JSON request logs with request ids. Only an allow-list of request fields is logged, so
// Authorization, cookies, signatures and key material never reach a log; redaction
// (src/lib/logger.ts) is a second line of defence for anything a handler logs by mistake.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Dependency } from '../lib/dependency-failure.ts';

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** Query parameters that carry credentials (OAuth callbacks, tokens); their values never reach a log. */
const SECRET_QUERY_PARAMS = /^(code|state|token|access_token|id_token|refresh_token|client_secret|secret|key|api_key|signature|sig)$/i;

/** Whether a query string may name one of SECRET_QUERY_PARAMS (a cheap test before parsing it). */
const MAY_HOLD_SECRET =
  /(^|[?&])(code|state|token|access_token|id_token|refresh_token|client_secret|secret|key|api_key|signature|sig)(=|&|$)/i;

/** A signed base's URL, whose signature is its path's last segment (`/v1/bases/<id>/<sig>.<ext>`). */
const BASE_URL_SIGNATURE = /^(\/v1\/bases\/[^/?]+\/)[^/?.]+/;

/** The request URL with credential-bearing query values (and a base URL's signature) replaced. */
export function loggableUrl(url: string): string {
  if (BASE_URL_SIGNATURE.test(url)) url = url.replace(BASE_URL_SIGNATURE, '$1[redacted]');
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
  // 503 not_ready: a dependency is down (or the process starts or drains) and the request was told
  // to retry, as designed. The outage itself is logged once when it starts and once when it ends
  // (src/lib/dependency-status.ts); one error line per refused request would bury it.
  if (!err && (res as Marked)[REFUSED] !== undefined) return 'info';
  // 501: a feature this deployment did not configure (billing without Stripe keys) answered as
  // designed: the operator's choice, not a fault to page anyone about.
  if (!err && res.statusCode === 501) return 'warn';
  if (err || res.statusCode >= 500) return 'error';
  if (res.statusCode >= 400) return 'warn';
  return 'info';
}

/** The message of a finished request's log line. */
export const REQUEST_COMPLETED = 'request completed';

// Per-request state is kept on the request and response objects under symbols, as pino-http did:
// a WeakMap entry per request costs the collector more.
const LEAN = Symbol('answered by the lean path');
const FAILURE = Symbol('failure behind the response');
const REFUSED = Symbol('refused while a dependency is down');
const LINE = Symbol('request log line');
type Marked = ServerResponse & { [LEAN]?: true; [FAILURE]?: Error; [REFUSED]?: Dependency | null };

/** The request's log line will say `"path":"lean"`: the lean path (lean-hit.path.ts) answered it. */
export function markAnsweredByLeanPath(res: ServerResponse): void {
  (res as Marked)[LEAN] = true;
}

/**
 * The request was answered 503 `not_ready` because `dependency` is down (null: none named — the
 * readiness check, a drain, FFmpeg missing): its line is `info` and says which, with no stack.
 */
export function logAsRefused(res: ServerResponse, dependency: Dependency | undefined): void {
  (res as Marked)[REFUSED] = dependency ?? null;
}

/** The request's log line will carry `err` with its stack: what went wrong behind a 5xx (never sent). */
export function logFailureWith(res: ServerResponse, err: Error): void {
  (res as Marked)[FAILURE] = err;
}

/**
 * The request log step: a request id (the client's X-Request-Id when well-formed), echoed in the
 * response, and one line when the response closes — `req` (loggedRequest), `res` (loggedResponse),
 * `responseTime`, `path: "lean"` when the lean path answered, and `err` for a 5xx or a response
 * that failed. pino-http wrote the same line, but made a child logger for every request, which cost
 * a cached hit ~30% of its throughput; a handler's logger (requestLog) is made only when asked for.
 */
export function requestLogger(logger: Logger): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  return (req, res, next) => {
    const line = new RequestLogLine(logger, req, res);
    (req as Logged)[LINE] = line;
    res.on('close', () => line.write());
    res.on('finish', () => line.write());
    res.on('error', (err: Error) => line.write(err));
    next();
  };
}

/** A logger bound to the request (its lines carry `req`), for handlers: made on first use. */
export function requestLog(req: IncomingMessage): Logger {
  const line = (req as Logged)[LINE];
  if (!line) throw new Error('The request log step has not run for this request.');
  return line.child();
}

type Logged = IncomingMessage & { [LINE]?: RequestLogLine };

/** One request's log line. A class, not closures: it is made for every request (tsx names each closure). */
class RequestLogLine {
  private readonly started = Date.now();
  readonly id: string;
  // What the request asked for, read at the start (before any step rewrites its URL, or the socket
  // that brought it closes).
  private readonly method: string;
  private readonly url: string;
  private readonly remoteAddress: string | undefined;
  private described: ReturnType<typeof loggedRequest> | undefined;
  private bound: Logger | undefined;
  private written = false;

  constructor(
    private readonly logger: Logger,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    const request = req as IncomingMessage & { id?: string };
    this.id = request.id ??= requestIdFor(req, res);
    this.method = req.method ?? '';
    this.url = req.url ?? '';
    this.remoteAddress = req.socket.remoteAddress;
  }

  private request(): ReturnType<typeof loggedRequest> {
    return (this.described ??= loggedRequest({
      id: this.id,
      method: this.method,
      url: this.url,
      remoteAddress: this.remoteAddress,
      headers: this.req.headers,
    }));
  }

  child(): Logger {
    return (this.bound ??= this.logger.child({ req: this.request() }));
  }

  write(failure?: Error): void {
    if (this.written) return;
    this.written = true;
    const { res } = this;
    const level = requestLogLevel(res, failure);
    if (!this.logger.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {
      req: this.request(),
      ...((res as Marked)[LEAN] ? { path: 'lean' } : {}),
      ...((res as Marked)[REFUSED] ? { dependency: (res as Marked)[REFUSED] } : {}),
      res: loggedResponse({ statusCode: res.statusCode, raw: res }),
      responseTime: Date.now() - this.started,
    };
    const err = failure ?? (res as Marked)[FAILURE];
    if (err || (res.statusCode >= 500 && (res as Marked)[REFUSED] === undefined)) {
      const error = err ?? new Error(`failed with status code ${res.statusCode}`);
      this.logger[level]({ ...fields, err: error }, res.writableFinished ? error.message : 'client closed request');
    } else this.logger[level](fields, REQUEST_COMPLETED);
  }
}
