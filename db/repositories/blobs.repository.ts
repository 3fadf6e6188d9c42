import type { Database } from '../database.ts';
import { type BlobStore, assertSafeKey, assertSafePrefix } from '../../src/blob/blob-store.ts';

/** blobs.key is varchar(160); a key is at most 137 characters (128 + `.` + an 8-character extension). */
const MAX_PREFIX_LENGTH = 160 - 137;

/**
 * The Postgres (or SQLite) blob store: one row per key, shared by every process on the database.
 * With a prefix (`cache/`, `results/`) rows are stored as prefix + key, so several stores share the
 * table without seeing each other's keys.
 */
export class DatabaseBlobStore implements BlobStore {
  constructor(
    private readonly db: Database,
    private readonly prefix = '',
  ) {
    assertSafePrefix(prefix, MAX_PREFIX_LENGTH);
  }

  private rowKey(key: string): string {
    assertSafeKey(key);
    return this.prefix + key;
  }

  async get(key: string): Promise<Buffer | undefined> {
    const row = await this.db('blobs')
      .where({ key: this.rowKey(key) })
      .first('bytes');
    return row ? Buffer.from(row.bytes) : undefined;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const rowKey = this.rowKey(key);
    await this.db('blobs')
      .insert({
        key: rowKey,
        bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        size: bytes.byteLength,
        created_at: Date.now(),
      })
      .onConflict('key')
      .ignore();
  }

  async delete(key: string): Promise<void> {
    await this.db('blobs')
      .where({ key: this.rowKey(key) })
      .delete();
  }
}
