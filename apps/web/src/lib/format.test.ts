import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatMoney, todayIn } from './format';

describe('formatting with the business locale, currency and time zone', () => {
  it('formats pesos the Argentine way', () => {
    expect(formatMoney(1234567.5).replace(/\s/g, ' ')).toBe('$ 1.234.567,50');
    expect(formatMoney(0).replace(/\s/g, ' ')).toBe('$ 0,00');
  });

  it('follows another currency and locale', () => {
    const usd = formatMoney(1234.5, { locale: 'en-US', currency: 'USD', timezone: 'America/New_York' });
    expect(usd).toBe('$1,234.50');
  });

  it('shows calendar dates without shifting the day', () => {
    expect(formatDate('2026-03-01')).toBe('01/03/2026');
  });

  it('shows instants and "today" in the business time zone', () => {
    const late = new Date('2026-04-01T01:30:00Z'); // still March 31 in Buenos Aires
    expect(todayIn('America/Argentina/Buenos_Aires', late)).toBe('2026-03-31');
    expect(todayIn('Europe/Madrid', late)).toBe('2026-04-01');
    expect(formatDateTime(late.toISOString())).toMatch(/^31\/03\/2026/);
  });
});
