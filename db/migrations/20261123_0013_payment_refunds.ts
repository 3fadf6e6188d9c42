import type { Knex } from 'knex';

// Money refunded per payment intent, as the provider last reported it (its `amount_refunded` is
// cumulative). The provider does not promise event order: a refund may arrive before the payment
// completes, so it is kept here and the completion applies it. The row is also the lock both
// events take first (an upsert), so a completion and a refund running at once are serialised.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payment_refunds', (t) => {
    t.string('payment_intent_id', 255).primary();
    t.bigInteger('amount_refunded').notNullable().defaultTo(0);
    t.bigInteger('updated_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('payment_refunds');
}
