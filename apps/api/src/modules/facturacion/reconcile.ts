import type { Devolucion, IvaRate } from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { getDevolucion } from '../devoluciones/devoluciones.service.js';
import { createFactura, createNotaCredito, readConfig } from './facturacion.service.js';
import { clearMark, itemRates, lockMarkedSale, returnsWithoutNota } from './ventas.queries.js';

/*
 * Crash-safe invoicing (decision 0013). A sale that asked for an invoice (`sales.facturar`), a
 * void and a return mark the sale `conciliar` inside their own transaction; the after-step
 * creates the comprobantes at once (fast path) and this sweep creates whatever a crash or a
 * failure left undone, through the same functions. The unique keys of comprobantes (one invoice
 * per sale, one nota de crédito per return and one for the void, all with business_id) make a
 * double creation impossible when both run.
 */

/** The nota de crédito of a return from an invoiced sale: its lines, for what went back. */
export async function returnNota(
  ex: Executor,
  businessId: string,
  ventaId: string,
  hoy: string,
  d: Devolucion,
): Promise<string | null> {
  const ids = d.items.map((i) => i.item_id);
  if (!ids.length) return null;
  const rate = new Map((await itemRates(businessId, ids, ex)).map((r) => [r.id, r.iva]));
  const lineas = d.items.map((i) => ({
    nombre: i.nombre,
    cantidad: i.cantidad,
    precio_unitario: i.precio_unitario,
    descuento: 0,
    subtotal: i.monto,
    iva: rate.get(i.item_id) ?? ('21' as IvaRate),
  }));
  return createNotaCredito(ex, businessId, ventaId, hoy, { id: d.id, lineas, total: Math.round(d.monto * 100) });
}

export interface ReconcileLog {
  warn: (obj: object, msg: string) => void;
}

/**
 * Reconciles one marked sale in a transaction of its own, holding its row (FOR NO KEY UPDATE SKIP
 * LOCKED: another instance's sweep or a void in progress makes this one skip it; NO KEY so the
 * after-step's insert, whose foreign key takes KEY SHARE on the sale, never deadlocks with it
 * while both wait on the comprobante's unique key): the invoice it
 * asked for, the void's nota de crédito, the returns' notas de crédito; then clears the mark.
 * Answers the ids of the comprobantes created (to attempt), or null when the sale was skipped.
 */
export async function reconcileSale(
  db: Db,
  businessId: string,
  ventaId: string,
  hoy: string,
  log: ReconcileLog,
): Promise<string[] | null> {
  return db.transaction(async (tx) => {
    const sale = await lockMarkedSale(businessId, ventaId, tx);
    if (!sale) return null;
    const created: string[] = [];
    if (sale.facturar && sale.estado === 'completada') {
      const cfg = await readConfig(tx, businessId);
      if (cfg?.certificadoPem && cfg.claveCifrada) {
        try {
          const r = await createFactura(tx, cfg, businessId, ventaId, {
            receptor: sale.facturar_receptor ?? undefined,
            hoy,
            userId: null,
          });
          if (r.created) created.push(r.id);
        } catch (e) {
          // As the after-step: a receptor the letter cannot take leaves the sale without invoice.
          if (!(e instanceof AppError)) throw e;
          log.warn({ venta: ventaId, motivo: e.message }, 'facturación: venta sin factura');
        }
      }
    }
    if (sale.estado === 'anulada') {
      const id = await createNotaCredito(tx, businessId, ventaId, hoy);
      if (id) created.push(id);
    }
    for (const r of await returnsWithoutNota(businessId, ventaId, tx)) {
      const id = await returnNota(tx, businessId, ventaId, hoy, await getDevolucion(tx, businessId, r.id));
      if (id) created.push(id);
    }
    await clearMark(businessId, ventaId, tx);
    return created;
  });
}
