import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('blobs', (t) => {
    t.string('key', 160).primary();
    t.binary('bytes').notNullable();
    t.integer('size').notNullable();
    t.bigInteger('created_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('blobs');
}
