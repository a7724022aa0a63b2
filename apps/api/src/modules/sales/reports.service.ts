import { sql } from 'drizzle-orm';
import {
  SALE_MESSAGES,
  SALE_REPORT_MAX_DAYS,
  type PaymentMethod,
  type ReportCustomer,
  type ReportDay,
  type ReportItem,
  type ReportPaymentMethod,
  type SaleItemType,
  type SalesReport,
} from '@mostrador/shared';
import type { Db } from '../../db/client.js';
import { addDays, daysBetween } from '../../lib/dates.js';
import { invalid } from '../../lib/errors.js';
import { bigCents, moneyOut } from '../../lib/money.js';
import { toMilli } from '../products/common.js';
import { dayRange } from './sales.service.js';

const lastDayOfMonth = (date: string) => addDays(`${addDays(`${date.slice(0, 8)}01`, 32).slice(0, 8)}01`, -1);

/**
 * The report's range (API-CONTRACT §6.4): both ends included; by default the current month in
 * the business time zone; a missing end is the end (or start) of the other end's month.
 */
export function reportRange(q: { fecha_desde?: string; fecha_hasta?: string }, today: string) {
  const desde = q.fecha_desde ?? `${(q.fecha_hasta ?? today).slice(0, 8)}01`;
  const hasta = q.fecha_hasta ?? lastDayOfMonth(q.fecha_desde ?? today);
  if (desde > hasta) throw invalid('fecha_desde', SALE_MESSAGES.badRange);
  if (daysBetween(desde, hasta) + 1 > SALE_REPORT_MAX_DAYS) throw invalid('fecha_hasta', SALE_MESSAGES.rangeTooLong);
  return { desde, hasta };
}

const personName = (nombre: string | null, apellido: string | null) =>
  [nombre, apellido].filter((s) => s && s.trim()).join(' ') || null;

/** Integer cents divided and rounded half-up (both non-negative). */
const divCents = (cents: bigint, n: number) => (n > 0 ? (cents * 2n + BigInt(n)) / (2n * BigInt(n)) : 0n);

/**
 * The sales report of a range: completed sales only (voided ones are counted apart), net of the
 * returns made in the range (on their date: what went back, its cost, quantities and medios),
 * totals added in integer cents so they match the stored amounts to the cent.
 */
