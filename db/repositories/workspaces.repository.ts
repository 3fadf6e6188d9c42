import type { Database } from '../database.ts';

/** local: local mode's one workspace; personal: a signed-in user's; team: made by an operator (`render-service admin`) for API keys. */
export type WorkspaceKind = 'local' | 'personal' | 'team';

export interface WorkspaceRecord {
  id: string;
  name: string;
  kind: WorkspaceKind;
  createdAt: number;
  /** The user of a personal workspace; null for the local workspace. */
  ownerUserId?: string | null;
}

interface WorkspaceRow {
  id: string;
  name: string;
  kind: WorkspaceKind;
  created_at: number | string;
  owner_user_id: string | null;
}

const toRecord = (r: WorkspaceRow): WorkspaceRecord => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  createdAt: Number(r.created_at),
  ownerUserId: r.owner_user_id,
});

export class WorkspacesRepository {
  constructor(private readonly db: Database) {}

  async findById(id: string): Promise<WorkspaceRecord | undefined> {
    const row = await this.db<WorkspaceRow>('workspaces').where({ id }).first();
    return row ? toRecord(row) : undefined;
  }

  async findByOwner(userId: string): Promise<WorkspaceRecord | undefined> {
    const row = await this.db<WorkspaceRow>('workspaces').where({ owner_user_id: userId }).first();
    return row ? toRecord(row) : undefined;
  }

  /** The user's personal workspace, created on first call; safe to race (one per owner). */
  async ensurePersonal(userId: string, workspace: Omit<WorkspaceRecord, 'kind' | 'ownerUserId'>): Promise<WorkspaceRecord> {
    await this.db('workspaces')
      .insert({ id: workspace.id, name: workspace.name, kind: 'personal', created_at: workspace.createdAt, owner_user_id: userId })
      .onConflict('owner_user_id')
      .ignore();
    return (await this.findByOwner(userId))!;
  }

  /**
   * What hosted mode leaves in a database: workspaces of signed-in users and `svc_live_` keys.
   * Safe before migrations (a fresh database has neither yet).
   */
  async hostedFootprint(): Promise<{ userWorkspaces: number; liveKeys: number }> {
    const count = async (q: Promise<Record<string, unknown> | undefined>) => Number((await q)?.n ?? 0);
    const userWorkspaces = (await this.db.schema.hasColumn('workspaces', 'owner_user_id'))
      ? await count(this.db('workspaces').whereNotNull('owner_user_id').count({ n: '*' }).first())
      : 0;
    const liveKeys = (await this.db.schema.hasTable('api_keys'))
      ? await count(this.db('api_keys').whereRaw("prefix like ? escape '!'", ['svc!_live!_%']).count({ n: '*' }).first())
      : 0;
    return { userWorkspaces, liveKeys };
  }

  /**
   * Every workspace, oldest first, with its balance and the renders recorded since `sinceDay`
   * (YYYY-MM-DD), in one query (the operator's list).
   */
  async listWithTotals(sinceDay: string): Promise<Array<WorkspaceRecord & { credits: number; reserved: number; renders: number }>> {
    const usage = this.db('usage_records')
      .select('workspace_id')
      .sum({ renders: 'renders' })
      .where('day', '>=', sinceDay)
      .groupBy('workspace_id')
      .as('u');
    const rows = await this.db('workspaces as w')
      .leftJoin('credit_balances as b', 'b.workspace_id', 'w.id')
      .leftJoin(usage, 'u.workspace_id', 'w.id')
      .select('w.id', 'w.name', 'w.kind', 'w.created_at', 'w.owner_user_id', 'b.credits', 'b.reserved', 'u.renders')
      .orderBy([{ column: 'w.created_at' }, { column: 'w.id' }]);
    return rows.map((r: WorkspaceRow & { credits: unknown; reserved: unknown; renders: unknown }) => ({
      ...toRecord(r),
      credits: Number(r.credits ?? 0),
      reserved: Number(r.reserved ?? 0),
      renders: Number(r.renders ?? 0),
    }));
  }

  /** Inserts the workspace unless one with this id exists; returns the stored one. */
  async ensure(workspace: WorkspaceRecord): Promise<WorkspaceRecord> {
    await this.db('workspaces')
      .insert({ id: workspace.id, name: workspace.name, kind: workspace.kind, created_at: workspace.createdAt })
      .onConflict('id')
      .ignore();
    return (await this.findById(workspace.id))!;
  }
}
