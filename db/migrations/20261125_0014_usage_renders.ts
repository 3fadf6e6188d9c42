import type { Knex } from 'knex';

// A usage row may stand for several identical renders (same workspace, key, operation, generator,
// format, cache status, credits and day) recorded within one flush: a burst of cache hits costs one
// row, not one row each. Existing rows stand for one render.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('usage_records', (t) => {
    t.integer('renders').notNullable().defaultTo(1);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('usage_records', (t) => {
    t.dropColumn('renders');
  });
}
