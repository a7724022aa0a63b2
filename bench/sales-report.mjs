// The monthly sales report and the finance summary over a large history (issue 5): 100,000 sales
// (300,000 lines) and 1,000,000 finance movements in one business, spread over the last year.
// GET /businesses/{id}/ventas/reporte (the current month) and GET /businesses/{id}/finanzas/resumen,
// one request at a time, against the same SQL run directly with pg on the same database (the
// report's four queries side by side, as the server runs them). Prints one JSON object (also
// written to bench/results/sales-report.json). Targets: p50 < 100 ms through the API, and the API's
// p50 within 1.5× of the direct queries'.
//
//   node bench/sales-report.mjs        (after npm run build)
//
// Knobs: BENCH_SALES (100000), BENCH_MOVEMENTS (1000000, sales' own included), BENCH_ROUNDS (40).
import { performance } from 'node:perf_hooks';
import {
  cleanup,
  log,
  machine,
  median,
  ownerAndBusiness,
  percentile,
  round,
  startStack,
  writeResult,
} from './inventory-common.mjs';

const num = (v, d) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : d);
const N_SALES = num(process.env.BENCH_SALES, 100_000);
const N_MOVEMENTS = num(process.env.BENCH_MOVEMENTS, 1_000_000);
const ROUNDS = num(process.env.BENCH_ROUNDS, 40);
const TZ = 'America/Argentina/Buenos_Aires';
const TARGET = { p50_ms: 100, ratio: 1.5 };

