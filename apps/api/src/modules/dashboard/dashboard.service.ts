import { sql, type SQL } from 'drizzle-orm';
import {
  centsToNumber,
  DASHBOARD_TOP,
  weekdayMondayFirst,
  zonedToInstant,
  type DashboardPeriod,
  type DashboardStats,
  type MonthlySalesChart,
  type PeriodFigures,
  type RecentActivity,
  type RecentSale,
  type SaleItemType,
  type TopItem,
  type TopProductsChart,
} from '@mostrador/shared';
import type { Db } from '../../db/client.js';
import type { BusinessContext } from '../../lib/access.js';
import { addDays, todayIn } from '../../lib/dates.js';
import { toCents, toMilli } from '../products/common.js';

/** Period starts in the business time zone: today 00:00, Monday 00:00, day 1 00:00 (§6.5). */
export function periodStarts(timezone: string, now: Date) {
  const today = todayIn(timezone, now);
  const week = addDays(today, -weekdayMondayFirst(today));
  const month = `${today.slice(0, 8)}01`;
  return {
    today,
    dia: zonedToInstant(today, timezone),
    semana: zonedToInstant(week, timezone),
    mes: zonedToInstant(month, timezone),
  };
}

/**
 * The `limit` products or services with most units sold since `from` (completed sales only, net
 * of the returns since then), with the current catalogue price.
 */
async function topItems(db: Db, businessId: string, from: Date, limit = DASHBOARD_TOP): Promise<TopItem[]> {
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
  return rows.map((r) => ({
    id: r.id,
    tipo: r.tipo,
    nombre: r.nombre,
    cantidad_total: toMilli(r.cantidad) / 1000,
    precio_venta: centsToNumber(toCents(r.precio ?? '0')),
    ingreso_total: centsToNumber(toCents(r.ingreso)),
  }));
}

async function recentSales(db: Db, businessId: string, limit: number): Promise<RecentSale[]> {
  const { rows } = await db.execute<{ id: string; numero: number; fecha: Date; total: string }>(sql`
    SELECT id, numero, fecha, total::text AS total
      FROM sales
     WHERE business_id = ${businessId} AND estado = 'completada'
     ORDER BY fecha DESC, numero DESC
     LIMIT ${limit}`);
  return rows.map((r) => ({
    id: r.id,
    numero: r.numero,
    fecha: new Date(r.fecha).toISOString(),
    total: centsToNumber(toCents(r.total)),
  }));
}

