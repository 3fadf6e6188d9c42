// Persisted API keys. Only the sha256 of a secret is stored; lookups go by that hash. A key's scopes
// are a JSON array (null: every scope); its month's spending is moved as a URL signing key's is
// (monthly-spending.ts).
import { type Database, isPostgres, knexOf, type Transaction } from '../database.ts';
import { nullableNumber } from './columns.ts';
import { giveBack, type SpendOutcome, spendIn, spendWithinLimit } from './monthly-spending.ts';

const TABLE = 'api_keys';

/**
 * Gives back `amount` of an API key's spending of `month` inside the caller's transaction (an export
 * job's end, with the job row's own record of it: jobs.repository.ts); nothing once the month turned.
 */
export function giveBackKeySpending(trx: Database, keyId: string, month: string, amount: number): Promise<void> {
  return giveBack(trx, TABLE, keyId, month, amount);
}

/** The Postgres channel a revocation is announced on (payload: the key's id), in the revoking transaction. */
export const KEY_REVOKED_CHANNEL = 'api_key_revoked';

export interface ApiKeyRecord {
  id: string;
  workspaceId: string;
  label: string;
  prefix: string;
  secretHash: string;
  /** null: every scope (a key created without scopes, or before there were any). */
  scopes: string[] | null;
  monthlyCreditLimit: number | null;
  /** 'YYYY-MM' (UTC) of spentCredits; null before the first charged render. */
  spentMonth: string | null;
  spentCredits: number;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

interface ApiKeyRow {
  id: string;
  workspace_id: string;
  label: string;
  prefix: string;
  secret_hash: string;
  scopes: string | null;
  monthly_credit_limit: number | string | null;
  spent_month: string | null;
  spent_credits: number | string;
  created_at: number | string;
  last_used_at: number | string | null;
  revoked_at: number | string | null;
}

const toRecord = (r: ApiKeyRow): ApiKeyRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  label: r.label,
  prefix: r.prefix,
  secretHash: r.secret_hash,
  scopes: r.scopes === null ? null : (JSON.parse(r.scopes) as string[]),
  monthlyCreditLimit: nullableNumber(r.monthly_credit_limit),
  spentMonth: r.spent_month,
  spentCredits: Number(r.spent_credits),
  createdAt: Number(r.created_at),
  lastUsedAt: nullableNumber(r.last_used_at),
  revokedAt: nullableNumber(r.revoked_at),
});

export class ApiKeysRepository {
  constructor(private readonly db: Database) {}

  async insert(key: Omit<ApiKeyRecord, 'lastUsedAt' | 'revokedAt' | 'spentMonth' | 'spentCredits'>): Promise<ApiKeyRecord> {
    await this.db(TABLE).insert({
      id: key.id,
      workspace_id: key.workspaceId,
      label: key.label,
      prefix: key.prefix,
      secret_hash: key.secretHash,
      scopes: key.scopes === null ? null : JSON.stringify(key.scopes),
      monthly_credit_limit: key.monthlyCreditLimit,
      created_at: key.createdAt,
    });
    return { ...key, spentMonth: null, spentCredits: 0, lastUsedAt: null, revokedAt: null };
  }

  async findByHash(secretHash: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db<ApiKeyRow>('api_keys').where({ secret_hash: secretHash }).first();
    return row ? toRecord(row) : undefined;
  }

  /** Scoped to the workspace: another workspace's key is indistinguishable from a missing one. */
  async findInWorkspace(workspaceId: string, id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db<ApiKeyRow>('api_keys').where({ workspace_id: workspaceId, id }).first();
    return row ? toRecord(row) : undefined;
  }

  async listByWorkspace(workspaceId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.db<ApiKeyRow>('api_keys')
      .where({ workspace_id: workspaceId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]);
    return rows.map(toRecord);
  }

  async countActive(workspaceId: string): Promise<number> {
    const row = await this.db('api_keys')
      .where({ workspace_id: workspaceId })
      .whereNull('revoked_at')
      .count<{ n: number | string }[]>({ n: '*' })
      .first();
    return Number(row?.n ?? 0);
  }

  /**
   * Sets revoked_at once; revoking again keeps the first time. On Postgres the revocation is announced
   * on KEY_REVOKED_CHANNEL in the same transaction, so every listening process hears it when it commits.
   */
  async revoke(workspaceId: string, id: string, at: number): Promise<ApiKeyRecord | undefined> {
    await this.db.transaction(async (trx) => {
      const changed = await trx('api_keys').where({ workspace_id: workspaceId, id }).whereNull('revoked_at').update({ revoked_at: at });
      if (changed > 0 && isPostgres(this.db)) await trx.raw('select pg_notify(?, ?)', [KEY_REVOKED_CHANNEL, id]);
    });
    return this.findInWorkspace(workspaceId, id);
  }

  async touch(id: string, at: number): Promise<void> {
    await this.db(TABLE).where({ id }).update({ last_used_at: at });
  }

  /** Adds `amount` to the key's spending of `month` within its limit, then runs `step` (monthly-spending.ts). */
  spendWithinLimit<T>(id: string, month: string, amount: number, step: (trx: Transaction) => Promise<T>) {
    return spendWithinLimit(this.db, TABLE, id, month, amount, step);
  }

  /** Adds `amount` to the key's spending of `month` within its limit, inside the caller's transaction (an export job's insert). */
  spendIn(trx: Transaction, id: string, month: string, amount: number): Promise<SpendOutcome> {
    return spendIn(knexOf(trx), TABLE, id, month, amount);
  }

  /** Gives back what spendWithinLimit took for `month`; nothing once the month turned. */
  giveBack(id: string, month: string, amount: number): Promise<void> {
    return giveBack(this.db, TABLE, id, month, amount);
  }
}
