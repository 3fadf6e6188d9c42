// Purchases and processed payment events.
import type { Knex } from 'knex';
import type { Database } from '../database.ts';

export type PurchaseStatus = 'pending' | 'completed' | 'refunded';

export interface PurchaseRecord {
  id: string;
  workspaceId: string;
  packId: string;
  credits: number;
  amount: number;
  currency: string;
  status: PurchaseStatus;
  checkoutSessionId: string | null;
  paymentIntentId: string | null;
  refundedCredits: number;
  createdAt: number;
}

interface PurchaseRow {
  id: string;
  workspace_id: string;
  pack_id: string;
  credits: number;
  amount: number;
  currency: string;
  status: PurchaseStatus;
  checkout_session_id: string | null;
  payment_intent_id: string | null;
  refunded_credits: number;
  created_at: number | string;
}

const toRecord = (r: PurchaseRow): PurchaseRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  packId: r.pack_id,
  credits: Number(r.credits),
  amount: Number(r.amount),
  currency: r.currency,
  status: r.status,
  checkoutSessionId: r.checkout_session_id,
  paymentIntentId: r.payment_intent_id,
  refundedCredits: Number(r.refunded_credits),
  createdAt: Number(r.created_at),
});

export class BillingRepository {
  constructor(private readonly db: Database) {}

  async insertPurchase(p: Omit<PurchaseRecord, 'status' | 'checkoutSessionId' | 'paymentIntentId' | 'refundedCredits'>): Promise<void> {
    await this.db('purchases').insert({
      id: p.id,
      workspace_id: p.workspaceId,
      pack_id: p.packId,
      credits: p.credits,
      amount: p.amount,
      currency: p.currency,
      status: 'pending',
      created_at: p.createdAt,
      updated_at: p.createdAt,
    });
  }

  async setCheckoutSession(id: string, sessionId: string, now: number): Promise<void> {
    await this.db('purchases').where({ id }).update({ checkout_session_id: sessionId, updated_at: now });
  }

  async deletePurchase(id: string): Promise<void> {
    await this.db('purchases').where({ id, status: 'pending' }).delete();
  }

  async listPurchases(workspaceId: string): Promise<PurchaseRecord[]> {
    const rows = await this.db<PurchaseRow>('purchases').where({ workspace_id: workspaceId }).orderBy('created_at', 'desc').limit(100);
    return rows.map(toRecord);
  }

  async findPurchase(trx: Knex, by: { id?: string; paymentIntentId?: string }): Promise<PurchaseRecord | undefined> {
    const q = trx<PurchaseRow>('purchases');
    if (by.id) q.where({ id: by.id });
    else if (by.paymentIntentId) q.where({ payment_intent_id: by.paymentIntentId });
    else return undefined;
    const row = await q.first();
    return row ? toRecord(row) : undefined;
  }

  async updatePurchase(trx: Knex, id: string, fields: { status?: PurchaseStatus; paymentIntentId?: string | null; refundedCredits?: number }, now: number): Promise<void> {
    await trx('purchases')
      .where({ id })
      .update({
        ...(fields.status ? { status: fields.status } : {}),
        ...(fields.paymentIntentId !== undefined ? { payment_intent_id: fields.paymentIntentId } : {}),
        ...(fields.refundedCredits !== undefined ? { refunded_credits: fields.refundedCredits } : {}),
        updated_at: now,
      });
  }

  /**
   * Runs `effect` for an event id that was never processed, in one transaction with the record of
   * it; returns false for a duplicate (a replay, or a concurrent delivery that committed first).
   */
  async processOnce(eventId: string, type: string, now: number, effect: (trx: Knex) => Promise<void>): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const inserted = await trx('payment_events').insert({ id: eventId, type, received_at: now }).onConflict('id').ignore().returning('id');
      if (inserted.length === 0) return false;
      await effect(trx);
      return true;
    });
  }
}
