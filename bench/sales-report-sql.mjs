// The SQL of the report and the finance summary as the server runs it, straight through pg: the
// reference of bench/sales-report.mjs. Keep it in step with sales/reports.service.ts and
// finance/reports.service.ts.

const TZ = 'America/Argentina/Buenos_Aires';

/**
 * The report's SQL (sales/reports.service.ts salesReport), its five queries side by side on the
 * pool as the server sends them; the rows come back as pg gives them (the server then adds them
 * up and writes the JSON).
 */
export function reportQueries(pool, businessId, from, to) {
  const range = (a) => `${a}.business_id = $1 AND ${a}.fecha >= $2::timestamptz AND ${a}.fecha < $3::timestamptz`;
  const p = [businessId, from, to];
  return Promise.all([
    pool.query(
      `SELECT (s.fecha AT TIME ZONE $4)::date::text AS dia,
              count(*) FILTER (WHERE s.estado = 'completada')::int AS n,
              coalesce(sum(s.total) FILTER (WHERE s.estado = 'completada'), 0)::text AS total,
              coalesce(sum(s.costo_estimado) FILTER (WHERE s.estado = 'completada'), 0)::text AS costo,
              coalesce(sum(s.descuento) FILTER (WHERE s.estado = 'completada'), 0)::text AS descuento,
              count(*) FILTER (WHERE s.estado = 'anulada')::int AS anuladas
         FROM sales s WHERE ${range('s')} GROUP BY 1`,
      [...p, TZ],
    ),
    pool.query(
      `SELECT (d.fecha AT TIME ZONE $4)::date::text AS dia, sum(d.monto)::text AS total,
              coalesce(sum((SELECT sum(di.costo) FROM devolucion_items di
                             WHERE di.business_id = d.business_id AND di.devolucion_id = d.id)), 0)::text AS costo
         FROM devoluciones d WHERE ${range('d')} GROUP BY 1`,
      [...p, TZ],
    ),
    pool.query(
      `SELECT x.metodo_pago, count(DISTINCT x.venta)::int AS n, sum(x.total)::text AS total
         FROM (SELECT sp.metodo_pago, s.id AS venta, sp.total
                 FROM sales s
                CROSS JOIN LATERAL (SELECT p.metodo_pago, p.total FROM sale_payments p
                                     WHERE p.business_id = s.business_id AND p.venta_id = s.id OFFSET 0) sp
                WHERE ${range('s')} AND s.estado = 'completada'
               UNION ALL
               SELECT d.metodo_pago, NULL, -d.monto FROM devoluciones d WHERE ${range('d')}) x
        GROUP BY 1 ORDER BY sum(x.total) DESC, x.metodo_pago`,
      p,
    ),
    pool.query(
      `SELECT t.cliente_id, c.nombre, c.apellido, t.n, t.total::text AS total
         FROM (SELECT x.cliente_id, count(x.venta)::int AS n, sum(x.total) AS total
                 FROM (SELECT s.cliente_id, s.id AS venta, s.total FROM sales s WHERE ${range('s')} AND s.estado = 'completada'
                       UNION ALL
                       SELECT d.cliente_id, NULL, -d.monto FROM devoluciones d WHERE ${range('d')}) x
                GROUP BY 1) t
         LEFT JOIN customers c ON c.business_id = $1 AND c.id = t.cliente_id
        ORDER BY t.total DESC, c.apellido NULLS FIRST, c.nombre`,
      p,
    ),
    pool.query(
      `SELECT t.tipo, t.id,
              coalesce(CASE WHEN t.tipo = 'producto' THEN (SELECT p.nombre FROM products p WHERE p.business_id = $1 AND p.id = t.id) END,
                       CASE WHEN t.tipo = 'servicio' THEN (SELECT sv.nombre FROM services sv WHERE sv.business_id = $1 AND sv.id = t.id) END,
                       t.nombre) AS nombre,
              t.cantidad::text AS cantidad, t.total::text AS total, t.costo::text AS costo
         FROM (SELECT x.tipo, x.id, max(x.nombre) AS nombre, sum(x.cantidad) AS cantidad, sum(x.total) AS total,
                      sum(x.costo) AS costo
                 FROM (SELECT i.tipo, coalesce(i.producto_id, i.servicio_id) AS id, i.nombre, i.cantidad, i.subtotal AS total,
                              i.costo_total AS costo
                         FROM sale_items i WHERE ${range('i')} AND NOT i.anulada
                       UNION ALL
                       SELECT i.tipo, coalesce(i.producto_id, i.servicio_id), i.nombre, -di.cantidad, -di.subtotal, -di.costo
                         FROM devoluciones d
                         JOIN devolucion_items di ON di.business_id = d.business_id AND di.devolucion_id = d.id
                         JOIN sale_items i ON i.business_id = di.business_id AND i.id = di.venta_item_id
                        WHERE ${range('d')}) x
                GROUP BY 1, 2
               HAVING sum(x.cantidad) <> 0 OR sum(x.total) <> 0) t
        ORDER BY t.cantidad DESC, t.total DESC, 3`,
      p,
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
 * A page of the product list as products.service.ts listProducts runs it (pageWithCount): one
 * statement with the page by name (with its category), the full count and whether the business has
 * active price lists. The price lists themselves are only read when it has some (none here).
 */
export function productPageQueries(pool, businessId, limit) {
  return pool.query(
    `SELECT products.id, products.nombre, products.descripcion, products.codigo,
            products.codigo_barras AS "codigoBarras", products.precio_compra AS "precioCompra",
            products.precio_venta AS "precioVenta", products.stock_actual AS "stockActual",
            products.stock_minimo AS "stockMinimo", products.controla_stock AS "controlaStock",
            products.unidad, products.categoria_id AS "categoriaId", products.activo, products.iva,
            products.creado_en AS "creadoEn", products.actualizado_en AS "actualizadoEn",
            products.moneda, products.precio_usd AS "precioUsd",
            product_categories.nombre AS "categoriaNombre",
            (SELECT count(*)::int FROM products WHERE products.business_id = $1) AS "total",
            EXISTS (SELECT 1 FROM listas_precios WHERE business_id = $2 AND activo) AS "conListas"
       FROM products
       LEFT JOIN product_categories
         ON product_categories.business_id = products.business_id AND product_categories.id = products.categoria_id
      WHERE products.business_id = $3
      ORDER BY products.nombre COLLATE "es-AR-x-icu", products.id
      LIMIT $4 OFFSET $5`,
    [businessId, businessId, businessId, limit, 0],
  );
}

/** The cash flow of a month (finance/reports.service.ts cashFlow). */
export function cashFlowQuery(pool, businessId, start, end) {
  return pool.query(
    `SELECT fecha::text AS fecha,
            coalesce(sum(CASE WHEN tipo = 'ingreso' THEN monto ELSE -monto END)
                     FILTER (WHERE (tipo = 'ingreso' OR origen = 'devolucion')), 0)::text AS ing,
            coalesce(sum(monto) FILTER (WHERE NOT (tipo = 'ingreso' OR origen = 'devolucion')), 0)::text AS egr
       FROM finance_movements
      WHERE business_id = $1 AND NOT anulado AND fecha >= $2::date AND fecha < $3::date
      GROUP BY fecha`,
    [businessId, start, end],
  );
}
