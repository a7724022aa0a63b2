import { SALE_MESSAGES } from '@mostrador/shared/sales';
import { INVALID_AMOUNT, parseDecimal } from '@/lib/decimal';

/*
 * What the cashier typed under the cart, checked before charging: an amount the parser refuses,
 * a discount larger than the subtotal, or cash that does not cover the total stops the sale, with
 * the reason under the field.
 */

export const CHECKOUT_MESSAGES = {
  badAmount: INVALID_AMOUNT,
  discountTooHigh: SALE_MESSAGES.discountTooHigh,
  shortfall: (falta: string) => `Falta ${falta}: lo que paga no cubre el total.`,
} as const;

export interface CheckoutInput {
  /** Cents. */
  subtotal: number;
  descuentoText: string;
  pagaConText: string;
  /** Cash: "Paga con" counts. */
  efectivo: boolean;
}

export interface Checkout {
  /** Cents; 0 while the discount typed is refused. */
  descuento: number;
  /** Cents. */
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

export function checkout(input: CheckoutInput, money: (cents: number) => string): Checkout {
  const errors: Checkout['errors'] = {};
  let descuento = 0;
  if (input.descuentoText.trim()) {
    const d = parseDecimal(input.descuentoText, 2);
    if (d === null) errors.descuento = CHECKOUT_MESSAGES.badAmount;
    else if (d > input.subtotal) errors.descuento = CHECKOUT_MESSAGES.discountTooHigh;
    else descuento = d;
  }
  const total = input.subtotal - descuento;
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
  return { descuento, total, pagaCon, vuelto: pagaCon === null ? null : pagaCon - total, errors, shortfall };
}
