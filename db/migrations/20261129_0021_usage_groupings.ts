import type { Knex } from 'knex';

// What usage groupings, budgets and their alerts need (issue #45):
//  - usage_records.key_kind: how the render was authenticated (api_key, signed_url, session, local),
//    so GET /v1/usage?groupBy=apiKey|signingKey groups by the kind of credential, not by an id's
//    prefix. Rows written before this are filled in from the ids' prefixes (`key_…` API keys, `usk_…`
//    URL signing keys); a row without a key is a session's or the local gateway's (left null).
//  - credit_entries (workspace_id, status, updated_at): a budget's spending this month is the sum of
//    the reservations committed in it, read on every charge.
//  - workspace_budgets: one row per workspace that set a monthly budget (PUT /v1/workspace/budget);
//    `alert_thresholds` is a JSON array of percentages, JSON text identical on SQLite and Postgres.
//  - budget_alerts: one row per workspace, month (UTC, YYYY-MM) and threshold crossed. The primary
//    key makes the alert happen once whichever process, and however many concurrent charges, see the
//    crossing: only the insert that lands sends the webhook.
// Times are epoch ms (BIGINT).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('usage_records', (t) => {
    t.string('key_kind', 16);
  });
  // `!` escapes `_` alike on SQLite (which has no default escape character) and Postgres.
  await knex('usage_records').whereRaw("key_id like ? escape '!'", ['key!_%']).update({ key_kind: 'api_key' });
  await knex('usage_records').whereRaw("key_id like ? escape '!'", ['usk!_%']).update({ key_kind: 'signed_url' });
  await knex.schema.alterTable('credit_entries', (t) => {
    t.index(['workspace_id', 'status', 'updated_at']);
  });
  await knex.schema.createTable('workspace_budgets', (t) => {
    t.string('workspace_id', 64).primary().references('id').inTable('workspaces').onDelete('CASCADE');
    t.bigInteger('monthly_credits').notNullable();
    t.text('alert_thresholds').notNullable();
    t.text('webhook_url');
    t.bigInteger('updated_at').notNullable();
  });
  await knex.schema.createTable('budget_alerts', (t) => {
    t.string('workspace_id', 64).notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.string('month', 7).notNullable();
    t.integer('threshold').notNullable();
    t.bigInteger('budget').notNullable();
    t.bigInteger('spent').notNullable();
    t.string('webhook_id', 200);
    t.bigInteger('created_at').notNullable();
    t.primary(['workspace_id', 'month', 'threshold']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('budget_alerts');
  await knex.schema.dropTableIfExists('workspace_budgets');
  await knex.schema.alterTable('credit_entries', (t) => {
    t.dropIndex(['workspace_id', 'status', 'updated_at']);
  });
  await knex.schema.alterTable('usage_records', (t) => {
    t.dropColumn('key_kind');
  });
}
