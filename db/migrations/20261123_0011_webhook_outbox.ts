import type { Knex } from 'knex';

// Outbound webhook messages waiting for delivery: the outbox. A message outlives the process that
// started it: one that stops (SIGTERM, crash) between attempts leaves it here, and any process picks
// it up when its next attempt is due and no live process holds it.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_outbox', (t) => {
    t.string('webhook_id', 64).primary(); // the Standard Webhooks message id, the same on every attempt
    t.string('workspace_id', 64).notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.string('url', 2048).notNullable();
    t.string('event_type', 64).notNullable();
    t.text('body').notNullable(); // fixed once: every attempt sends the same bytes
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('status', 16).notNullable(); // pending | delivered | failed
    t.bigInteger('next_attempt_at').notNullable();
    t.string('locked_by', 64); // the process delivering it now
    t.bigInteger('locked_until');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['status', 'next_attempt_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_outbox');
}
