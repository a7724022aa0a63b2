import { sql, type SQL } from 'drizzle-orm';
import { SALE_MESSAGES } from '@mostrador/shared';
import { poolOf, type Db } from '../../db/client.js';
import { readTogether } from '../../db/pipeline.js';
import type { FirstRead } from '../../lib/access.js';

/*
 * The sales report's statements (decision 0044): every function takes the business first.
 */

const NONE = '00000000-0000-0000-0000-000000000000';

type Rows<T> = { rows: T[] };
export type DayRow = {
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
export type MedioRow = MethodRow & {
  n_metodo: number;
  medio_pago_id: string | null;
  nombre: string | null;
  tipo: string | null;
};
export type JsonRow = { json: string; grande: boolean };

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

/**
 * What a report reads (decision 0027): its days `desde`–`hasta`, the whole months inside them
 * (`months`, from the monthly totals), the instants of the days outside whole months (`instants`,
 * from the rows) and `oneMonth` when the range is exactly one month (its rows as they are).
 */
export interface ReportSpan {
  desde: string;
  hasta: string;
  months: { from: string; to: string } | null;
  instants: { from: Date; to: Date }[];
  oneMonth: string | null;
}

/**
 * The report's four reads, sent together on one connection (one round trip, issue 20): the daily
 * totals, the medios, and the customers' and items' lists as JSON text (with `ganancia` if
 * `costos`).
 */
export async function reportRows(businessId: string, span: ReportSpan, costos: boolean, db: Db) {
  const { desde, hasta, months: parts, instants, oneMonth } = span;
  const at = (alias: string) =>
    sql.join(
      instants.map(
        (r) =>
          sql`(${sql.raw(alias)}.fecha >= ${r.from.toISOString()}::timestamptz AND ${sql.raw(alias)}.fecha < ${r.to.toISOString()}::timestamptz)`,
      ),
      sql` OR `,
    );
  const months = (alias: string) =>
    sql`${sql.raw(alias)}.business_id = ${businessId} AND ${sql.raw(alias)}.mes >= ${parts?.from}::date AND ${sql.raw(alias)}.mes < ${parts?.to}::date`;
  // Each source of a customer's or an item's figures, as rows of the same shape (`filas` counts
  // what makes a customer appear: a completed sale or a return).
  const clientSources = [
    ...(parts
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
    ...(parts
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
  return (await readTogether(poolOf(db), [
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
}

/* ---------------------------------------------------------------- the totals' version */

/**
 * The version of a business's totals (migration 0050): it grows at the commit of every change to
 * what the sales report shows (decision 0029). As the query the access check sends with the
 * session lookup (access.ts firstRead).
 */
export function reportVersionQuery(businessId: string): FirstRead['query'] {
  return {
    text: `SELECT coalesce((SELECT version FROM totales_version WHERE business_id = $1), 0)::text AS version`,
    values: [businessId],
  };
}

/** The version of a business's totals, read on its own (the rows versionOf reads). */
export async function reportVersionRows(businessId: string, db: Db) {
  return (await poolOf(db).query(reportVersionQuery(businessId))).rows as Record<string, unknown>[];
}
