// The HTTP server: where it listens, the origins browsers may call it from, which proxies to believe,
// the bounds of an incoming request, the lean hit path, the revision it reports.
import { isIP } from 'node:net';
import { isLoopbackHost, isLoopbackUrl } from './addresses.ts';
import type { EnvReader } from './env-reader.ts';

export const DEFAULT_PORT = 8080;
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

export interface ServerConfig {
  readonly port: number;
  readonly host: string;
  /**
   * The local gateway vouches for same-origin browser requests (local mode, loopback HOST only: bound
   * to another interface it would hand the local workspace to the network, so it stays off).
   */
  readonly localGateway: boolean;
  readonly appOrigin: string;
  readonly allowedOrigins: readonly string[];
  /**
   * Which proxies in front of the service to believe about the client address (X-Forwarded-For):
   * false (none: the peer is the client), a hop count, or addresses/CIDRs (express's `trust proxy`).
   */
  readonly trustProxy: false | number | readonly string[];
  /** Largest accepted request body, in bytes. */
  readonly bodyLimitBytes: number;
  /** Deadlines of an incoming request: its headers, then its body (408 request_timeout past either). */
  readonly requestTimeouts: { readonly headersMs: number; readonly bodyMs: number };
  /** Recipe URLs held in memory are answered in front of express (src/http/lean-hit.path.ts); LEAN_HIT_PATH=0 turns it off. */
  readonly leanHitPath: boolean;
  readonly revision: string | undefined;
}

export function parseServer(read: EnvReader, localMode: boolean): ServerConfig {
  const { str, int, bool, list, problems } = read;
  const port = int('PORT', DEFAULT_PORT, 0, 65535);
  const host = str('HOST') ?? '127.0.0.1';
  if (host !== 'localhost' && isIP(host) === 0 && !/^[a-z0-9.-]+$/i.test(host))
    problems.push(`HOST must be an IP address or host name (got "${host}")`);

  const appOriginRaw = str('APP_ORIGIN');
  const appOrigin =
    appOriginRaw !== undefined
      ? (originOf('APP_ORIGIN', appOriginRaw, problems) ?? '')
      : `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (!localMode && appOriginRaw === undefined)
    problems.push('APP_ORIGIN is required in hosted mode (OAuth callbacks are restricted to it)');
  // Browsers keep Secure cookies for http://localhost, so a trial on one machine may use plain http.
  const appOriginIsLoopback = appOrigin !== '' && isLoopbackUrl(appOrigin);
  if (!localMode && appOrigin.startsWith('http:') && !appOriginIsLoopback)
    problems.push(
      'APP_ORIGIN must be https in hosted mode (session cookies are Secure); plain http only for a loopback origin such as http://localhost:8080',
    );
  const allowedOrigins = [
    ...new Set(
      [appOrigin, ...list('ALLOWED_ORIGINS').map((o) => originOf('ALLOWED_ORIGINS', o, problems))].filter((o): o is string => !!o),
    ),
  ];

  return {
    port,
    host,
    localGateway: localMode && isLoopbackHost(host),
    appOrigin,
    allowedOrigins,
    trustProxy: parseTrustProxy(read),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', DEFAULT_BODY_LIMIT_BYTES, 1024, 64 * 1024 * 1024),
    requestTimeouts: {
      headersMs: int('REQUEST_HEADERS_TIMEOUT_MS', 10_000, 10, 600_000),
      bodyMs: int('REQUEST_BODY_TIMEOUT_MS', 30_000, 10, 600_000),
    },
    leanHitPath: bool('LEAN_HIT_PATH') ?? true,
    revision: str('REVISION'),
  };
}

/** An origin such as https://app.example.com (a trailing slash dropped); undefined, with a problem, otherwise. */
function originOf(name: string, value: string, problems: string[]): string | undefined {
  if (value === '*') {
    problems.push(`${name} must list explicit origins; "*" is not allowed`);
    return undefined;
  }
  try {
    const u = new URL(value);
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.origin !== value.replace(/\/$/, '')) throw new Error('not an origin');
    return u.origin;
  } catch {
    problems.push(`${name} entries must be origins like https://app.example.com (got "${value}")`);
    return undefined;
  }
}

function parseTrustProxy({ str, problems }: EnvReader): ServerConfig['trustProxy'] {
  const trustRaw = str('TRUST_PROXY');
  if (trustRaw === undefined || /^(0|false|no|off)$/i.test(trustRaw)) return false;
  if (/^\d+$/.test(trustRaw)) return Number(trustRaw);
  const entries = trustRaw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.filter((e) => !['loopback', 'linklocal', 'uniquelocal'].includes(e) && isIP(e.split('/')[0]!) === 0);
  if (bad.length > 0 || entries.length === 0) {
    problems.push(
      `TRUST_PROXY must be 0, a hop count, or a comma-separated list of IP addresses, CIDRs, loopback, linklocal or uniquelocal (got "${trustRaw}")`,
    );
    return false;
  }
  return entries;
}
