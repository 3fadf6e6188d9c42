// The node HTTP server in front of the app: its header limit, its deadlines, and problem+json for
// the errors Node answers itself before any route runs (431, 400 from the HTTP parser, 408).
import http, { type RequestListener } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Config } from '../config/config.ts';
import { MAX_ENCODED_RECIPE_LENGTH } from '../config/limits.ts';
import { PROBLEMS, type ProblemCode } from '../errors/error-registry.ts';
import { problemBody } from '../errors/problem.ts';

/**
 * Request line plus headers. Room for the longest documented recipe URL (`r` up to
 * MAX_ENCODED_RECIPE_LENGTH) and 16 KiB of other headers (cookies, authorization).
 */
export const MAX_HEADER_BYTES = MAX_ENCODED_RECIPE_LENGTH + 16 * 1024;

/** headersMs: time to receive the request line and all headers; bodyMs: the body, once the route accepted the request (enforced by body.middleware.ts). */
export type HttpServerOptions = Config['requestTimeouts'];

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Content Too Large',
  431: 'Request Header Fields Too Large',
};

/** The problem Node's own parser and timers report, by error code. */
function clientErrorProblem(code: string | undefined): { code: ProblemCode; detail: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'request_header_fields_too_large', detail: `The request line and headers must fit in ${MAX_HEADER_BYTES} bytes.` };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'request_timeout', detail: 'The request did not arrive in time.' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { code: 'payload_too_large', detail: 'The chunk extensions are too large.' };
    default:
      return { code: 'malformed_request', detail: 'The request is not well-formed HTTP/1.1.' };
  }
}

/** A complete problem+json response written straight to the socket (there is no response object), then the socket is closed. */
function writeProblem(socket: Duplex, code: ProblemCode, detail: string): void {
  const status = PROBLEMS[code].status;
  const body = JSON.stringify(problemBody(code, { detail }));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\n` +
      'Content-Type: application/problem+json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
  socket.once('finish', () => socket.destroy());
}

/** Node's parser and timers refused the request before any route saw it. */
export function onClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  // As node's default handler: answer only if nothing of a response has been written to this socket yet.
  const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage;
  if (err.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
    const { code, detail } = clientErrorProblem(err.code);
    writeProblem(socket, code, detail);
  } else socket.destroy();
}

/** Creates the server for the app; the caller listens. */
export function createHttpServer(app: RequestListener, options: HttpServerOptions): http.Server {
  const handle: RequestListener = (req, res) => {
    if (req.headers.host === undefined && req.httpVersion === '1.1') {
      res.shouldKeepAlive = false;
      return void res
        .writeHead(400, { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store', Connection: 'close' })
        .end(JSON.stringify(problemBody('malformed_request', { detail: 'An HTTP/1.1 request must carry a Host header.' })));
    }
    app(req, res);
  };
  const server = http.createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: options.headersMs,
      // Node's own outer deadline for the whole request (also covers the sign-in library, which reads
      // its own bodies); the app's body deadline normally answers first.
      requestTimeout: options.headersMs + options.bodyMs + 1_000,
      // How often node checks those two deadlines (its default, 30 s, would let them overrun by that much).
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(options.headersMs / 4))),
      // Node would answer a missing Host with a bare 400; `handle` answers it as a problem instead.
      requireHostHeader: false,
    },
    handle,
  );
  server.on('clientError', onClientError);
  // An expectation other than 100-continue is ignored (RFC 9110 allows it) instead of node's bare 417.
  server.on('checkExpectation', handle);
  // No tunnels: without a listener node would drop the connection without an answer.
  server.on('connect', (_req: http.IncomingMessage, socket: Duplex) =>
    writeProblem(socket, 'method_not_allowed', 'CONNECT is not supported.'),
  );
  return server;
}
