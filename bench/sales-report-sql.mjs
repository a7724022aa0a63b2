// The SQL of the report and the finance summary as the server runs it, straight through pg: the
// reference of bench/sales-report.mjs. Keep it in step with sales/reports.service.ts and
// finance/reports.service.ts.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './inventory-common.mjs';

const { firstListRead } = await import(
  pathToFileURL(path.join(ROOT, 'apps/api/dist/modules/products/products.service.js')).href
);

/**
 * The report's SQL (sales/reports.service.ts readReport) for one whole month (the benchmark asks
 * for the current month), its four queries sent together on one connection in one write as the
 * server sends them (db/pipeline.ts readTogether): days and medios from the daily totals,
 * customers and items from the month's totals as the JSON of their rows (decision 0027); the rows
 * come back as pg gives them (the server then adds them up and writes the answer). `desde` is the first day of the month,
 * `hasta` its last day.
 */
export async function reportQueries(pool, businessId, desde, hasta) {
  const days = [businessId, desde, hasta];
  const month = [businessId, desde];
  const client = await pool.connect();
  const socket = client.connection?.stream;
  socket?.cork?.();
  let pending;
  try {
    pending = together(client, days, month);
  } finally {
    socket?.uncork?.();
  }
  try {
    return await Promise.all(pending);
  } finally {
    client.release();
  }
}

/** The report's four reads, submitted on one client without waiting for each other. */
function together(client, days, month) {
  return [
    client.query(
      `SELECT dia::text AS dia, ventas AS n, total::text AS total, costo::text AS costo, descuento::text AS descuento,
              anuladas, devuelto::text AS devuelto, costo_devuelto::text AS costo_devuelto
         FROM totales_ventas_dia
        WHERE business_id = $1 AND dia >= $2::date AND dia <= $3::date`,
      days,
    ),
    client.query(
      `SELECT t.metodo_pago, nullif(t.medio_pago_id, '00000000-0000-0000-0000-000000000000'::uuid) AS medio_pago_id,
              m.nombre, m.tipo, t.n, t.n_metodo, t.total::text AS total
         FROM (SELECT metodo_pago, medio_pago_id, sum(ventas)::int AS n, sum(ventas_metodo)::int AS n_metodo, sum(total) AS total
                 FROM totales_medios_dia
                WHERE business_id = $1 AND dia >= $2::date AND dia <= $3::date
                GROUP BY 1, 2
               HAVING sum(filas) > 0) t
         LEFT JOIN payment_methods m ON m.business_id = $1 AND m.id = t.medio_pago_id
        ORDER BY t.total DESC, m.nombre NULLS LAST, t.metodo_pago`,
      days,
    ),
    client.query(
      `SELECT coalesce(json_agg(q), '[]')::text AS json, coalesce(bool_or(abs(q.total) > 9999999999999.99), false) AS grande
         FROM (SELECT nullif(m.cliente_id, '00000000-0000-0000-0000-000000000000'::uuid) AS cliente_id,
                      CASE WHEN m.cliente_id IS NULL THEN $3::text
                           ELSE coalesce(nullif(concat_ws(' ', CASE WHEN btrim(c.nombre) <> '' THEN c.nombre END,
                                                          CASE WHEN btrim(c.apellido) <> '' THEN c.apellido END), ''),
                                         $3::text) END AS cliente_nombre,
                      m.ventas AS cantidad_ventas, m.total
                 FROM totales_clientes_mes m
                 LEFT JOIN customers c ON c.business_id = $1 AND c.id = m.cliente_id
                WHERE m.business_id = $1 AND m.mes = $2::date AND m.filas > 0
                ORDER BY m.total DESC, c.apellido NULLS FIRST, c.nombre) q`,
      [...month, 'Consumidor final'],
    ),
    client.query(
      `SELECT coalesce(json_agg(q), '[]')::text AS json,
              coalesce(bool_or(abs(q.total) > 9999999999999.99 OR abs(q.ganancia) > 9999999999999.99), false) AS grande
         FROM (SELECT m.item_id AS id, m.tipo, m.nombre, m.cantidad, m.total, m.total - m.costo AS ganancia
                 FROM totales_items_mes m
                WHERE m.business_id = $1 AND m.mes = $2::date AND (m.cantidad <> 0 OR m.total <> 0)
                ORDER BY m.cantidad DESC, m.total DESC, m.nombre) q`,
      month,
    ),
  ];
}

/** The finance summary's SQL (finance/reports.service.ts summary), one query after the other as there. */
export async function summaryQueries(pool, businessId, prev, start, end, today) {
  const steps = [
    () =>
      pool.query(
        `SELECT coalesce(sum(monto) FILTER (WHERE tipo = 'ingreso' AND fecha >= $2::date), 0)::text AS ing,
              coalesce(sum(monto) FILTER (WHERE tipo = 'egreso' AND fecha >= $2::date), 0)::text AS egr,
              coalesce(sum(monto) FILTER (WHERE tipo = 'ingreso' AND fecha < $2::date), 0)::text AS prev_ing,
              coalesce(sum(monto) FILTER (WHERE tipo = 'egreso' AND fecha < $2::date), 0)::text AS prev_egr
         FROM finance_movements
        WHERE business_id = $1 AND NOT anulado AND fecha >= $3::date AND fecha < $4::date`,
        [businessId, start, prev, end],
      ),
    () =>
      pool.query(
        `SELECT coalesce(sum(monto) FILTER (WHERE tipo = 'por_cobrar'), 0)::text AS cobrar,
              coalesce(sum(monto) FILTER (WHERE tipo = 'por_pagar'), 0)::text AS pagar,
              count(*) FILTER (WHERE fecha_vencimiento < $2::date)::int AS vencidas
         FROM finance_accounts WHERE business_id = $1 AND estado = 'pendiente'`,
        [businessId, today],
      ),
  ];
  for (const step of steps) await step();
}

/**
 * A page of the product list by name: the built server's own statement (products.service.ts
 * firstListRead: the page with its category, the full count and whether the business has active
 * price lists, in one statement). The price lists themselves are only read when it has some (none
 * here).
 */
export function productPageQueries(pool, businessId, limit) {
  return pool.query(firstListRead(businessId, { limit: String(limit) }).query);
}

/** The cash flow of a month (finance/reports.service.ts cashFlow): its daily totals (decision 0027). */
export function cashFlowQuery(pool, businessId, start, end) {
  return pool.query(
    `SELECT fecha::text AS fecha, ingresos::text AS ing, egresos::text AS egr
       FROM totales_flujo_dia
      WHERE business_id = $1 AND fecha >= $2::date AND fecha < $3::date`,
    [businessId, start, end],
  );
}
