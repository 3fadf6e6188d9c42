import type { Database } from '../database.ts';

export class SystemRepository {
  constructor(private readonly db: Database) {}

  /** A real round trip to the database. */
  async ping(): Promise<boolean> {
    try {
      await this.db.raw('select 1 as ok');
      return true;
    } catch {
      return false;
    }
  }
}
