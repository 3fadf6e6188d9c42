// Persisted presets: named recipes of a workspace. Every read and write is scoped to the
// workspace, so another workspace's preset is indistinguishable from a missing one.
import { type Database, isPostgres } from '../database.ts';

/** The recipe exactly as the client saved it. */
export interface StoredRecipe {
  slug: string;
  params?: Record<string, unknown>;
  seed?: number;
  size?: { width: number; height: number; pixelRatio?: number };
  format?: string;
  quality?: number;
}

export interface PresetRecord {
  id: string;
  workspaceId: string;
  name: string;
  recipe: StoredRecipe;
  recipeHash: string;
  createdAt: number;
  updatedAt: number;
}

interface PresetRow {
  id: string;
  workspace_id: string;
  name: string;
  recipe: string;
  recipe_hash: string;
  created_at: number | string;
  updated_at: number | string;
}

const toRecord = (r: PresetRow): PresetRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  name: r.name,
  recipe: JSON.parse(r.recipe) as StoredRecipe,
  recipeHash: r.recipe_hash,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

export class PresetsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Inserts the preset unless the workspace already holds `limit` presets; returns false then.
   * The count and the insert share a transaction that holds the workspace row (Postgres) or the
   * write lock (SQLite's BEGIN IMMEDIATE), so concurrent creates cannot overshoot the limit.
   */
  async insertWithinLimit(preset: PresetRecord, limit: number): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      if (isPostgres(this.db)) {
        await trx('workspaces').where({ id: preset.workspaceId }).forUpdate().first('id');
      }
      const row = await trx('presets').where({ workspace_id: preset.workspaceId }).count<{ n: number | string }[]>({ n: '*' }).first();
      if (Number(row?.n ?? 0) >= limit) return false;
      await trx('presets').insert({
        id: preset.id,
        workspace_id: preset.workspaceId,
        name: preset.name,
        recipe: JSON.stringify(preset.recipe),
        recipe_hash: preset.recipeHash,
        created_at: preset.createdAt,
        updated_at: preset.updatedAt,
      });
      return true;
    });
  }

  async findInWorkspace(workspaceId: string, id: string): Promise<PresetRecord | undefined> {
    const row = await this.db<PresetRow>('presets').where({ workspace_id: workspaceId, id }).first();
    return row ? toRecord(row) : undefined;
  }

  /** Newest first. */
  async listByWorkspace(workspaceId: string): Promise<PresetRecord[]> {
    const rows = await this.db<PresetRow>('presets')
      .where({ workspace_id: workspaceId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]);
    return rows.map(toRecord);
  }

  /** Replaces the given fields; returns the stored preset, or undefined when there is none. */
  async update(
    workspaceId: string,
    id: string,
    changes: { name?: string; recipe?: StoredRecipe; recipeHash?: string; updatedAt: number },
  ): Promise<PresetRecord | undefined> {
    const patch: Partial<PresetRow> = { updated_at: changes.updatedAt };
    if (changes.name !== undefined) patch.name = changes.name;
    if (changes.recipe !== undefined) patch.recipe = JSON.stringify(changes.recipe);
    if (changes.recipeHash !== undefined) patch.recipe_hash = changes.recipeHash;
    const updated = await this.db('presets').where({ workspace_id: workspaceId, id }).update(patch);
    if (updated === 0) return undefined;
    return this.findInWorkspace(workspaceId, id);
  }

  /** Returns whether a preset was deleted. */
  async delete(workspaceId: string, id: string): Promise<boolean> {
    return (await this.db('presets').where({ workspace_id: workspaceId, id }).delete()) > 0;
  }
}
