import { sql, type SQL } from 'drizzle-orm';
import type { SaleItemType } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';

/*
 * The dashboard's statements (decision 0044): every function takes the business first. The
 * dashboard sends them together, one round trip each (decision 0026).
 */

/** The period starts (today, Monday and day 1 at 00:00 in the business time zone). */
interface Starts {
  dia: Date;
  semana: Date;
  mes: Date;
}

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * The `limit` products or services with most units sold since `from` (completed sales only, net
 * of the returns since then), with the current catalogue price.
 */
export async function topItemRows(businessId: string, from: Date, limit: number, db: Executor) {
  const { rows } = await db.execute<{
    tipo: SaleItemType;
    id: string;
    nombre: string;
    cantidad: string;
    ingreso: string;
    precio: string | null;
  }>(sql`
    SELECT t.tipo, t.id, coalesce(p.nombre, sv.nombre, t.nombre) AS nombre, t.cantidad::text AS cantidad,
           t.ingreso::text AS ingreso, coalesce(p.precio_venta, sv.precio)::text AS precio
      FROM (SELECT x.tipo, x.id, max(x.nombre) AS nombre, sum(x.cantidad) AS cantidad, sum(x.ingreso) AS ingreso
              FROM (SELECT i.tipo, coalesce(i.producto_id, i.servicio_id) AS id, i.nombre, i.cantidad, i.subtotal AS ingreso
                      FROM sale_items i
                     WHERE i.business_id = ${businessId} AND NOT i.anulada AND i.fecha >= ${from.toISOString()}::timestamptz
                    UNION ALL
                    SELECT i.tipo, coalesce(i.producto_id, i.servicio_id), i.nombre, -di.cantidad, -di.subtotal
                      FROM devoluciones d
                      JOIN devolucion_items di ON di.business_id = d.business_id AND di.devolucion_id = d.id
                      JOIN sale_items i ON i.business_id = di.business_id AND i.id = di.venta_item_id
                     WHERE d.business_id = ${businessId} AND d.fecha >= ${from.toISOString()}::timestamptz) x
             GROUP BY 1, 2
            HAVING sum(x.cantidad) > 0
             ORDER BY sum(x.cantidad) DESC, sum(x.ingreso) DESC, 2
             LIMIT ${limit}) t
      LEFT JOIN products p ON t.tipo = 'producto' AND p.business_id = ${businessId} AND p.id = t.id
      LEFT JOIN services sv ON t.tipo = 'servicio' AND sv.business_id = ${businessId} AND sv.id = t.id
     ORDER BY t.cantidad DESC, t.ingreso DESC, t.id`);
  return rows;
}

/** The newest completed sales. */
export async function recentSaleRows(businessId: string, limit: number, db: Executor) {
  const { rows } = await db.execute<{ id: string; numero: number; fecha: Date; total: string }>(sql`
    SELECT id, numero, fecha, total::text AS total
      FROM sales
     WHERE business_id = ${businessId} AND estado = 'completada'
     ORDER BY fecha DESC, numero DESC
     LIMIT ${limit}`);
  return rows;
}

/** Active products, those at or below their minimum, and customers. */
export async function catalogueCounts(businessId: string, db: Executor) {
  const [[p], [c]] = await Promise.all([
    db
      .execute<{ activos: number; bajo: number }>(
        sql`SELECT count(*) FILTER (WHERE activo)::int AS activos,
                   count(*) FILTER (WHERE activo AND stock_minimo > 0 AND stock_actual <= stock_minimo)::int AS bajo
              FROM products WHERE business_id = ${businessId}`,
      )
      .then((r) => r.rows),
    db
      .execute<{ total: number }>(sql`SELECT count(*)::int AS total FROM customers WHERE business_id = ${businessId}`)
      .then((r) => r.rows),
  ]);
  return { productosActivos: p.activos, stockBajo: p.bajo, clientes: c.total };
}

/** What went back in returns since each period start, and the profit it took (refund − its cost). */
function returnsSince(businessId: string, p: Starts, since: SQL) {
  const per = (k: 'dia' | 'semana' | 'mes') => sql`
    coalesce(sum(monto) FILTER (WHERE fecha >= ${at(p[k])}), 0)::text AS ${sql.raw(k)}_dev,
    coalesce(sum(monto - costo) FILTER (WHERE fecha >= ${at(p[k])}), 0)::text AS ${sql.raw(k)}_devganancia`;
  return sql`(SELECT ${per('dia')}, ${per('semana')}, ${per('mes')}
                FROM (SELECT d.fecha, d.monto,
                             (SELECT coalesce(sum(di.costo), 0) FROM devolucion_items di
                               WHERE di.business_id = d.business_id AND di.devolucion_id = d.id) AS costo
                        FROM devoluciones d WHERE d.business_id = ${businessId} AND d.fecha >= ${since}) x)`;
}

