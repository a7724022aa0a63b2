import { sql, type SQL } from 'drizzle-orm';
import {
  SALE_MESSAGES,
  SALE_REPORT_MAX_DAYS,
  type PaymentMethod,
  type ReportCustomer,
  type ReportDay,
  type ReportItem,
  type ReportMedio,
  type ReportPaymentMethod,
  paymentMethodLabel,
  type MedioTipo,
  type SalesReport,
} from '@mostrador/shared';
import { poolOf, type Db } from '../../db/client.js';
import { readTogether } from '../../db/pipeline.js';
import { addDays, daysBetween } from '../../lib/dates.js';
import { withoutCosts } from '../../lib/costs.js';
import { invalid } from '../../lib/errors.js';
import { bigCents, moneyOut, moneyTooLarge } from '../../lib/money.js';
import { withPaymentLabels } from '../../lib/payment-labels.js';
import { dayRange } from './sales.service.js';

/** The first day of the month after `date`'s. */
const nextMonthStart = (date: string) => `${addDays(`${date.slice(0, 8)}01`, 32).slice(0, 8)}01`;
const lastDayOfMonth = (date: string) => addDays(nextMonthStart(date), -1);

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

/** Integer cents divided and rounded half-up (both non-negative). */
const divCents = (cents: bigint, n: number) => (n > 0 ? (cents * 2n + BigInt(n)) / (2n * BigInt(n)) : 0n);

/**
 * How a range is read (decision 0027): the whole months inside it from the monthly totals, the
 * days at its ends outside whole months from the rows themselves.
 */
export function reportParts(desde: string, hasta: string) {
  const monthsFrom = desde.endsWith('-01') ? desde : nextMonthStart(desde);
  const after = addDays(hasta, 1);
  const monthsTo = after.endsWith('-01') ? after : `${hasta.slice(0, 8)}01`;
  if (monthsFrom >= monthsTo) return { months: null, edges: [{ desde, hasta }] };
  const edges = [
    ...(desde < monthsFrom ? [{ desde, hasta: addDays(monthsFrom, -1) }] : []),
    ...(monthsTo < after ? [{ desde: monthsTo, hasta }] : []),
  ];
  return { months: { from: monthsFrom, to: monthsTo }, edges };
}

const NONE = '00000000-0000-0000-0000-000000000000';

type Rows<T> = { rows: T[] };
type DayRow = {
  dia: string;
  n: number;
  total: string;
  costo: string;
  descuento: string;
  anuladas: number;
  devuelto: string;
  costo_devuelto: string;
};
type MethodRow = { metodo_pago: string; n: number; total: string };
type MedioRow = MethodRow & {
  n_metodo: number;
  medio_pago_id: string | null;
  nombre: string | null;
  tipo: string | null;
};
type JsonRow = { json: string; grande: boolean };

/** The largest amount a JSON number carries to the cent (MAX_EXACT_CENTS). */
const MAX_EXACT = '9999999999999.99';

/**
 * A list of the report as PostgreSQL's JSON of its rows, in their order (the query's columns are
 * the answer's fields): PostgreSQL writes it while the API's one thread does not parse and rebuild
 * a row and an object per product and customer (issue 20). Amounts are exact decimals, read as the
 * numbers moneyOut gives; `grande` says one is beyond what a number carries to the cent.
 */
function asJson(query: SQL, amounts: string[] = []) {
  const checks = ['total', ...amounts].map((a) => sql`abs(q.${sql.identifier(a)}) > ${MAX_EXACT}::numeric`);
  return sql`SELECT coalesce(json_agg(q), '[]')::text AS json, coalesce(bool_or(${sql.join(checks, sql` OR `)}), false) AS grande
               FROM (${query}) q`;
}

/** A customer's name as the report shows it: name and surname, else "Consumidor final". */
const clientName = (id: string) =>
  sql`CASE WHEN ${sql.raw(id)} IS NULL THEN ${SALE_MESSAGES.walkIn}::text
           ELSE coalesce(nullif(concat_ws(' ', CASE WHEN btrim(c.nombre) <> '' THEN c.nombre END,
                                          CASE WHEN btrim(c.apellido) <> '' THEN c.apellido END), ''),
                         ${SALE_MESSAGES.walkIn}::text) END`;

