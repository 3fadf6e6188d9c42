// A key's spending against its monthly credit limit, kept on the key's own row (`monthly_credit_limit`,
// `spent_month`, `spent_credits`, `revoked_at`): URL signing keys and API keys share it. The month's
// spending moves only by a conditional update, so a limit holds across processes and inside the
// transaction that reserves the render's credits.
import type { Knex } from 'knex';
import { asTransaction, type Database, type Transaction } from '../database.ts';

/** How spending against a key's monthly limit went. */
export type SpendOutcome = { ok: true } | { ok: false; reason: 'limit'; limit: number; spent: number } | { ok: false; reason: 'revoked' };

interface SpendingRow {
  monthly_credit_limit: number | string | null;
  spent_month: string | null;
  spent_credits: number | string;
  revoked_at: number | string | null;
}

/**
 * In one transaction: adds `amount` to the key's spending of `month` if it stays within the key's
 * limit (a new month starts from zero), then runs `step` (the credit reservation). A step that
 * throws rolls the spending back with it.
 */
export function spendWithinLimit<T>(
  db: Database,
  table: string,
  id: string,
  month: string,
  amount: number,
  step: (trx: Transaction) => Promise<T>,
): Promise<{ outcome: SpendOutcome; value?: T }> {
  return db.transaction(async (trx) => {
    const outcome = await spendIn(trx, table, id, month, amount);
    return outcome.ok ? { outcome, value: await step(asTransaction(trx)) } : { outcome };
  });
}

/**
 * Adds `amount` to the key's spending of `month` within its limit, inside the caller's transaction
 * (an export job's insert); the spending commits or rolls back with it.
 */
export async function spendIn(trx: Knex, table: string, id: string, month: string, amount: number): Promise<SpendOutcome> {
  const total = trx.raw('CASE WHEN spent_month = ? THEN spent_credits + ? ELSE ? END', [month, amount, amount]);
  const changed = await trx(table)
    .where({ id })
    .whereNull('revoked_at')
    .andWhere((q: Knex.QueryBuilder) =>
      q
        .whereNull('monthly_credit_limit')
        .orWhereRaw('(CASE WHEN spent_month = ? THEN spent_credits + ? ELSE ? END) <= monthly_credit_limit', [month, amount, amount]),
    )
    .update({ spent_credits: total, spent_month: month });
  if (changed === 1) return { ok: true };
  const row = (await trx(table).where({ id }).first()) as SpendingRow | undefined;
  if (!row || row.revoked_at !== null) return { ok: false, reason: 'revoked' };
  const spent = row.spent_month === month ? Number(row.spent_credits) : 0;
  return { ok: false, reason: 'limit', limit: Number(row.monthly_credit_limit), spent };
}

/** Gives back what spendWithinLimit took for `month` (a render that failed or was not charged); nothing once the month turned. */
export async function giveBack(db: Database, table: string, id: string, month: string, amount: number): Promise<void> {
  await db(table)
    .where({ id, spent_month: month })
    .update({ spent_credits: db.raw('CASE WHEN spent_credits >= ? THEN spent_credits - ? ELSE 0 END', [amount, amount]) });
}