/** The periods' sales, profit and count, new customers and returns, in one statement. */
export function periodFigures(businessId: string, p: Starts, since: Date, db: Executor) {
  return db
    .execute<Record<string, string | number>>(
      sql`
    SELECT s.*, c.*, r.*
      FROM (SELECT coalesce(sum(total) FILTER (WHERE fecha >= ${at(p.dia)}), 0)::text AS dia_total,
                   coalesce(sum(total - costo_estimado) FILTER (WHERE fecha >= ${at(p.dia)}), 0)::text AS dia_ganancia,
                   count(*) FILTER (WHERE fecha >= ${at(p.dia)})::int AS dia_n,
                   coalesce(sum(total) FILTER (WHERE fecha >= ${at(p.semana)}), 0)::text AS semana_total,
                   coalesce(sum(total - costo_estimado) FILTER (WHERE fecha >= ${at(p.semana)}), 0)::text AS semana_ganancia,
                   count(*) FILTER (WHERE fecha >= ${at(p.semana)})::int AS semana_n,
                   coalesce(sum(total) FILTER (WHERE fecha >= ${at(p.mes)}), 0)::text AS mes_total,
                   coalesce(sum(total - costo_estimado) FILTER (WHERE fecha >= ${at(p.mes)}), 0)::text AS mes_ganancia,
                   count(*) FILTER (WHERE fecha >= ${at(p.mes)})::int AS mes_n
              FROM sales
             WHERE business_id = ${businessId} AND estado = 'completada' AND fecha >= ${at(since)}) s,
           (SELECT count(*) FILTER (WHERE creado_en >= ${at(p.dia)})::int AS dia_clientes,
                   count(*) FILTER (WHERE creado_en >= ${at(p.semana)})::int AS semana_clientes,
                   count(*) FILTER (WHERE creado_en >= ${at(p.mes)})::int AS mes_clientes
              FROM customers
             WHERE business_id = ${businessId} AND creado_en >= ${at(since)}) c,
           ${returnsSince(businessId, p, at(since))} r`,
    )
    .then((r) => r.rows[0]);
}

/** How many invoices ARCA authorised since `from` (notas de crédito apart). */
export function authorisedInvoices(businessId: string, from: Date, db: Executor) {
  return db
    .execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM comprobantes
           WHERE business_id = ${businessId} AND estado = 'autorizado' AND tipo LIKE 'factura%' AND creado_en >= ${at(from)}`,
    )
    .then((r) => r.rows[0].n);
}

/** The month's completed sales: their count, and their total net of the month's returns. */
export function monthSalesNet(businessId: string, mes: Date, db: Executor) {
  return db
    .execute<{ n: number; total: string }>(
      sql`SELECT count(*)::int AS n,
                 (coalesce(sum(total), 0)
                  - (SELECT coalesce(sum(monto), 0) FROM devoluciones
                      WHERE business_id = ${businessId} AND fecha >= ${mes.toISOString()}::timestamptz))::text AS total
            FROM sales
           WHERE business_id = ${businessId} AND estado = 'completada' AND fecha >= ${mes.toISOString()}::timestamptz`,
    )
    .then((r) => r.rows);
}

/** How many purchases wait to be received. */
export function pendingPurchases(businessId: string, db: Executor) {
  return db
    .execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM purchases WHERE business_id = ${businessId} AND estado = 'pendiente'`,
    )
    .then((r) => r.rows);
}

/** Sales count and total per month since `from`, net of each month's returns (on their date). */
export async function monthlyRows(businessId: string, timezone: string, from: Date, db: Executor) {
  const { rows } = await db.execute<{ mes: string; n: number; total: string }>(sql`
    SELECT to_char(fecha AT TIME ZONE ${timezone}, 'YYYY-MM') AS mes, count(venta)::int AS n, sum(total)::text AS total
      FROM (SELECT fecha, id AS venta, total FROM sales
             WHERE business_id = ${businessId} AND estado = 'completada' AND fecha >= ${from.toISOString()}::timestamptz
            UNION ALL
            SELECT fecha, NULL, -monto FROM devoluciones
             WHERE business_id = ${businessId} AND fecha >= ${from.toISOString()}::timestamptz) x
     GROUP BY 1`);
  return rows;
}

/** The newest sales, new products and new customers. */
export async function activityRows(businessId: string, limit: number, db: Executor) {
  const { rows } = await db.execute<{
    tipo: 'venta' | 'producto' | 'cliente';
    titulo: string;
    dato: string | null;
    fecha: Date;
  }>(sql`
    (SELECT 'venta' AS tipo, 'Venta #' || numero AS titulo, total::text AS dato, fecha
       FROM sales WHERE business_id = ${businessId} AND estado = 'completada' ORDER BY fecha DESC LIMIT ${limit})
    UNION ALL
    (SELECT 'producto', nombre, NULL, creado_en FROM products WHERE business_id = ${businessId} ORDER BY creado_en DESC LIMIT ${limit})
    UNION ALL
    (SELECT 'cliente', nullif(concat_ws(' ', nombre, apellido), ''), NULL, creado_en
       FROM customers WHERE business_id = ${businessId} ORDER BY creado_en DESC LIMIT ${limit})
    ORDER BY fecha DESC
    LIMIT ${limit}`);
  return rows;
}

/** How many products and sales the business has. */
export async function healthCounts(businessId: string, db: Executor) {
  const [r] = (
    await db.execute<{ productos: number; ventas: number }>(sql`
      SELECT (SELECT count(*)::int FROM products WHERE business_id = ${businessId}) AS productos,
             (SELECT count(*)::int FROM sales WHERE business_id = ${businessId}) AS ventas`)
  ).rows;
  return r;
}
