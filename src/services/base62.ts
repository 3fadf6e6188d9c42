import { randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` random base62 characters: one "word" (double-click selects it all) for key secrets and ids. */
export function randomBase62(length: number): string {
  let body = '';
  for (let i = 0; i < length; i++) body += BASE62[randomInt(62)];
  return body;
}
