import type { Executor } from '../../db/client.js';
import type { DailySales } from './sales-drop.js';

/*
 * Data access for the sales-drop alert. THERE IS NO SALES TABLE YET: the sales module comes
 * later, and its engineer implements these two functions against it (non-voided sales only,
 * grouped by the calendar day of the sale in `timezone`, e.g.
 * `(fecha AT TIME ZONE $tz)::date`). Until then there are no sales, so the alert never fires.
 */

/** Sales total per calendar day in `timezone`, for the days in [from, to] that had sales (ascending). */
export async function dailySalesTotals(
  _ex: Executor,
  _businessId: string,
  _from: string,
  _to: string,
  _timezone: string,
): Promise<DailySales[]> {
  return [];
}

/** The calendar date (in `timezone`) of the business's first sale, or null when it has none. */
export async function firstSaleDate(_ex: Executor, _businessId: string, _timezone: string): Promise<string | null> {
  return null;
}
