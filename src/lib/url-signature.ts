// Signed recipe URLs: the one definition of what is signed and how, used by the server's
// verification (src/services/url-signing-keys.service.ts), the sign endpoint and the CLI.
// clients/sign-render-url.ts is the same algorithm for customers (WebCrypto, no imports), checked
// against the same test vectors (docs/signed-url-test-vectors.json).
//
//   signingKey = SHA-256(secret)                        (32 bytes; the service stores only this)
//   message    = the request target, raw (path and query exactly as sent, not decoded), up to but
//                not including the `&sig=` that introduces the signature, which must be the last
//                parameter, e.g. /v1/render/<hash>.png?r=eyJ…&w=600&kid=usk_…&exp=1790000000
//   sig        = base64url(HMAC-SHA256(signingKey, message)), no padding
//
// Scheme and host are not signed: a CDN or proxy in front changes them.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import querystring from 'node:querystring';

/** Query parameters of the signed form. */
export const SIGNATURE_PARAM = 'sig';
export const KEY_ID_PARAM = 'kid';
export const EXPIRES_PARAM = 'exp';

/** The HMAC key of a signing secret: its SHA-256 (what the service stores instead of the secret). */
export function signingKeyOf(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** base64url (no padding) HMAC-SHA256 of `message` keyed with `key`. */
export function sign(key: Buffer, message: string): string {
  return createHmac('sha256', key).update(message, 'utf8').digest('base64url');
}

/** Why a request target is not a well-formed signed target. */
export type SignedTargetProblem =
  'signature_not_last' | 'duplicate_parameter' | 'missing_key_id' | 'malformed_expiry' | 'unsigned_key_id' | 'malformed_signature';

export type SignedTarget =
  /** No `sig` parameter (and no `kid` or `exp`): not a signed request. */
  | { signed: false }
  | { signed: true; ok: true; message: string; signature: string; keyId: string; expiresAt: number | null }
  | { signed: true; ok: false; problem: SignedTargetProblem };

const BASE64URL_HMAC = /^[A-Za-z0-9_-]{43}$/;

/**
 * Splits a raw request target into the signed message and the signature. A target that carries
 * `kid` or `exp` without `sig` is a signed target missing its signature (`unsigned_key_id`): those
 * parameters mean nothing on their own. Parameter names are compared decoded (as the server reads
 * them), so `%73ig` counts as `sig`.
 */
export function canonicalSignedTarget(rawTarget: string): SignedTarget {
  const q = rawTarget.indexOf('?');
  const parts = q < 0 ? [] : rawTarget.slice(q + 1).split('&');
  const names = parts.map((part) => {
    const eq = part.indexOf('=');
    return querystring.unescape(eq < 0 ? part : part.slice(0, eq));
  });
  const sigAt = names.indexOf(SIGNATURE_PARAM);
  if (sigAt < 0) {
    return names.includes(KEY_ID_PARAM) || names.includes(EXPIRES_PARAM)
      ? { signed: true, ok: false, problem: 'unsigned_key_id' }
      : { signed: false };
  }
  if (new Set(names).size !== names.length) return { signed: true, ok: false, problem: 'duplicate_parameter' };
  if (sigAt !== parts.length - 1) return { signed: true, ok: false, problem: 'signature_not_last' };
  const params = querystring.parse(rawTarget.slice(q + 1));
  const keyId = params[KEY_ID_PARAM];
  if (typeof keyId !== 'string' || keyId === '') return { signed: true, ok: false, problem: 'missing_key_id' };
  const exp = params[EXPIRES_PARAM];
  if (exp !== undefined && (typeof exp !== 'string' || !/^\d{1,12}$/.test(exp)))
    return { signed: true, ok: false, problem: 'malformed_expiry' };
  const signature = params[SIGNATURE_PARAM];
  if (typeof signature !== 'string' || !BASE64URL_HMAC.test(signature)) return { signed: true, ok: false, problem: 'malformed_signature' };
  // Everything before the `&sig=` (or `?sig=` can't happen: kid comes before it).
  const sigPart = parts[sigAt]!;
  const message = rawTarget.slice(0, rawTarget.length - sigPart.length - 1);
  return { signed: true, ok: true, message, signature, keyId, expiresAt: exp === undefined ? null : Number(exp) };
}

/**
 * True when `signature` is the HMAC of `message` under `key`, compared in constant time. The text is
 * compared, not the decoded bytes: 43 base64url characters carry 2 spare bits, so decoding would
 * accept four spellings of one signature.
 */
export function verify(key: Buffer, message: string, signature: string): boolean {
  const expected = Buffer.from(sign(key, message), 'ascii');
  const given = Buffer.from(signature, 'ascii');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Appends `kid`, `exp` (when given) and `sig` to an unsigned target (a path with its query, e.g.
 * `/v1/render/<hash>?r=…&w=600`): the signed target.
 */
export function signTarget(key: Buffer, unsignedTarget: string, keyId: string, expiresAt: number | null): string {
  const separator = unsignedTarget.includes('?') ? '&' : '?';
  const message = `${unsignedTarget}${separator}${KEY_ID_PARAM}=${encodeURIComponent(keyId)}${expiresAt === null ? '' : `&${EXPIRES_PARAM}=${expiresAt}`}`;
  return `${message}&${SIGNATURE_PARAM}=${sign(key, message)}`;
}
