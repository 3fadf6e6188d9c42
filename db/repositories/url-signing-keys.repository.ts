// Persisted URL signing keys. The HMAC key (SHA-256 of the secret) is stored, never the secret;
// the month's spending is kept on the row and moved only by conditional updates, so a limit holds
// across processes and inside the transaction that reserves the render's credits.
import type { Database, Transaction } from '../database.ts';
import { nullableNumber } from './columns.ts';
import { giveBack, spendWithinLimit } from './monthly-spending.ts';

export interface UrlSigningKeyRecord {
  id: string;
  workspaceId: string;
  label: string;
  prefix: string;
  /** hex SHA-256 of the secret: the HMAC key. */
  signingKey: string;
  monthlyCreditLimit: number | null;
  maxAgeSeconds: number;
  /** 'YYYY-MM' (UTC) of spentCredits; null before the first charged render. */
  spentMonth: string | null;
  spentCredits: number;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

interface UrlSigningKeyRow {
  id: string;
  workspace_id: string;
  label: string;
  prefix: string;
  signing_key: string;
  monthly_credit_limit: number | string | null;
  max_age_seconds: number | string;
  spent_month: string | null;
  spent_credits: number | string;
  created_at: number | string;
  last_used_at: number | string | null;
  revoked_at: number | string | null;
}

const toRecord = (r: UrlSigningKeyRow): UrlSigningKeyRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  label: r.label,
  prefix: r.prefix,
  signingKey: r.signing_key,
  monthlyCreditLimit: nullableNumber(r.monthly_credit_limit),
  maxAgeSeconds: Number(r.max_age_seconds),
  spentMonth: r.spent_month,
  spentCredits: Number(r.spent_credits),
  createdAt: Number(r.created_at),
  lastUsedAt: nullableNumber(r.last_used_at),
  revokedAt: nullableNumber(r.revoked_at),
});

export type { SpendOutcome } from './monthly-spending.ts';

const TABLE = 'url_signing_keys';

export class UrlSigningKeysRepository {
  constructor(private readonly db: Database) {}

  async insert(key: Omit<UrlSigningKeyRecord, 'lastUsedAt' | 'revokedAt' | 'spentMonth' | 'spentCredits'>): Promise<UrlSigningKeyRecord> {
    await this.db(TABLE).insert({
      id: key.id,
      workspace_id: key.workspaceId,
      label: key.label,
      prefix: key.prefix,
      signing_key: key.signingKey,
      monthly_credit_limit: key.monthlyCreditLimit,
      max_age_seconds: key.maxAgeSeconds,
      created_at: key.createdAt,
    });
    return { ...key, spentMonth: null, spentCredits: 0, lastUsedAt: null, revokedAt: null };
  }

  /** Any workspace's key, by id (verifying a signed URL, which names its key). */
  async findById(id: string): Promise<UrlSigningKeyRecord | undefined> {
    const row = await this.db<UrlSigningKeyRow>(TABLE).where({ id }).first();
    return row ? toRecord(row) : undefined;
  }

  /** Scoped to the workspace: another workspace's key is indistinguishable from a missing one. */
  async findInWorkspace(workspaceId: string, id: string): Promise<UrlSigningKeyRecord | undefined> {
    const row = await this.db<UrlSigningKeyRow>(TABLE).where({ workspace_id: workspaceId, id }).first();
    return row ? toRecord(row) : undefined;
  }

  async listByWorkspace(workspaceId: string): Promise<UrlSigningKeyRecord[]> {
    const rows = await this.db<UrlSigningKeyRow>(TABLE)
      .where({ workspace_id: workspaceId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]);
    return rows.map(toRecord);
  }

  async countActive(workspaceId: string): Promise<number> {
    const row = await this.db(TABLE)
      .where({ workspace_id: workspaceId })
      .whereNull('revoked_at')
      .count<{ n: number | string }[]>({ n: '*' })
      .first();
    return Number(row?.n ?? 0);
  }

  /** Sets revoked_at once; revoking again keeps the first time. */
  async revoke(workspaceId: string, id: string, at: number): Promise<UrlSigningKeyRecord | undefined> {
    await this.db(TABLE).where({ workspace_id: workspaceId, id }).whereNull('revoked_at').update({ revoked_at: at });
    return this.findInWorkspace(workspaceId, id);
  }

  async touch(id: string, at: number): Promise<void> {
    await this.db(TABLE).where({ id }).update({ last_used_at: at });
  }

  /** Adds `amount` to the key's spending of `month` within its limit, then runs `step` (monthly-spending.ts). */
  spendWithinLimit<T>(id: string, month: string, amount: number, step: (trx: Transaction) => Promise<T>) {
    return spendWithinLimit(this.db, TABLE, id, month, amount, step);
  }

  /** Gives back what spendWithinLimit took for `month`; nothing once the month turned. */
  giveBack(id: string, month: string, amount: number): Promise<void> {
    return giveBack(this.db, TABLE, id, month, amount);
  }
}
