import type { Database } from '../database.ts';

export type WorkspaceKind = 'local' | 'personal';

export interface WorkspaceRecord {
  id: string;
  name: string;
  kind: WorkspaceKind;
  createdAt: number;
}

interface WorkspaceRow {
  id: string;
  name: string;
  kind: WorkspaceKind;
  created_at: number;
}

const toRecord = (r: WorkspaceRow): WorkspaceRecord => ({ id: r.id, name: r.name, kind: r.kind, createdAt: Number(r.created_at) });

export class WorkspacesRepository {
  constructor(private readonly db: Database) {}

  async findById(id: string): Promise<WorkspaceRecord | undefined> {
    const row = await this.db<WorkspaceRow>('workspaces').where({ id }).first();
    return row ? toRecord(row) : undefined;
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