async function timed(fn) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function generate(pool, businessId, userId) {
  const t0 = performance.now();
  log('catálogo y clientes…');
  await pool.query(
    `INSERT INTO products (business_id, nombre, codigo, precio_venta, precio_compra, stock_actual)
     SELECT $1, 'Producto ' || g, 'P' || lpad(g::text, 5, '0'), 500 + (g % 97) * 45.5, 300 + (g % 97) * 25.25, 1000000
       FROM generate_series(1, 500) g`,
    [businessId],
  );
  await pool.query(
    `INSERT INTO customers (business_id, nombre, apellido) SELECT $1, 'Cliente', 'Número ' || g FROM generate_series(1, 1000) g`,
    [businessId],
  );
  // In the order a counter records them: one after the other in time.
  log(`${N_SALES} ventas…`);
  await pool.query(
    `INSERT INTO sales (business_id, numero, fecha, cliente_id, metodo_pago, subtotal, descuento, total, costo_estimado, vendedor_id)
     SELECT $1, g, now() - interval '365 days' + (g - random()) * interval '365 days' / $3,
            CASE WHEN random() < 0.3 THEN (SELECT id FROM customers WHERE business_id = $1 OFFSET (g % 1000) LIMIT 1) END,
            (ARRAY['efectivo','tarjeta_debito','tarjeta_credito','transferencia','mercado_pago'])[1 + g % 5],
            0, 0, 0, 0, $2
       FROM generate_series(1, $3) g`,
    [businessId, userId, N_SALES],
  );
  await pool.query(`INSERT INTO sale_counters (business_id, ultimo_numero) VALUES ($1, $2)`, [businessId, N_SALES]);
  log(`${N_SALES * 3} líneas…`);
  await pool.query(
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
  await pool.query(
    `UPDATE sales s SET subtotal = t.sub, total = t.sub, costo_estimado = t.costo
       FROM (SELECT venta_id, sum(subtotal) AS sub, sum(costo_total) AS costo FROM sale_items WHERE business_id = $1 GROUP BY 1) t
      WHERE s.business_id = $1 AND s.id = t.venta_id`,
    [businessId],
  );
  // 2 % voided.
  await pool.query(
    `UPDATE sales SET estado = 'anulada', anulada_en = fecha + interval '1 hour', motivo_anulacion = 'Error'
      WHERE business_id = $1 AND numero % 50 = 0`,
    [businessId],
  );
  await pool.query(
    `UPDATE sale_items i SET anulada = true FROM sales s
      WHERE s.business_id = $1 AND s.estado = 'anulada' AND i.business_id = s.business_id AND i.venta_id = s.id`,
    [businessId],
  );
  log(`${N_MOVEMENTS} movimientos…`);
  const {
    rows: [cat],
  } = await pool.query(`SELECT id FROM finance_categories WHERE business_id = $1 AND sistema AND tipo = 'ingreso'`, [
    businessId,
  ]);
  await pool.query(
    `INSERT INTO finance_movements (business_id, tipo, categoria_id, monto, fecha, metodo_pago, descripcion, origen, venta_id, anulado, creado_por)
     SELECT business_id, 'ingreso', $2, total, (fecha AT TIME ZONE $3)::date, metodo_pago, 'Venta #' || numero, 'venta', id,
            estado = 'anulada', $4
       FROM sales WHERE business_id = $1 AND total > 0`,
    [businessId, cat.id, TZ, userId],
  );
  const manual = Math.max(0, N_MOVEMENTS - N_SALES);
  await pool.query(
    `INSERT INTO finance_movements (business_id, tipo, monto, fecha, metodo_pago, descripcion, origen, creado_por)
     SELECT $1, CASE WHEN g % 3 = 0 THEN 'ingreso' ELSE 'egreso' END, 100 + (g % 1000) * 13.37,
            (now() AT TIME ZONE $3)::date - (g % 365), 'transferencia', 'Movimiento ' || g, 'manual', $4
       FROM generate_series(1, $2) g`,
    [businessId, manual, TZ, userId],
  );
  await pool.query(
    `INSERT INTO finance_accounts (business_id, tipo, monto, fecha_emision, fecha_vencimiento, descripcion)
     SELECT $1, CASE WHEN g % 2 = 0 THEN 'por_cobrar' ELSE 'por_pagar' END, 1000 + g, current_date - 30, current_date + (g % 60) - 20, 'Cuenta ' || g
       FROM generate_series(1, 2000) g`,
    [businessId],
  );
  log('VACUUM ANALYZE…');
  for (const t of ['sales', 'sale_items', 'finance_movements', 'finance_accounts', 'products', 'customers']) {
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

/** The report's SQL (sales/reports.service.ts salesReport), its four queries side by side. */
function reportQueries(pool, businessId, from, to) {
  const range = `s.business_id = $1 AND s.fecha >= $2::timestamptz AND s.fecha < $3::timestamptz`;
  const p = [businessId, from, to];
  return Promise.all([
    pool.query(
      `SELECT (s.fecha AT TIME ZONE $4)::date::text AS dia,
              count(*) FILTER (WHERE s.estado = 'completada')::int AS n,
              coalesce(sum(s.total) FILTER (WHERE s.estado = 'completada'), 0)::text AS total,
              coalesce(sum(s.costo_estimado) FILTER (WHERE s.estado = 'completada'), 0)::text AS costo,
              coalesce(sum(s.descuento) FILTER (WHERE s.estado = 'completada'), 0)::text AS descuento,
              count(*) FILTER (WHERE s.estado = 'anulada')::int AS anuladas
         FROM sales s WHERE ${range} GROUP BY 1`,
      [...p, TZ],
    ),
    pool.query(
      `SELECT s.metodo_pago, count(*)::int AS n, sum(s.total)::text AS total FROM sales s
        WHERE ${range} AND s.estado = 'completada' GROUP BY 1 ORDER BY sum(s.total) DESC, s.metodo_pago`,
      p,
    ),
    pool.query(
      `SELECT t.cliente_id, c.nombre, c.apellido, t.n, t.total::text AS total
         FROM (SELECT s.cliente_id, count(*)::int AS n, sum(s.total) AS total FROM sales s
                WHERE ${range} AND s.estado = 'completada' GROUP BY 1) t
         LEFT JOIN customers c ON c.business_id = $1 AND c.id = t.cliente_id
        ORDER BY t.total DESC, c.apellido NULLS FIRST, c.nombre`,
      p,
    ),
    pool.query(
      `SELECT t.tipo, t.id, coalesce(p.nombre, sv.nombre, t.nombre) AS nombre, t.cantidad::text AS cantidad,
              t.total::text AS total, t.costo::text AS costo
         FROM (SELECT i.tipo, coalesce(i.producto_id, i.servicio_id) AS id, max(i.nombre) AS nombre,
                      sum(i.cantidad) AS cantidad, sum(i.subtotal) AS total, sum(i.costo_total) AS costo
                 FROM sale_items i
                WHERE i.business_id = $1 AND i.fecha >= $2::timestamptz AND i.fecha < $3::timestamptz AND NOT i.anulada
                GROUP BY 1, 2) t
         LEFT JOIN products p ON t.tipo = 'producto' AND p.business_id = $1 AND p.id = t.id
         LEFT JOIN services sv ON t.tipo = 'servicio' AND sv.business_id = $1 AND sv.id = t.id
        ORDER BY t.cantidad DESC, t.total DESC, 3`,
      p,
    ),
  ]);
}

/** The finance summary's SQL (finance/reports.service.ts summary), one query after the other as there. */
async function summaryQueries(pool, businessId, prev, start, end, today) {
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

async function measure(name, fn) {
  for (let i = 0; i < 3; i++) await fn();
  const times = [];
  for (let i = 0; i < ROUNDS; i++) times.push(await timed(fn));
  const r = { p50_ms: round(median(times)), p90_ms: round(percentile(times, 90)), min_ms: round(Math.min(...times)) };
  log(`  ${name}: p50 ${r.p50_ms} ms, p90 ${r.p90_ms} ms`);
  return r;
}

async function main() {
  const { base, pool } = await startStack('sales-report');
  const { auth, businessId, userId } = await ownerAndBusiness(base, 'Reportes');
  const data = await generate(pool, businessId, userId);
  log(`datos: ${JSON.stringify(data)}`);

  const today = new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(new Date());
  const [y, m] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
  const pad = (n) => String(n).padStart(2, '0');
  const desde = `${y}-${pad(m)}-01`;
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${pad(m + 1)}-01`;
  const prev = m === 1 ? `${y - 1}-12-01` : `${y}-${pad(m - 1)}-01`;
  const hasta = new Date(Date.parse(`${next}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  const reportUrl = `${base}/api/v1/businesses/${businessId}/ventas/reporte?fecha_desde=${desde}&fecha_hasta=${hasta}`;
  const summaryUrl = `${base}/api/v1/businesses/${businessId}/finanzas/resumen?mes=${m}&anio=${y}`;
  const get = async (url) => {
    const res = await fetch(url, { headers: auth });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  const report = await get(reportUrl);
  const summary = await get(summaryUrl);
  log(`reporte del mes: ${report.total_ventas} ventas, ${report.productos_mas_vendidos.length} productos`);

  // Instants of the business's month bounds, as the server computes them.
  const offsetFrom = (d) => `${d}T00:00:00-03:00`;
  const from = new Date(offsetFrom(desde)).toISOString();
  const to = new Date(offsetFrom(next)).toISOString();

  log(`midiendo (${ROUNDS} pedidos secuenciales cada uno)…`);
  const apiReport = await measure('reporte (API)', () => get(reportUrl));
  const directReport = await measure('reporte (pg directo)', () => reportQueries(pool, businessId, from, to));
  const apiSummary = await measure('resumen financiero (API)', () => get(summaryUrl));
  const directSummary = await measure('resumen financiero (pg directo)', () =>
    summaryQueries(pool, businessId, prev, desde, next, today),
  );

  const reportRatio = apiReport.p50_ms / directReport.p50_ms;
  const summaryRatio = apiSummary.p50_ms / directSummary.p50_ms;
  const result = {
    benchmark: 'sales-report',
    machine: machine(),
    data,
    month: { desde, hasta, ventas: report.total_ventas, total_ingresos: report.total_ingresos },
    report: {
      route: 'GET /api/v1/businesses/{id}/ventas/reporte',
      api: apiReport,
      direct_pg: directReport,
      ratio: round(reportRatio, 3),
    },
    finance_summary: {
      route: 'GET /api/v1/businesses/{id}/finanzas/resumen',
      total_ingresos: summary.total_ingresos,
      api: apiSummary,
      direct_pg: directSummary,
      ratio: round(summaryRatio, 3),
    },
    targets: TARGET,
  };
  result.targets_missed = [
    ...(apiReport.p50_ms < TARGET.p50_ms ? [] : ['report_p50_ms']),
    ...(reportRatio <= TARGET.ratio ? [] : ['report_ratio']),
    ...(apiSummary.p50_ms < TARGET.p50_ms ? [] : ['summary_p50_ms']),
    ...(summaryRatio <= TARGET.ratio ? [] : ['summary_ratio']),
  ];
  writeResult('sales-report', result);
}

main()
  .catch((e) => {
    log(`ERROR: ${e.stack ?? e}`);
    process.exitCode = 1;
  })
  .finally(() => cleanup());
