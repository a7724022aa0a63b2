import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgTransaction } from 'drizzle-orm/pg-core';
import type { NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema/index.js';
import { carryTenantOn } from './tenant.js';

// numeric stays a string (exact money); date stays 'YYYY-MM-DD' instead of a shifted JS Date.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export type Db = NodePgDatabase<typeof schema>;
export type Tx = PgTransaction<NodePgQueryResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;
/** Data-access functions take the executor first so a transaction is never bypassed by accident. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

/** Per-connection limits, in milliseconds (0 = no limit). */
export interface SessionTimeouts {
  statementMs: number;
  lockMs: number;
  idleInTransactionMs: number;
}

export const DEFAULT_TIMEOUTS: SessionTimeouts = { statementMs: 30_000, lockMs: 5_000, idleInTransactionMs: 60_000 };

/**
 * The timeouts travel in the connection's startup packet (libpq `options`), so the server applies
 * them when the session starts: no SET after connect that a transaction-mode pooler could hand to
 * another client. Behind PgBouncer, set them on the role instead (README, Operación).
 */
export function startupOptions(t: SessionTimeouts): string {
  return [
    `-c statement_timeout=${t.statementMs}`,
    `-c lock_timeout=${t.lockMs}`,
    `-c idle_in_transaction_session_timeout=${t.idleInTransactionMs}`,
  ].join(' ');
}

/**
 * How long a request waits for a connection (a new one, or a free one of a busy pool) before it
 * is answered 503: a database that does not answer fails the request in seconds instead of
 * holding it (decision 0033).
 */
export const CONNECT_TIMEOUT_MS = 5_000;

export function connect(
  url: string,
  max = 10,
  timeouts?: SessionTimeouts,
  connectTimeoutMs = CONNECT_TIMEOUT_MS,
): Database {
  // Pipeline mode: statements sent together on one connection go out without waiting for each
  // other's answers (pipelinedTransaction); statements awaited one by one behave as usual.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    pipeline: true,
    connectionTimeoutMillis: connectTimeoutMs,
    // A server that vanished without closing the socket (a dead host) is noticed by TCP.
    keepAlive: true,
    ...(timeouts ? { options: startupOptions(timeouts) } : {}),
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on the next query.
  });
  // A client lost while checked out (pool.connect(): transactions, pipelines, readTogether) emits
  // 'error' with no listener of the pool's own, which would end the process (issue 31). Its
  // queries are rejected anyway, and the pool drops it on release (it is no longer queryable).
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzle(pool, { schema });
  // Every statement carries the business of the code that sends it (row-level security, tenant.ts).
  return { db, pool: carryTenantOn(pool), close: () => pool.end() };
}

/** The pool a Db runs on (drizzle keeps it as `$client`). */
export const poolOf = (db: Db): pg.Pool => (db as Db & { $client: pg.Pool }).$client;

/** Socket errors of a lost or refused connection. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * PostgreSQL's: 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting
 * up, in recovery), 53300 too_many_connections; class 08 is connection_exception.
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
/** What pg says when the connection ended under a query, or could not be had in time. */
const LOST = /Connection terminated|not queryable|timeout exceeded when trying to connect/;

/**
 * Whether an error (or its cause, as drizzle wraps them) says the database could not be reached
 * or the connection was lost: the request failed for no fault of its own and may be tried again.
 */
export function isConnectionError(error: unknown): boolean {
  let e = error;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)))
      return true;
    if (typeof message === 'string' && LOST.test(message)) return true;
    e = cause;
  }
  return false;
}
