/** CUIT/CUIL: 11 digits with a valid check digit (API-CONTRACT §1.2). */
const WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];

export function normalizeCuit(input: string): string | null {
  const digits = input.replace(/[\s-]/g, '');
  if (!/^\d{11}$/.test(digits)) return null;
  const sum = WEIGHTS.reduce((acc, w, i) => acc + w * Number(digits[i]), 0);
  let check = 11 - (sum % 11);
  if (check === 11) check = 0;
  if (check === 10) return null;
  if (check !== Number(digits[10])) return null;
  return `${digits.slice(0, 2)}-${digits.slice(2, 10)}-${digits.slice(10)}`;
}
