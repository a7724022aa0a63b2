import { sql } from 'drizzle-orm';
import type { IvaRate, Receptor } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';

/*
 * What invoicing reads and marks of the sales (decision 0044), each statement taking the business
 * first: a sale and its lines as its invoice takes them, the rates of returned lines, the mark
 * `conciliar` and the returns still without their nota de crédito. The reconcile sweep's two
 * statements go across businesses (in its reviewed cross-business path in facturador.ts) and
 * pair business_id with id.
 */

/** A sale, its customer, the punto de venta of its caja and its day in the business's time zone. */
export async function saleForInvoiceRow(businessId: string, ventaId: string, ex: Executor) {
  const res = await ex.execute<Record<string, unknown>>(sql`
    SELECT s.total, s.estado, c.nombre, c.apellido, c.condicion_iva, c.documento_tipo, c.documento_numero, c.direccion,
           k.punto_venta AS caja_punto_venta,
           to_char((s.fecha AT TIME ZONE coalesce(
             (SELECT ts.timezone FROM tenant_settings ts WHERE ts.business_id = s.business_id),
             'America/Argentina/Buenos_Aires'))::date, 'YYYY-MM-DD') AS dia
      FROM sales s LEFT JOIN customers c ON c.business_id = s.business_id AND c.id = s.cliente_id
      LEFT JOIN turnos t ON t.business_id = s.business_id AND t.id = s.turno_id
      LEFT JOIN cajas k ON k.business_id = t.business_id AND k.id = t.caja_id
     WHERE s.business_id = ${businessId} AND s.id = ${ventaId}`);
  return res.rows[0];
}

/** A sale's lines in order, each with its IVA rate (the line's, else its product's or service's, else 21). */
export async function saleItemsForInvoice(businessId: string, ventaId: string, ex: Executor) {
  const items = await ex.execute<Record<string, string>>(sql`
    SELECT i.nombre, i.cantidad, i.precio_unitario, i.descuento, i.subtotal,
           coalesce(i.iva, p.iva, sv.iva, '21') AS iva,
           CASE WHEN i.servicio_id IS NOT NULL THEN 'si' ELSE 'no' END AS es_servicio
      FROM sale_items i
      LEFT JOIN products p ON p.business_id = i.business_id AND p.id = i.producto_id
      LEFT JOIN services sv ON sv.business_id = i.business_id AND sv.id = i.servicio_id
     WHERE i.business_id = ${businessId} AND i.venta_id = ${ventaId}
     ORDER BY i.posicion`);
  return items.rows;
}

/** The IVA rate of sale lines, by line id. */
export async function itemRates(businessId: string, ids: string[], ex: Executor) {
  const rates = await ex.execute<{ id: string; iva: IvaRate }>(sql`
    SELECT i.id, coalesce(i.iva, p.iva, sv.iva, '21') AS iva FROM sale_items i
      LEFT JOIN products p ON p.business_id = i.business_id AND p.id = i.producto_id
      LEFT JOIN services sv ON sv.business_id = i.business_id AND sv.id = i.servicio_id
     WHERE i.business_id = ${businessId} AND i.id IN ${ids}`);
  return rates.rows;
}

/**
 * A sale still marked `conciliar`, held (FOR NO KEY UPDATE SKIP LOCKED) until the transaction
 * ends; undefined when it is not marked or someone else holds it.
 */
export async function lockMarkedSale(businessId: string, ventaId: string, ex: Executor) {
  const res = await ex.execute<{ estado: string; facturar: boolean; facturar_receptor: Receptor | null }>(sql`
      SELECT estado, facturar, facturar_receptor FROM sales
       WHERE business_id = ${businessId} AND id = ${ventaId} AND conciliar
       FOR NO KEY UPDATE SKIP LOCKED`);
  return res.rows[0];
}

/** The sale's returns, in order, whose nota de crédito is missing while the sale has a live invoice. */
export async function returnsWithoutNota(businessId: string, ventaId: string, ex: Executor) {
  const returns = await ex.execute<{ id: string }>(sql`
      SELECT d.id FROM devoluciones d
       WHERE d.business_id = ${businessId} AND d.venta_id = ${ventaId}
         AND EXISTS (SELECT 1 FROM comprobantes f WHERE f.business_id = d.business_id AND f.venta_id = d.venta_id
                        AND f.asociado_id IS NULL AND f.estado <> 'rechazado')
         AND NOT EXISTS (SELECT 1 FROM comprobantes n WHERE n.business_id = d.business_id AND n.devolucion_id = d.id)
       ORDER BY d.numero`);
  return returns.rows;
}

export async function clearMark(businessId: string, ventaId: string, ex: Executor) {
  await ex.execute(sql`UPDATE sales SET conciliar = false WHERE business_id = ${businessId} AND id = ${ventaId}`);
}

/* ---------------------------------------------------------------- across businesses */

type SaleKey = { business_id: string; id: string };

/** Up to `limit` marked sales of every business, held (FOR NO KEY UPDATE SKIP LOCKED) until the transaction ends. */
export async function markedSales(limit: number, ex: Executor) {
  const marked = await ex.execute<SaleKey>(sql`
        SELECT business_id, id FROM sales WHERE conciliar LIMIT ${limit} FOR NO KEY UPDATE SKIP LOCKED`);
  return marked.rows;
}

/**
 * Clears the marks of the sales among `marked` whose after-steps already left every comprobante
 * they need (the invoice asked for, the void's nota de crédito, each return's); answers those.
 */
export async function clearSettledMarks(marked: SaleKey[], ex: Executor) {
  const keys = sql.join(
    marked.map((r) => sql`(${r.business_id}::uuid, ${r.id}::uuid)`),
    sql`, `,
  );
  const cleared = await ex.execute<SaleKey>(sql`
        UPDATE sales s SET conciliar = false
         WHERE (s.business_id, s.id) IN (${keys})
           AND CASE WHEN s.estado = 'completada'
                 THEN NOT s.facturar OR EXISTS (SELECT 1 FROM comprobantes f WHERE f.business_id = s.business_id
                                                   AND f.venta_id = s.id AND f.asociado_id IS NULL)
                 ELSE NOT EXISTS (SELECT 1 FROM comprobantes f WHERE f.business_id = s.business_id AND f.venta_id = s.id
                                     AND f.asociado_id IS NULL AND f.estado <> 'rechazado'
                                     AND NOT EXISTS (SELECT 1 FROM comprobantes n WHERE n.business_id = f.business_id
                                                        AND n.asociado_id = f.id AND n.devolucion_id IS NULL))
               END
           AND NOT EXISTS (
                 SELECT 1 FROM devoluciones d
                  WHERE d.business_id = s.business_id AND d.venta_id = s.id
                    AND EXISTS (SELECT 1 FROM comprobantes f WHERE f.business_id = d.business_id AND f.venta_id = d.venta_id
                                   AND f.asociado_id IS NULL AND f.estado <> 'rechazado')
                    AND NOT EXISTS (SELECT 1 FROM comprobantes n WHERE n.business_id = d.business_id AND n.devolucion_id = d.id))
        RETURNING s.business_id, s.id`);
  return cleared.rows;
}
