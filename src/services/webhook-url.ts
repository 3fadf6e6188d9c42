// Where outbound webhooks may go. Two layers:
//  - at submission, assertWebhookUrlAllowed: HTTPS, no credentials, a host in WEBHOOK_ALLOWED_HOSTS;
//  - at delivery, addressBlockReason on every address the host resolves to: only public unicast
//    addresses are reachable (no loopback, private, link-local, CGNAT, multicast, documentation…),
//    and the connection goes to exactly the address that was checked (see webhook-delivery.service.ts).
import { BlockList, isIP } from 'node:net';
import type { Config } from '../config/config.ts';
import { ProblemError } from '../errors/problem.ts';

export type WebhookUrlConfig = Pick<Config, 'webhookAllowedHosts' | 'webhookAllowLoopback'>;

/** The problem a refused webhookUrl answers (400 webhook_url_not_allowed, naming body.webhookUrl). */
function refused(detail: string): ProblemError {
  return new ProblemError('webhook_url_not_allowed', { detail, issues: [{ path: 'body.webhookUrl', message: detail }] });
}

/** The host name of a URL, lower case, without IPv6 brackets or a trailing dot. */
export function normalizedHost(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** True when `host` is listed: exactly, or under a `*.example.com` entry (any depth; not the apex). */
export function isHostAllowed(host: string, allowedHosts: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return allowedHosts.some((entry) => {
    const e = entry.toLowerCase().replace(/\.$/, '');
    if (e.startsWith('*.')) return h.endsWith(e.slice(1)) && h.length > e.length - 1;
    return h === e;
  });
}

/**
 * Checks a submitted webhook URL and returns it parsed; throws 400 webhook_url_not_allowed otherwise.
 * Called at submission (POST /v1/generate/{slug}, POST /v1/jobs) and again before every delivery.
 */
export function assertWebhookUrlAllowed(url: string, config: WebhookUrlConfig): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refused('webhookUrl is not a valid URL.');
  }
  if (parsed.protocol !== 'https:') throw refused('webhookUrl must use https.');
  if (parsed.username !== '' || parsed.password !== '') throw refused('webhookUrl must not contain credentials.');
  const host = normalizedHost(parsed);
  if (config.webhookAllowedHosts.length === 0) throw refused('Webhooks are not enabled on this service (WEBHOOK_ALLOWED_HOSTS is empty).');
  if (!isHostAllowed(host, config.webhookAllowedHosts)) throw refused(`The host ${host} is not in WEBHOOK_ALLOWED_HOSTS.`);
  // A listed IP literal must still be a reachable public address.
  if (isIP(host) !== 0) {
    const reason = addressBlockReason(host, config.webhookAllowLoopback);
    if (reason) throw refused(`webhookUrl points to a ${reason} address.`);
  }
  return parsed;
}

// IANA special-purpose IPv4 ranges (RFC 6890 and successors), named for the refusal message.
const IPV4_SPECIAL: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignment'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.31.196.0', 24, 'AS112'],
  ['192.52.193.0', 24, 'AMT'],
  ['192.88.99.0', 24, 'deprecated 6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['192.175.48.0', 24, 'AS112'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // includes the broadcast address 255.255.255.255
];

// Only global unicast (2000::/3) is reachable; inside it, these special ranges are not.
// Everything outside 2000::/3 — ::, ::1, IPv4-compatible/-translated forms, 64:ff9b::/96 (NAT64),
// 100::/64 (discard), fc00::/7 (unique local), fe80::/10 (link-local), ff00::/8 (multicast) — is refused too.
const IPV6_SPECIAL: ReadonlyArray<readonly [string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
  ['64:ff9b::', 96, 'NAT64'],
  ['64:ff9b:1::', 48, 'NAT64'],
  ['100::', 64, 'discard-only'],
  ['2001::', 23, 'IETF protocol assignment'], // Teredo, benchmarking, ORCHID…
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4'],
  ['2620:4f:8000::', 48, 'AS112'],
  ['3fff::', 20, 'documentation'],
];

function blockList(ranges: ReadonlyArray<readonly [string, number, string]>, type: 'ipv4' | 'ipv6'): Array<[BlockList, string]> {
  return ranges.map(([net, prefix, name]) => {
    const list = new BlockList();
    list.addSubnet(net, prefix, type);
    return [list, name];
  });
}
const V4 = blockList(IPV4_SPECIAL, 'ipv4');
const V6 = blockList(IPV6_SPECIAL, 'ipv6');
const V6_GLOBAL_UNICAST = new BlockList();
V6_GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');

/**
 * The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d, in any spelling), else undefined.
 * The WHATWG URL parser gives the canonical IPv6 form, so one pattern covers every spelling.
 */
export function unmapIPv4(address: string): string | undefined {
  if (isIP(address) !== 6) return undefined;
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const m = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!m) return undefined;
  const hi = parseInt(m[1]!, 16);
  const lo = parseInt(m[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/**
 * Why an address may not receive a webhook (e.g. "private", "loopback"), or undefined when it is a
 * public unicast address. IPv4-mapped IPv6 addresses are judged by their IPv4 address. With
 * `allowLoopback` (tests only: WEBHOOK_ALLOW_LOOPBACK), 127.0.0.0/8 and ::1 pass.
 */
export function addressBlockReason(address: string, allowLoopback = false): string | undefined {
  // A zone id (fe80::1%eth0) only exists on link-local addresses.
  if (address.includes('%')) return 'link-local';
  const mapped = unmapIPv4(address);
  const addr = mapped ?? address;
  const family = isIP(addr);
  if (family === 0) return 'invalid';
  if (family === 4) {
    for (const [list, name] of V4) {
      if (list.check(addr, 'ipv4')) return allowLoopback && name === 'loopback' ? undefined : name;
    }
    return undefined;
  }
  for (const [list, name] of V6) {
    if (list.check(addr, 'ipv6')) return allowLoopback && name === 'loopback' ? undefined : name;
  }
  return V6_GLOBAL_UNICAST.check(addr, 'ipv6') ? undefined : 'special-purpose';
}
