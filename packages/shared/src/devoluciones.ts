import { z } from 'zod';
import { MEDIO_TIPOS, optTurnoId } from './caja.js';
import { PAYMENT_METHODS } from './payment-methods.js';
import { positiveQuantity, SALE_MAX_ITEMS, saleItemSchema } from './sales.js';
import { optText } from './validation.js';

export { lineShares } from './money.js';

/*
 * Returns of sales (issue 15, decision 0009): some or all lines of a completed sale go back, the
 * stock returns and the money goes back by a medio or to the customer's account, with a numbered
 * "Devolución". Amounts are integer cents and quantities integer thousandths in the helpers.
 */

export const DEVOLUCION_MESSAGES = {
  notFound: 'Devolución no encontrada.',
  noItems: 'Elegí al menos un ítem para devolver.',
  itemNotInSale: 'Ese ítem no es de esta venta.',
  repeatedItem: 'Ese ítem está repetido en la devolución.',
  overQuantity: (nombre: string, disponible: string) =>
    `No podés devolver más de lo vendido de «${nombre}»: quedan ${disponible} por devolver.`,
  saleVoided: 'La venta está anulada: no se puede devolver.',
  accountNeedsCustomer: 'La venta no tiene cliente: elegí otro medio para devolver el dinero.',
  hasReturns: 'La venta tiene devoluciones: devolvé lo que queda en lugar de anularla.',
  idempotencyMismatch: 'Esta clave de idempotencia ya se usó con otra devolución.',
  chequeNeedsMedio: 'Para devolver el cheque, elegí el medio de tipo cheque.',
} as const;

export const devolucionItemInput = z.object({
  /** The sale line's id (`items[].id` of the sale). */
  item_id: z.uuid({ error: 'Identificador no válido.' }),
  cantidad: positiveQuantity(),
});

export const devolucionInput = z.object({
  items: z.preprocess(
    (v) => (v === undefined || v === null ? [] : v),
    z
      .array(devolucionItemInput, { error: 'Debe ser una lista.' })
      .min(1, DEVOLUCION_MESSAGES.noItems)
      .max(SALE_MAX_ITEMS, `Admite como máximo ${SALE_MAX_ITEMS} ítems.`),
  ),
  medio_pago_id: z.uuid({ error: 'Identificador no válido.' }),
  /**
   * The cheque the customer paid with, given back itself (decision 0057): one of the sale's, still
   * in the cartera, for exactly the return's amount; the medio is then the cheque one.
   */
  cheque_id: z.preprocess(
    (v) => (v === '' ? null : v),
    z.uuid({ error: 'Identificador no válido.' }).nullable().optional(),
  ),
  turno_id: optTurnoId(),
  motivo: optText(200),
});
export type DevolucionInput = z.input<typeof devolucionInput>;
export type DevolucionOutput = z.output<typeof devolucionInput>;

/** A returned line: the sale line's identity and price, the quantity returned and what went back. */
export const devolucionItemSchema = saleItemSchema
  .pick({ tipo: true, producto_id: true, servicio_id: true, nombre: true, cantidad: true, precio_unitario: true })
  .extend({
    item_id: z.string(),
    /** What goes back for these units (after the line's and the sale's discounts and surcharges). */
    monto: z.number(),
  });
export type DevolucionItem = z.infer<typeof devolucionItemSchema>;

export const devolucionSchema = z.object({
  id: z.string(),
  numero: z.number(),
  fecha: z.string(),
  venta_id: z.string(),
  venta_numero: z.number(),
  cliente_id: z.string().nullable(),
  cliente_nombre: z.string().nullable(),
  medio_pago_id: z.string(),
  medio_nombre: z.string(),
  medio_tipo: z.enum(MEDIO_TIPOS),
  metodo_pago: z.enum(PAYMENT_METHODS),
  monto: z.number(),
  turno_id: z.string().nullable(),
  motivo: z.string().nullable(),
  usuario: z.object({ id: z.string(), nombre: z.string() }).nullable(),
  items: z.array(devolucionItemSchema),
});
export type Devolucion = z.infer<typeof devolucionSchema>;

const halfUp = (num: bigint, den: bigint) => (den === 0n ? 0n : (num * 2n + den) / (2n * den));

/**
 * What goes back for `cantidad` more units of a line whose share is `share` cents, of which
 * `devuelta` (thousandths) were returned before for `devuelto` cents: the share of everything
 * returned so far, rounded half up, less what already went back. The last return of a line
 * therefore takes exactly what is left of its share.
 */
export function returnShare(
  share: number,
  vendida: number,
  devuelta: number,
  devuelto: number,
  cantidad: number,
): number {
  const upTo = halfUp(BigInt(share) * BigInt(devuelta + cantidad), BigInt(vendida));
  return Math.max(0, Number(upTo) - devuelto);
}