/** A list's JSON text, refused when an amount would not reach the client to the cent. */
function listOf(r: Rows<JsonRow>): string {
  const [row] = r.rows;
  if (row.grande) throw moneyTooLarge();
  return row.json;
}

/** What the report reads: its figures, and its two long lists as JSON text (with `ganancia` if `costos`). */
interface ReportRead {
  head: Omit<SalesReport, 'productos_mas_vendidos' | 'por_metodo_pago' | 'por_medio_pago' | 'por_cliente'>;
  items: string;
  metodos: ReportPaymentMethod[];
  medios: ReportMedio[];
  clients: string;
  costos: boolean;
}

/**
 * The sales report of a range: completed sales only (voided ones are counted apart), net of the
 * returns made in the range (on their date: what went back, its cost, quantities and medios),
 * totals added in integer cents so they match the stored amounts to the cent. Days and medios
 * come from the daily totals; customers and items from the monthly totals for whole months and
 * from the rows for the days around them (decision 0027).
 */
export async function readReport(
  db: Db,
  businessId: string,
  timezone: string,
  desde: string,
  hasta: string,
  costos: boolean,
): Promise<ReportRead> {
  const parts = reportParts(desde, hasta);
  const instants = parts.edges.map((e) => dayRange(timezone, e.desde, e.hasta));
  const at = (alias: string) =>
    sql.join(
      instants.map(
        (r) =>
          sql`(${sql.raw(alias)}.fecha >= ${r.from!.toISOString()}::timestamptz AND ${sql.raw(alias)}.fecha < ${r.to!.toISOString()}::timestamptz)`,
      ),
      sql` OR `,
    );
  const months = (alias: string) =>
    sql`${sql.raw(alias)}.business_id = ${businessId} AND ${sql.raw(alias)}.mes >= ${parts.months?.from}::date AND ${sql.raw(alias)}.mes < ${parts.months?.to}::date`;
  // Each source of a customer's or an item's figures, as rows of the same shape (`filas` counts
  // what makes a customer appear: a completed sale or a return).
  const clientSources = [
    ...(parts.months
      ? [
          sql`SELECT nullif(m.cliente_id, ${NONE}::uuid) AS cliente_id, m.ventas AS n, m.total, m.filas
                FROM totales_clientes_mes m WHERE ${months('m')}`,
        ]
      : []),
    ...(instants.length
      ? [
          sql`SELECT s.cliente_id, 1 AS n, s.total, 1 AS filas FROM sales s
               WHERE s.business_id = ${businessId} AND (${at('s')}) AND s.estado = 'completada'`,
          sql`SELECT d.cliente_id, 0 AS n, -d.monto AS total, 1 AS filas FROM devoluciones d WHERE d.business_id = ${businessId} AND (${at('d')})`,
        ]
      : []),
  ];
  const itemSources = [
    ...(parts.months
      ? [
          sql`SELECT m.tipo, m.item_id AS id, m.nombre AS actual, m.nombre, m.cantidad, m.total, m.costo
                FROM totales_items_mes m WHERE ${months('m')}`,
        ]
      : []),
    ...(instants.length
      ? [
          sql`SELECT i.tipo, coalesce(i.producto_id, i.servicio_id) AS id, NULL::text AS actual, i.nombre, i.cantidad, i.subtotal AS total, i.costo_total AS costo
                FROM sale_items i WHERE i.business_id = ${businessId} AND (${at('i')}) AND NOT i.anulada`,
          sql`SELECT i.tipo, coalesce(i.producto_id, i.servicio_id) AS id, NULL::text, i.nombre, -di.cantidad AS cantidad, -di.subtotal AS total, -di.costo AS costo
                FROM devoluciones d
                JOIN devolucion_items di ON di.business_id = d.business_id AND di.devolucion_id = d.id
                JOIN sale_items i ON i.business_id = di.business_id AND i.id = di.venta_item_id
               WHERE d.business_id = ${businessId} AND (${at('d')})`,
        ]
      : []),
  ];
  // An item's profit, for those who may see costs (lib/costs.ts: the answer skips that hook).
  const ganancia = (alias: string) => (costos ? sql.raw(`, ${alias}.total - ${alias}.costo AS ganancia`) : sql``);
  // One whole month and nothing else (the report's default): its rows as they are, nothing to add up.
  const oneMonth =
    parts.months && !instants.length && parts.months.to === nextMonthStart(parts.months.from)
      ? parts.months.from
      : null;
  // The four reads go out together on one connection (one round trip, issue 20).
  const [days, methods, clients, items] = (await readTogether(poolOf(db), [
    sql`
      SELECT dia::text AS dia, ventas AS n, total::text AS total, costo::text AS costo, descuento::text AS descuento,
             anuladas, devuelto::text AS devuelto, costo_devuelto::text AS costo_devuelto
        FROM totales_ventas_dia
       WHERE business_id = ${businessId} AND dia >= ${desde}::date AND dia <= ${hasta}::date`,
    // Per configured medio (migration 0063), named as it is called now; the codes' list adds these up.
    sql`
      SELECT t.metodo_pago, nullif(t.medio_pago_id, ${NONE}::uuid) AS medio_pago_id, m.nombre, m.tipo,
             t.n, t.n_metodo, t.total::text AS total
        FROM (SELECT metodo_pago, medio_pago_id, sum(ventas)::int AS n, sum(ventas_metodo)::int AS n_metodo, sum(total) AS total
                FROM totales_medios_dia
               WHERE business_id = ${businessId} AND dia >= ${desde}::date AND dia <= ${hasta}::date
               GROUP BY 1, 2
              HAVING sum(filas) > 0) t
        LEFT JOIN payment_methods m ON m.business_id = ${businessId} AND m.id = t.medio_pago_id
       ORDER BY t.total DESC, m.nombre NULLS LAST, t.metodo_pago`,
    asJson(
      oneMonth
        ? sql`
      SELECT nullif(m.cliente_id, ${NONE}::uuid) AS cliente_id, ${clientName('m.cliente_id')} AS cliente_nombre,
             m.ventas AS cantidad_ventas, m.total
        FROM totales_clientes_mes m
        LEFT JOIN customers c ON c.business_id = ${businessId} AND c.id = m.cliente_id
       WHERE m.business_id = ${businessId} AND m.mes = ${oneMonth}::date AND m.filas > 0
       ORDER BY m.total DESC, c.apellido NULLS FIRST, c.nombre`
        : sql`
      SELECT t.cliente_id, ${clientName('t.cliente_id')} AS cliente_nombre, t.n AS cantidad_ventas, t.total
        FROM (SELECT x.cliente_id, sum(x.n)::int AS n, sum(x.total) AS total
                FROM (${sql.join(clientSources, sql` UNION ALL `)}) x
               GROUP BY 1
              HAVING sum(x.filas) > 0) t
        LEFT JOIN customers c ON c.business_id = ${businessId} AND c.id = t.cliente_id
       ORDER BY t.total DESC, c.apellido NULLS FIRST, c.nombre`,
    ),
    asJson(
      oneMonth
        ? sql`
      SELECT m.item_id AS id, m.tipo, m.nombre, m.cantidad, m.total${ganancia('m')}
        FROM totales_items_mes m
       WHERE m.business_id = ${businessId} AND m.mes = ${oneMonth}::date AND (m.cantidad <> 0 OR m.total <> 0)
       ORDER BY m.cantidad DESC, m.total DESC, m.nombre`
        : sql`
      -- Items named as they are called now: the monthly totals keep the current name; an item only
      -- in the days read from rows is looked up by index (a join hashed all the business's
      -- products on every report: issue 20).
      SELECT t.id, t.tipo,
             coalesce(t.actual,
                      CASE WHEN t.tipo = 'producto' THEN (SELECT p.nombre FROM products p WHERE p.business_id = ${businessId} AND p.id = t.id) END,
                      CASE WHEN t.tipo = 'servicio' THEN (SELECT sv.nombre FROM services sv WHERE sv.business_id = ${businessId} AND sv.id = t.id) END,
                      t.nombre) AS nombre,
             t.cantidad, t.total${ganancia('t')}
        FROM (SELECT x.tipo, x.id, max(x.actual) AS actual, max(x.nombre) AS nombre, sum(x.cantidad) AS cantidad,
                     sum(x.total) AS total, sum(x.costo) AS costo
                FROM (${sql.join(itemSources, sql` UNION ALL `)}) x
               GROUP BY 1, 2
              HAVING sum(x.cantidad) <> 0 OR sum(x.total) <> 0) t
       ORDER BY t.cantidad DESC, t.total DESC, 3`,
      costos ? ['ganancia'] : [],
    ),
  ])) as unknown as [Rows<DayRow>, Rows<MedioRow>, Rows<JsonRow>, Rows<JsonRow>];

  const byDay = new Map(days.rows.map((r) => [r.dia, r]));
  let devoluciones = 0n;
  const porDia: ReportDay[] = [];
  let count = 0;
  let ingresos = 0n;
  let costo = 0n;
  let descuentos = 0n;
  let anuladas = 0;
  for (let d = desde; d <= hasta; d = addDays(d, 1)) {
    const r = byDay.get(d);
    devoluciones += bigCents(r?.devuelto);
    const total = bigCents(r?.total) - bigCents(r?.devuelto);
    const c = bigCents(r?.costo) - bigCents(r?.costo_devuelto);
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

  const head = {
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
  };
  const medios = methods.rows.map((r): ReportMedio => ({
    medio_pago_id: r.medio_pago_id,
    nombre: r.nombre ?? paymentMethodLabel(r.metodo_pago),
    tipo: (r.tipo as MedioTipo | null) ?? null,
    metodo_pago: r.metodo_pago as PaymentMethod,
    cantidad_ventas: r.n,
    total: moneyOut(bigCents(r.total)),
  }));
  // Per code: a sale paid with two medios of one code counts once (`ventas_metodo`).
  const byCode = new Map<string, { n: number; cents: bigint }>();
  for (const r of methods.rows) {
    const e = byCode.get(r.metodo_pago) ?? { n: 0, cents: 0n };
    byCode.set(r.metodo_pago, { n: e.n + r.n_metodo, cents: e.cents + bigCents(r.total) });
  }
  const metodos = [...byCode]
    .sort(([a, x], [b, y]) => (x.cents === y.cents ? (a < b ? -1 : 1) : x.cents > y.cents ? -1 : 1))
    .map(([code, e]): ReportPaymentMethod => ({
      metodo_pago: code as PaymentMethod,
      cantidad_ventas: e.n,
      total: moneyOut(e.cents),
    }));
  return { head, items: listOf(items), metodos, medios, clients: listOf(clients), costos };
}

/** The report as an object (the spreadsheet), read with costs: the hooks hide them from the JSON. */
export function reportObject(r: ReportRead): SalesReport {
  return {
    ...r.head,
    productos_mas_vendidos: JSON.parse(r.items) as ReportItem[],
    por_metodo_pago: r.metodos,
    por_medio_pago: r.medios,
    por_cliente: JSON.parse(r.clients) as ReportCustomer[],
  };
}

/**
 * The report's JSON answer as text (issue 20): the product and customer lists go in as PostgreSQL
 * wrote them, never parsed nor written again by the API's one thread. Doing by hand what the
 * hooks do for other answers: costs left out for a member who may not see them (the lists'
 * `ganancia` is not even read), medios labelled; the tests check it against its schema
 * (sendJsonText).
 */
export function reportJson(r: ReportRead) {
  const head = JSON.stringify(r.costos ? r.head : withoutCosts(r.head));
  return `${head.slice(0, -1)},"productos_mas_vendidos":${r.items},"por_metodo_pago":${JSON.stringify(withPaymentLabels(r.metodos))},"por_medio_pago":${JSON.stringify(r.medios)},"por_cliente":${r.clients}}`;
}
