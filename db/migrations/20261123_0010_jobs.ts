import type { Knex } from 'knex';

// Export jobs: the public source of truth for every job. A job is claimed with a lease
// (`locked_until`) that the running process extends with a heartbeat; a lease that runs out (the
// process died) makes the job claimable again.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('jobs', (t) => {
    t.string('id', 64).primary();
    t.string('workspace_id', 64).notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.string('key_id', 64);
    t.string('slug', 64).notNullable();
    t.text('recipe').notNullable(); // the encoded canonical recipe (base64url)
    t.string('recipe_hash', 64).notNullable();
    t.string('format', 8).notNullable();
    t.string('status', 16).notNullable(); // queued | running | completed | failed | cancelled
    t.float('progress').notNullable().defaultTo(0);
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('max_attempts').notNullable();
    t.boolean('cancel_requested').notNullable().defaultTo(false);
    t.text('error');
    t.string('content_type', 64);
    t.bigInteger('result_bytes');
    t.string('webhook_url', 2048);
    t.string('reservation_id', 64);
    t.string('locked_by', 64);
    t.bigInteger('locked_until');
    t.bigInteger('run_after').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.bigInteger('finished_at');
    t.bigInteger('expires_at');
    t.index(['workspace_id', 'created_at']);
    t.index(['status', 'run_after']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('jobs');
}
