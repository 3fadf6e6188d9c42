import type { Knex } from 'knex';

// Times are epoch milliseconds (BIGINT): identical on SQLite and Postgres, cheap to compare.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('workspaces', (t) => {
    t.string('id', 64).primary();
    t.string('name', 200).notNullable();
    t.string('kind', 16).notNullable(); // 'local' | 'personal'
    t.bigInteger('created_at').notNullable();
  });
  await knex.schema.createTable('api_keys', (t) => {
    t.string('id', 64).primary();
    t.string('workspace_id', 64).notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.string('label', 200).notNullable();
    t.string('prefix', 32).notNullable();
    // sha256 hex of the secret; secrets are high-entropy, so a fast hash is right.
    t.string('secret_hash', 64).notNullable().unique();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('last_used_at');
    t.bigInteger('revoked_at');
    t.index(['workspace_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('api_keys');
  await knex.schema.dropTable('workspaces');
}
