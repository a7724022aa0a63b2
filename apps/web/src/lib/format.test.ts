import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatMoney, formatMoneyShort, plural, todayIn } from './format';

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

  it('shows times on the 24-hour clock', () => {
    // 19:27 UTC is 16:27 in Buenos Aires: never "04:27 p. m.".
    expect(formatDateTime('2026-03-10T19:27:00Z').replace(/\s/g, ' ')).toBe('10/03/2026, 16:27');
    expect(formatDateTime('2026-03-10T03:05:00Z')).toContain('00:05');
  });

  it('chooses singular and plural by the locale rules', () => {
    expect(`1 ${plural(1, 'proveedor', 'proveedores')}`).toBe('1 proveedor');
    expect(`3 ${plural(3, 'proveedor', 'proveedores')}`).toBe('3 proveedores');
    expect(plural(0, 'venta', 'ventas')).toBe('ventas');
    expect(plural(1.5, 'kilo', 'kilos')).toBe('kilos');
  });

  it('shortens money for a chart axis, the same way for every size', () => {
    const short = (n: number) => formatMoneyShort(n).replace(/\s/g, ' ');
    expect(short(0)).toBe('$ 0');
    expect(short(950)).toBe('$ 950');
    expect(short(12000)).toBe('$ 12 mil');
    expect(short(-250000)).toBe('-$ 250 mil');
    expect(short(1500000)).toBe('$ 1,5 M');
  });
});
