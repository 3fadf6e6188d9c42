import type { Knex } from 'knex';

// URL signing keys (signed public recipe URLs): separate from API keys, whose secrets never go into
// a URL. The service must sign (POST /v1/url-signing-keys/{id}/sign) and verify, so it keeps the
// HMAC key, `signing_key` = SHA-256(secret), never the secret itself. `spent_month` ('2026-11', UTC)
// and `spent_credits` count what renders through the key cost this month, checked against
// `monthly_credit_limit` in the transaction that reserves the credits.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('url_signing_keys', (t) => {
    t.string('id', 64).primary();
    t.string('workspace_id', 64).notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.string('label', 200).notNullable();
    t.string('prefix', 32).notNullable();
    // hex SHA-256 of the secret: the HMAC key of its signatures.
    t.string('signing_key', 64).notNullable().unique();
    t.bigInteger('monthly_credit_limit');
    t.integer('max_age_seconds').notNullable();
    t.string('spent_month', 7);
    t.bigInteger('spent_credits').notNullable().defaultTo(0);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('last_used_at');
    t.bigInteger('revoked_at');
    t.index(['workspace_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('url_signing_keys');
}
