import type { Knex } from 'knex';

// A client's own data attached to an export job (`metadata`, at most 20 string values): stored as
// JSON text, returned with the job and in its webhooks, never part of the recipe or its hash.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('jobs', (t) => {
    t.text('metadata').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('jobs', (t) => {
    t.dropColumn('metadata');
  });
}
