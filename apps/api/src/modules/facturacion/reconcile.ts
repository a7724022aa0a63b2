import { sql } from 'drizzle-orm';
import type { Devolucion, IvaRate, Receptor } from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { getDevolucion } from '../devoluciones/devoluciones.service.js';
import { createFactura, createNotaCredito, readConfig } from './facturacion.service.js';

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
  const rates = await ex.execute<{ id: string; iva: IvaRate }>(sql`
    SELECT i.id, coalesce(i.iva, p.iva, sv.iva, '21') AS iva FROM sale_items i
      LEFT JOIN products p ON p.business_id = i.business_id AND p.id = i.producto_id
      LEFT JOIN services sv ON sv.business_id = i.business_id AND sv.id = i.servicio_id
     WHERE i.business_id = ${businessId} AND i.id IN ${ids}`);
  const rate = new Map(rates.rows.map((r) => [r.id, r.iva]));
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
    const res = await tx.execute<{ estado: string; facturar: boolean; facturar_receptor: Receptor | null }>(sql`
      SELECT estado, facturar, facturar_receptor FROM sales
       WHERE business_id = ${businessId} AND id = ${ventaId} AND conciliar
       FOR NO KEY UPDATE SKIP LOCKED`);
    const sale = res.rows[0];
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
    const returns = await tx.execute<{ id: string }>(sql`
      SELECT d.id FROM devoluciones d
       WHERE d.business_id = ${businessId} AND d.venta_id = ${ventaId}
         AND EXISTS (SELECT 1 FROM comprobantes f WHERE f.business_id = d.business_id AND f.venta_id = d.venta_id
                        AND f.asociado_id IS NULL AND f.estado <> 'rechazado')
         AND NOT EXISTS (SELECT 1 FROM comprobantes n WHERE n.business_id = d.business_id AND n.devolucion_id = d.id)
       ORDER BY d.numero`);
    for (const r of returns.rows) {
      const id = await returnNota(tx, businessId, ventaId, hoy, await getDevolucion(tx, businessId, r.id));
      if (id) created.push(id);
    }
    await tx.execute(sql`UPDATE sales SET conciliar = false WHERE business_id = ${businessId} AND id = ${ventaId}`);
    return created;
  });
}
