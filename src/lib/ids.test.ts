import assert from 'node:assert/strict';
import test from 'node:test';
import { newId, randomBase62 } from './ids.ts';

test('newId is the prefix, an underscore and 16 base64url characters, different each call', () => {
  const a = newId('job');
  assert.match(a, /^job_[A-Za-z0-9_-]{16}$/);
  assert.notEqual(newId('job'), a);
});

test('randomBase62 gives exactly the asked length from the 62-character alphabet', () => {
  for (const length of [0, 1, 20, 32]) assert.match(randomBase62(length), new RegExp(`^[0-9A-Za-z]{${length}}$`));
  // Over many characters every class shows up: the alphabet is really all 62 (not one class twice).
  const sample = randomBase62(4000);
  for (const cls of [/[0-9]/, /[A-Z]/, /[a-z]/]) assert.match(sample, cls);
});
