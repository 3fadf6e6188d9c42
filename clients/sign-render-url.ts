// Signs a render-service recipe URL without calling the service. Copy this file: it has no imports
// and runs wherever WebCrypto does (browsers, Deno, Bun, Node ≥ 20, edge workers).
//
//   key = SHA-256(secret)                      (32 bytes; the secret is `svc_sign_…`)
//   sig = base64url(HMAC-SHA256(key, target))  (no padding)
//
// `target` is the URL's path and query exactly as it will be sent, ending with `kid` and (optional)
// `exp`; `sig` is appended last. Scheme and host are not signed. A signed URL has one spelling, the
// service's: its path and `name=value` parameters in letters, digits and `-._~`, nothing
// percent-encoded (the service refuses any other spelling with 401), so a target written otherwise
// is refused here. See docs/embedding.md.

export interface SignRenderUrlOptions {
  /** The service's public base, e.g. https://render.example.com (no trailing slash needed). */
  baseUrl: string;
  /** `/v1/render/<hash>?r=<encoded recipe>` (or `<hash>.png`), optionally with `format`, `w`, `h`, `pr`. */
  target: string;
  /** The URL signing key's id, `usk_…`. */
  keyId: string;
  /** The key's secret, `svc_sign_…` (keep it server-side). */
  secret: string;
  /** When the URL expires, unix seconds; omit for a URL that does not expire. */
  expiresAt?: number;
}

const encoder = new TextEncoder();
/** The one spelling the service takes: RFC 3986 unreserved characters, nothing percent-encoded. */
const CANONICAL = /^\/[\w.~/-]*\?[\w.~-]+=[\w.~-]*(?:&[\w.~-]+=[\w.~-]*)*$/;

function base64url(bytes: ArrayBuffer): string {
  let binary = '';
  for (const b of new Uint8Array(bytes)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The signed absolute URL. */
export async function signRenderUrl(options: SignRenderUrlOptions): Promise<string> {
  const { subtle } = globalThis.crypto;
  const keyBytes = await subtle.digest('SHA-256', encoder.encode(options.secret));
  const key = await subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const separator = options.target.includes('?') ? '&' : '?';
  const expiry = options.expiresAt === undefined ? '' : `&exp=${Math.floor(options.expiresAt)}`;
  const message = `${options.target}${separator}kid=${options.keyId}${expiry}`;
  const names = message
    .slice(message.indexOf('?') + 1)
    .split('&')
    .map((p) => p.slice(0, p.indexOf('=')));
  if (!CANONICAL.test(message) || names.filter((n) => n === 'kid' || n === 'exp').length !== (expiry ? 2 : 1) || names.includes('sig'))
    throw new Error(
      `signRenderUrl: write the target as the service does — /v1/render/<hash>[.ext]?r=…, name=value parameters in letters, digits and -._~, nothing percent-encoded, no kid, exp or sig — and a keyId usk_…: ${message}`,
    );
  const signature = base64url(await subtle.sign('HMAC', key, encoder.encode(message)));
  return `${options.baseUrl.replace(/\/+$/, '')}${message}&sig=${signature}`;
}
