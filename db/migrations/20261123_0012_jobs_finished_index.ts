import type { Knex } from 'knex';

// Finished jobs by time: the sweep that sends webhooks a crash left unqueued looks at a recent window.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('jobs', (t) => {
    t.index(['finished_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('jobs', (t) => {
    t.dropIndex(['finished_at']);
  });
}
