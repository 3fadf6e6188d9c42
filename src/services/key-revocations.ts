// How a process hears that an API key was revoked by any process, so that it may keep keys it has
// verified in memory instead of reading the database on every request. On Postgres every process
// listens for the revocation's notification (src/adapters/pg-listen.key-revocations.ts); on SQLite
// there is no feed and nothing is kept (a lookup there is a local read, not a round trip).

export interface KeyRevocationListener {
  /** A key was revoked (its id); called once the revocation has committed. */
  revoked(keyId: string): void;
  /** From now on revocations may be missed (the connection dropped): forget every verified key. */
  interrupted(): void;
  /** Listening again: revocations committed from now on will be heard. */
  resumed(): void;
}

export interface KeyRevocationFeed {
  /** Starts listening; `resumed` is called when it is (and after every reconnection). */
  listen(listener: KeyRevocationListener): Promise<void>;
  close(): Promise<void>;
}
