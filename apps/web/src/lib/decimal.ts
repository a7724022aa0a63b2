/** What an amount field says when its text cannot be read as money. */
export const INVALID_AMOUNT = 'Monto no válido. Usá el formato 1.234,50.';

/**
 * Numbers as people in Argentina type them: "1,5", "1.234,50", "$ 10.000", and also "0.25" from
 * a numeric keypad. Amounts (2 decimals): a dot followed by groups of exactly three digits groups
 * thousands ("1.500" is fifteen hundred). Quantities (3 decimals): a lone dot is the decimal mark,
 * as a scale shows it ("2.250" kg). Returns cents or thousandths; null when it is not a
 * non-negative number or has too many decimals.
 */
export function parseDecimal(text: string, decimals: 2 | 3): number | null {
  let t = text.trim().replace(/\s|\$/g, '');
  if (!t) return null;
  if (t.includes(',')) t = t.replace(/\./g, '').replace(',', '.');
  else if (decimals === 2 && /^\d{1,3}(\.\d{3})+$/.test(t)) t = t.replace(/\./g, '');
  const m = /^(\d+)(?:\.(\d*))?$/.exec(t);
  if (!m) return null;
  const frac = m[2] ?? '';
  if (frac.length > decimals) return null;
  const scale = decimals === 2 ? 100 : 1000;
  return Number(m[1]) * scale + Number(frac.padEnd(decimals, '0') || '0');
}

/** thousandths → "1,5" style text for an input (es-AR decimal comma). */
export const quantityText = (milli: number) => String(milli / 1000).replace('.', ',');

/** cents → "1234,5" style text for an input (es-AR decimal comma, no grouping). */
export const moneyInputText = (cents: number) =>
  (cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2)).replace('.', ',');
