import type { Knex } from 'knex';

// Assets (#42): images and fonts uploaded by a workspace, keyed by (workspace_id, id); the id is
// derived from the uploaded bytes (`ast_` + 32 hex digits of their SHA-256), so one file is one row
// per workspace. The file itself (an image normalized to a PNG, a font as uploaded) is in the blob
// store under `assets/` at `storage_key`. A deleted asset keeps its row and file (`deleted_at` set):
// template versions that use it keep rendering. Times are epoch ms (BIGINT).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('assets', (t) => {
    t.string('workspace_id', 64).notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.string('id', 40).notNullable();
    t.string('kind', 8).notNullable();
    t.string('content_type', 32).notNullable();
    t.bigInteger('bytes').notNullable();
    t.string('sha256', 64).notNullable();
    t.string('storage_key', 140).notNullable();
    t.integer('width');
    t.integer('height');
    t.string('family', 200);
    t.integer('weight');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('deleted_at');
    t.primary(['workspace_id', 'id']);
    t.index(['workspace_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('assets');
}
