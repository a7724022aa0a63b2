import { sql } from 'drizzle-orm';
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
  type TopItem,
  type TopProductsChart,
} from '@mostrador/shared';
import type { Db } from '../../db/client.js';
import type { BusinessContext } from '../../lib/access.js';
import { addDays, todayIn } from '../../lib/dates.js';
import { toCents, toMilli } from '../products/common.js';
import {
  activityRows,
  authorisedInvoices,
  catalogueCounts,
  healthCounts,
  monthlyRows,
  monthSalesNet,
  pendingPurchases,
  periodFigures,
  recentSaleRows,
  topItemRows,
} from './dashboard.queries.js';

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
  const rows = await topItemRows(businessId, from, limit, db);
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
  const rows = await recentSaleRows(businessId, limit, db);
  return rows.map((r) => ({
    id: r.id,
    numero: r.numero,
    fecha: new Date(r.fecha).toISOString(),
    total: centsToNumber(toCents(r.total)),
  }));
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
  const figures = periodFigures(b.id, p, since, db);
  // Facturas emitidas (issue 16): the period's invoices ARCA authorised (notas de crédito apart).
  const facturas = authorisedInvoices(b.id, p[periodo], db);
  const [f, counts, topMonth, topPeriod, recientes, emitidas] = await Promise.all([
    figures,
    catalogueCounts(b.id, db),
    topItems(db, b.id, p.mes),
    periodo === 'mes' ? null : topItems(db, b.id, p[periodo]),
    recentSales(db, b.id, DASHBOARD_TOP),
    facturas,
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
    facturas_emitidas: emitidas,
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
    monthSalesNet(b.id, p.mes, db),
    catalogueCounts(b.id, db),
    pendingPurchases(b.id, db),
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
  const rows = await monthlyRows(b.id, b.timezone, from, db);
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
  const rows = await activityRows(b.id, limit, db);
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
    const r = await healthCounts(businessId, db);
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
