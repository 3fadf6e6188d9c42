import type { Knex } from 'knex';

// Templates: a workspace's own designs. A template row names the design and its latest version;
// each version is immutable (its spec as JSON text, identical on SQLite and Postgres) and stays
// renderable while the template exists. Deleting a template marks it (`deleted_at`): its versions
// answer 404 from then on, and its id is never reused. Times are epoch ms (BIGINT).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('templates', (t) => {
    t.string('id', 64).primary();
    t.string('workspace_id', 64).notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.integer('latest_version').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.bigInteger('deleted_at').nullable();
    t.index(['workspace_id', 'created_at']);
  });
  await knex.schema.createTable('template_versions', (t) => {
    t.string('template_id', 64).notNullable().references('id').inTable('templates').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.string('name', 200).notNullable();
    t.text('spec').notNullable();
    t.bigInteger('created_at').notNullable();
    t.primary(['template_id', 'version']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('template_versions');
  await knex.schema.dropTable('templates');
}
