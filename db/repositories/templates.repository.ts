// Templates and their versions. Every read and write is scoped to the workspace, so another
// workspace's template is indistinguishable from a missing one; a version, once inserted, is never
// updated. A deleted template (deleted_at set) is missing to every read.
import { newestFirstPage } from './pages.ts';
import { type Database, isPostgres } from '../database.ts';

export interface TemplateRecord {
  id: string;
  workspaceId: string;
  name: string;
  latestVersion: number;
  createdAt: number;
  updatedAt: number;
}

export interface TemplateVersionRecord {
  templateId: string;
  version: number;
  name: string;
  /** The version's spec exactly as stored (JSON text parsed): size, variables, layers. */
  spec: unknown;
  createdAt: number;
}

interface TemplateRow {
  id: string;
  workspace_id: string;
  name: string;
  latest_version: number | string;
  created_at: number | string;
  updated_at: number | string;
  deleted_at: number | string | null;
}

interface VersionRow {
  template_id: string;
  version: number | string;
  name: string;
  spec: string;
  created_at: number | string;
}

const toRecord = (r: TemplateRow): TemplateRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  name: r.name,
  latestVersion: Number(r.latest_version),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

const toVersion = (r: VersionRow): TemplateVersionRecord => ({
  templateId: r.template_id,
  version: Number(r.version),
  name: r.name,
  spec: JSON.parse(r.spec) as unknown,
  createdAt: Number(r.created_at),
});

export class TemplatesRepository {
  constructor(private readonly db: Database) {}

  /**
   * Inserts the template and its version 1 unless the workspace already holds `limit` templates;
   * returns false then. The count and the inserts share one transaction.
   */
  async insertWithinLimit(template: TemplateRecord, spec: unknown, limit: number): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      if (isPostgres(this.db)) {
        await trx('workspaces').where({ id: template.workspaceId }).forUpdate().first('id');
      }
      const row = await trx('templates')
        .where({ workspace_id: template.workspaceId })
        .whereNull('deleted_at')
        .count<{ n: number | string }[]>({ n: '*' })
        .first();
      if (Number(row?.n ?? 0) >= limit) return false;
      await trx('templates').insert({
        id: template.id,
        workspace_id: template.workspaceId,
        name: template.name,
        latest_version: 1,
        created_at: template.createdAt,
        updated_at: template.updatedAt,
        deleted_at: null,
      });
      await trx('template_versions').insert({
        template_id: template.id,
        version: 1,
        name: template.name,
        spec: JSON.stringify(spec),
        created_at: template.createdAt,
      });
      return true;
    });
  }

  /**
   * Adds the next version; returns it, or undefined when the template is missing. The template row
   * is locked (Postgres) or the write lock held (SQLite) so two updates make versions n+1 and n+2.
   */
  async addVersion(workspaceId: string, id: string, name: string, spec: unknown, now: number): Promise<TemplateRecord | undefined> {
    return this.db.transaction(async (trx) => {
      const q = trx<TemplateRow>('templates').where({ workspace_id: workspaceId, id }).whereNull('deleted_at');
      if (isPostgres(this.db)) q.forUpdate();
      const row = await q.first();
      if (!row) return undefined;
      const version = Number(row.latest_version) + 1;
      await trx('template_versions').insert({ template_id: id, version, name, spec: JSON.stringify(spec), created_at: now });
      await trx('templates').where({ id }).update({ latest_version: version, name, updated_at: now });
      return toRecord({ ...row, latest_version: version, name, updated_at: now });
    });
  }

  async find(workspaceId: string, id: string): Promise<TemplateRecord | undefined> {
    const row = await this.db<TemplateRow>('templates').where({ workspace_id: workspaceId, id }).whereNull('deleted_at').first();
    return row ? toRecord(row) : undefined;
  }

  /** One version of a template of the workspace (undefined when either is missing). */
  async findVersion(workspaceId: string, id: string, version: number): Promise<TemplateVersionRecord | undefined> {
    const row = await this.db<VersionRow>('template_versions as v')
      .join('templates as t', 't.id', 'v.template_id')
      .where({ 't.workspace_id': workspaceId, 't.id': id, 'v.version': version })
      .whereNull('t.deleted_at')
      .first('v.template_id', 'v.version', 'v.name', 'v.spec', 'v.created_at');
    return row ? toVersion(row) : undefined;
  }

  /** Every version's number and time, oldest first. */
  async versions(id: string): Promise<Array<{ version: number; name: string; createdAt: number }>> {
    const rows = await this.db<VersionRow>('template_versions')
      .where({ template_id: id })
      .orderBy('version', 'asc')
      .select('version', 'name', 'created_at');
    return rows.map((r) => ({ version: Number(r.version), name: r.name, createdAt: Number(r.created_at) }));
  }

  /** Newest first; `before` is the (createdAt, id) of the last template of the previous page. */
  async list(workspaceId: string, options: { limit: number; before?: { createdAt: number; id: string } }): Promise<TemplateRecord[]> {
    const q = this.db<TemplateRow>('templates').where({ workspace_id: workspaceId }).whereNull('deleted_at');
    const rows = await newestFirstPage(q, options);
    return rows.map(toRecord);
  }

  /** Marks the template deleted; returns whether there was one. */
  async delete(workspaceId: string, id: string, now: number): Promise<boolean> {
    return (await this.db('templates').where({ workspace_id: workspaceId, id }).whereNull('deleted_at').update({ deleted_at: now })) > 0;
  }
}
