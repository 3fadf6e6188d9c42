import type { Knex } from 'knex';

// Scoped API keys with a monthly credit limit (docs/accounts-keys-credits-billing.md#scoped-keys).
// `scopes` is a JSON array of scope names (text, the same on SQLite and Postgres); NULL is a key
// made before scopes or without them: full access, as every key had. `monthly_credit_limit`,
// `spent_month` ('2026-11', UTC) and `spent_credits` work as url_signing_keys' do: the month's
// spending is moved by a conditional update in the transaction that reserves a render's credits.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.text('scopes');
    t.bigInteger('monthly_credit_limit');
    t.string('spent_month', 7);
    t.bigInteger('spent_credits').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.dropColumn('scopes');
    t.dropColumn('monthly_credit_limit');
    t.dropColumn('spent_month');
    t.dropColumn('spent_credits');
  });
}
