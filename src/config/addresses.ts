// What several concerns' settings ask of a host or URL: whether it only reaches this machine, and
// whether it is secure enough to send secrets to.

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** True when the URL's host name or address only reaches this machine. */
export function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** A URL setting: https, or http to a loopback host (a local stand-in provider in tests). */
export function secureUrl(name: string, value: string, problems: string[]): string {
  try {
    const u = new URL(value);
    if (u.protocol === 'https:' || (u.protocol === 'http:' && isLoopbackHost(u.hostname))) return value.replace(/\/$/, '');
  } catch {
    // reported below
  }
  problems.push(`${name} must be an https URL (http only for a loopback host); got "${value}"`);
  return '';
}
