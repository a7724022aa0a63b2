import { z } from 'zod';

/**
 * Money is exact: inputs (numbers or numeric strings) become integer cents; outputs are JSON
 * numbers with at most two decimals (API-CONTRACT §1.2).
 */
export const MAX_MONEY_CENTS = 99_999_999_999_999;

export function parseCents(value: unknown): number | null {
  let s: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    s = String(value);
    if (/e/i.test(s)) return null;
  } else if (typeof value === 'string') {
    s = value.trim();
  } else return null;
  const m = /^(-)?(\d+)(?:\.(\d{0,2}))?$/.exec(s);
  if (!m) return null;
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -cents : cents;
}

export const centsToNumber = (cents: number): number => Math.round(cents) / 100;

/** "1234.50" for SQL numeric parameters. */
export function centsToDecimal(cents: number): string {
  const neg = cents < 0;
  const abs = Math.abs(Math.round(cents));
  return `${neg ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * The largest amount, in cents, that a JSON number carries exactly: 15 significant digits
 * (9999999999999.99). Sums beyond it (a report over many large amounts) cannot be answered as
 * numbers without changing their cents, so they are refused instead of rounded.
 */
export const MAX_EXACT_CENTS = 999_999_999_999_999;

/** A numeric string ("1234.50", "-3.5") as exact integer cents, at any size; null if it is not one. */
export function parseCentsExact(value: string): bigint | null {
  const m = /^(-)?(\d+)(?:\.(\d{0,2}))?$/.exec(value.trim());
  if (!m) return null;
  const cents = BigInt(m[2]) * 100n + BigInt((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -cents : cents;
}

/** Exact cents as a JSON number, or null when the number would not carry every cent. */
export function exactCentsToNumber(cents: bigint): number | null {
  if (cents > BigInt(MAX_EXACT_CENTS) || cents < -BigInt(MAX_EXACT_CENTS)) return null;
  return Number(cents) / 100;
}

/** A numeric string from the database ("1234.50") as a JSON number. */
export const decimalToNumber = (v: string | number | null): number | null => (v === null ? null : Number(v));

const tooManyDecimals = (v: unknown) =>
  (typeof v === 'number' || typeof v === 'string') && /^-?\d+\.\d{3,}$/.test(String(v).trim());

/** Money input → integer cents. `positive` requires > 0. */
export const money = (opts: { positive?: boolean } = {}) =>
  z.unknown().transform((v, ctx) => {
    if (v === undefined || v === null || v === '') {
      ctx.addIssue({ code: 'custom', message: 'Este campo es obligatorio.' });
      return z.NEVER;
    }
    if (tooManyDecimals(v)) {
      ctx.addIssue({ code: 'custom', message: 'Admite como máximo 2 decimales.' });
      return z.NEVER;
    }
    const cents = parseCents(v);
    if (cents === null) {
      ctx.addIssue({ code: 'custom', message: 'Debe ser un número.' });
      return z.NEVER;
    }
    if (opts.positive && cents <= 0) {
      ctx.addIssue({ code: 'custom', message: 'Debe ser mayor a 0.' });
      return z.NEVER;
    }
    if (cents < 0) {
      ctx.addIssue({ code: 'custom', message: 'Debe ser mayor o igual a 0.' });
      return z.NEVER;
    }
    if (cents > MAX_MONEY_CENTS) {
      ctx.addIssue({ code: 'custom', message: 'Debe ser menor o igual a 999999999999.99.' });
      return z.NEVER;
    }
    return cents;
  });

const pesosFormat = new Intl.NumberFormat('es-AR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** Cents as the UI writes them: "$ 1.234,50". */
export const formatPesos = (cents: number): string => `$ ${pesosFormat.format(cents / 100)}`;

/** Money that may be left out (undefined) or cleared (`null`, `""`). */
export const optMoney = () =>
  z
    .unknown()
    .transform((v, ctx): number | null | undefined => {
      if (v === undefined) return undefined;
      if (v === null || v === '') return null;
      const r = money().safeParse(v);
      if (!r.success) {
        for (const i of r.error.issues) ctx.addIssue({ code: 'custom', message: i.message });
        return z.NEVER;
      }
      return r.data;
    })
    .optional();

/**
 * Each line's share of the sale's total, in cents: the total shared in proportion to the lines'
 * subtotals (largest remainder, ties to the earlier line), so the shares add up to the total.
 */
export function lineShares(total: number, subtotals: number[]): number[] {
  const sum = subtotals.reduce((s, x) => s + BigInt(x), 0n);
  const t = BigInt(total);
  if (!subtotals.length) return [];
  if (sum === 0n) return subtotals.map((_, i) => (i === subtotals.length - 1 ? total : 0));
  const floors = subtotals.map((x) => (t * BigInt(x)) / sum);
  const rests = subtotals.map((x, i) => ({ i, r: (t * BigInt(x)) % sum }));
  let left = t - floors.reduce((s, x) => s + x, 0n);
  rests.sort((a, b) => (b.r > a.r ? 1 : b.r < a.r ? -1 : a.i - b.i));
  for (const { i } of rests) {
    if (left <= 0n) break;
    floors[i] += 1n;
    left -= 1n;
  }
  return floors.map(Number);
}
