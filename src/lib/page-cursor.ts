// The cursor of a newest-first list (GET /v1/jobs, /v1/assets, /v1/templates): the last row's
// creation time and id, base64url-encoded, handed out in `Link: <…>; rel="next"` and taken back as
// `?cursor=`. It is opaque to clients; a cursor that is not one of ours is 400 naming query.cursor.
import { ProblemError } from '../errors/problem.ts';

/** Where a page starts: rows older than this one (by creation time, then id). */
export interface PagePosition {
  createdAt: number;
  id: string;
}

const CURSOR = /^(\d{1,15}):([\w-]{1,80})$/;

/** The position a `?cursor=` names, or undefined for the first page. */
export function decodeCursor(cursor: string | undefined): PagePosition | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const m = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m)
    throw new ProblemError('validation_failed', {
      detail: 'The cursor is not valid.',
      issues: [{ path: 'query.cursor', message: 'is not a cursor from a Link header', keyword: 'format' }],
    });
  return { createdAt: Number(m[1]), id: m[2]! };
}

/**
 * One page of `limit` rows from a query that asked for limit + 1 (newestFirstPage), and the cursor
 * of the next page when there is one.
 */
export function pageOf<T extends PagePosition>(rows: T[], limit: number): { page: T[]; next?: string } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  if (rows.length <= limit || !last) return { page };
  return { page, next: Buffer.from(`${last.createdAt}:${last.id}`).toString('base64url') };
}
