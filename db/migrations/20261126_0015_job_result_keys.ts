import type { Knex } from 'knex';

// A completed job's result is an object of its own in the results blob store (`result_key`), kept
// until `expires_at`; the retention sweep deletes it then and clears the key. The partial index holds
// only jobs whose result is still stored, so the sweep stays cheap on a table of old jobs.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('jobs', (t) => {
    t.text('result_key').nullable();
  });
  await knex.raw('CREATE INDEX jobs_stored_results_by_expiry ON jobs (expires_at) WHERE result_key IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS jobs_stored_results_by_expiry');
  await knex.schema.alterTable('jobs', (t) => {
    t.dropColumn('result_key');
  });
}
