import { describe, expect, it } from 'vitest';
import {
  centsToDecimal,
  centsToNumber,
  exactCentsToNumber,
  MAX_EXACT_CENTS,
  money,
  parseCents,
  parseCentsExact,
} from './money.js';

describe('money', () => {
  it.each([
    [1234.5, 123450],
    ['1234.5', 123450],
    ['0.1', 10],
    [0.29, 29],
    ['  12 ', 1200],
    ['999999999999.99', 99999999999999],
  ])('parses %j exactly as %d cents', (input, cents) => {
    expect(parseCents(input)).toBe(cents);
  });

  it.each([['abc'], ['1,5'], [Number.NaN], [1e21], [{}], [null]])('does not parse %j', (input) => {
    expect(parseCents(input)).toBeNull();
  });

  it('validates inputs with Spanish messages', () => {
    expect(money().parse('1234.56')).toBe(123456);
    const msg = (v: unknown, opts = {}) => money(opts).safeParse(v).error?.issues[0].message;
    expect(msg(1.234)).toBe('Admite como máximo 2 decimales.');
    expect(msg('x')).toBe('Debe ser un número.');
    expect(msg(-1)).toBe('Debe ser mayor o igual a 0.');
    expect(msg(0, { positive: true })).toBe('Debe ser mayor a 0.');
    expect(msg(undefined)).toBe('Este campo es obligatorio.');
    expect(msg('1000000000000')).toBe('Debe ser menor o igual a 999999999999.99.');
  });

  it('adds in cents without float drift and formats for SQL and JSON', () => {
    const total = [0.1, 0.2, 0.3].map((v) => parseCents(v)!).reduce((a, b) => a + b, 0);
    expect(centsToNumber(total)).toBe(0.6);
    expect(centsToDecimal(123405)).toBe('1234.05');
    expect(centsToDecimal(-5)).toBe('-0.05');
  });

  it('keeps every cent of sums beyond 2^53 cents, and refuses to turn them into inexact numbers', () => {
    expect(parseCentsExact('100999999999998.99')).toBe(10099999999999899n);
    expect(parseCentsExact('-0.5')).toBe(-50n);
    expect(parseCentsExact('1,5')).toBeNull();
    expect(exactCentsToNumber(10099999999999899n)).toBeNull();
    expect(exactCentsToNumber(-10099999999999899n)).toBeNull();
    expect(exactCentsToNumber(BigInt(MAX_EXACT_CENTS) + 1n)).toBeNull();
    // Every amount up to the limit survives JSON as written.
    for (const cents of [BigInt(MAX_EXACT_CENTS), 999_999_999_999_901n, 123_456_789_012_345n, 1n, -1n]) {
      const n = exactCentsToNumber(cents)!;
      expect(parseCentsExact(JSON.stringify(n))).toBe(cents);
    }
  });
});
