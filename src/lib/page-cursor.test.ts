import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProblemError } from '../errors/problem.ts';
import { decodeCursor, pageOf } from './page-cursor.ts';

const rows = [
  { createdAt: 3000, id: 'job_c' },
  { createdAt: 2000, id: 'job_b' },
  { createdAt: 1000, id: 'job_a' },
];

test('a page of limit + 1 rows has a next cursor naming its last row; the last page has none', () => {
  const first = pageOf(rows, 2);
  assert.deepEqual(first.page, rows.slice(0, 2));
  assert.deepEqual(decodeCursor(first.next), { createdAt: 2000, id: 'job_b' });
  assert.deepEqual(pageOf(rows.slice(2), 2), { page: rows.slice(2) });
  assert.deepEqual(pageOf([], 2), { page: [] });
});

test('no cursor is the first page; a cursor that is not ours is 400 naming query.cursor', () => {
  assert.equal(decodeCursor(undefined), undefined);
  assert.equal(decodeCursor(''), undefined);
  for (const bad of ['nonsense', Buffer.from('12:').toString('base64url'), Buffer.from('x:job_a').toString('base64url')]) {
    assert.throws(
      () => decodeCursor(bad),
      (e: unknown) => e instanceof ProblemError && e.code === 'validation_failed' && e.issues?.[0]?.path === 'query.cursor',
    );
  }
});
