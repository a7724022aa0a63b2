import { sql } from 'drizzle-orm';
import { centsToNumber, zonedToInstant } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { addDays } from '../../lib/dates.js';
import { toCents } from '../products/common.js';
import type { DailySales } from './sales-drop.js';

/*
 * Data access for the sales-drop alert: completed (non-voided) sales net of returns, grouped by
 * the calendar day (of the sale, of the return) in the business time zone.
 */

/** Sales total per calendar day in `timezone`, for the days in [from, to] that had sales (ascending). */
export async function dailySalesTotals(
  ex: Executor,
  businessId: string,
  from: string,
  to: string,
  timezone: string,
): Promise<DailySales[]> {
  const start = zonedToInstant(from, timezone).toISOString();
  const end = zonedToInstant(addDays(to, 1), timezone).toISOString();
  const { rows } = await ex.execute<{ fecha: string; total: string }>(sql`
    SELECT (fecha AT TIME ZONE ${timezone})::date::text AS fecha, sum(total)::text AS total
      FROM (SELECT fecha, total FROM sales
             WHERE business_id = ${businessId} AND estado = 'completada'
               AND fecha >= ${start}::timestamptz AND fecha < ${end}::timestamptz
            UNION ALL
            SELECT fecha, -monto FROM devoluciones
             WHERE business_id = ${businessId} AND fecha >= ${start}::timestamptz AND fecha < ${end}::timestamptz) x
     GROUP BY 1
     ORDER BY 1`);
  return rows.map((r) => ({ fecha: r.fecha, total: centsToNumber(toCents(r.total)) }));
}

/** The calendar date (in `timezone`) of the business's first sale, or null when it has none. */
export async function firstSaleDate(ex: Executor, businessId: string, timezone: string): Promise<string | null> {
  const { rows } = await ex.execute<{ fecha: string | null }>(sql`
    SELECT (min(fecha) AT TIME ZONE ${timezone})::date::text AS fecha
      FROM sales
     WHERE business_id = ${businessId} AND estado = 'completada'`);
  return rows[0]?.fecha ?? null;
}
