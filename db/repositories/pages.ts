// One page of a workspace's rows, newest first, by keyset: `before` is the (created_at, id) of the
// previous page's last row, so a page never skips or repeats a row written meanwhile.
import type { Knex } from 'knex';

export interface PageOptions {
  limit: number;
  before?: { createdAt: number; id: string };
}

export function newestFirstPage<Q extends Knex.QueryBuilder>(q: Q, options: PageOptions): Q {
  if (options.before) {
    const { createdAt, id } = options.before;
    q.andWhere((w) => w.where('created_at', '<', createdAt).orWhere((x) => x.where('created_at', '=', createdAt).andWhere('id', '<', id)));
  }
  return q
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(options.limit) as Q;
}
