// Key revocations heard through Postgres LISTEN on a connection of its own (a pooled connection
// cannot hold a LISTEN). A dropped connection is reported at once (the keys service forgets every
// verified key and reads the database again) and re-established after `retryMs`.
import pg from 'pg';
import { KEY_REVOKED_CHANNEL } from '../../db/repositories/api-keys.repository.ts';
import type { KeyRevocationFeed, KeyRevocationListener } from '../services/key-revocations.ts';

export class PgKeyRevocationFeed implements KeyRevocationFeed {
  private listener: KeyRevocationListener | undefined;
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly onError: (err: unknown) => void,
    private readonly retryMs = 1_000,
  ) {}

  async listen(listener: KeyRevocationListener): Promise<void> {
    this.listener = listener;
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    this.listener?.interrupted();
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => {
      if (message.channel === KEY_REVOKED_CHANNEL && message.payload) this.listener?.revoked(message.payload);
    });
    let ended = false;
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => {
      ended = true;
      this.lost(client);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${KEY_REVOKED_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => {});
      this.onError(err);
      this.scheduleReconnect();
      return;
    }
    if (this.closed) return void (await client.end().catch(() => {}));
    // It may have dropped while LISTEN was answered: not listening, so no cache.
    if (ended) return this.scheduleReconnect();
    this.client = client;
    this.listener?.resumed();
  }

  /** The listening connection failed or ended: report it once, then try again. */
  private lost(client: pg.Client, err?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.listener?.interrupted();
    if (err) this.onError(err);
    client.end().catch(() => {});
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.connect(), this.retryMs);
    this.retry.unref();
  }
}
