import { percentOf } from '@mostrador/shared/caja';
import { SALE_MESSAGES } from '@mostrador/shared/sales';
import { INVALID_AMOUNT, parseDecimal } from '@/lib/decimal';
import { discountCents } from './cart';

export { discountCents };

/*
 * What the cashier typed under the cart, checked before charging: an amount the parser refuses,
 * a discount larger than the subtotal, or cash that does not cover the total stops the sale, with
 * the reason under the field.
 */

export const CHECKOUT_MESSAGES = {
  badAmount: INVALID_AMOUNT,
  discountTooHigh: SALE_MESSAGES.discountTooHigh,
  shortfall: (falta: string) => `Falta ${falta}: lo que paga no cubre el total.`,
  badPercent: 'Porcentaje no válido: escribí un número de 0 a 100 seguido de %, por ejemplo 10%.',
  overMax: (max: number) =>
    `Tu descuento máximo es ${String(max).replace('.', ',')} %: para más, pedí autorización a quien pueda darla.`,
} as const;

export interface CheckoutInput {
  /** Cents. */
  subtotal: number;
  descuentoText: string;
  pagaConText: string;
  /** Cash: "Paga con" counts. */
  efectivo: boolean;
  /** The seller's largest discount in % (null: no limit), as the server enforces it. */
  descuentoMaximo?: number | null;
  /** Cents already taken off the lines: the maximum counts them with the sale's discount. */
  descuentosLineas?: number;
  /** The surcharge (+) or discount (−) in % of the medio de pago, on the total after the discount. */
  ajustePorcentaje?: number;
}

export interface Checkout {
  /** Cents; 0 while the discount typed is refused. */
  descuento: number;
  /** Cents: subtotal − descuento. */
  base: number;
  /** Cents: the base with the medio's surcharge or discount. */
  total: number;
  /** Cents; null when nothing (or something refused) is typed, or the payment is not cash. */
  pagaCon: number | null;
  /** Cents; negative when the cash falls short. Null without `pagaCon`. */
  vuelto: number | null;
  /** Why the fields stop the sale, by field; empty when it can be charged. */
  errors: { descuento?: string; pagaCon?: string };
  /** Cents missing from the cash given (0 when it covers the total, or none is given). */
  shortfall: number;
}

/** A discount over the seller's maximum % of the subtotal before discounts (exact, as the server checks it). */
export const overMax = (descuento: number, bruto: number, max: number | null) =>
  max !== null && descuento > 0 && descuento * 10_000 > bruto * Math.round(max * 100);

export function checkout(input: CheckoutInput, money: (cents: number) => string): Checkout {
  const errors: Checkout['errors'] = {};
  let descuento = 0;
  if (input.descuentoText.trim()) {
    const d = discountCents(input.descuentoText, input.subtotal);
    if (d === null) {
      errors.descuento = input.descuentoText.trim().endsWith('%')
        ? CHECKOUT_MESSAGES.badPercent
        : CHECKOUT_MESSAGES.badAmount;
    } else if (d.cents > input.subtotal) errors.descuento = CHECKOUT_MESSAGES.discountTooHigh;
    else descuento = d.cents;
  }
  // The lines' discounts and the sale's count together against the seller's maximum.
  const max = input.descuentoMaximo ?? null;
  const lineas = input.descuentosLineas ?? 0;
  if (!errors.descuento && max !== null && overMax(descuento + lineas, input.subtotal + lineas, max)) {
    errors.descuento = CHECKOUT_MESSAGES.overMax(max);
    descuento = 0;
  }
  const base = input.subtotal - descuento;
  const total = base + percentOf(base, input.ajustePorcentaje ?? 0);
  let pagaCon: number | null = null;
  let shortfall = 0;
  if (input.efectivo && input.pagaConText.trim()) {
    pagaCon = parseDecimal(input.pagaConText, 2);
    if (pagaCon === null) errors.pagaCon = CHECKOUT_MESSAGES.badAmount;
    else if (pagaCon < total && !errors.descuento) {
      shortfall = total - pagaCon;
      errors.pagaCon = CHECKOUT_MESSAGES.shortfall(money(shortfall));
    }
  }
  return { descuento, base, total, pagaCon, vuelto: pagaCon === null ? null : pagaCon - total, errors, shortfall };
}