export async function salesReport(
  db: Db,
  businessId: string,
  timezone: string,
  desde: string,
  hasta: string,
): Promise<SalesReport> {
  const { from, to } = dayRange(timezone, desde, hasta);
  const range = sql`s.business_id = ${businessId} AND s.fecha >= ${from!.toISOString()}::timestamptz AND s.fecha < ${to!.toISOString()}::timestamptz`;
  // Returns count on their own date (the money went back then), as the finance movements do.
  const returnsRange = sql`d.business_id = ${businessId} AND d.fecha >= ${from!.toISOString()}::timestamptz AND d.fecha < ${to!.toISOString()}::timestamptz`;
  const itemsRange = sql`i.business_id = ${businessId} AND i.fecha >= ${from!.toISOString()}::timestamptz AND i.fecha < ${to!.toISOString()}::timestamptz`;
  const [days, returnDays, methods, clients, items] = await Promise.all([
    db.execute<{ dia: string; n: number; total: string; costo: string; descuento: string; anuladas: number }>(sql`
      SELECT (s.fecha AT TIME ZONE ${timezone})::date::text AS dia,
             count(*) FILTER (WHERE s.estado = 'completada')::int AS n,
             coalesce(sum(s.total) FILTER (WHERE s.estado = 'completada'), 0)::text AS total,
             coalesce(sum(s.costo_estimado) FILTER (WHERE s.estado = 'completada'), 0)::text AS costo,
             coalesce(sum(s.descuento) FILTER (WHERE s.estado = 'completada'), 0)::text AS descuento,
             count(*) FILTER (WHERE s.estado = 'anulada')::int AS anuladas
        FROM sales s
       WHERE ${range}
       GROUP BY 1`),
    db.execute<{ dia: string; total: string; costo: string }>(sql`
      SELECT (d.fecha AT TIME ZONE ${timezone})::date::text AS dia, sum(d.monto)::text AS total,
             coalesce(sum((SELECT sum(di.costo) FROM devolucion_items di WHERE di.business_id = d.business_id AND di.devolucion_id = d.id)), 0)::text AS costo
        FROM devoluciones d
       WHERE ${returnsRange}
       GROUP BY 1`),
    db.execute<{ metodo_pago: string; n: number; total: string }>(sql`
      SELECT x.metodo_pago, count(DISTINCT x.venta)::int AS n, sum(x.total)::text AS total
        FROM (SELECT sp.metodo_pago, s.id AS venta, sp.total
                FROM sales s
               -- Each sale's payments by index (OFFSET 0 keeps the planner from turning this into a
               -- hash join that reads every payment the business ever took: issue 20).
               CROSS JOIN LATERAL (SELECT p.metodo_pago, p.total FROM sale_payments p
                                    WHERE p.business_id = s.business_id AND p.venta_id = s.id OFFSET 0) sp
               WHERE ${range} AND s.estado = 'completada'
              UNION ALL
              SELECT d.metodo_pago, NULL, -d.monto FROM devoluciones d WHERE ${returnsRange}) x
       GROUP BY 1
       ORDER BY sum(x.total) DESC, x.metodo_pago`),
    db.execute<{
      cliente_id: string | null;
      nombre: string | null;
      apellido: string | null;
      n: number;
      total: string;
    }>(sql`
      SELECT t.cliente_id, c.nombre, c.apellido, t.n, t.total::text AS total
        FROM (SELECT x.cliente_id, count(x.venta)::int AS n, sum(x.total) AS total
                FROM (SELECT s.cliente_id, s.id AS venta, s.total FROM sales s WHERE ${range} AND s.estado = 'completada'
                      UNION ALL
                      SELECT d.cliente_id, NULL, -d.monto FROM devoluciones d WHERE ${returnsRange}) x
               GROUP BY 1) t
        LEFT JOIN customers c ON c.business_id = ${businessId} AND c.id = t.cliente_id
       ORDER BY t.total DESC, c.apellido NULLS FIRST, c.nombre`),
    db.execute<{ tipo: SaleItemType; id: string; nombre: string; cantidad: string; total: string; costo: string }>(sql`
      -- The current names by index for the few hundred rows sold (a join hashed all the business's
      -- products on every report: issue 20).
      SELECT t.tipo, t.id,
             coalesce(CASE WHEN t.tipo = 'producto' THEN (SELECT p.nombre FROM products p WHERE p.business_id = ${businessId} AND p.id = t.id) END,
                      CASE WHEN t.tipo = 'servicio' THEN (SELECT sv.nombre FROM services sv WHERE sv.business_id = ${businessId} AND sv.id = t.id) END,
                      t.nombre) AS nombre,
             t.cantidad::text AS cantidad, t.total::text AS total, t.costo::text AS costo
        FROM (SELECT x.tipo, x.id, max(x.nombre) AS nombre, sum(x.cantidad) AS cantidad, sum(x.total) AS total,
                     sum(x.costo) AS costo
                FROM (SELECT i.tipo, coalesce(i.producto_id, i.servicio_id) AS id, i.nombre, i.cantidad, i.subtotal AS total,
                             i.costo_total AS costo
                        FROM sale_items i
                       WHERE ${itemsRange} AND NOT i.anulada
                      UNION ALL
                      SELECT i.tipo, coalesce(i.producto_id, i.servicio_id), i.nombre, -di.cantidad, -di.subtotal, -di.costo
                        FROM devoluciones d
                        JOIN devolucion_items di ON di.business_id = d.business_id AND di.devolucion_id = d.id
                        JOIN sale_items i ON i.business_id = di.business_id AND i.id = di.venta_item_id
                       WHERE ${returnsRange}) x
               GROUP BY 1, 2
              HAVING sum(x.cantidad) <> 0 OR sum(x.total) <> 0) t
       ORDER BY t.cantidad DESC, t.total DESC, 3`),
  ]);

  const byDay = new Map(days.rows.map((r) => [r.dia, r]));
  const returnedByDay = new Map(returnDays.rows.map((r) => [r.dia, r]));
  let devoluciones = 0n;
  const porDia: ReportDay[] = [];
  let count = 0;
  let ingresos = 0n;
  let costo = 0n;
  let descuentos = 0n;
  let anuladas = 0;
  for (let d = desde; d <= hasta; d = addDays(d, 1)) {
    const r = byDay.get(d);
    const back = returnedByDay.get(d);
    devoluciones += bigCents(back?.total);
    const total = bigCents(r?.total) - bigCents(back?.total);
    const c = bigCents(r?.costo) - bigCents(back?.costo);
    count += r?.n ?? 0;
    ingresos += total;
    costo += c;
    descuentos += bigCents(r?.descuento);
    anuladas += r?.anuladas ?? 0;
    porDia.push({
      fecha: d,
      cantidad_ventas: r?.n ?? 0,
      total: moneyOut(total),
      ganancia: moneyOut(total - c),
    });
  }

  return {
    fecha_desde: desde,
    fecha_hasta: hasta,
    total_ventas: count,
    total_ingresos: moneyOut(ingresos),
    ticket_promedio: moneyOut(divCents(ingresos, count)),
    descuentos: moneyOut(descuentos),
    costo_estimado: moneyOut(costo),
    ganancias_netas: moneyOut(ingresos - costo),
    ventas_anuladas: anuladas,
    devoluciones: moneyOut(devoluciones),
    por_dia: porDia,
    productos_mas_vendidos: items.rows.map((r): ReportItem => ({
      id: r.id,
      tipo: r.tipo,
      nombre: r.nombre,
      cantidad: toMilli(r.cantidad) / 1000,
      total: moneyOut(bigCents(r.total)),
      ganancia: moneyOut(bigCents(r.total) - bigCents(r.costo)),
    })),
    por_metodo_pago: methods.rows.map((r): ReportPaymentMethod => ({
      metodo_pago: r.metodo_pago as PaymentMethod,
      cantidad_ventas: r.n,
      total: moneyOut(bigCents(r.total)),
    })),
    por_cliente: clients.rows.map((r): ReportCustomer => ({
      cliente_id: r.cliente_id,
      cliente_nombre: r.cliente_id ? (personName(r.nombre, r.apellido) ?? SALE_MESSAGES.walkIn) : SALE_MESSAGES.walkIn,
      cantidad_ventas: r.n,
      total: moneyOut(bigCents(r.total)),
    })),
  };
}
