import { SALES_DROP_RECENT_DAYS } from '@mostrador/shared';
import { addDays } from '../../lib/dates.js';

/** Sales of one calendar day (business time zone), in currency units with at most 2 decimals. */
export interface DailySales {
  fecha: string;
  total: number;
}

export interface SalesDropSettings {
  /** sales_drop_threshold: percent, 1–100. */
  threshold: number;
  /** min_days_for_model: days of history the average is taken over, 7–365. */
  minDays: number;
}

export interface SalesDropWindows {
  recent: { desde: string; hasta: string };
  previous: { desde: string; hasta: string };
}

export interface SalesDrop {
  /** A: daily average of the last 7 complete days. */
  recentAverage: number;
  /** B: daily average of the min_days_for_model days before them. */
  previousAverage: number;
  /** (B − A) / B × 100, rounded to 2 decimals. */
  dropPercent: number;
  days: number;
}

/**
 * The two windows of API-CONTRACT §9.5: the last 7 complete days (today is still running) and
 * the `minDays` days before them.
 */
export function salesDropWindows(today: string, minDays: number): SalesDropWindows {
  const recentTo = addDays(today, -1);
  const recentFrom = addDays(today, -SALES_DROP_RECENT_DAYS);
  return {
    recent: { desde: recentFrom, hasta: recentTo },
    previous: { desde: addDays(recentFrom, -minDays), hasta: addDays(recentFrom, -1) },
  };
}

const toCents = (n: number) => BigInt(Math.round(n * 100));

/**
 * The sales-drop rule (API-CONTRACT §9.5), a pure function of the daily totals:
 * A = total of the last 7 complete days ÷ 7; B = daily average over the `minDays` days before
 * them. Evaluated only when the first sale is at least 7 + minDays days old and B > 0; raised
 * when (B − A) / B × 100 ≥ threshold. Returns the drop when raised, otherwise null.
 *
 * `firstSale` is the date of the business's first sale ever; when omitted, the earliest day of
 * `daily` with sales stands for it. Days outside both windows are ignored. The comparison is
 * exact (integer cents), so a drop of exactly the threshold raises the alert.
 */
export function salesDrop(
  daily: readonly DailySales[],
  settings: SalesDropSettings,
  today: string,
  firstSale?: string | null,
): SalesDrop | null {
  const { minDays } = settings;
  if (!Number.isInteger(minDays) || minDays < 1) return null;
  const w = salesDropWindows(today, minDays);
  const first =
    firstSale === undefined
      ? daily
          .filter((d) => d.total > 0)
          .map((d) => d.fecha)
          .sort()[0]
      : firstSale;
  // The first sale must be at least 7 + minDays days old: on or before the first day of the model.
  if (!first || first > w.previous.desde) return null;

  let recent = 0n;
  let previous = 0n;
  for (const d of daily) {
    if (d.fecha >= w.recent.desde && d.fecha <= w.recent.hasta) recent += toCents(d.total);
    else if (d.fecha >= w.previous.desde && d.fecha <= w.previous.hasta) previous += toCents(d.total);
  }
  if (previous <= 0n) return null;

  const days = BigInt(SALES_DROP_RECENT_DAYS);
  const n = BigInt(minDays);
  // (B − A) / B × 100 ≥ t  ⇔  100·(prev·7 − recent·n) ≥ t·prev·7, with t in hundredths.
  const thresholdHundredths = BigInt(Math.round(settings.threshold * 100));
  const lhs = 10_000n * (previous * days - recent * n);
  const rhs = thresholdHundredths * previous * days;
  if (lhs < rhs) return null;

  const a = Number(recent) / 100 / SALES_DROP_RECENT_DAYS;
  const b = Number(previous) / 100 / minDays;
  return {
    recentAverage: Math.round(a * 100) / 100,
    previousAverage: Math.round(b * 100) / 100,
    dropPercent: Math.round(((b - a) / b) * 10_000) / 100,
    days: minDays,
  };
}
