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
import type { Db } from '../../db/client.js';
import { addDays, daysBetween } from '../../lib/dates.js';
import { withoutCosts } from '../../lib/costs.js';
import { invalid } from '../../lib/errors.js';
import { bigCents, moneyOut, moneyTooLarge } from '../../lib/money.js';
import { withPaymentLabels } from '../../lib/payment-labels.js';
import { reportRows, type JsonRow } from './reports.queries.js';
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

/** A list's JSON text, refused when an amount would not reach the client to the cent. */
function listOf(r: { rows: JsonRow[] }): string {
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
  // The days outside whole months, as instants (both ends are given: neither is undefined).
  const instants = parts.edges.map((e) => {
    const r = dayRange(timezone, e.desde, e.hasta);
    return { from: r.from!, to: r.to! };
  });
  // One whole month and nothing else (the report's default): its rows as they are, nothing to add up.
  const oneMonth =
    parts.months && !instants.length && parts.months.to === nextMonthStart(parts.months.from)
      ? parts.months.from
      : null;
  // The four reads go out together on one connection (one round trip, issue 20).
  const [days, methods, clients, items] = await reportRows(
    businessId,
    { desde, hasta, months: parts.months, instants, oneMonth },
    costos,
    db,
  );

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
