import type { Knex } from 'knex';

// Outbound webhooks: each workspace's signing secret (created on first read, replaced on rotate)
// and a log of every delivery attempt. The secret is stored in clear because it signs (HMAC).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_secrets', (t) => {
    t.string('workspace_id', 64).primary().references('id').inTable('workspaces').onDelete('CASCADE');
    t.string('secret', 128).notNullable(); // whsec_<base64 of 32 random bytes>
    t.bigInteger('created_at').notNullable();
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.string('id', 64).primary();
    t.string('workspace_id', 64).notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    // The Standard Webhooks message id: the same on every attempt of one delivery.
    t.string('webhook_id', 64).notNullable();
    t.string('url', 2048).notNullable();
    t.string('event_type', 64).notNullable();
    t.integer('attempt').notNullable(); // 1-based
    t.integer('status_code'); // the HTTP status, when a response arrived
    t.string('error', 500); // why the attempt failed, when it did without (or despite) a response
    t.integer('duration_ms').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['workspace_id', 'created_at']);
    t.index(['webhook_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.dropTable('webhook_secrets');
}
