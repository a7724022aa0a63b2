import { and, eq, sql } from 'drizzle-orm';
import type { Pool } from 'pg';
import type { ComprobanteListQuery, Entorno } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { comprobantes } from '../../db/schema/index.js';

/*
 * The comprobantes' statements (decision 0044): every function takes the business first, but the
 * background pass's two across businesses (each called in its reviewed cross-business path in
 * facturador.ts). The CAEA's own are in caea.queries.ts.
 */

export type ComprobanteRow = typeof comprobantes.$inferSelect;
export type ComprobanteValues = typeof comprobantes.$inferInsert;
export type ComprobanteColumns = Partial<ComprobanteValues>;

/** A comprobante by id. */
export async function comprobanteRow(businessId: string, id: string, ex: Executor): Promise<ComprobanteRow | null> {
  const [r] = await ex
    .select()
    .from(comprobantes)
    .where(and(eq(comprobantes.businessId, businessId), eq(comprobantes.id, id)));
  return r ?? null;
}

/** A sale's invoice: its comprobante that points at no other. */
const facturaDe = (businessId: string, ventaId: string) =>
  and(
    eq(comprobantes.businessId, businessId),
    eq(comprobantes.ventaId, ventaId),
    sql`${comprobantes.asociadoId} IS NULL`,
  );

/** The id of a sale's invoice, if it has one. */
export async function facturaIdOfSale(businessId: string, ventaId: string, ex: Executor) {
  const [r] = await ex.select({ id: comprobantes.id }).from(comprobantes).where(facturaDe(businessId, ventaId));
  return r ?? null;
}

/** A sale's invoice, if it has one. */
export async function facturaOfSale(businessId: string, ventaId: string, ex: Executor): Promise<ComprobanteRow | null> {
  const [r] = await ex.select().from(comprobantes).where(facturaDe(businessId, ventaId));
  return r ?? null;
}

/** A new comprobante; null when one of its unique keys is taken already (another path created it). */
export async function insertComprobante(businessId: string, values: ComprobanteValues, ex: Executor) {
  const [r] = await ex
    .insert(comprobantes)
    .values({ ...values, businessId })
    .onConflictDoNothing()
    .returning({ id: comprobantes.id });
  return r ?? null;
}

export async function updateComprobante(businessId: string, id: string, set: ComprobanteColumns, ex: Executor) {
  await ex
    .update(comprobantes)
    .set(set)
    .where(and(eq(comprobantes.businessId, businessId), eq(comprobantes.id, id)));
}

/** The number of the sale a comprobante belongs to; null when the business has no such comprobante. */
export async function ventaNumeroOf(businessId: string, id: string, ex: Executor) {
  const res = await ex.execute<Record<string, unknown>>(sql`
    SELECT c.id, s.numero AS venta_numero FROM comprobantes c JOIN sales s ON s.business_id = c.business_id AND s.id = c.venta_id
     WHERE c.business_id = ${businessId} AND c.id = ${id}`);
  return res.rows.length ? Number(res.rows[0].venta_numero) : null;
}

/**
 * A page of the list, newest first, with its sales' numbers, and how many match: the count, the
 * page's ids, then their rows.
 */
export async function listComprobanteRows(businessId: string, q: ComprobanteListQuery, ex: Executor) {
  const where = [sql`c.business_id = ${businessId}`];
  if (q.estado) where.push(sql`c.estado = ${q.estado}`);
  if (q.tipo) where.push(sql`c.tipo = ${q.tipo}`);
  if (q.desde) where.push(sql`c.fecha >= ${q.desde}`);
  if (q.hasta) where.push(sql`c.fecha <= ${q.hasta}`);
  if (q.venta_id) where.push(sql`c.venta_id = ${q.venta_id}`);
  if (q.q) {
    const like = `%${q.q.trim()}%`;
    where.push(
      sql`(c.receptor_nombre ILIKE ${like} OR c.receptor_doc_nro ILIKE ${like} OR c.cae ILIKE ${like} OR c.numero::text = ${q.q.trim()})`,
    );
  }
  const w = sql.join(where, sql` AND `);
  const [count] = (await ex.execute<{ n: string }>(sql`SELECT count(*) AS n FROM comprobantes c WHERE ${w}`)).rows;
  const ids = await ex.execute<{ id: string; venta_numero: number }>(sql`
    SELECT c.id, s.numero AS venta_numero FROM comprobantes c JOIN sales s ON s.business_id = c.business_id AND s.id = c.venta_id
     WHERE ${w} ORDER BY c.creado_en DESC, c.id LIMIT ${q.limit} OFFSET ${q.offset}`);
  const rows = ids.rows.length
    ? await ex
        .select()
        .from(comprobantes)
        .where(and(eq(comprobantes.businessId, businessId), sql`${comprobantes.id} IN ${ids.rows.map((r) => r.id)}`))
    : [];
  return { page: ids.rows, rows, total: Number(count.n) };
}

