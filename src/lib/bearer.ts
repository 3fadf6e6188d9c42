// The one reading of `Authorization: Bearer <token>`: the API's keys and the metrics listener's
// token alike. Token syntax per RFC 6750 (b64token); the scheme name is case-insensitive (RFC 9110 §11.1).

/** What a bearer token may contain (also what a configured token, METRICS_TOKEN, must be). */
export const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/** The token of an `Authorization: Bearer <token>` header, or undefined when it is not one. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  return typeof header === 'string' ? BEARER.exec(header.trim())?.[1] : undefined;
}
