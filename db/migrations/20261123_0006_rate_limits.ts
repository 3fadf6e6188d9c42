import type { Knex } from 'knex';

// Rate-limit counters shared by every API process (src/services/rate-limit.service.ts). The shape
// is the one rate-limiter-flexible's RateLimiterPostgres expects — it inserts positionally
// (key, points, expire) and upserts ON CONFLICT (key) — created here so the library never runs DDL
// at runtime (`tableCreated: true`). One row per bucket and fixed window: `key` is
// "<bucket>:<id>" (rl_ws:<workspace id>, rl_key:<key id>), `points` the requests counted in the
// window, `expire` when it ends (epoch ms). Expired rows are reset in place by the next request and
// swept periodically. SQLite gets the same table (local mode counts in memory and leaves it empty),
// so both engines share one schema.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limits', (t) => {
    t.string('key', 255).primary();
    t.integer('points').notNullable().defaultTo(0);
    t.bigInteger('expire');
    t.index(['expire']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rate_limits');
}
