import type { Knex } from 'knex';

// Credit-pack purchases through the payment provider, and the provider events already processed
// (each event id once: the insert and its effect commit in one transaction).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('purchases', (t) => {
    t.string('id', 64).primary();
    t.string('workspace_id', 64).notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.string('pack_id', 64).notNullable();
    t.integer('credits').notNullable();
    t.integer('amount').notNullable();
    t.string('currency', 8).notNullable();
    t.string('status', 16).notNullable(); // pending | completed | refunded
    t.string('checkout_session_id', 255).unique();
    t.string('payment_intent_id', 255).index();
    t.integer('refunded_credits').notNullable().defaultTo(0);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['workspace_id', 'created_at']);
  });
  await knex.schema.createTable('payment_events', (t) => {
    t.string('id', 255).primary();
    t.string('type', 100).notNullable();
    t.bigInteger('received_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('payment_events');
  await knex.schema.dropTable('purchases');
}
