// Sends arbitrary bytes to a listening server over a plain TCP socket and reads one HTTP response,
// so requests that node's own client would refuse to build (bad bytes in the request line or the
// headers, lying Content-Length, broken chunking) reach the server's HTTP parser as they are.
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function parseHead(head: string): { status: number; headers: Record<string, string> } {
  const [statusLine, ...lines] = head.split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
  if (!match) throw new Error(`not an HTTP response: ${JSON.stringify(statusLine)}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i <= 0) continue;
    const name = line.slice(0, i).trim().toLowerCase();
    const value = line.slice(i + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { status: Number(match[1]), headers };
}

/** Decodes a complete chunked body, or returns undefined while it is incomplete. */
function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', at);
    if (eol < 0) return undefined;
    const size = parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (Number.isNaN(size)) throw new Error('bad chunk size in the response');
    if (size === 0) return Buffer.concat(parts);
    if (data.length < eol + 2 + size + 2) return undefined;
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/** Writes `bytes`, resolves with the first final (non-1xx) response. Event streams resolve at their headers. */
export function sendRaw(port: number, bytes: Buffer, timeoutMs: number, options: RawOptions = {}): Promise<RawResponse> {
  const { socket, response } = openRaw(port, timeoutMs, options);
  socket.write(bytes);
  return response.finally(() => socket.destroy());
}

/** A connection to write to at will (e.g. a body a byte at a time) and its first final response. */
export interface RawOptions {
  /** The request is a HEAD: the response has headers only, whatever its Content-Length says. */
  head?: boolean;
}

export function openRaw(port: number, timeoutMs: number, options: RawOptions = {}): { socket: net.Socket; response: Promise<RawResponse> } {
  const socket = net.connect(port, '127.0.0.1');
  const response = new Promise<RawResponse>((resolve, reject) => {
    let data = Buffer.alloc(0);
    let settled = false;
    const finish = (err: Error | undefined, res?: RawResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(res!);
    };
    const timer = setTimeout(
      () => finish(new Error(`no complete response within ${timeoutMs} ms (got ${JSON.stringify(data.toString('latin1').slice(0, 200))})`)),
      timeoutMs,
    );
    // Returns a response once one is complete; `ended` when the server closed the connection.
    const tryParse = (ended: boolean): RawResponse | undefined => {
      for (;;) {
        const end = data.indexOf('\r\n\r\n');
        if (end < 0) return undefined;
        const head = parseHead(data.subarray(0, end).toString('latin1'));
        const rest = data.subarray(end + 4);
        if (head.status >= 100 && head.status < 200) {
          data = rest;
          continue;
        }
        if (options.head || /text\/event-stream/.test(head.headers['content-type'] ?? '')) return { ...head, body: Buffer.alloc(0) };
        if (head.headers['transfer-encoding']?.includes('chunked')) {
          const body = dechunk(rest);
          return body ? { ...head, body } : undefined;
        }
        if (head.headers['content-length'] !== undefined) {
          const length = Number(head.headers['content-length']);
          return rest.length >= length ? { ...head, body: rest.subarray(0, length) } : undefined;
        }
        return ended || head.status === 204 || head.status === 304 ? { ...head, body: rest } : undefined;
      }
    };
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      try {
        const res = tryParse(false);
        if (res) finish(undefined, res);
      } catch (err) {
        finish(err as Error);
      }
    });
    const onEnd = (cause?: Error) => {
      try {
        const res = tryParse(true);
        if (res) return finish(undefined, res);
      } catch (err) {
        return finish(err as Error);
      }
      finish(
        new Error(
          `the connection closed without a complete response${cause ? ` (${cause.message})` : ''}: ${JSON.stringify(data.toString('latin1').slice(0, 200))}`,
        ),
      );
    };
    socket.on('end', () => onEnd());
    socket.on('error', (err) => onEnd(err));
    socket.on('close', () => onEnd());
  });
  return { socket, response };
}
