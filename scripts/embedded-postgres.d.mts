/** A throwaway Postgres cluster (see embedded-postgres.mjs): the URL of its `postgres` database and how to remove it. */
export function startEmbeddedPostgres(options: { prefix: string; flags?: string[] }): Promise<{ url: string; stop: () => Promise<void> }>;
