import type { Knex } from 'knex';

// Idempotency keys: the first request with a key claims it (status running), and its response is
// stored when it finishes, so a replay returns the same response without doing (or charging) the
// work again. Rows expire (see src/http/idempotency.ts).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.string('workspace_id', 64).notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.string('key', 255).notNullable();
    t.string('fingerprint', 64).notNullable();
    t.string('status', 16).notNullable(); // running | done
    t.integer('response_status');
    t.text('response_headers');
    t.binary('response_body');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.primary(['workspace_id', 'key']);
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('idempotency_keys');
}
