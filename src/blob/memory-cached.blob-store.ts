// A bounded in-memory layer (LRU by bytes) in front of a slower blob store: hot render-cache
// entries are served without a disk read or a database round trip. Keys are content addresses,
// so an entry can never be stale.
import { LRUCache } from 'lru-cache';
import type { BlobStore } from './blob-store.ts';

export class MemoryCachedBlobStore implements BlobStore {
  private readonly memory: LRUCache<string, Buffer>;

  constructor(
    private readonly inner: BlobStore,
    maxBytes: number,
    /** Larger blobs are not kept in memory (they would evict many small ones). */
    private readonly maxEntryBytes = Math.max(1, Math.floor(maxBytes / 16)),
  ) {
    this.memory = new LRUCache<string, Buffer>({ maxSize: Math.max(1, maxBytes), sizeCalculation: (b) => Math.max(1, b.length) });
  }

  /** Bytes held in memory now. */
  get bytes(): number {
    return this.memory.calculatedSize;
  }

  peek(key: string): Buffer | undefined {
    return this.memory.get(key);
  }

  async get(key: string): Promise<Buffer | undefined> {
    const hot = this.memory.get(key);
    if (hot) return hot;
    const bytes = await this.inner.get(key);
    if (bytes && bytes.length <= this.maxEntryBytes) this.memory.set(key, bytes);
    return bytes;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    await this.inner.put(key, bytes);
    if (bytes.byteLength <= this.maxEntryBytes) this.memory.set(key, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  async delete(key: string): Promise<void> {
    this.memory.delete(key);
    await this.inner.delete(key);
  }
}
