import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { SupplierListQuery } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { financeAccounts, purchases, suppliers } from '../../db/schema/index.js';
import { rows } from '../caja/rows.js';
import { es, searchFunction, searchTerms } from '../products/common.js';

/*
 * The suppliers' statements (decision 0044): every function takes the business first.
 */

export type SupplierRow = typeof suppliers.$inferSelect;
export type SupplierColumns = Partial<Omit<typeof suppliers.$inferInsert, 'id' | 'businessId'>>;

export interface Balance {
  deuda: string | null;
  deuda_vencida: string | null;
  cuentas_pendientes: number | null;
}

/** Unpaid payables per supplier: the amount, the overdue part and how many (today in the business time zone). */
const balance = (today: string) => sql<Balance>`(
  SELECT json_build_object(
    'deuda', coalesce(sum(a.monto - a.monto_pagado), 0)::text,
    'deuda_vencida', coalesce(sum(a.monto - a.monto_pagado) FILTER (WHERE a.fecha_vencimiento < ${today}::date), 0)::text,
    'cuentas_pendientes', count(*)::int)
    FROM ${financeAccounts} a
   WHERE a.business_id = "suppliers"."business_id" AND a.proveedor_id = "suppliers"."id"
     AND a.tipo = 'por_pagar' AND a.estado = 'pendiente')`;

/** The folded text that the GIN index suppliers_search_idx covers (same expression, so it is used). */
const haystack = sql`f_unaccent(lower(${suppliers.nombre} || ' ' || coalesce(${suppliers.cuit}, '') || ' ' || coalesce(${suppliers.email}, '') || ' ' || coalesce(${suppliers.contacto}, '')))`;

const supplierSearch = searchFunction('buscar_proveedores', suppliers.id);

function filters(businessId: string, q: Pick<SupplierListQuery, 'q' | 'estado'>): SQL[] {
  const where: SQL[] = [eq(suppliers.businessId, businessId)];
  if (q.estado) where.push(eq(suppliers.estado, q.estado));
  const terms = searchTerms(haystack, q.q);
  // A CUIT typed without hyphens still finds the stored XX-XXXXXXXX-X. That alternative is tested
  // on every row of the business anyway, so the words are too; otherwise the index serves them.
  const digits = q.q?.replace(/[\s.-]/g, '') ?? '';
  if (terms.length && /^\d{3,}$/.test(digits)) {
    where.push(sql`(${and(...terms)} OR replace(coalesce(${suppliers.cuit}, ''), '-', '') LIKE ${`%${digits}%`})`);
  } else where.push(...searchTerms(haystack, q.q, supplierSearch));
  return where;
}

/** By name the Spanish way unless `orden` asks for another column (ties by name). */
function orderOf(q: SupplierListQuery): SQL[] {
  const dir = q.direccion === 'desc' ? desc : asc;
  const main =
    q.orden === 'cuit'
      ? [sql`${dir(suppliers.cuit)} NULLS LAST`]
      : q.orden === 'creado_en'
        ? [dir(suppliers.creadoEn)]
        : [];
  return [...main, (!q.orden || q.orden === 'nombre' ? dir : asc)(es(suppliers.nombre)), asc(suppliers.id)];
}

/** A page of the list, each with what is owed to it, and the count of the whole list. */
export async function listSupplierRows(businessId: string, q: SupplierListQuery, today: string, ex: Executor) {
  const where = and(...filters(businessId, q));
  const [rows, [{ total }]] = await Promise.all([
    ex
      .select({ s: suppliers, b: balance(today) })
      .from(suppliers)
      .where(where)
      .orderBy(...orderOf(q))
      .limit(q.limit)
      .offset(q.offset),
    ex
      .select({ total: sql<number>`count(*)::int` })
      .from(suppliers)
      .where(where),
  ]);
  return { rows, total };
}

export async function findSupplierRow(businessId: string, id: string, today: string, ex: Executor) {
  const [r] = await ex
    .select({ s: suppliers, b: balance(today) })
    .from(suppliers)
    .where(and(eq(suppliers.businessId, businessId), eq(suppliers.id, id)));
  return r;
}

/** What was bought from the supplier, cancelled purchases left out. */
export async function supplierPurchases(businessId: string, id: string, ex: Executor) {
  const [c] = await ex
    .select({
      cantidad: sql<number>`count(*)::int`,
      total: sql<string>`coalesce(sum(${purchases.total}), 0)::text`,
      pendientes: sql<number>`(count(*) FILTER (WHERE ${purchases.estado} IN ('pendiente', 'recibida_parcial')))::int`,
      ultima: sql<string | null>`max(${purchases.fecha})::text`,
    })
    .from(purchases)
    .where(
      and(eq(purchases.businessId, businessId), eq(purchases.proveedorId, id), sql`${purchases.estado} <> 'cancelada'`),
    );
  return c;
}

