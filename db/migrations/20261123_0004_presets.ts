import type { Knex } from 'knex';

// Presets: named recipes saved per workspace. The recipe is stored as given (JSON text, identical
// on SQLite and Postgres) with the hash it resolved to when saved. Times are epoch ms (BIGINT).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('presets', (t) => {
    t.string('id', 64).primary();
    t.string('workspace_id', 64).notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.text('recipe').notNullable();
    t.string('recipe_hash', 64).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['workspace_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('presets');
}
