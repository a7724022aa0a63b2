// The history the report benchmarks read (bench/sales-report.mjs): generated in SQL, in the order a
// counter records it, then VACUUM ANALYZE. Returns the counts and the seconds it took.
import { performance } from 'node:perf_hooks';
import { log, round, WORDS } from './inventory-common.mjs';

const TZ = 'America/Argentina/Buenos_Aires';

/**
 * A year of a busy shop's history in one business, straight in SQL: `products` products (500 of
 * them sold), 1000 customers, `sales` sales of three lines each paid with one medio (2 % voided),
 * `movements` finance movements (the sales' own included) and 2000 receivables and payables.
 */
export async function generateHistory(
  pool,
  businessId,
  userId,
  { sales: N_SALES, movements: N_MOVEMENTS, products: N_PRODUCTS },
) {
  const t0 = performance.now();
  log(`${N_PRODUCTS} productos y 1000 clientes…`);
  // Names as a real shop's (bench/inventory-common.mjs WORDS); the sales use 500 of them.
  await pool.query(
    `INSERT INTO products (business_id, nombre, codigo, precio_venta, precio_compra, stock_actual)
     SELECT $1, ($3::text[])[1 + g % cardinality($3::text[])] || ' ' || ($4::text[])[1 + (g / 40) % cardinality($4::text[])]
                || ' #' || g,
            'P' || lpad(g::text, 6, '0'), 500 + (g % 97) * 45.5, 300 + (g % 97) * 25.25, 1000000
       FROM generate_series(1, $2) g`,
    [businessId, N_PRODUCTS, WORDS.items, WORDS.brands],
  );
  await pool.query(
    `INSERT INTO customers (business_id, nombre, apellido) SELECT $1, 'Cliente', 'Número ' || g FROM generate_series(1, 1000) g`,
    [businessId],
  );
  // The sales and movements go in with the triggers off (their totals, decision 0027, are
  // computed once at the end): one client, so the setting holds for all of them.
  const db = await pool.connect();
  try {
    await db.query('SET session_replication_role = replica');
    // In the order a counter records them: one after the other in time.
    log(`${N_SALES} ventas…`);
    await db.query(
      `INSERT INTO sales (business_id, numero, fecha, cliente_id, metodo_pago, subtotal, descuento, total, costo_estimado, vendedor_id)
       SELECT $1, g, now() - interval '365 days' + (g - random()) * interval '365 days' / $3,
              CASE WHEN random() < 0.3 THEN (SELECT id FROM customers WHERE business_id = $1 OFFSET (g % 1000) LIMIT 1) END,
              (ARRAY['efectivo','tarjeta_debito','tarjeta_credito','transferencia','mercado_pago'])[1 + g % 5],
              0, 0, 0, 0, $2
         FROM generate_series(1, $3) g`,
      [businessId, userId, N_SALES],
    );
    await db.query(`INSERT INTO sale_counters (business_id, ultimo_numero) VALUES ($1, $2)`, [businessId, N_SALES]);
    log(`${N_SALES * 3} líneas…`);
    await db.query(
      `WITH p AS (SELECT id, nombre, precio_venta, precio_compra, row_number() OVER (ORDER BY id) - 1 AS i
                    FROM products WHERE business_id = $1)
       INSERT INTO sale_items (business_id, venta_id, fecha, posicion, tipo, producto_id, nombre, cantidad, precio_unitario, subtotal,
                               costo_unitario, costo_total)
       SELECT $1, s.id, s.fecha, k, 'producto', p.id, p.nombre, q, p.precio_venta, round(q * p.precio_venta, 2), p.precio_compra,
              round(q * p.precio_compra, 2)
         FROM sales s
         CROSS JOIN generate_series(0, 2) k
         CROSS JOIN LATERAL (SELECT 1 + ((s.numero * 7 + k * 13) % 3) AS q, ((s.numero * 31 + k * 101) % 500) AS pi) x
         JOIN p ON p.i = x.pi
        WHERE s.business_id = $1
        ORDER BY s.numero, k`,
      [businessId],
    );
    await db.query(
      `UPDATE sales s SET subtotal = t.sub, total = t.sub, costo_estimado = t.costo
         FROM (SELECT venta_id, sum(subtotal) AS sub, sum(costo_total) AS costo FROM sale_items WHERE business_id = $1 GROUP BY 1) t
        WHERE s.business_id = $1 AND s.id = t.venta_id`,
      [businessId],
    );
    // Each sale paid with its one medio, as record-sale writes it (the report reads the medios here).
    await db.query(
      `INSERT INTO sale_payments (business_id, venta_id, posicion, metodo_pago, tipo, nombre, monto, total)
       SELECT business_id, id, 0, metodo_pago, metodo_pago, metodo_pago, total, total FROM sales WHERE business_id = $1`,
      [businessId],
    );
    // 2 % voided.
    await db.query(
      `UPDATE sales SET estado = 'anulada', anulada_en = fecha + interval '1 hour', motivo_anulacion = 'Error'
        WHERE business_id = $1 AND numero % 50 = 0`,
      [businessId],
    );
    await db.query(
      `UPDATE sale_items i SET anulada = true FROM sales s
        WHERE s.business_id = $1 AND s.estado = 'anulada' AND i.business_id = s.business_id AND i.venta_id = s.id`,
      [businessId],
    );
    log(`${N_MOVEMENTS} movimientos…`);
    const {
      rows: [cat],
    } = await db.query(`SELECT id FROM finance_categories WHERE business_id = $1 AND sistema AND tipo = 'ingreso'`, [
      businessId,
    ]);
    await db.query(
      `INSERT INTO finance_movements (business_id, tipo, categoria_id, monto, fecha, metodo_pago, descripcion, origen, venta_id, anulado, creado_por)
       SELECT business_id, 'ingreso', $2, total, (fecha AT TIME ZONE $3)::date, metodo_pago, 'Venta #' || numero, 'venta', id,
              estado = 'anulada', $4
         FROM sales WHERE business_id = $1 AND total > 0`,
      [businessId, cat.id, TZ, userId],
    );
    const manual = Math.max(0, N_MOVEMENTS - N_SALES);
    await db.query(
      `INSERT INTO finance_movements (business_id, tipo, monto, fecha, metodo_pago, descripcion, origen, creado_por)
       SELECT $1, CASE WHEN g % 3 = 0 THEN 'ingreso' ELSE 'egreso' END, 100 + (g % 1000) * 13.37,
              (now() AT TIME ZONE $3)::date - (g % 365), 'transferencia', 'Movimiento ' || g, 'manual', $4
         FROM generate_series(1, $2) g`,
      [businessId, manual, TZ, userId],
    );
    await db.query(
      `INSERT INTO finance_accounts (business_id, tipo, monto, fecha_emision, fecha_vencimiento, descripcion)
       SELECT $1, CASE WHEN g % 2 = 0 THEN 'por_cobrar' ELSE 'por_pagar' END, 1000 + g, current_date - 30, current_date + (g % 60) - 20, 'Cuenta ' || g
         FROM generate_series(1, 2000) g`,
      [businessId],
    );
    await db.query('RESET session_replication_role');
    log('totales…');
    await db.query('SELECT totales_rehacer($1)', [businessId]);
  } finally {
    db.release();
  }
  log('VACUUM ANALYZE…');
  for (const t of [
    'sales',
    'sale_items',
    'sale_payments',
    'finance_movements',
    'finance_accounts',
    'products',
    'customers',
    'totales_ventas_dia',
    'totales_medios_dia',
    'totales_clientes_mes',
    'totales_items_mes',
    'totales_flujo_dia',
  ]) {
    await pool.query(`VACUUM ANALYZE ${t}`);
  }
  const {
    rows: [counts],
  } = await pool.query(
    `SELECT (SELECT count(*)::int FROM sales WHERE business_id = $1) AS ventas,
            (SELECT count(*)::int FROM sale_items WHERE business_id = $1) AS lineas,
            (SELECT count(*)::int FROM finance_movements WHERE business_id = $1) AS movimientos`,
    [businessId],
  );
  return { ...counts, seconds: round((performance.now() - t0) / 1000, 1) };
}