async function catalogueCounts(db: Db, businessId: string) {
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
function returnsSince(businessId: string, p: ReturnType<typeof periodStarts>, since: SQL) {
  const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
  const per = (k: 'dia' | 'semana' | 'mes') => sql`
    coalesce(sum(monto) FILTER (WHERE fecha >= ${at(p[k])}), 0)::text AS ${sql.raw(k)}_dev,
    coalesce(sum(monto - costo) FILTER (WHERE fecha >= ${at(p[k])}), 0)::text AS ${sql.raw(k)}_devganancia`;
  return sql`(SELECT ${per('dia')}, ${per('semana')}, ${per('mes')}
                FROM (SELECT d.fecha, d.monto,
                             (SELECT coalesce(sum(di.costo), 0) FROM devolucion_items di
                               WHERE di.business_id = d.business_id AND di.devolucion_id = d.id) AS costo
                        FROM devoluciones d WHERE d.business_id = ${businessId} AND d.fecha >= ${since}) x)`;
}

/** The dashboard cards and lists (API-CONTRACT §6.5 dashboard-stats-v2). */
export async function dashboardStats(
  db: Db,
  b: BusinessContext,
  periodo: DashboardPeriod,
  now: Date,
): Promise<DashboardStats> {
  const p = periodStarts(b.timezone, now);
  const since = p.semana < p.mes ? p.semana : p.mes;
  const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
  const figures = db.execute<Record<string, string | number>>(sql`
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
             WHERE business_id = ${b.id} AND estado = 'completada' AND fecha >= ${at(since)}) s,
           (SELECT count(*) FILTER (WHERE creado_en >= ${at(p.dia)})::int AS dia_clientes,
                   count(*) FILTER (WHERE creado_en >= ${at(p.semana)})::int AS semana_clientes,
                   count(*) FILTER (WHERE creado_en >= ${at(p.mes)})::int AS mes_clientes
              FROM customers
             WHERE business_id = ${b.id} AND creado_en >= ${at(since)}) c,
           ${returnsSince(b.id, p, at(since))} r`);
  const [f, counts, topMonth, topPeriod, recientes] = await Promise.all([
    figures.then((r) => r.rows[0]),
    catalogueCounts(db, b.id),
    topItems(db, b.id, p.mes),
    periodo === 'mes' ? null : topItems(db, b.id, p[periodo]),
    recentSales(db, b.id, DASHBOARD_TOP),
  ]);
  // Net of the returns of the period: what went back, and the profit it took with it.
  const fig = (k: DashboardPeriod): PeriodFigures => ({
    total_sales: centsToNumber(toCents(String(f[`${k}_total`])) - toCents(String(f[`${k}_dev`]))),
    estimated_profit: centsToNumber(toCents(String(f[`${k}_ganancia`])) - toCents(String(f[`${k}_devganancia`]))),
    new_customers: Number(f[`${k}_clientes`]),
  });
  const top = topPeriod ?? topMonth;
  return {
    negocio_id: b.id,
    periodo,
    ventas_mes: fig('mes').total_sales,
    ventas_periodo: fig(periodo).total_sales,
    cantidad_ventas_periodo: Number(f[`${periodo}_n`]),
    facturas_emitidas: 0,
    productos_activos: counts.productosActivos,
    clientes_registrados: counts.clientes,
    top_productos: top,
    ventas_recientes: recientes,
    today: fig('dia'),
    week: fig('semana'),
    month: fig('mes'),
    top_items: topMonth,
    total_products: counts.productosActivos,
    total_customers: counts.clientes,
    low_stock_products: counts.stockBajo,
  };
}

/** The older dashboard-stats shape (month to date). */
export async function dashboardStatsV1(db: Db, b: BusinessContext, now: Date) {
  const p = periodStarts(b.timezone, now);
  const [[m], counts, [o]] = await Promise.all([
    db
      .execute<{ n: number; total: string }>(
        sql`SELECT count(*)::int AS n,
                   (coalesce(sum(total), 0)
                    - (SELECT coalesce(sum(monto), 0) FROM devoluciones
                        WHERE business_id = ${b.id} AND fecha >= ${p.mes.toISOString()}::timestamptz))::text AS total
              FROM sales
             WHERE business_id = ${b.id} AND estado = 'completada' AND fecha >= ${p.mes.toISOString()}::timestamptz`,
      )
      .then((r) => r.rows),
    catalogueCounts(db, b.id),
    db
      .execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM purchases WHERE business_id = ${b.id} AND estado = 'pendiente'`,
      )
      .then((r) => r.rows),
  ]);
  return {
    totalProducts: counts.productosActivos,
    totalCustomers: counts.clientes,
    totalSales: m.n,
    monthlyRevenue: centsToNumber(toCents(m.total)),
    lowStockProducts: counts.stockBajo,
    pendingOrders: o.n,
  };
}

/** Twelve months, oldest first, ending with the current month; months without sales carry 0. */
export async function monthlySalesChart(db: Db, b: BusinessContext, now: Date): Promise<MonthlySalesChart> {
  const today = todayIn(b.timezone, now);
  let y = Number(today.slice(0, 4));
  let m = Number(today.slice(5, 7));
  const months: string[] = [];
  for (let i = 0; i < 12; i++) {
    months.unshift(`${y}-${String(m).padStart(2, '0')}`);
    m -= 1;
    if (m === 0) {
      m = 12;
      y -= 1;
    }
  }
  const from = zonedToInstant(`${months[0]}-01`, b.timezone);
  // Net of the returns of each month (on their date).
  const { rows } = await db.execute<{ mes: string; n: number; total: string }>(sql`
    SELECT to_char(fecha AT TIME ZONE ${b.timezone}, 'YYYY-MM') AS mes, count(venta)::int AS n, sum(total)::text AS total
      FROM (SELECT fecha, id AS venta, total FROM sales
             WHERE business_id = ${b.id} AND estado = 'completada' AND fecha >= ${from.toISOString()}::timestamptz
            UNION ALL
            SELECT fecha, NULL, -monto FROM devoluciones
             WHERE business_id = ${b.id} AND fecha >= ${from.toISOString()}::timestamptz) x
     GROUP BY 1`);
  const byMonth = new Map(rows.map((r) => [r.mes, r]));
  const label = new Intl.DateTimeFormat(b.locale, { month: 'short', year: 'numeric', timeZone: 'UTC' });
  let ventas = 0;
  let ingresos = 0;
  const datos = months.map((mes) => {
    const r = byMonth.get(mes);
    const total = toCents(r?.total ?? '0');
    ventas += r?.n ?? 0;
    ingresos += total;
    return {
      mes,
      etiqueta: label.format(new Date(Date.UTC(Number(mes.slice(0, 4)), Number(mes.slice(5, 7)) - 1, 15))),
      ventas: r?.n ?? 0,
      total: centsToNumber(total),
    };
  });
  return { datos, total_ventas: ventas, total_ingresos: centsToNumber(ingresos) };
}

export async function topProductsChart(db: Db, b: BusinessContext, now: Date, dias: number): Promise<TopProductsChart> {
  const today = todayIn(b.timezone, now);
  const from = zonedToInstant(addDays(today, -(dias - 1)), b.timezone);
  const items = await topItems(db, b.id, from);
  return {
    datos: items.map((i) => ({
      nombre: i.nombre,
      tipo: i.tipo,
      cantidad_total: i.cantidad_total,
      ingreso_total: i.ingreso_total,
    })),
    periodo: dias === 1 ? 'Hoy' : `Últimos ${dias} días`,
    total_items: items.length,
  };
}

/** Newest events among sales, new products and new customers. */
export async function recentActivity(db: Db, b: BusinessContext, limit: number): Promise<RecentActivity> {
  const money = new Intl.NumberFormat(b.locale, { style: 'currency', currency: b.currency });
  const { rows } = await db.execute<{
    tipo: 'venta' | 'producto' | 'cliente';
    titulo: string;
    dato: string | null;
    fecha: Date;
  }>(sql`
    (SELECT 'venta' AS tipo, 'Venta #' || numero AS titulo, total::text AS dato, fecha
       FROM sales WHERE business_id = ${b.id} AND estado = 'completada' ORDER BY fecha DESC LIMIT ${limit})
    UNION ALL
    (SELECT 'producto', nombre, NULL, creado_en FROM products WHERE business_id = ${b.id} ORDER BY creado_en DESC LIMIT ${limit})
    UNION ALL
    (SELECT 'cliente', nullif(concat_ws(' ', nombre, apellido), ''), NULL, creado_en
       FROM customers WHERE business_id = ${b.id} ORDER BY creado_en DESC LIMIT ${limit})
    ORDER BY fecha DESC
    LIMIT ${limit}`);
  const actividades = rows.map((r) => {
    const fecha = new Date(r.fecha).toISOString();
    if (r.tipo === 'venta') {
      return {
        tipo: r.tipo,
        titulo: r.titulo,
        descripcion: `Total: ${money.format(Number(r.dato))}`,
        fecha,
        icono: 'shopping-cart',
        color: 'green',
      };
    }
    if (r.tipo === 'producto') {
      return { tipo: r.tipo, titulo: 'Nuevo producto', descripcion: r.titulo, fecha, icono: 'package', color: 'blue' };
    }
    return { tipo: r.tipo, titulo: 'Nuevo cliente', descripcion: r.titulo, fecha, icono: 'users', color: 'purple' };
  });
  return { actividades, total: actividades.length };
}

export async function healthCheck(db: Db, businessId: string) {
  const started = performance.now();
  try {
    const t0 = performance.now();
    await db.execute(sql`SELECT 1`);
    const latency = Math.round(performance.now() - t0);
    const [r] = (
      await db.execute<{ productos: number; ventas: number }>(sql`
        SELECT (SELECT count(*)::int FROM products WHERE business_id = ${businessId}) AS productos,
               (SELECT count(*)::int FROM sales WHERE business_id = ${businessId}) AS ventas`)
    ).rows;
    return {
      ok: true,
      body: {
        status: 'ok' as const,
        database: 'ok' as const,
        negocio_id: businessId,
        response_time_ms: Math.round(performance.now() - started),
        checks: {
          database: { status: 'ok' as const, latency_ms: latency },
          membresia: { status: 'ok' as const },
          productos: { status: 'ok' as const, total: r.productos },
          ventas: { status: 'ok' as const, total: r.ventas },
        },
      },
    };
  } catch {
    return {
      ok: false,
      body: {
        status: 'error' as const,
        database: 'error' as const,
        negocio_id: businessId,
        response_time_ms: Math.round(performance.now() - started),
        checks: {
          database: { status: 'error' as const, latency_ms: null },
          membresia: { status: 'ok' as const },
          productos: { status: 'error' as const, total: null },
          ventas: { status: 'error' as const, total: null },
        },
      },
    };
  }
}
