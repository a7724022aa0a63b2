import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgTransaction } from 'drizzle-orm/pg-core';
import type { NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema/index.js';

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

export function connect(url: string, max = 10): Database {
  // Pipeline mode: statements sent together on one connection go out without waiting for each
  // other's answers (pipelinedTransaction); statements awaited one by one behave as usual.
  const pool = new pg.Pool({ connectionString: url, max, pipeline: true });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on the next query.
  });
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}
