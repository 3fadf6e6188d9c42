import type { Knex } from 'knex';

// Tables of the sign-in library (better-auth), written by hand so one migration set owns the
// schema. Names and types match what better-auth generates for the mapping in
// src/services/sign-in.ts (`getMigrations` reports nothing to do; a test checks it): SQLite
// columns typed `date` and Postgres `timestamptz`, as better-auth expects. Plus the owner of a
// personal workspace.
export async function up(knex: Knex): Promise<void> {
  const sqlite = knex.client.config.client !== 'pg';
  const ts = (t: Knex.CreateTableBuilder, name: string) => (sqlite ? t.specificType(name, 'date') : t.timestamp(name, { useTz: true }));

  await knex.schema.createTable('users', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    t.text('email').notNullable().unique();
    t.boolean('email_verified').notNullable().defaultTo(false);
    t.text('image');
    ts(t, 'created_at').notNullable().defaultTo(knex.fn.now());
    ts(t, 'updated_at').notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('sessions', (t) => {
    t.text('id').primary();
    ts(t, 'expires_at').notNullable();
    t.text('token').notNullable().unique();
    ts(t, 'created_at').notNullable().defaultTo(knex.fn.now());
    ts(t, 'updated_at').notNullable();
    t.text('ip_address');
    t.text('user_agent');
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.index(['user_id'], 'sessions_user_id_idx');
  });
  await knex.schema.createTable('accounts', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable();
    t.text('provider_id').notNullable();
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('access_token');
    t.text('refresh_token');
    t.text('id_token');
    ts(t, 'access_token_expires_at');
    ts(t, 'refresh_token_expires_at');
    t.text('scope');
    t.text('password');
    ts(t, 'created_at').notNullable().defaultTo(knex.fn.now());
    ts(t, 'updated_at').notNullable();
    t.index(['user_id'], 'accounts_user_id_idx');
    // One of our users per provider identity.
    t.unique(['provider_id', 'account_id']);
  });
  await knex.schema.createTable('verifications', (t) => {
    t.text('id').primary();
    t.text('identifier').notNullable();
    t.text('value').notNullable();
    ts(t, 'expires_at').notNullable();
    ts(t, 'created_at').notNullable().defaultTo(knex.fn.now());
    ts(t, 'updated_at').notNullable().defaultTo(knex.fn.now());
    t.index(['identifier'], 'verifications_identifier_idx');
  });
  await knex.schema.alterTable('workspaces', (t) => {
    // The user whose personal workspace this is (null for the local workspace); one each.
    t.text('owner_user_id').nullable().unique().references('id').inTable('users').onDelete('CASCADE');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workspaces', (t) => {
    t.dropUnique(['owner_user_id']);
    t.dropColumn('owner_user_id');
  });
  for (const table of ['verifications', 'accounts', 'sessions', 'users']) await knex.schema.dropTableIfExists(table);
}
