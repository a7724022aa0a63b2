import { exactCentsToNumber, parseCentsExact } from '@mostrador/shared';
import { AppError } from './errors.js';

/*
 * Money that is added up (report and dashboard totals) stays exact: numeric text from
 * PostgreSQL becomes bigint cents, sums are bigint, and only the final amounts become JSON
 * numbers. An amount a JSON number cannot carry to the cent is refused, never rounded.
 */

export const MSG_MONEY_TOO_LARGE =
  'Los importes de este período son demasiado grandes para informarlos con exactitud. Elegí un período más corto.';

export const moneyTooLarge = () =>
  new AppError(422, 'VALIDATION_ERROR', MSG_MONEY_TOO_LARGE, { errors: [{ field: '', message: MSG_MONEY_TOO_LARGE }] });

/** numeric text from PostgreSQL ("1234.50"; null is 0) as exact bigint cents. */
export function bigCents(v: string | number | null | undefined): bigint {
  if (v === null || v === undefined) return 0n;
  const c = parseCentsExact(String(v));
  if (c === null) throw new Error(`importe no válido: ${v}`);
  return c;
}

/** Exact cents as the JSON number of a response; 422 when the number could not carry every cent. */
export function moneyOut(cents: bigint): number {
  const n = exactCentsToNumber(cents);
  if (n === null) throw moneyTooLarge();
  return n;
}

/** A single stored amount as safe integer cents for arithmetic in numbers (422 beyond the exact range). */
export function safeCents(v: string | number | null | undefined): number {
  const c = bigCents(v);
  if (exactCentsToNumber(c) === null) throw moneyTooLarge();
  return Number(c);
}
