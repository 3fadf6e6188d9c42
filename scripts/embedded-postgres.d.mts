/**
 * A Postgres cluster (see embedded-postgres.mjs): with `prefix` a throwaway one in a temporary
 * directory, with `dir` one kept there between runs (on `port` while it is free). Resolves with the
 * URL of its `postgres` database, its port and how to stop it (and remove a throwaway one).
 */
export function startEmbeddedPostgres(
  options: { prefix: string; flags?: string[] } | { dir: string; port?: number; flags?: string[] },
): Promise<{ url: string; port: number; stop: () => Promise<void> }>;
