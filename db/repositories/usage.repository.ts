// Usage records and their summaries (by UTC hour, day or month, by generator, and grouped by the
// API key, the URL signing key, the generator or the operation), aggregated in SQL.
import type { Database } from '../database.ts';

export interface UsageRecord {
  id: string;
  /** How many identical renders the row stands for (UsageService combines them); credits, bytes and durationMs are their sums. */
  renders: number;
  workspaceId: string;
  keyId: string | null;
  /** How the render was authenticated (the principal's method); null for rows older than the column. */
  keyKind: 'api_key' | 'signed_url' | 'session' | 'local' | null;
  operation: string;
  generator: string;
  format: string;
  credits: number;
  bytes: number;
  durationMs: number;
  cache: 'HIT' | 'MISS' | 'COALESCED';
  createdAt: number;
}

export interface UsageTotalsRow {
  renders: number;
  credits: number;
  bytes: number;
  cacheHits: number;
}

export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const HOUR_MS = 3_600_000;

export type UsageGranularity = 'hour' | 'day' | 'month';
export type UsageGroupBy = 'apiKey' | 'signingKey' | 'generator' | 'operation';

/**
 * Each grouping as an SQL expression. Every row falls in exactly one group (a render without an API
 * key — a session's, the local gateway's, a signed URL's — is in the API-key grouping's null group),
 * so each grouping's groups add up to the totals.
 */
const GROUP_EXPRESSIONS: Record<UsageGroupBy, string> = {
  apiKey: "case when key_kind = 'api_key' then key_id end",
  signingKey: "case when key_kind = 'signed_url' then key_id end",
  generator: 'generator',
  operation: 'operation',
};

function toRow(r: UsageRecord) {
  return {
    id: r.id,
    renders: r.renders,
    workspace_id: r.workspaceId,
    key_id: r.keyId,
    key_kind: r.keyKind,
    operation: r.operation,
    generator: r.generator,
    format: r.format,
    credits: r.credits,
    bytes: r.bytes,
    duration_ms: Math.round(r.durationMs),
    cache: r.cache,
    day: dayOf(r.createdAt),
    created_at: r.createdAt,
  };
}

export class UsageRepository {
  constructor(private readonly db: Database) {}

  async insertMany(rows: UsageRecord[]): Promise<void> {
    // Chunks keep each statement under SQLite's bound-parameter limit. Rows keep their ids when a
    // write is tried again (UsageService), so a chunk that did land before a failure is not counted twice.
    for (let i = 0; i < rows.length; i += 50)
      await this.db('usage_records')
        .insert(rows.slice(i, i + 50).map(toRow))
        .onConflict('id')
        .ignore();
  }

  private totals(groupBy?: 'day' | 'generator') {
    const q = this.db('usage_records').select(
      this.db.raw('coalesce(sum(renders), 0) as renders'),
      this.db.raw('coalesce(sum(credits), 0) as credits'),
      this.db.raw('coalesce(sum(bytes), 0) as bytes'),
      // A coalesced request (it joined an identical render in flight) is served without rendering, like a hit.
      this.db.raw(`coalesce(sum(case when cache in ('HIT', 'COALESCED') then renders else 0 end), 0) as "cacheHits"`),
    );
    if (groupBy) q.select(groupBy).groupBy(groupBy).orderBy(groupBy);
    return q;
  }

  /**
   * Totals per hour (its start, ISO 8601 UTC) or per month (YYYY-MM) in the period; empty buckets are
   * left out, as byDay leaves out empty days.
   */
  async series(workspaceId: string, fromDay: string, toDay: string, granularity: 'hour' | 'month') {
    // Integer division on both engines (created_at is a BIGINT of epoch ms).
    const bucket = granularity === 'hour' ? `(created_at / ${HOUR_MS})` : 'substr(day, 1, 7)';
    const rows = await this.totals()
      .select(this.db.raw(`${bucket} as bucket`))
      .where({ workspace_id: workspaceId })
      .andWhere('day', '>=', fromDay)
      .andWhere('day', '<=', toDay)
      .groupByRaw(bucket)
      .orderByRaw(bucket);
    return rows.map((r: Record<string, unknown>) => ({
      period: granularity === 'hour' ? new Date(Number(r.bucket) * HOUR_MS).toISOString().replace('.000Z', 'Z') : String(r.bucket),
      ...this.num(r),
    }));
  }

  /** Totals per group of `groupBy` in the period, largest charge first; `key` null collects the rows outside every group. */
  async groups(workspaceId: string, fromDay: string, toDay: string, groupBy: UsageGroupBy) {
    const expression = GROUP_EXPRESSIONS[groupBy];
    const rows = await this.totals()
      .select(this.db.raw(`${expression} as group_key`))
      .where({ workspace_id: workspaceId })
      .andWhere('day', '>=', fromDay)
      .andWhere('day', '<=', toDay)
      .groupByRaw(expression);
    return rows
      .map((r: Record<string, unknown>) => ({ key: r.group_key === null ? null : String(r.group_key), ...this.num(r) }))
      .sort((a, b) => b.credits - a.credits || b.renders - a.renders || String(a.key).localeCompare(String(b.key)));
  }

  private num(row: Record<string, unknown>): UsageTotalsRow {
    return {
      renders: Number(row.renders),
      credits: Number(row.credits),
      bytes: Number(row.bytes),
      cacheHits: Number(row.cacheHits),
    };
  }

  async summary(workspaceId: string, fromDay: string, toDay: string) {
    const scope = (q: ReturnType<UsageRepository['totals']>) =>
      q.where({ workspace_id: workspaceId }).andWhere('day', '>=', fromDay).andWhere('day', '<=', toDay);
    const num = (row: Record<string, unknown>) => this.num(row);
    const [totals] = await scope(this.totals());
    const byDay = await scope(this.totals('day'));
    const byGenerator = await scope(this.totals('generator'));
    return {
      totals: num(totals ?? {}),
      byDay: byDay.map((r: Record<string, unknown>) => ({ date: String(r.day), ...num(r) })),
      byGenerator: byGenerator.map((r: Record<string, unknown>) => ({ slug: String(r.generator), ...num(r) })),
    };
  }
}
