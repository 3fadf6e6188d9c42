import type { Knex } from 'knex';

// What an export job counts against its API key's monthly credit limit
// (docs/accounts-keys-credits-billing.md#monthly-credit-limits): `key_spent_month` ('2026-11', UTC)
// is the month the submission spent in, `key_spent_credits` what it still counts there. Both are
// written with the job row, in the transaction that moves the key's spending; giving the spending
// back sets the credits to 0 by a conditional update, so it happens once, whichever path ends the job.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('jobs', (t) => {
    t.string('key_spent_month', 7);
    t.bigInteger('key_spent_credits').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('jobs', (t) => {
    t.dropColumn('key_spent_month');
    t.dropColumn('key_spent_credits');
  });
}
