// The outbound HTTPS client webhooks are sent with, safe against SSRF (server-side request forgery):
//  - it resolves the host once (injectable `lookup`, default dns.lookup with all:true) and refuses
//    the request when ANY address is not public unicast (addressBlockReason in webhook-url.ts);
//  - it connects to exactly the address it checked: the request's `lookup` is pinned to it, so there
//    is no second resolution and no DNS-rebinding window; TLS still verifies the certificate against
//    the host name (SNI and Host stay the URL's);
//  - the whole response must arrive within one total deadline (AbortController + timer, not an idle
//    timeout, so a receiver trickling bytes is cut off too); redirects are never followed.
import { promises as dns } from 'node:dns';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { isIP, type LookupFunction as NetLookupFunction } from 'node:net';
import { raceSignal } from '../lib/race-signal.ts';
import type { WebhookHttpClient, WebhookPostOutcome } from '../services/webhook-delivery.service.ts';
import { addressBlockReason, normalizedHost, unmapIPv4 } from '../services/webhook-url.ts';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address (dns.promises.lookup with all:true has this shape). */
export type WebhookLookup = (hostname: string, options: { all: true }) => Promise<ResolvedAddress[]>;

export interface PinnedHttpsClientOptions {
  /** Loopback receivers are allowed (WEBHOOK_ALLOW_LOOPBACK, local mode only). */
  allowLoopback: boolean;
  /** Default: dns.lookup with all:true. Tests inject a resolver. */
  lookup?: WebhookLookup;
  /** Total deadline of one request: resolution, connection, TLS, request and the whole response. Default 5000. */
  timeoutMs?: number;
  /**
   * Extra CA trusted for loopback receivers only (tests' self-signed receiver). Refused unless
   * `allowLoopback` is on.
   */
  loopbackCa?: string | Buffer;
}

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5_000;
const MAX_RESPONSE_BYTES = 64 * 1024;

const defaultLookup: WebhookLookup = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

class DeadlineExceeded extends Error {
  constructor(ms: number) {
    super(`no complete response within the ${ms} ms deadline`);
  }
}

/** A net/tls lookup that answers with the address checked before, whatever the host name. */
function pinnedLookup(target: ResolvedAddress): NetLookupFunction {
  return ((_hostname: string, options: unknown, callback: unknown) => {
    const cb = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    if (all) cb(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  }) as NetLookupFunction;
}

const isLoopbackAddress = (address: string) => address === '::1' || /^127\./.test(address);

export class PinnedHttpsClient implements WebhookHttpClient {
  private readonly lookup: WebhookLookup;
  private readonly timeoutMs: number;

  constructor(private readonly options: PinnedHttpsClientOptions) {
    if (options.loopbackCa !== undefined && !options.allowLoopback) {
      throw new Error('loopbackCa is only accepted with WEBHOOK_ALLOW_LOOPBACK (tests in local mode)');
    }
    this.lookup = options.lookup ?? defaultLookup;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  }

  async post(url: URL, body: string, headers: () => Record<string, string>): Promise<WebhookPostOutcome> {
    const host = normalizedHost(url);
    const allowLoopback = this.options.allowLoopback;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DeadlineExceeded(this.timeoutMs)), this.timeoutMs);
    try {
      let target: ResolvedAddress;
      if (isIP(host) !== 0) {
        target = { address: host, family: isIP(host) };
      } else {
        let addresses: ResolvedAddress[];
        try {
          addresses = await raceSignal(this.lookup(host, { all: true }), controller.signal);
        } catch (err) {
          if (err instanceof DeadlineExceeded) throw err;
          return {
            statusCode: null,
            error: `could not resolve ${host}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
            retryable: true,
          };
        }
        if (addresses.length === 0) return { statusCode: null, error: `${host} has no address`, retryable: true };
        // Every address must be public: a host that also resolves to a private one is refused whole.
        for (const a of addresses) {
          const reason = addressBlockReason(a.address, allowLoopback);
          if (reason)
            return { statusCode: null, error: `${host} resolves to a ${reason} address (${a.address}); not delivered`, retryable: false };
        }
        target = addresses[0]!;
      }
      const mapped = unmapIPv4(target.address);
      if (mapped) target = { address: mapped, family: 4 };
      const blocked = addressBlockReason(target.address, allowLoopback);
      if (blocked) return { statusCode: null, error: `${host} is a ${blocked} address; not delivered`, retryable: false };
      const statusCode = await this.send(url, host, target, { ...headers(), host: url.host }, body, controller.signal);
      return { statusCode };
    } catch (err) {
      if (err instanceof DeadlineExceeded || controller.signal.aborted)
        return { statusCode: null, error: (controller.signal.reason as Error).message, retryable: true };
      const e = err as NodeJS.ErrnoException;
      return { statusCode: null, error: e.code ? `${e.code}: ${e.message}` : String(e.message ?? e), retryable: true };
    } finally {
      clearTimeout(timer);
    }
  }

  /** One POST to the pinned address; resolves with the status once the whole response arrived. */
  private send(
    url: URL,
    host: string,
    target: ResolvedAddress,
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal,
  ): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const useLoopbackCa = this.options.loopbackCa !== undefined && this.options.allowLoopback && isLoopbackAddress(target.address);
      const req = https.request({
        method: 'POST',
        // The URL's host name (not the address) so TLS verifies the certificate against it.
        host: isIP(host) !== 0 ? target.address : host,
        port: url.port === '' ? 443 : Number(url.port),
        path: `${url.pathname}${url.search}`,
        headers,
        // Connect to exactly the checked address: no second resolution.
        lookup: pinnedLookup(target),
        family: target.family,
        servername: isIP(host) !== 0 ? undefined : host,
        agent: false,
        ...(useLoopbackCa ? { ca: this.options.loopbackCa } : {}),
      });
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        fn();
      };
      const onAbort = () => {
        req.destroy(signal.reason as Error);
        finish(() => reject(signal.reason));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      req.on('error', (err) => finish(() => reject(err)));
      req.on('response', (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          // Enough: the receiver has answered; the rest of a large body is not needed.
          if (received > MAX_RESPONSE_BYTES) {
            finish(() => resolve(status));
            req.destroy();
          }
        });
        res.on('end', () => finish(() => resolve(status)));
        res.on('error', (err) => finish(() => reject(err)));
        res.on('aborted', () => finish(() => reject(new Error('the receiver closed the connection mid-response'))));
      });
      req.end(body);
    });
  }
}
