import { sql, type SQL } from 'drizzle-orm';
import { keyedLimit } from '../../lib/keyed-limit.js';

/**
 * At most this many sales of one business inside PostgreSQL at a time, counting every instance
 * on the database. A business's sales take their numbers one at a time anyway (the counter row),
 * and a sale waiting there holds its products locked, so more of them in flight only makes sales
 * of the same products wait behind the queue: a few keep the counter busy (the next sales read
 * and lock while one commits) and the wait stays fair (bench/sales-record.mjs: at 20 connections,
 * p99 ~70 ms instead of ~150 ms, and more sales per second). On a loaded 2-core machine each
 * round trip waits for the CPU and 4 in flight left the counter idle between sales (issue 20,
 * decision 0022: 0.53 × the direct statements' sales/s with 4, 1.02 with 8, 0.95 with 12; p99
 * 190, 124 and 200 ms): 8 keeps it busy and leaves 12 of an instance's 20 connections to the rest.
 */
export const SALES_IN_FLIGHT = 8;

const queues = new WeakMap<object, ReturnType<typeof keyedLimit>>();

/**
 * The queue in front of a connection pool (one per instance): the sales past the limit wait there
 * first come first served without holding a connection. The limit across instances is `saleSlot`,
 * in the sale's transaction.
 */
export function inFlight(pool: object): ReturnType<typeof keyedLimit> {
  let queue = queues.get(pool);
  if (!queue) queues.set(pool, (queue = keyedLimit(SALES_IN_FLIGHT)));
  return queue;
}

/** Second key of the slots' advisory locks, apart from any other use of the two-key form. */
const SLOT_LOCKS = 0x73616c;

/**
 * The first statement of a sale's transaction: takes one of the business's SALES_IN_FLIGHT slots,
 * a transaction-scoped advisory lock (released by COMMIT or ROLLBACK, nothing left on the
 * session: a transaction-mode pooler stays possible). It tries each slot and, when all are taken
 * by sales in this or other instances, waits for one of them; the statements sent behind it in
 * the same round trip run once it has a slot.
 */
export function saleSlot(businessId: string): SQL {
  const slot = (n: number) => sql`hashtext(${`${businessId}/${n}`}), ${SLOT_LOCKS}`;
  const tries = Array.from(
    { length: SALES_IN_FLIGHT },
    (_, n) => sql`WHEN pg_try_advisory_xact_lock(${slot(n)}) THEN ${n}`,
  );
  const wait = Math.floor(Math.random() * SALES_IN_FLIGHT);
  // The ELSE subquery runs only when reached (an init plan is evaluated on first use).
  return sql`SELECT CASE ${sql.join(tries, sql` `)}
    ELSE (SELECT ${wait}::int FROM pg_advisory_xact_lock(${slot(wait)})) END AS slot`;
}
