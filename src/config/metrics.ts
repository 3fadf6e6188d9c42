// The Prometheus scrape listener: off unless METRICS_PORT is set; off this machine only with a token.
import { BEARER_TOKEN } from '../lib/bearer.ts';
import { isLoopbackHost } from './addresses.ts';
import type { EnvReader } from './env-reader.ts';

export interface MetricsConfig {
  /** The Prometheus scrape listener (METRICS_PORT, METRICS_HOST, METRICS_TOKEN); null when off (the default). */
  readonly metrics: { readonly port: number; readonly host: string; readonly token: string | undefined } | null;
}

export function parseMetrics({ str, int, problems }: EnvReader): MetricsConfig {
  const metricsPort = int('METRICS_PORT', 0, 0, 65_535);
  const metricsHost = str('METRICS_HOST') ?? '127.0.0.1';
  const metricsToken = str('METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 16) problems.push('METRICS_TOKEN must be at least 16 characters');
  if (metricsToken !== undefined && !BEARER_TOKEN.test(metricsToken))
    problems.push('METRICS_TOKEN may hold only letters, digits and - . _ ~ + / (then = padding): it is sent as a bearer token');
  if (metricsPort > 0 && metricsToken === undefined && !isLoopbackHost(metricsHost))
    problems.push(`METRICS_TOKEN is required when METRICS_HOST is not a loopback address (got "${metricsHost}")`);
  return { metrics: metricsPort > 0 ? { port: metricsPort, host: metricsHost, token: metricsToken } : null };
}
