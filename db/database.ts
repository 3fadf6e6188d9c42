// Creates the knex instance for SQLite (local) or Postgres (hosted). Only db/ touches knex.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../src/config/config.ts';
import type { DependencyStatus } from '../src/lib/dependency-status.ts';
import { unavailableDependency } from '../src/lib/dependency-failure.ts';
import { migrationSource } from './migrations/index.ts';

export type Database = Knex;
export type DatabaseSettings = Config['database'];

// Timestamps are stored as epoch milliseconds in BIGINT columns; pg returns int8 as a string
// by default because it can exceed 2^53. Our values never do.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

const require = createRequire(import.meta.url);
// knex begins SQLite transactions with a deferred BEGIN, which upgrades to a write lock at the
// first write and can then fail at once with SQLITE_BUSY when another connection writes.
// BEGIN IMMEDIATE takes the write lock up front, so the busy timeout applies instead.
const ClientBetterSqlite3 = require('knex/lib/dialects/better-sqlite3/index.js');
const TransactionSqlite = require('knex/lib/dialects/sqlite3/execution/sqlite-transaction.js');
class ImmediateTransaction extends TransactionSqlite {
  begin(conn: unknown) {
    return (this as unknown as { query(c: unknown, sql: string): Promise<unknown> }).query(conn, 'BEGIN IMMEDIATE;');
  }
}
class ImmediateSqliteClient extends ClientBetterSqlite3 {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  transaction(...args: any[]) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return new (ImmediateTransaction as any)(this, ...args);
  }
}

export interface DatabaseOptions {
  /** knex's own messages (pool and connection warnings, deprecations) go here instead of the console. */
  logger?: Pick<Logger, 'debug' | 'warn' | 'error'>;
  /** Told of connections and queries that fail because the database cannot be reached, and of every query that succeeds. */
  dependencies?: DependencyStatus;
}

/** knex's log option: its messages as JSON log lines, never the console. */
function knexLog({ logger, dependencies }: DatabaseOptions): Knex.Config['log'] {
  if (!logger) return undefined;
  const line = (level: 'debug' | 'warn' | 'error') => (message: unknown) => {
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    // A connection the pool could not make (the database is down or restarting): part of an outage,
    // logged once (src/lib/dependency-status.ts); the message alone at debug — knex prints a stack on
    // every failed attempt, several a second while the database is away.
    if (text.startsWith('Acquire connection error')) {
      const firstLine = text.split('\n')[0];
      dependencies?.unavailable('database', firstLine);
      logger.debug({ component: 'knex' }, firstLine);
      return;
    }
    // A pooled connection the server dropped, found and discarded when next acquired (often after the
    // database is back): not news of an outage, only a debug line.
    if (text.startsWith('Connection Error:')) {
      logger.debug({ component: 'knex' }, text.split('\n')[0]);
      return;
    }
    logger[level]({ component: 'knex' }, text);
  };
  return { debug: line('debug'), warn: line('warn'), error: line('error'), deprecate: line('warn') };
}

/** What knex passes its query events: the query, with a uid unique to it. */
interface KnexQueryEvent {
  __knexQueryUid?: string;
}

export function createDatabase(settings: DatabaseSettings, options: DatabaseOptions = {}): Database {
  const db = createKnex(settings, options);
  const { dependencies } = options;
  if (dependencies) {
    // A query sent after an outage began that answers means the database is back; one that fails to
    // connect means it is not. knex emits 'query' as a query is sent and exactly one of 'query-response'
    // and 'query-error' when it ends, each with the query's uid, so the map holds only queries in flight.
    const started = new Map<string, number>();
    db.on('query', ({ __knexQueryUid: uid }: KnexQueryEvent) => {
      if (uid) started.set(uid, dependencies.operationStart());
    });
    db.on('query-response', (_response: unknown, { __knexQueryUid: uid }: KnexQueryEvent) => {
      const startedAt = uid ? started.get(uid) : undefined;
      if (uid) started.delete(uid);
      dependencies.available('database', startedAt);
    });
    db.on('query-error', (err: unknown, { __knexQueryUid: uid }: KnexQueryEvent) => {
      if (uid) started.delete(uid);
      if (unavailableDependency(err) === 'database') dependencies.unavailable('database', err);
    });
  }
  return db;
}

function createKnex(settings: DatabaseSettings, options: DatabaseOptions): Database {
  const log = knexLog(options);
  if (settings.client === 'sqlite') {
    if (settings.filename !== ':memory:') mkdirSync(path.dirname(settings.filename), { recursive: true });
    return knexFactory({
      client: ImmediateSqliteClient as unknown as typeof Knex.Client,
      connection: { filename: settings.filename },
      useNullAsDefault: true,
      log,
      pool: {
        min: 1,
        max: 1,
        afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
          try {
            conn.pragma('journal_mode = WAL');
            conn.pragma('busy_timeout = 5000');
            conn.pragma('synchronous = NORMAL');
            conn.pragma('foreign_keys = ON');
            done(null, conn);
          } catch (err) {
            done(err as Error, conn);
          }
        },
      },
      migrations: { migrationSource },
    });
  }
  return knexFactory({
    client: 'pg',
    // A server that does not answer (a failover in progress) fails a connection attempt after 5 s, not never.
    connection: { connectionString: settings.url, application_name: 'render-service', connectionTimeoutMillis: 5_000 },
    pool: { min: 0, max: 10 },
    log,
    migrations: { migrationSource },
  });
}

export async function migrateToLatest(db: Database): Promise<string[]> {
  const [, applied] = (await db.migrate.latest()) as [number, string[]];
  return applied;
}

export function isPostgres(db: Database): boolean {
  return db.client.config.client === 'pg';
}

/** Runs `$1`-style SQL, the way pg-boss hands it over. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

declare const transactionBrand: unique symbol;

/**
 * A database transaction as the layers above db/ hold it: opaque, only handed back to repositories
 * (which alone use knex), so a service can make its writes part of another's transaction without
 * knowing what a transaction is made of.
 */
export type Transaction = { readonly [transactionBrand]: 'Transaction' };

/** The knex transaction behind a Transaction (repositories only). */
export function knexOf(trx: Transaction): Knex.Transaction {
  return trx as unknown as Knex.Transaction;
}

/** A knex transaction as the layers above see it. */
export function asTransaction(trx: Knex.Transaction): Transaction {
  return trx as unknown as Transaction;
}

/**
 * Runs SQL on a Postgres transaction's own connection, so what another library writes through it
 * (a pg-boss message) commits or rolls back with the rows beside it. knex binds `?` placeholders
 * only, hence the connection itself rather than `trx.raw`.
 */
export function transactionExecutor(transaction: Transaction): SqlExecutor {
  const trx = knexOf(transaction);
  return {
    async executeSql(text, values = []) {
      const connection = await (trx.client as unknown as { acquireConnection(): Promise<pg.ClientBase> }).acquireConnection();
      return connection.query(text, values);
    },
  };
}
