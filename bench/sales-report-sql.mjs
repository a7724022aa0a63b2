// The SQL of the report and the finance summary as the server runs it, straight through pg: the
// reference of bench/sales-report.mjs. Keep it in step with sales/reports.service.ts and
// finance/reports.service.ts.

/**
 * The report's SQL (sales/reports.service.ts salesReport) for a range of whole months (the
 * benchmark asks for the current month), its four queries side by side on the pool as the server
 * sends them: days and medios from the daily totals, customers and items from the monthly totals
 * (decision 0027); the rows come back as pg gives them (the server then adds them up and writes
 * the JSON). `desde` is the first day of a month, `hasta` the last day of one.
 */
export function reportQueries(pool, businessId, desde, hasta) {
  const next = new Date(Date.parse(`${hasta}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const days = [businessId, desde, hasta];
  const months = [businessId, desde, next];
  return Promise.all([
    pool.query(
      `SELECT dia::text AS dia, ventas AS n, total::text AS total, costo::text AS costo, descuento::text AS descuento,
              anuladas, devuelto::text AS devuelto, costo_devuelto::text AS costo_devuelto
         FROM totales_ventas_dia
        WHERE business_id = $1 AND dia >= $2::date AND dia <= $3::date`,
      days,
    ),
    pool.query(
      `SELECT metodo_pago, sum(ventas)::int AS n, sum(total)::text AS total
         FROM totales_medios_dia
        WHERE business_id = $1 AND dia >= $2::date AND dia <= $3::date
        GROUP BY 1
       HAVING sum(filas) > 0
        ORDER BY sum(total) DESC, metodo_pago`,
      days,
    ),
    pool.query(
      `SELECT t.cliente_id, c.nombre, c.apellido, t.n, t.total::text AS total
         FROM (SELECT x.cliente_id, sum(x.n)::int AS n, sum(x.total) AS total
                 FROM (SELECT nullif(m.cliente_id, '00000000-0000-0000-0000-000000000000'::uuid) AS cliente_id, m.ventas AS n,
                              m.total, m.filas
                         FROM totales_clientes_mes m
                        WHERE m.business_id = $1 AND m.mes >= $2::date AND m.mes < $3::date) x
                GROUP BY 1
               HAVING sum(x.filas) > 0) t
         LEFT JOIN customers c ON c.business_id = $1 AND c.id = t.cliente_id
        ORDER BY t.total DESC, c.apellido NULLS FIRST, c.nombre`,
      months,
    ),
    pool.query(
      `SELECT t.tipo, t.id,
              coalesce(t.actual,
                       CASE WHEN t.tipo = 'producto' THEN (SELECT p.nombre FROM products p WHERE p.business_id = $1 AND p.id = t.id) END,
                       CASE WHEN t.tipo = 'servicio' THEN (SELECT sv.nombre FROM services sv WHERE sv.business_id = $1 AND sv.id = t.id) END,
                       t.nombre) AS nombre,
              t.cantidad::text AS cantidad, t.total::text AS total, t.costo::text AS costo
         FROM (SELECT x.tipo, x.id, max(x.actual) AS actual, max(x.nombre) AS nombre, sum(x.cantidad) AS cantidad,
                      sum(x.total) AS total, sum(x.costo) AS costo
                 FROM (SELECT m.tipo, m.item_id AS id, m.nombre AS actual, m.nombre, m.cantidad, m.total, m.costo
                         FROM totales_items_mes m
                        WHERE m.business_id = $1 AND m.mes >= $2::date AND m.mes < $3::date) x
                GROUP BY 1, 2
               HAVING sum(x.cantidad) <> 0 OR sum(x.total) <> 0) t
        ORDER BY t.cantidad DESC, t.total DESC, 3`,
      months,
    ),
  ]);
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
 * A page of the product list as products.service.ts listProducts and the price lists run it: the
 * page by name (with its category) and the count side by side, then the business's price lists.
 */
export async function productPageQueries(pool, businessId, limit) {
  await Promise.all([
    pool.query(
      `SELECT p.*, c.nombre AS categoria_nombre FROM products p
         LEFT JOIN product_categories c ON c.business_id = p.business_id AND c.id = p.categoria_id
        WHERE p.business_id = $1
        ORDER BY p.nombre COLLATE "es-AR-x-icu", p.id LIMIT $2 OFFSET 0`,
      [businessId, limit],
    ),
    pool.query(`SELECT count(*)::int AS total FROM products WHERE business_id = $1`, [businessId]),
  ]);
  await pool.query(`SELECT * FROM listas_precios WHERE business_id = $1 ORDER BY nombre COLLATE "es-AR-x-icu", id`, [
    businessId,
  ]);
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