/** Authorised comprobantes of a month, in date and number order. */
export async function autorizadosDelMes(businessId: string, mes: string, ex: Executor) {
  const desde = `${mes}-01`;
  return ex
    .select()
    .from(comprobantes)
    .where(
      and(
        eq(comprobantes.businessId, businessId),
        eq(comprobantes.estado, 'autorizado'),
        sql`${comprobantes.fecha} >= ${desde}::date AND ${comprobantes.fecha} < (${desde}::date + interval '1 month')`,
      ),
    )
    .orderBy(comprobantes.fecha, comprobantes.tipo, comprobantes.puntoVenta, comprobantes.numero);
}

/** WSFE answers again: the business's pendientes waiting for a later attempt are due now. Answers their ids. */
export async function dueNow(businessId: string, now: Date, ex: Executor) {
  return ex
    .update(comprobantes)
    .set({ proximoIntento: now })
    .where(
      and(
        eq(comprobantes.businessId, businessId),
        eq(comprobantes.estado, 'pendiente'),
        sql`${comprobantes.proximoIntento} > ${now}`,
      ),
    )
    .returning({ id: comprobantes.id });
}

/** Another of the business's rows that kept this number was never approved: it loses the number. */
export async function releaseNumber(
  businessId: string,
  row: Pick<ComprobanteRow, 'id' | 'emisorCuit' | 'puntoVenta' | 'tipo'>,
  numero: number,
  ex: Executor,
) {
  await ex
    .update(comprobantes)
    .set({ numero: null })
    .where(
      and(
        eq(comprobantes.businessId, businessId),
        eq(comprobantes.emisorCuit, row.emisorCuit),
        eq(comprobantes.puntoVenta, row.puntoVenta),
        eq(comprobantes.tipo, row.tipo),
        eq(comprobantes.numero, numero),
        sql`${comprobantes.estado} <> 'autorizado'`,
        sql`${comprobantes.id} <> ${row.id}`,
      ),
    );
}

/* ---------------------------------------------------------------- across businesses */

/** The businesses (with their environment) whose pendientes wait more than a minute for their next attempt. */
export function waitingForArca(now: Date, pool: Pool) {
  return pool.query<{ business_id: string; entorno: Entorno }>(
    `SELECT DISTINCT c.business_id, f.entorno FROM comprobantes c
           JOIN facturacion_config f ON f.business_id = c.business_id
          WHERE c.estado = 'pendiente' AND c.proximo_intento > $1::timestamptz + interval '1 minute'`,
    [now],
  );
}

/**
 * Claims the due pendientes of every business (every pendiente with `all`), moving their next
 * attempt five minutes ahead so no other instance takes them meanwhile.
 */
export function claimDue(all: boolean, now: Date, limit: number, pool: Pool) {
  return pool.query<{ business_id: string; id: string }>(
    `WITH due AS (
         SELECT business_id, id FROM comprobantes
          WHERE estado = 'pendiente' AND ($1 OR proximo_intento IS NULL OR proximo_intento <= $2)
          ORDER BY proximo_intento NULLS FIRST, creado_en LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE comprobantes c SET proximo_intento = $2::timestamptz + interval '5 minutes'
         FROM due WHERE c.business_id = due.business_id AND c.id = due.id
       RETURNING c.business_id, c.id`,
    [all, now, limit],
  );
}
