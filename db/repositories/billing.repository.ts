// Purchases, processed payment events, and refunds per payment intent.
import { asTransaction, type Database, knexOf, type Transaction } from '../database.ts';

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

  async findPurchase(transaction: Transaction, by: { id?: string; paymentIntentId?: string }): Promise<PurchaseRecord | undefined> {
    const q = knexOf(transaction)<PurchaseRow>('purchases');
    if (by.id) q.where({ id: by.id });
    else if (by.paymentIntentId) q.where({ payment_intent_id: by.paymentIntentId });
    else return undefined;
    const row = await q.first();
    return row ? toRecord(row) : undefined;
  }

  /** pending → completed, once: false if another event completed it first. */
  async completePurchase(transaction: Transaction, id: string, paymentIntentId: string | null, now: number): Promise<boolean> {
    const moved = await knexOf(transaction)('purchases')
      .where({ id, status: 'pending' })
      .update({ status: 'completed', payment_intent_id: paymentIntentId, updated_at: now });
    return moved === 1;
  }

  /**
   * Locks the payment intent's refund row (creating it) and raises its refunded amount to
   * `amountRefunded` if that is more; returns the amount now recorded. Every event about a payment
   * intent calls this first, in its transaction: on Postgres the upsert holds the row lock until
   * commit, so a concurrent completion and refund run one after the other and the second sees what
   * the first wrote; SQLite's write transactions are serial anyway.
   */
  async lockRefund(transaction: Transaction, paymentIntentId: string, amountRefunded: number, now: number): Promise<number> {
    const trx = knexOf(transaction);
    const [row] = await trx('payment_refunds')
      .insert({ payment_intent_id: paymentIntentId, amount_refunded: amountRefunded, updated_at: now })
      .onConflict('payment_intent_id')
      .merge({
        amount_refunded: trx.raw(
          'case when excluded.amount_refunded > payment_refunds.amount_refunded then excluded.amount_refunded else payment_refunds.amount_refunded end',
        ),
        updated_at: now,
      })
      .returning('amount_refunded');
    return Number((row as { amount_refunded: number | string }).amount_refunded);
  }

  async updatePurchase(
    transaction: Transaction,
    id: string,
    fields: { status?: PurchaseStatus; paymentIntentId?: string | null; refundedCredits?: number },
    now: number,
  ): Promise<void> {
    await knexOf(transaction)('purchases')
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
  async processOnce(eventId: string, type: string, now: number, effect: (trx: Transaction) => Promise<void>): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const inserted = await trx('payment_events')
        .insert({ id: eventId, type, received_at: now })
        .onConflict('id')
        .ignore()
        .returning('id');
      if (inserted.length === 0) return false;
      await effect(asTransaction(trx));
      return true;
    });
  }
}
