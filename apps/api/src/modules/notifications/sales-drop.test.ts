import { describe, expect, it } from 'vitest';
import { addDays } from '../../lib/dates.js';
import { salesDrop, salesDropWindows, type DailySales } from './sales-drop.js';

const TODAY = '2026-03-15';

/** A history: `perDay` every day of [today − fromDaysAgo, today − toDaysAgo]. */
function days(fromDaysAgo: number, toDaysAgo: number, perDay: number | ((i: number) => number)): DailySales[] {
  const out: DailySales[] = [];
  for (let ago = fromDaysAgo, i = 0; ago >= toDaysAgo; ago--, i++) {
    out.push({ fecha: addDays(TODAY, -ago), total: typeof perDay === 'number' ? perDay : perDay(i) });
  }
  return out;
}

/** minDays of history at `before` per day, then the last 7 complete days at `recent` per day. */
const history = (minDays: number, before: number, recent: number) => [
  ...days(7 + minDays, 8, before),
  ...days(7, 1, recent),
];

const s = (threshold: number, minDays = 30) => ({ threshold, minDays });

describe('sales-drop windows', () => {
  it('are the last 7 complete days and the minDays days before them', () => {
    expect(salesDropWindows(TODAY, 30)).toEqual({
      recent: { desde: '2026-03-08', hasta: '2026-03-14' },
      previous: { desde: '2026-02-06', hasta: '2026-03-07' },
    });
    expect(salesDropWindows('2026-03-01', 15)).toEqual({
      recent: { desde: '2026-02-22', hasta: '2026-02-28' },
      previous: { desde: '2026-02-07', hasta: '2026-02-21' },
    });
  });
});

describe('sales-drop rule', () => {
  it('raises when the drop reaches the threshold exactly, not one cent above it', () => {
    // B = 100/day; A = 85/day → (100 − 85) / 100 = 15 %.
    const at = salesDrop(history(30, 100, 85), s(15), TODAY);
    expect(at).toEqual({ recentAverage: 85, previousAverage: 100, dropPercent: 15, days: 30 });
    // One cent more in the last 7 days: 14.99…% < 15 %.
    const justAbove = [...history(30, 100, 85)];
    justAbove[justAbove.length - 1] = { ...justAbove[justAbove.length - 1], total: 85.01 };
    expect(salesDrop(justAbove, s(15), TODAY)).toBeNull();
    // One cent less: 15.0…% ≥ 15 %.
    const justBelow = [...history(30, 100, 85)];
    justBelow[justBelow.length - 1] = { ...justBelow[justBelow.length - 1], total: 84.99 };
    expect(salesDrop(justBelow, s(15), TODAY)?.dropPercent).toBe(15);
  });

  it('uses the sensitivity of the business (30, 15, 10 and decimals)', () => {
    const h = history(30, 200, 150); // 25 % drop
    expect(salesDrop(h, s(30), TODAY)).toBeNull();
    expect(salesDrop(h, s(25), TODAY)?.dropPercent).toBe(25);
    expect(salesDrop(h, s(15), TODAY)?.dropPercent).toBe(25);
    expect(salesDrop(h, s(10), TODAY)?.dropPercent).toBe(25);
    expect(salesDrop(history(30, 100, 87.5), s(12.5), TODAY)?.dropPercent).toBe(12.5);
    expect(salesDrop(history(30, 100, 87.51), s(12.5), TODAY)).toBeNull();
    expect(salesDrop(history(30, 100, 0), s(100), TODAY)?.dropPercent).toBe(100);
  });

  it('does not raise when sales hold or grow', () => {
    expect(salesDrop(history(30, 100, 100), s(1), TODAY)).toBeNull();
    expect(salesDrop(history(30, 100, 140), s(1), TODAY)).toBeNull();
  });

  it('is evaluated only once the first sale is 7 + min_days_for_model days old', () => {
    // Exactly 37 days of history before today: evaluated.
    const full = history(30, 100, 50);
    expect(full[0].fecha).toBe('2026-02-06');
    expect(salesDrop(full, s(15), TODAY)).not.toBeNull();
    // The first sale one day later: 36 days old, not evaluated.
    expect(salesDrop(full.slice(1), s(15), TODAY)).toBeNull();
    // The given first-sale date decides, not the window's first day.
    expect(salesDrop(full.slice(1), s(15), TODAY, '2025-12-01')).not.toBeNull();
    expect(salesDrop(full, s(15), TODAY, '2026-02-07')).toBeNull();
    expect(salesDrop(full, s(15), TODAY, '2026-02-06')).not.toBeNull();
    // No sales ever.
    expect(salesDrop([], s(15), TODAY)).toBeNull();
    expect(salesDrop([], s(15), TODAY, null)).toBeNull();
  });

  it('follows min_days_for_model for both the age and the average', () => {
    const h = history(15, 100, 80); // 20 % drop over 15 + 7 days
    expect(salesDrop(h, s(15, 15), TODAY)).toEqual({
      recentAverage: 80,
      previousAverage: 100,
      dropPercent: 20,
      days: 15,
    });
    // With 30 days required the same history is too young.
    expect(salesDrop(h, s(15, 30), TODAY)).toBeNull();
    // With 7 days the previous window is the 7 days before the last 7.
    expect(salesDrop(h, s(15, 7), TODAY)?.days).toBe(7);
    expect(salesDrop(history(60, 100, 90), s(10, 60), TODAY)?.dropPercent).toBe(10);
    expect(salesDrop(history(60, 100, 90.01), s(10, 60), TODAY)).toBeNull();
  });

  it('averages over every calendar day, days without sales counting as zero', () => {
    // Sales of 300 every third day in the model (B = 100/day), 70 each day recently (A = 70/day).
    const model = days(37, 8, (i) => (i % 3 === 0 ? 300 : 0)).filter((d) => d.total > 0);
    const sparse = [...model, ...days(7, 1, 70)];
    expect(sparse[0].fecha).toBe('2026-02-06');
    expect(salesDrop(sparse, s(30), TODAY)).toEqual({
      recentAverage: 70,
      previousAverage: 100,
      dropPercent: 30,
      days: 30,
    });
    // Recent days without any sale: A = 0, a 100 % drop.
    expect(salesDrop(model, s(50), TODAY)?.dropPercent).toBe(100);
  });

  it('ignores today and days before the model window', () => {
    const h = [{ fecha: '2025-01-01', total: 1_000_000 }, ...history(30, 100, 85), { fecha: TODAY, total: 1_000_000 }];
    expect(salesDrop(h, s(15), TODAY)).toEqual({ recentAverage: 85, previousAverage: 100, dropPercent: 15, days: 30 });
  });

  it('needs a positive previous average', () => {
    const onlyRecent = days(7, 1, 50);
    expect(salesDrop(onlyRecent, s(1), TODAY, '2025-01-01')).toBeNull();
  });

  it('stays exact with large totals and cents', () => {
    const h = history(30, 999_999_999.99, 849_999_999.99);
    const r = salesDrop(h, s(15), TODAY);
    expect(r).not.toBeNull();
    expect(r!.dropPercent).toBe(15);
    expect(salesDrop(history(30, 0.03, 0.02), s(33.33), TODAY)?.dropPercent).toBe(33.33);
    expect(salesDrop(history(30, 0.03, 0.02), s(33.34), TODAY)).toBeNull();
  });
});
