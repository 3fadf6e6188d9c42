// Signed bases of URL signing keys: immutable rows (the definition is JSON text), listed by key,
// found by id for verification, deleted for good.
import type { Database } from '../database.ts';
import { nullableNumber } from './columns.ts';

export interface SigningBaseRecord {
  id: string;
  workspaceId: string;
  keyId: string;
  /** The base's definition as JSON text: what the URL's signature covers (with the id and the key). */
  definition: string;
  /** Epoch ms, or null: the base's URLs do not expire. */
  expiresAt: number | null;
  createdAt: number;
}

interface SigningBaseRow {
  id: string;
  workspace_id: string;
  key_id: string;
  definition: string;
  expires_at: number | string | null;
  created_at: number | string;
}

const toRecord = (r: SigningBaseRow): SigningBaseRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  keyId: r.key_id,
  definition: r.definition,
  expiresAt: nullableNumber(r.expires_at),
  createdAt: Number(r.created_at),
});

const TABLE = 'signing_bases';

export class SigningBasesRepository {
  constructor(private readonly db: Database) {}

  async insert(base: SigningBaseRecord): Promise<SigningBaseRecord> {
    await this.db(TABLE).insert({
      id: base.id,
      workspace_id: base.workspaceId,
      key_id: base.keyId,
      definition: base.definition,
      expires_at: base.expiresAt,
      created_at: base.createdAt,
    });
    return base;
  }

  /** Any workspace's base, by id (verifying a base URL, which names its base). */
  async findById(id: string): Promise<SigningBaseRecord | undefined> {
    const row = await this.db<SigningBaseRow>(TABLE).where({ id }).first();
    return row ? toRecord(row) : undefined;
  }

  /** The bases of a key of the workspace, newest first. */
  async listByKey(workspaceId: string, keyId: string): Promise<SigningBaseRecord[]> {
    const rows = await this.db<SigningBaseRow>(TABLE)
      .where({ workspace_id: workspaceId, key_id: keyId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]);
    return rows.map(toRecord);
  }

  /** Deletes a base of a key of the workspace; false when there was none. */
  async delete(workspaceId: string, keyId: string, id: string): Promise<boolean> {
    return (await this.db(TABLE).where({ workspace_id: workspaceId, key_id: keyId, id }).delete()) > 0;
  }
}
