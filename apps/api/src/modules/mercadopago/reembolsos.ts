import { createHash } from 'node:crypto';
import { formatPesos, MERCADOPAGO_MESSAGES as M } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { mpFailure } from './fallas.js';
import type { MercadoPago } from './mercadopago.js';
import * as mp from './mp-client.js';
import { configRow, insertReembolso, saleOrdenRows } from './mercadopago.queries.js';

/*
 * Money given back through MP (decision 0052): a devolución by the MP medio or the anulación of
 * a sale paid with MP orders refunds through MP, inside the return's (or the void's)
 * transaction: MP is asked first, and the refund row is written with the rest, so a refused or
 * unreachable MP leaves nothing recorded. The X-Idempotency-Key is the order, the kind, how many
 * refunds the order had and the amount: a retry after a failure asks MP the same and MP answers
 * the refund it made, never a second one.
 */

/** The X-Idempotency-Key of a refund. */
export const claveDe = (businessId: string, ordenId: string, origen: string, previos: number, cents: number) =>
  createHash('sha256').update(`${businessId}|${ordenId}|${origen}|${previos}|${cents}`).digest('hex');

export interface ReembolsoPedido {
  ventaId: string;
  origen: 'devolucion' | 'anulacion';
  devolucionId: string | null;
  /** The medio the money goes back by: only the MP medio refunds through MP (a void: all of it). */
  medioPagoId: string | null;
  /** Cents to give back, or everything the sale's orders still hold (a void). */
  monto: number | 'todo';
}

/** Refunds a sale's MP money; a function the returns and voids call with their transaction. */
export type Reembolsador = (tx: Executor, pedido: ReembolsoPedido) => Promise<void>;

export function reembolsador(m: MercadoPago, businessId: string, userId: string): Reembolsador {
  return async (tx, pedido) => {
    const cfg = await configRow(businessId, tx);
    if (!cfg) return;
    if (pedido.origen === 'devolucion' && pedido.medioPagoId !== cfg.medio_pago_id) return;
    if (pedido.monto !== 'todo' && pedido.monto <= 0) return;
    const ordenes = await saleOrdenRows(businessId, pedido.ventaId, tx);
    if (!ordenes.length) return;
    const left = ordenes.map((o) => ({ o, left: mp.mpCents(o.monto) - mp.mpCents(o.reembolsado) }));
    const disponible = left.reduce((s, x) => s + x.left, 0);
    let falta = pedido.monto === 'todo' ? disponible : pedido.monto;
    if (falta > disponible) throw new AppError(409, 'INVALID_STATE', M.reembolsoExcede(formatPesos(disponible)));
    const call = await m.call(businessId, tx);
    for (const { o, left: queda } of left) {
      if (falta <= 0) break;
      const cents = Math.min(queda, falta);
      if (cents <= 0) continue;
      falta -= cents;
      const clave = claveDe(businessId, o.id, pedido.origen, o.reembolsos, cents);
      const total = cents === mp.mpCents(o.monto);
      if (!total && !o.mp_pago_id)
        throw new AppError(409, 'INVALID_STATE', M.reembolsoFallo('la orden no tiene su pago'));
      let answer: mp.MpOrder;
      try {
        answer = await mp.refundOrder(
          call,
          o.mp_orden_id,
          clave,
          total || !o.mp_pago_id ? undefined : { transactionId: o.mp_pago_id, cents },
        );
      } catch (e) {
        throw mpFailure(e, M.reembolsoFallo);
      }
      const r = answer.transactions?.refunds?.at(-1);
      await insertReembolso(
        businessId,
        {
          ordenId: o.id,
          origen: pedido.origen,
          ventaId: pedido.ventaId,
          devolucionId: pedido.devolucionId,
          montoCents: cents,
          mpReembolsoId: r?.id ?? null,
          mpEstado: r?.status ?? answer.status,
          clave,
          usuarioId: userId,
        },
        tx,
      );
    }
  };
}
