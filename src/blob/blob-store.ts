// Content-addressed byte storage behind one small interface: the render cache and job results.
// Local mode keeps files on disk; hosted mode keeps them in Postgres (or an S3-compatible bucket), shared by every process.
import { isSafeKeyPrefix } from '../lib/key-prefix.ts';

export interface BlobStore {
  get(key: string): Promise<Buffer | undefined>;
  /** Idempotent: storing the same key twice keeps one copy (keys are content addresses). */
  put(key: string, bytes: Uint8Array): Promise<void>;
  delete(key: string): Promise<void>;
  /** The bytes when this process holds them in memory (no I/O, no waiting), else undefined. Optional. */
  peek?(key: string): Buffer | undefined;
  /** A short-lived URL a client may GET the bytes from without credentials, when the store can make one. Optional. */
  presignGet?(key: string, options: { expiresInSeconds: number; contentType?: string; filename?: string; now?: Date }): Promise<string>;
}

/** Keys are hex hashes with an extension; anything else is refused so keys can never escape a directory. */
export function assertSafeKey(key: string): void {
  if (!/^[0-9a-z_-]{8,128}(\.[a-z0-9]{1,8})?$/.test(key)) throw new Error(`unsafe blob key: ${key}`);
}

/** A namespace in front of every key (`cache/`, `render-service/results/`): see isSafeKeyPrefix; at most `maxLength` characters. */
export function assertSafePrefix(prefix: string, maxLength = 256): void {
  if (prefix.length > maxLength || !isSafeKeyPrefix(prefix)) throw new Error(`unsafe blob key prefix: ${prefix}`);
}
