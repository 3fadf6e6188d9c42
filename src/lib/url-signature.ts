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
// Scheme and host are not signed: a CDN or proxy in front changes them. A signed URL has one
// spelling, the one the service writes: nothing percent-encoded anywhere in it, and `kid`, `exp`
// and `sig` last, in that order. Another spelling of the same URL (`%73ig=` for `sig=`, a character
// of the signature percent-encoded) would be another cache key reaching the origin, so it is refused.
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
  | 'not_canonical'
  | 'signature_not_last'
  | 'duplicate_parameter'
  | 'missing_key_id'
  | 'key_id_not_in_place'
  | 'malformed_expiry'
  | 'unsigned_key_id'
  | 'malformed_signature';

export type SignedTarget =
  /** No `sig` parameter (and no `kid` or `exp`): not a signed request. */
  | { signed: false }
  | { signed: true; ok: true; message: string; signature: string; keyId: string; expiresAt: number | null }
  | { signed: true; ok: false; problem: SignedTargetProblem };

const BASE64URL_HMAC = /^[A-Za-z0-9_-]{43}$/;
/**
 * The one spelling of a signed target, as the service writes it: a path and a query of `name=value`
 * parameters, every name and value in RFC 3986's unreserved characters (`[\w.~-]`: letters, digits,
 * `-`, `.`, `_`, `~`, which no URL parser, proxy or CDN decodes or re-encodes) — nothing
 * percent-encoded, no `+`, no empty or bare parameter. Every parameter renderRecipe takes (`r`,
 * `format`, `w`, `h`, `pr`, `kid`, `exp`, `sig`) is written so; any other spelling of the same URL
 * is another URL, refused.
 */
const CANONICAL_SIGNED_TARGET = /^\/[\w.~/-]*\?[\w.~-]+=[\w.~-]*(?:&[\w.~-]+=[\w.~-]*)*$/;

/** A parameter's name as the server's query parser (node:querystring, express's) reads it: `+` is a space, `%XX` decoded. */
const decodedName = (part: string) => {
  const eq = part.indexOf('=');
  return querystring.unescape((eq < 0 ? part : part.slice(0, eq)).replaceAll('+', ' '));
};

/**
 * Splits a raw request target into the signed message and the signature. A target is signed when
 * the server would read a `sig`, `kid` or `exp` parameter in it (names decoded, as its query parser
 * decodes them: `%73ig` is `sig`); a signed target is then taken only in its one spelling, the
 * service's, byte for byte (CANONICAL_SIGNED_TARGET: nothing percent-encoded), and must end with
 * `kid`, then `exp` if any, then `sig`, each once. `kid` or `exp` without `sig` is a signed target
 * missing its signature (`unsigned_key_id`): those parameters mean nothing on their own.
 */
export function canonicalSignedTarget(rawTarget: string): SignedTarget {
  const q = rawTarget.indexOf('?');
  const parts = q < 0 ? [] : rawTarget.slice(q + 1).split('&');
  const decoded = parts.map(decodedName);
  if (!decoded.includes(SIGNATURE_PARAM) && !decoded.includes(KEY_ID_PARAM) && !decoded.includes(EXPIRES_PARAM)) return { signed: false };
  const refused = (problem: SignedTargetProblem): SignedTarget => ({ signed: true, ok: false, problem });
  if (!CANONICAL_SIGNED_TARGET.test(rawTarget)) return refused('not_canonical');
  // Canonical: every part is `name=value` with nothing to decode, so the raw names are the server's.
  const names = parts.map((part) => part.slice(0, part.indexOf('=')));
  const values = parts.map((part) => part.slice(part.indexOf('=') + 1));
  const sigAt = names.indexOf(SIGNATURE_PARAM);
  if (sigAt < 0) return refused('unsigned_key_id');
  if (new Set(names).size !== names.length) return refused('duplicate_parameter');
  if (sigAt !== parts.length - 1) return refused('signature_not_last');
  const kidAt = names.indexOf(KEY_ID_PARAM);
  const expAt = names.indexOf(EXPIRES_PARAM);
  if (kidAt < 0 || values[kidAt] === '') return refused('missing_key_id');
  if (kidAt !== (expAt < 0 ? sigAt : expAt) - 1 || (expAt >= 0 && expAt !== sigAt - 1)) return refused('key_id_not_in_place');
  const exp = expAt < 0 ? undefined : values[expAt]!;
  if (exp !== undefined && !/^\d{1,12}$/.test(exp)) return refused('malformed_expiry');
  const signature = values[sigAt]!;
  if (!BASE64URL_HMAC.test(signature)) return refused('malformed_signature');
  // Everything before the `&sig=` (`?sig=` cannot be: kid comes before it).
  const message = rawTarget.slice(0, rawTarget.length - parts[sigAt]!.length - 1);
  return { signed: true, ok: true, message, signature, keyId: values[kidAt]!, expiresAt: exp === undefined ? null : Number(exp) };
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

/**
 * Signed bases (a recipe fixed but for its slots, whose URL a page completes with slot values):
 * their URL is `/v1/bases/<baseId>/<sig>.<ext>`, and `sig` is `sign(signingKey, baseMessage(…))`,
 * the same HMAC as a signed recipe URL's over a message of the same shape: the base's id and file
 * extension, the SHA-256 (hex) of its stored definition, and the signing key's id. The slot values
 * a page appends are not signed: the base's rules for each slot decide them.
 */
export function baseMessage(baseId: string, extension: string, definitionDigest: string, keyId: string): string {
  return `/v1/bases/${baseId}.${extension}?d=${definitionDigest}&${KEY_ID_PARAM}=${keyId}`;
}

/** The path of a base URL: `/v1/bases/<baseId>/<sig>.<ext>` (a query of slot values may follow). */
export const BASE_URL_PATH = /^\/v1\/bases\/([^/?]+)\/([^/?]+)(?:\?|$)/;
/** The last segment of a base URL's path: the signature and the extension of the format rendered. */
export const BASE_URL_FILE = /^([A-Za-z0-9_-]{43})\.([a-z]{3,4})$/;
