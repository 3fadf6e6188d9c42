// Persisted assets: the images and fonts of a workspace. Every read and write is scoped to the
// workspace, so another workspace's asset is indistinguishable from a missing one. A deleted asset
// keeps its row (`deleted_at`): the render path still reads it, the list and GET do not.
import { newestFirstPage } from './pages.ts';
import { type Database, isPostgres } from '../database.ts';

export type AssetKind = 'image' | 'font';

export interface AssetRecord {
  workspaceId: string;
  id: string;
  kind: AssetKind;
  /** The type the file was uploaded as. */
  contentType: string;
  /** Size of the uploaded file. */
  bytes: number;
  /** SHA-256 (hex) of the uploaded file. */
  sha256: string;
  /** The stored file's key in the assets blob store. */
  storageKey: string;
  width?: number;
  height?: number;
  family?: string;
  weight?: number;
  createdAt: number;
  /** Set when the asset was deleted (epoch ms). */
  deletedAt?: number;
}

interface AssetRow {
  workspace_id: string;
  id: string;
  kind: string;
  content_type: string;
  bytes: number | string;
  sha256: string;
  storage_key: string;
  width: number | null;
  height: number | null;
  family: string | null;
  weight: number | null;
  created_at: number | string;
  deleted_at: number | string | null;
}

const toRecord = (r: AssetRow): AssetRecord => ({
  workspaceId: r.workspace_id,
  id: r.id,
  kind: r.kind as AssetKind,
  contentType: r.content_type,
  bytes: Number(r.bytes),
  sha256: r.sha256,
  storageKey: r.storage_key,
  ...(r.width !== null ? { width: Number(r.width) } : {}),
  ...(r.height !== null ? { height: Number(r.height) } : {}),
  ...(r.family !== null ? { family: r.family } : {}),
  ...(r.weight !== null ? { weight: Number(r.weight) } : {}),
  createdAt: Number(r.created_at),
  ...(r.deleted_at !== null ? { deletedAt: Number(r.deleted_at) } : {}),
});

/** What an upload did: a new row, a deleted one restored, the row that already held these bytes, or nothing (the limit). */
export type SaveOutcome = { status: 'created' | 'restored' | 'existing'; asset: AssetRecord } | { status: 'limit_reached' };

export class AssetsRepository {
  constructor(private readonly db: Database) {}

  /** The asset, deleted or not. */
  async find(workspaceId: string, id: string): Promise<AssetRecord | undefined> {
    const row = await this.db<AssetRow>('assets').where({ workspace_id: workspaceId, id }).first();
    return row ? toRecord(row) : undefined;
  }

  /** The assets with these ids, deleted ones included (the render path's read). */
  async findMany(workspaceId: string, ids: readonly string[]): Promise<AssetRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.db<AssetRow>('assets')
      .where({ workspace_id: workspaceId })
      .whereIn('id', [...ids]);
    return rows.map(toRecord);
  }

  /** Assets that are not deleted. */
  async countLive(workspaceId: string): Promise<number> {
    const row = await this.db('assets')
      .where({ workspace_id: workspaceId })
      .whereNull('deleted_at')
      .count<{ n: number | string }[]>({ n: '*' })
      .first();
    return Number(row?.n ?? 0);
  }

  /**
   * Saves an upload: inserts the row, restores a deleted one, or returns the live one that already
   * holds these bytes; refuses a new or restored asset when the workspace already holds `limit` live
   * ones. The count and the write share a transaction that holds the workspace row (Postgres) or the
   * write lock (SQLite), so concurrent uploads cannot overshoot the limit or insert one id twice.
   */
  async save(asset: AssetRecord, limit: number): Promise<SaveOutcome> {
    return this.db.transaction(async (trx) => {
      if (isPostgres(this.db)) {
        await trx('workspaces').where({ id: asset.workspaceId }).forUpdate().first('id');
      }
      const existing = (await trx<AssetRow>('assets').where({ workspace_id: asset.workspaceId, id: asset.id }).first()) as
        AssetRow | undefined;
      if (existing && existing.deleted_at === null) return { status: 'existing', asset: toRecord(existing) };
      const live = await trx('assets')
        .where({ workspace_id: asset.workspaceId })
        .whereNull('deleted_at')
        .count<{ n: number | string }[]>({ n: '*' })
        .first();
      if (Number(live?.n ?? 0) >= limit) return { status: 'limit_reached' };
      if (existing) {
        await trx('assets').where({ workspace_id: asset.workspaceId, id: asset.id }).update({ deleted_at: null });
        return { status: 'restored', asset: toRecord({ ...existing, deleted_at: null }) };
      }
      await trx('assets').insert({
        workspace_id: asset.workspaceId,
        id: asset.id,
        kind: asset.kind,
        content_type: asset.contentType,
        bytes: asset.bytes,
        sha256: asset.sha256,
        storage_key: asset.storageKey,
        width: asset.width ?? null,
        height: asset.height ?? null,
        family: asset.family ?? null,
        weight: asset.weight ?? null,
        created_at: asset.createdAt,
        deleted_at: null,
      });
      return { status: 'created', asset };
    });
  }

  /** Live assets, newest first; `before` is the (createdAt, id) of the last asset of the previous page. */
  async list(workspaceId: string, options: { limit: number; before?: { createdAt: number; id: string } }): Promise<AssetRecord[]> {
    const q = this.db<AssetRow>('assets').where({ workspace_id: workspaceId }).whereNull('deleted_at');
    const rows = await newestFirstPage(q, options);
    return rows.map(toRecord);
  }

  /** Marks a live asset deleted; returns whether there was one. */
  async softDelete(workspaceId: string, id: string, now: number): Promise<boolean> {
    return (await this.db('assets').where({ workspace_id: workspaceId, id }).whereNull('deleted_at').update({ deleted_at: now })) > 0;
  }
}
