import type { FastifyReply } from 'fastify';
import type { Database, Db } from './client.js';

/** Response header with how many seconds the report's data are behind the primary (replica only). */
export const DATA_AGE_HEADER = 'X-Data-Age';

/** How long one lag reading is reused: reports do not pay an extra query each. */
const LAG_TTL_MS = 1_000;

// On a standby: zero when everything received has been replayed (an idle primary sends nothing,
// and the data are current however old the last transaction is), otherwise how far replay is behind.
const LAG_SQL = `
  SELECT CASE
           WHEN NOT pg_is_in_recovery() THEN 0
           WHEN pg_last_wal_receive_lsn() IS NOT NULL AND pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
           ELSE GREATEST(0, EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()))
         END::float8 AS lag`;

/**
 * Where reports, dashboards, exports and the finance summary read (docs/decisions/0015): the
 * streaming replica of REPORTS_DATABASE_URL when there is one, else the primary. Writes, and reads
 * that must see the request's own writes, always use the primary (`app.db`).
 */
export interface ReportsReader {
  /** True when a replica is configured. */
  readonly replica: boolean;
  /**
   * The executor for one report. With a replica it also sets X-Data-Age on the reply; when the
   * replica does not answer, the report reads the primary (no header) rather than failing.
   */
  db(reply: FastifyReply): Promise<Db>;
  /** The replica's lag in seconds (null: no replica, or it does not answer). */
  lag(): Promise<number | null>;
}

export function reportsReader(primary: Database, replica?: Database | null): ReportsReader {
  if (!replica) {
    return { replica: false, db: async () => primary.db, lag: async () => null };
  }
  let cached: { at: number; lag: number | null } | null = null;
  let pending: Promise<number | null> | null = null;
  const read = async (): Promise<number | null> => {
    try {
      const { rows } = await replica.pool.query<{ lag: number }>(LAG_SQL);
      return rows[0]?.lag ?? 0;
    } catch {
      return null;
    }
  };
  const lag = async () => {
    if (cached && Date.now() - cached.at < LAG_TTL_MS) return cached.lag;
    // One reading at a time: concurrent reports share it.
    pending ??= read().then((v) => {
      cached = { at: Date.now(), lag: v };
      pending = null;
      return v;
    });
    return pending;
  };
  return {
    replica: true,
    lag,
    async db(reply) {
      const seconds = await lag();
      if (seconds === null) return primary.db;
      reply.header(DATA_AGE_HEADER, String(Math.floor(seconds)));
      return replica.db;
    },
  };
}
