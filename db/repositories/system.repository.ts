import type { Database } from '../database.ts';

export class SystemRepository {
  constructor(private readonly db: Database) {}

  /** A real round trip; rejects with why it failed. */
  async roundTrip(): Promise<void> {
    await this.db.raw('select 1 as ok');
  }

  /** A real round trip to the database. */
  async ping(): Promise<boolean> {
    return (await this.pingFailure()) === undefined;
  }

  /** A real round trip: undefined when it worked, else why it did not. */
  async pingFailure(): Promise<string | undefined> {
    try {
      await this.db.raw('select 1 as ok');
      return undefined;
    } catch (err) {
      return (err as { code?: string }).code ?? (err instanceof Error ? err.message : String(err));
    }
  }
}
