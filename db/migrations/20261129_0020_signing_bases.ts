import type { Knex } from 'knex';

// Signed bases (POST /v1/url-signing-keys/{id}/bases): a recipe fixed but for its declared slots,
// signed once by a URL signing key, whose public URL a page completes with slot values in the query.
// A row is immutable once written (its `definition`, JSON text identical on SQLite and Postgres, is
// what the URL's signature covers, with the id and the key); deleting a base removes the row, and its
// URLs then answer 401 like any unknown signed URL. A revoked key refuses its bases' URLs as well.
// Times are epoch ms (BIGINT).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('signing_bases', (t) => {
    t.string('id', 64).primary();
    t.string('workspace_id', 64).notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.string('key_id', 64).notNullable().references('id').inTable('url_signing_keys').onDelete('CASCADE');
    t.text('definition').notNullable();
    t.bigInteger('expires_at');
    t.bigInteger('created_at').notNullable();
    t.index(['key_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('signing_bases');
}
