/**
 * "Paga con" shortcuts at rush hour: the amounts a customer usually hands over for `total`
 * (cents): the next round amount for each common bill, above the total, smallest first.
 */
const STEPS = [500_00, 1_000_00, 2_000_00, 10_000_00, 20_000_00];

export function quickCash(total: number, max = 3): number[] {
  if (total <= 0) return [];
  const out = new Set<number>();
  for (const step of STEPS) {
    const up = Math.ceil(total / step) * step;
    if (up > total) out.add(up);
  }
  return [...out].sort((a, b) => a - b).slice(0, max);
}
