import type { Database } from '../database.ts';
import { type BlobStore, assertSafeKey } from '../../src/blob/blob-store.ts';

/** The Postgres (or SQLite) blob store: one row per key, shared by every process on the database. */
export class DatabaseBlobStore implements BlobStore {
  constructor(private readonly db: Database) {}

  async get(key: string): Promise<Buffer | undefined> {
    assertSafeKey(key);
    const row = await this.db('blobs').where({ key }).first('bytes');
    return row ? Buffer.from(row.bytes) : undefined;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    assertSafeKey(key);
    await this.db('blobs')
      .insert({ key, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), size: bytes.byteLength, created_at: Date.now() })
      .onConflict('key')
      .ignore();
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.db('blobs').where({ key }).delete();
  }
}
