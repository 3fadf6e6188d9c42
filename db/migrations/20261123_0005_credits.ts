import type { Knex } from 'knex';

// Credits as a small two-phase ledger, and usage records.
//  - credit_balances: one row per workspace; `credits` is posted (purchased − committed − refunded),
//    `reserved` is the sum of pending reservations. Reserving is one conditional UPDATE
//    (`credits − reserved >= cost`), so concurrent renders can never overdraw.
//  - credit_entries: every movement. Reservations go pending → committed | released exactly once
//    (conditional status updates); a pending one past `expires_at` is released by a sweeper.
//  - usage_records: what was rendered, by whom, for how much; `day` (UTC) makes summaries cheap.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('credit_balances', (t) => {
    t.string('workspace_id', 64).primary().references('id').inTable('workspaces').onDelete('CASCADE');
    t.bigInteger('credits').notNullable().defaultTo(0);
    t.bigInteger('reserved').notNullable().defaultTo(0);
    t.bigInteger('updated_at').notNullable();
  });
  await knex.schema.createTable('credit_entries', (t) => {
    t.string('id', 64).primary();
    t.string('workspace_id', 64).notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.string('kind', 16).notNullable(); // purchase | reservation | refund | grant
    t.string('status', 16).notNullable(); // posted | pending | committed | released
    t.bigInteger('amount').notNullable();
    t.string('reference', 200); // purchase id, recipe hash, job id
    t.string('description', 200);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.bigInteger('expires_at');
    t.index(['workspace_id', 'created_at']);
    t.index(['status', 'expires_at']);
  });
  await knex.schema.createTable('usage_records', (t) => {
    t.string('id', 64).primary();
    t.string('workspace_id', 64).notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.string('key_id', 64);
    t.string('operation', 40).notNullable();
    t.string('generator', 64).notNullable();
    t.string('format', 8).notNullable();
    t.integer('credits').notNullable();
    t.bigInteger('bytes').notNullable();
    t.integer('duration_ms').notNullable();
    t.string('cache', 16).notNullable(); // HIT | MISS | NOT_MODIFIED
    t.string('day', 10).notNullable(); // YYYY-MM-DD, UTC
    t.bigInteger('created_at').notNullable();
    t.index(['workspace_id', 'day']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('usage_records');
  await knex.schema.dropTable('credit_entries');
  await knex.schema.dropTable('credit_balances');
}
