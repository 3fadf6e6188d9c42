// The credit ledger. Every movement is an entry; balances are counters kept in the same
// transaction. Conditional updates make each transition happen at most once, on SQLite (whose
// write transactions take the lock up front) and on Postgres (row locks re-check the WHERE).
import type { Knex } from 'knex';
import { type Database, knexOf, type Transaction } from '../database.ts';
import { nullableNumber } from './columns.ts';

export interface BalanceRecord {
  credits: number;
  reserved: number;
}

/** adjustment: credits an operator took back (`render-service admin credits deduct`), a negative amount. */
export type EntryKind = 'purchase' | 'reservation' | 'refund' | 'grant' | 'adjustment';
export type EntryStatus = 'posted' | 'pending' | 'committed' | 'released';

export interface EntryRecord {
  id: string;
  workspaceId: string;
  kind: EntryKind;
  status: EntryStatus;
  amount: number;
  reference: string | null;
  createdAt: number;
  expiresAt: number | null;
}

interface EntryRow {
  id: string;
  workspace_id: string;
  kind: EntryKind;
  status: EntryStatus;
  amount: number | string;
  reference: string | null;
  created_at: number | string;
  expires_at: number | string | null;
}

const toEntry = (r: EntryRow): EntryRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  kind: r.kind,
  status: r.status,
  amount: Number(r.amount),
  reference: r.reference,
  createdAt: Number(r.created_at),
  expiresAt: nullableNumber(r.expires_at),
});

export interface ReserveEntry {
  id: string;
  workspaceId: string;
  amount: number;
  reference: string;
  description: string;
  expiresAt: number;
}

/** A hold taken: the available balance it left. */
export interface Held {
  available: number;
}

/** A reservation settled: whose, how much, and the available balance it left. */
export interface Settled {
  workspaceId: string;
  amount: number;
  available: number;
}

export class CreditsRepository {
  constructor(private readonly db: Database) {}

  private async ensureBalanceRow(trx: Knex, workspaceId: string, now: number): Promise<void> {
    await trx('credit_balances')
      .insert({ workspace_id: workspaceId, credits: 0, reserved: 0, updated_at: now })
      .onConflict('workspace_id')
      .ignore();
  }

  async balance(workspaceId: string): Promise<BalanceRecord> {
    const row = await this.db('credit_balances').where({ workspace_id: workspaceId }).first();
    return { credits: Number(row?.credits ?? 0), reserved: Number(row?.reserved ?? 0) };
  }

  /**
   * Holds `amount` if the available balance covers it; returns false (and changes nothing) if not.
   * Pass `trx` to reserve inside a caller's transaction (a job row and its reservation commit together).
   */
  async reserve(entry: ReserveEntry, now: number, transaction?: Transaction): Promise<false | Held> {
    return transaction ? this.reserveIn(knexOf(transaction), entry, now) : this.db.transaction((t) => this.reserveIn(t, entry, now));
  }

  private async reserveIn(trx: Knex, entry: ReserveEntry, now: number): Promise<false | Held> {
    await this.ensureBalanceRow(trx, entry.workspaceId, now);
    const held = await trx('credit_balances')
      .where({ workspace_id: entry.workspaceId })
      .andWhereRaw('credits - reserved >= ?', [entry.amount])
      .update({ reserved: trx.raw('reserved + ?', [entry.amount]), updated_at: now });
    if (held !== 1) return false;
    await trx('credit_entries').insert({
      id: entry.id,
      workspace_id: entry.workspaceId,
      kind: 'reservation',
      status: 'pending',
      amount: entry.amount,
      reference: entry.reference,
      description: entry.description,
      created_at: now,
      updated_at: now,
      expires_at: entry.expiresAt,
    });
    // Read in the transaction that moved it: the balance this hold left (X-Service-Credits-Remaining).
    return { available: await this.availableIn(trx, entry.workspaceId) };
  }

  private async availableIn(trx: Knex, workspaceId: string): Promise<number> {
    const row = await trx('credit_balances').where({ workspace_id: workspaceId }).first('credits', 'reserved');
    return Number(row?.credits ?? 0) - Number(row?.reserved ?? 0);
  }

