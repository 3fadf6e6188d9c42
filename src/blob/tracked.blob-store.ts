// An object store whose every answer tells the process whether object storage can be reached
// (src/lib/dependency-status.ts): a read or write that fails because the store is unavailable starts
// or extends an outage, one that succeeds ends it. So the outage is logged once when it starts and
// once when it ends, /v1/jobs knows to refuse exports it could not store, and nothing else needs to
// say it again.
import { unavailableDependency } from '../lib/dependency-failure.ts';
import type { DependencyStatus } from '../lib/dependency-status.ts';
import type { BlobStore } from './blob-store.ts';

export class TrackedBlobStore implements BlobStore {
  /** Presigning is arithmetic, not a request: passed through untracked (absent when the inner store has none). */
  readonly presignGet?: BlobStore['presignGet'];

  constructor(
    private readonly inner: BlobStore,
    private readonly status: DependencyStatus,
  ) {
    if (inner.presignGet) this.presignGet = inner.presignGet.bind(inner);
  }

  get(key: string): Promise<Buffer | undefined> {
    return this.track(() => this.inner.get(key));
  }

  put(key: string, bytes: Uint8Array): Promise<void> {
    return this.track(() => this.inner.put(key, bytes));
  }

  delete(key: string): Promise<void> {
    return this.track(() => this.inner.delete(key));
  }

  private async track<T>(operation: () => Promise<T>): Promise<T> {
    const startedAt = this.status.operationStart();
    try {
      const value = await operation();
      this.status.available('storage', startedAt);
      return value;
    } catch (err) {
      if (unavailableDependency(err) === 'storage') this.status.unavailable('storage', err);
      throw err;
    }
  }
}
