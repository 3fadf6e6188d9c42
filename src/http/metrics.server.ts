// The Prometheus scrape endpoint: its own listener (METRICS_PORT), loopback by default, so metrics
// never share the public API's port; METRICS_TOKEN, when set, is required as a bearer token (and
// config refuses a non-loopback METRICS_HOST without one).
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { Config } from '../config/config.ts';
import type { Metrics } from '../lib/metrics.ts';
import { bearerToken } from '../lib/bearer.ts';
import { sha256Hex } from '../lib/hashing.ts';

type MetricsSettings = NonNullable<Config['metrics']>;

function authorized(header: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const given = bearerToken(header) ?? '';
  // Compared as digests: equal lengths, no timing hint.
  return timingSafeEqual(Buffer.from(sha256Hex(given), 'hex'), Buffer.from(sha256Hex(token), 'hex'));
}

export function createMetricsServer(metrics: Metrics, settings: Pick<MetricsSettings, 'token'>): http.Server {
  return http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: GET /metrics\n');
      return;
    }
    if (!authorized(req.headers.authorization, settings.token)) {
      res.writeHead(401, { 'Content-Type': 'text/plain', 'WWW-Authenticate': 'Bearer realm="metrics"' }).end('Unauthorized\n');
      return;
    }
    metrics.scrape().then(
      ({ body, contentType }) => res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' }).end(body),
      () => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Metrics could not be collected\n'),
    );
  });
}

/** Listens on settings.host:port; resolves with the server once it listens. */
export async function startMetricsServer(metrics: Metrics, settings: MetricsSettings): Promise<http.Server> {
  const server = createMetricsServer(metrics, settings).listen(settings.port, settings.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return server;
}
