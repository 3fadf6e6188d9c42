// Usage records and their summaries (by UTC day and by generator), aggregated in SQL.
import type { Database } from '../database.ts';

export interface UsageRecord {
  id: string;
  /** How many identical renders the row stands for (UsageService combines them); credits, bytes and durationMs are their sums. */
  renders: number;
  workspaceId: string;
  keyId: string | null;
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

function toRow(r: UsageRecord) {
  return {
    id: r.id,
    renders: r.renders,
    workspace_id: r.workspaceId,
    key_id: r.keyId,
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

  async summary(workspaceId: string, fromDay: string, toDay: string) {
    const scope = (q: ReturnType<UsageRepository['totals']>) =>
      q.where({ workspace_id: workspaceId }).andWhere('day', '>=', fromDay).andWhere('day', '<=', toDay);
    const num = (row: Record<string, unknown>): UsageTotalsRow => ({
      renders: Number(row.renders),
      credits: Number(row.credits),
      bytes: Number(row.bytes),
      cacheHits: Number(row.cacheHits),
    });
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
