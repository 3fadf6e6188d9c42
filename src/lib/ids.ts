// Random identifiers. Ids carry a type prefix (`job_`, `res_`, `ws_`, …) so a stray one in a log or
// a support ticket says what it names.
import { randomBytes, randomInt } from 'node:crypto';

/** `<prefix>_` and 96 random bits in base64url (16 characters). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` uniformly random base62 characters: one "word" (double-click selects it all), no punctuation. */
export function randomBase62(length: number): string {
  let body = '';
  for (let i = 0; i < length; i++) body += BASE62[randomInt(62)];
  return body;
}