/** The supplier locked FOR SHARE (it cannot be deleted before the caller's transaction ends). */
export async function shareSupplier(businessId: string, id: string, ex: Executor) {
  const [row] = await ex
    .select({ id: suppliers.id, nombre: suppliers.nombre })
    .from(suppliers)
    .where(and(eq(suppliers.businessId, businessId), eq(suppliers.id, id)))
    .for('share');
  return row;
}

export async function insertSupplier(businessId: string, cols: SupplierColumns, ex: Executor) {
  const [row] = await ex
    .insert(suppliers)
    .values({ businessId, ...cols } as typeof suppliers.$inferInsert)
    .returning();
  return row;
}

/** The supplier locked for an update or a delete, or undefined. */
export async function lockSupplierRow(businessId: string, id: string, ex: Executor) {
  const [before] = await ex
    .select()
    .from(suppliers)
    .where(and(eq(suppliers.businessId, businessId), eq(suppliers.id, id)))
    .for('update');
  return before;
}

export async function updateSupplierRow(businessId: string, id: string, cols: SupplierColumns, ex: Executor) {
  await ex
    .update(suppliers)
    .set({ ...cols, actualizadoEn: sql`now()` })
    .where(and(eq(suppliers.businessId, businessId), eq(suppliers.id, id)));
}

/** The payables that carry the supplier's old name take the new one. */
export async function renameSupplierInAccounts(
  businessId: string,
  id: string,
  oldName: string,
  newName: string,
  ex: Executor,
) {
  await ex
    .update(financeAccounts)
    .set({ proveedorNombre: newName, actualizadoEn: sql`now()` })
    .where(
      and(
        eq(financeAccounts.businessId, businessId),
        eq(financeAccounts.proveedorId, id),
        eq(financeAccounts.proveedorNombre, oldName),
      ),
    );
}

/** Whether purchases or payables reference the supplier. */
export async function supplierReferences(businessId: string, id: string, ex: Executor) {
  const [ref] = await ex
    .execute<{ compras: boolean; cuentas: boolean }>(
      sql`
        SELECT EXISTS (SELECT 1 FROM ${purchases} WHERE business_id = ${businessId} AND proveedor_id = ${id}) AS compras,
               EXISTS (SELECT 1 FROM ${financeAccounts} WHERE business_id = ${businessId} AND proveedor_id = ${id}) AS cuentas`,
    )
    .then((r) => r.rows);
  return ref;
}

export async function deleteSupplierRow(businessId: string, id: string, ex: Executor) {
  await ex.delete(suppliers).where(and(eq(suppliers.businessId, businessId), eq(suppliers.id, id)));
}

/** The supplier's name and the pending part of its payables (its account's balance). */
export async function supplierAccountHead(businessId: string, proveedorId: string, ex: Executor) {
  const [s] = await rows(
    ex,
    sql`SELECT s.id, s.nombre,
               (SELECT coalesce(sum(a.monto - a.monto_pagado), 0) FROM finance_accounts a
                 WHERE a.business_id = s.business_id AND a.proveedor_id = s.id AND a.tipo = 'por_pagar')::text AS saldo
          FROM suppliers s WHERE s.business_id = ${businessId} AND s.id = ${proveedorId}`,
  );
  return s;
}

/** The supplier's payables (deuda) and their payments (pago, own cheques given included), oldest first. */
export function supplierAccountLines(businessId: string, proveedorId: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT 'deuda' AS tipo, a.fecha_emision::text AS fecha, a.creado_en AS orden, a.descripcion, a.id AS cuenta_id,
               a.compra_id, NULL::uuid AS movimiento_id, a.monto::text AS monto
          FROM finance_accounts a
         WHERE a.business_id = ${businessId} AND a.proveedor_id = ${proveedorId} AND a.tipo = 'por_pagar'
        UNION ALL
        SELECT 'pago', m.fecha::text, m.creado_en, coalesce(m.descripcion, ''), a.id, a.compra_id, m.id, m.monto::text
          FROM finance_movements m
          JOIN finance_accounts a ON a.business_id = m.business_id AND a.id = m.cuenta_id
         WHERE m.business_id = ${businessId} AND a.proveedor_id = ${proveedorId} AND a.tipo = 'por_pagar'
           AND NOT m.anulado
        UNION ALL
        -- The business's own cheques given to the supplier pay without a movement until the bank
        -- debits them (decision 0057).
        SELECT 'pago', cp.fecha::text, cp.creado_en, 'Cheque propio N° ' || ch.numero || ' (' || ch.banco || ')', a.id,
               a.compra_id, NULL::uuid, cp.monto::text
          FROM cheque_pagos cp
          JOIN cheques ch ON ch.business_id = cp.business_id AND ch.id = cp.cheque_id
          JOIN finance_accounts a ON a.business_id = cp.business_id AND a.id = cp.cuenta_id
         WHERE cp.business_id = ${businessId} AND a.proveedor_id = ${proveedorId} AND ch.tipo = 'propio'
           AND ch.estado <> 'anulado'
         ORDER BY fecha, orden, tipo`,
  );
}
