import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';

const dialect = new PgDialect();

export type Row = Record<string, unknown>;

/**
 * Writes statements one after another without waiting in between and resolves, once all have
 * answered, with their results in order; rejects with the first error (the statements behind a
 * failed one fail too: the transaction is aborted). `commit` ends the transaction with the
 * statements, so nothing waits for the application between the last statement and COMMIT.
 */
export type Send = (statements: SQL[], opts?: { commit?: boolean }) => Promise<pg.QueryResult<Row>[]>;

/**
 * One transaction on one pooled connection in pipeline mode (the pool is created with
 * `pipeline: true`): each `send` costs one round trip however many statements it carries. The
 * first `send` begins the transaction and the callback must end it with `send(…, { commit: true })`;
 * when the callback throws, or returns with the transaction still open, it is rolled back.
 */
export async function pipelinedTransaction<T>(pool: pg.Pool, fn: (send: Send) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let begun = false;
  const send: Send = async (statements, opts) => {
    const all = [...(begun ? [] : [sql`BEGIN`]), ...statements, ...(opts?.commit ? [sql`COMMIT`] : [])];
    const skip = begun ? 0 : 1;
    begun = true;
    const settled = await Promise.allSettled(
      all.map((s) => {
        const q = dialect.sqlToQuery(s);
        return client.query<Row>(q.sql, q.params);
      }),
    );
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    const results = settled.map((r) => (r as PromiseFulfilledResult<pg.QueryResult<Row>>).value);
    // A COMMIT after a failed statement answers ROLLBACK instead of failing.
    if (opts?.commit && results[results.length - 1].command !== 'COMMIT')
      throw new Error('la transacción no se confirmó');
    return results.slice(skip, opts?.commit ? -1 : undefined);
  };
  let broken: unknown;
  try {
    const result = await fn(send);
    if (client.getTransactionStatus() !== 'I') throw new Error('pipelinedTransaction: la transacción quedó abierta');
    return result;
  } catch (e) {
    if (client.getTransactionStatus() !== 'I') {
      await client.query('ROLLBACK').catch((err: unknown) => {
        broken = err;
      });
    }
    throw e;
  } finally {
    client.release(broken instanceof Error ? broken : undefined);
  }
}

/**
 * Runs `submit` (queries on `client`, not awaited) with the client's socket corked: what it sends
 * goes out in one write instead of one per query.
 */
export function corked<T>(client: pg.PoolClient, submit: () => T): T {
  const socket = (client as unknown as { connection?: { stream?: { cork?(): void; uncork?(): void } } }).connection
    ?.stream;
  socket?.cork?.();
  try {
    return submit();
  } finally {
    socket?.uncork?.();
  }
}

/**
 * Reads sent together on one pooled connection, in one write (the socket corked) and answered in
 * order: one round trip and one wake-up of PostgreSQL for all of them, where parallel reads on
 * several connections cost one write and one wake-up each (issue 20, decision 0027). Each runs on
 * its own, outside a transaction, as they would on separate connections.
 */
export async function readTogether(pool: pg.Pool, statements: SQL[]): Promise<pg.QueryResult<Row>[]> {
  const client = await pool.connect();
  const pending = corked(client, () =>
    statements.map((s) => {
      const q = dialect.sqlToQuery(s);
      return client.query<Row>(q.sql, q.params);
    }),
  );
  const settled = await Promise.allSettled(pending);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  // An error PostgreSQL reports (it has a code) leaves the connection usable; any other one
  // (a lost connection) discards it.
  client.release(failed && !(failed.reason as { code?: string })?.code ? (failed.reason as Error) : undefined);
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<pg.QueryResult<Row>>).value);
}