  /** Credits committed by the workspace's reservations settled in [from, to) (epoch ms): a month's spending. */
  async committedBetween(workspaceId: string, from: number, to: number): Promise<number> {
    const row = await this.db('credit_entries')
      .where({ workspace_id: workspaceId, status: 'committed' })
      .andWhere('updated_at', '>=', from)
      .andWhere('updated_at', '<', to)
      .sum({ spent: 'amount' })
      .first();
    return Number(row?.spent ?? 0);
  }

  /** pending → committed (the credits are spent); false if it was not pending. */
  async commit(id: string, now: number): Promise<false | Settled> {
    return this.settle(id, 'committed', now);
  }

  /** pending → released (the hold is lifted); false if it was not pending. */
  async release(id: string, now: number): Promise<false | Settled> {
    return this.settle(id, 'released', now);
  }

  private async settle(id: string, to: 'committed' | 'released', now: number): Promise<false | Settled> {
    return this.db.transaction(async (trx) => {
      const entry = await trx<EntryRow>('credit_entries').where({ id }).first();
      if (!entry) return false;
      const moved = await trx('credit_entries').where({ id, status: 'pending' }).update({ status: to, updated_at: now });
      if (moved !== 1) return false;
      const amount = Number(entry.amount);
      await trx('credit_balances')
        .where({ workspace_id: entry.workspace_id })
        .update({
          reserved: trx.raw('reserved - ?', [amount]),
          ...(to === 'committed' ? { credits: trx.raw('credits - ?', [amount]) } : {}),
          updated_at: now,
        });
      return { workspaceId: String(entry.workspace_id), amount, available: await this.availableIn(trx, String(entry.workspace_id)) };
    });
  }

  /** Adds credits (a purchase or grant); refunds pass a negative amount. Idempotent per entry id. */
  async post(
    entry: { id: string; workspaceId: string; kind: EntryKind; amount: number; reference: string; description: string },
    now: number,
    transaction?: Transaction,
  ): Promise<boolean> {
    const run = async (t: Knex) => {
      await this.ensureBalanceRow(t, entry.workspaceId, now);
      const inserted = await t('credit_entries')
        .insert({
          id: entry.id,
          workspace_id: entry.workspaceId,
          kind: entry.kind,
          status: 'posted',
          amount: entry.amount,
          reference: entry.reference,
          description: entry.description,
          created_at: now,
          updated_at: now,
        })
        .onConflict('id')
        .ignore()
        .returning('id');
      if (inserted.length === 0) return false;
      await t('credit_balances')
        .where({ workspace_id: entry.workspaceId })
        .update({ credits: t.raw('credits + ?', [entry.amount]), updated_at: now });
      return true;
    };
    return transaction ? run(knexOf(transaction)) : this.db.transaction(run);
  }

  /**
   * Takes `amount` (> 0) back as a posted `adjustment` entry of -amount, only if the available
   * balance (credits - reserved) covers it; false (and nothing changed) otherwise.
   */
  async deduct(
    entry: { id: string; workspaceId: string; amount: number; reference: string; description: string },
    now: number,
  ): Promise<boolean> {
    return this.db.transaction(async (t) => {
      await this.ensureBalanceRow(t, entry.workspaceId, now);
      const taken = await t('credit_balances')
        .where({ workspace_id: entry.workspaceId })
        .andWhereRaw('credits - reserved >= ?', [entry.amount])
        .update({ credits: t.raw('credits - ?', [entry.amount]), updated_at: now });
      if (taken !== 1) return false;
      await t('credit_entries').insert({
        id: entry.id,
        workspace_id: entry.workspaceId,
        kind: 'adjustment',
        status: 'posted',
        amount: -entry.amount,
        reference: entry.reference,
        description: entry.description,
        created_at: now,
        updated_at: now,
      });
      return true;
    });
  }

  /** Pending reservations whose holder never settled them (a crashed process). */
  async expiredReservations(now: number, limit = 100): Promise<EntryRecord[]> {
    const rows = await this.db<EntryRow>('credit_entries').where({ status: 'pending' }).andWhere('expires_at', '<', now).limit(limit);
    return rows.map(toEntry);
  }

  async entryAmount(id: string): Promise<number | undefined> {
    const row = await this.db('credit_entries').where({ id }).select('amount').first();
    return row ? Number(row.amount) : undefined;
  }

  async entries(workspaceId: string): Promise<EntryRecord[]> {
    const rows = await this.db<EntryRow>('credit_entries').where({ workspace_id: workspaceId }).orderBy('created_at', 'asc');
    return rows.map(toEntry);
  }
}
