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

export function connect(url: string, max = 10, timeouts?: SessionTimeouts): Database {
  // Pipeline mode: statements sent together on one connection go out without waiting for each
  // other's answers (pipelinedTransaction); statements awaited one by one behave as usual.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    pipeline: true,
    ...(timeouts ? { options: startupOptions(timeouts) } : {}),
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on the next query.
  });
  const db = drizzle(pool, { schema });
  // Every statement carries the business of the code that sends it (row-level security, tenant.ts).
  return { db, pool: carryTenantOn(pool), close: () => pool.end() };
}

/** The pool a Db runs on (drizzle keeps it as `$client`). */
export const poolOf = (db: Db): pg.Pool => (db as Db & { $client: pg.Pool }).$client;
