import { describe, expect, it } from 'vitest';
import { moneyInputText, parseDecimal, quantityText } from './decimal';

describe('parseDecimal', () => {
  it('reads amounts as typed in Argentina: comma decimals, dot thousands, and keypad dots', () => {
    expect(parseDecimal('$ 1.234,50', 2)).toBe(123450);
    expect(parseDecimal('1234,56', 2)).toBe(123456);
    expect(parseDecimal('1.500', 2)).toBe(150000);
    expect(parseDecimal('10.000', 2)).toBe(1000000);
    expect(parseDecimal('1.234.567', 2)).toBe(123456700);
    expect(parseDecimal('1.5', 2)).toBe(150);
    expect(parseDecimal('0.25', 2)).toBe(25);
    expect(parseDecimal('12', 2)).toBe(1200);
    expect(parseDecimal('1,234', 2)).toBeNull();
    expect(parseDecimal('1.2345', 2)).toBeNull();
    expect(parseDecimal('12.34.5', 2)).toBeNull();
  });

  it('reads quantities with up to 3 decimals; a lone dot is the decimal mark, as on a scale', () => {
    expect(parseDecimal('1,5', 3)).toBe(1500);
    expect(parseDecimal('0.25', 3)).toBe(250);
    expect(parseDecimal('2.250', 3)).toBe(2250);
    expect(parseDecimal('1.234,5', 3)).toBe(1234500);
    expect(parseDecimal('1,2345', 3)).toBeNull();
  });

  it('refuses what is not a non-negative number', () => {
    for (const t of ['', ' ', 'abc', '-1', '1e3', '1,2,3']) expect(parseDecimal(t, 2), t).toBeNull();
  });

  it('writes numbers back for inputs with a decimal comma', () => {
    expect(moneyInputText(123450)).toBe('1234,50');
    expect(moneyInputText(120000)).toBe('1200');
    expect(quantityText(1500)).toBe('1,5');
  });
});
