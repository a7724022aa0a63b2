import { and, asc, eq, gte, lt, lte, sql, type SQL } from 'drizzle-orm';
import { centsToDecimal, type AccountListQuery, type AccountType } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { customers, financeAccounts, financeCategories, purchases } from '../../db/schema/index.js';
import { customerName } from './finance.queries.js';

/*
 * The accounts' (payables and receivables) statements (decision 0044): every function takes
 * the business first.
 */

export type AccountRow = typeof financeAccounts.$inferSelect;
type AccountColumns = Partial<Omit<typeof financeAccounts.$inferInsert, 'id' | 'businessId'>>;

function selectAccounts(ex: Executor) {
  return ex
    .select({ a: financeAccounts, clienteNombre: customerName })
    .from(financeAccounts)
    .leftJoin(
      customers,
      and(eq(customers.businessId, financeAccounts.businessId), eq(customers.id, financeAccounts.clienteId)),
    );
}

export async function findAccountRow(businessId: string, id: string, ex: Executor) {
  const [r] = await selectAccounts(ex).where(
    and(eq(financeAccounts.businessId, businessId), eq(financeAccounts.id, id)),
  );
  return r;
}

/** Earliest due date first; `estado` filters on the value computed against today. */
export async function listAccountRows(
  businessId: string,
  tipo: AccountType,
  q: AccountListQuery,
  today: string,
  db: Executor,
) {
  const where: SQL[] = [eq(financeAccounts.businessId, businessId), eq(financeAccounts.tipo, tipo)];
  if (q.estado === 'pagado') where.push(eq(financeAccounts.estado, 'pagado'));
  if (q.estado === 'pendiente')
    where.push(eq(financeAccounts.estado, 'pendiente'), gte(financeAccounts.fechaVencimiento, today));
  if (q.estado === 'vencido')
    where.push(eq(financeAccounts.estado, 'pendiente'), lt(financeAccounts.fechaVencimiento, today));
  const desde = q.fecha_desde ?? q.vencimiento_desde;
  const hasta = q.fecha_hasta ?? q.vencimiento_hasta;
  if (desde) where.push(gte(financeAccounts.fechaVencimiento, desde));
  if (hasta) where.push(lte(financeAccounts.fechaVencimiento, hasta));
  if (tipo === 'por_cobrar' && q.cliente_id) where.push(eq(financeAccounts.clienteId, q.cliente_id));
  if (tipo === 'por_pagar' && q.proveedor_id) where.push(eq(financeAccounts.proveedorId, q.proveedor_id));
  const [rows, [{ total }]] = await Promise.all([
    selectAccounts(db)
      .where(and(...where))
      .orderBy(asc(financeAccounts.fechaVencimiento), asc(financeAccounts.creadoEn), asc(financeAccounts.id))
      .limit(q.limit)
      .offset(q.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(financeAccounts)
      .where(and(...where)),
  ]);
  return { rows, total };
}

/** What a customer owes in pending receivables, and how much of it is overdue, in decimal strings. */
export async function customerReceivables(businessId: string, clienteId: string, today: string, ex: Executor) {
  const owed = sql`${financeAccounts.monto} - ${financeAccounts.montoPagado}`;
  const [row] = await ex
    .select({
      pendiente: sql<string>`coalesce(sum(${owed}), 0)::text`,
      vencido: sql<string>`coalesce(sum(${owed}) FILTER (WHERE ${financeAccounts.fechaVencimiento} < ${today}), 0)::text`,
      cantidad: sql<number>`count(*)::int`,
    })
    .from(financeAccounts)
    .where(
      and(
        eq(financeAccounts.businessId, businessId),
        eq(financeAccounts.tipo, 'por_cobrar'),
        eq(financeAccounts.estado, 'pendiente'),
        eq(financeAccounts.clienteId, clienteId),
      ),
    );
  return row;
}

export async function insertAccount(
  businessId: string,
  cols: Omit<typeof financeAccounts.$inferInsert, 'businessId'>,
  ex: Executor,
) {
  const [row] = await ex
    .insert(financeAccounts)
    .values({ businessId, ...cols })
    .returning({ id: financeAccounts.id });
  return row;
}

/** The account locked for a change, or undefined. */
export async function lockAccountRow(businessId: string, id: string, ex: Executor) {
  const [row] = await ex
    .select()
    .from(financeAccounts)
    .where(and(eq(financeAccounts.businessId, businessId), eq(financeAccounts.id, id)))
    .for('update');
  return row;
}

/** The purchase of the account (null when it has none; undefined when there is no such account). */
export async function accountPurchaseId(businessId: string, id: string, ex: Executor) {
  const [link] = await ex
    .select({ compraId: financeAccounts.compraId })
    .from(financeAccounts)
    .where(and(eq(financeAccounts.businessId, businessId), eq(financeAccounts.id, id)));
  return link ? link.compraId : undefined;
}

/** Locks a purchase, in the order the purchases module locks it before its payable. */
export async function lockPurchaseOfAccount(businessId: string, compraId: string, ex: Executor) {
  await ex
    .select({ id: purchases.id })
    .from(purchases)
    .where(and(eq(purchases.businessId, businessId), eq(purchases.id, compraId)))
    .for('update');
}

export async function updateAccountRow(businessId: string, id: string, cols: AccountColumns, ex: Executor) {
  await ex
    .update(financeAccounts)
    .set({ ...cols, actualizadoEn: sql`now()` })
    .where(and(eq(financeAccounts.businessId, businessId), eq(financeAccounts.id, id)));
}

/** A purchase's payable and the purchase keep one due date. */
export async function setPurchaseDueDate(businessId: string, compraId: string, fecha: string, ex: Executor) {
  await ex
    .update(purchases)
    .set({ fechaVencimiento: fecha, actualizadoEn: sql`now()` })
    .where(and(eq(purchases.businessId, businessId), eq(purchases.id, compraId)));
}

export async function deleteAccountRow(businessId: string, id: string, ex: Executor) {
  await ex.delete(financeAccounts).where(and(eq(financeAccounts.businessId, businessId), eq(financeAccounts.id, id)));
}

/** The business's system category for expenses (what purchases are paid under). */
export async function purchasesCategoryId(businessId: string, ex: Executor) {
  const [compras] = await ex
    .select({ id: financeCategories.id })
    .from(financeCategories)
    .where(
      and(
        eq(financeCategories.businessId, businessId),
        eq(financeCategories.sistema, true),
        eq(financeCategories.tipo, 'egreso'),
      ),
    );
  return compras?.id ?? null;
}

/**
 * Adds a payment to a pending account, and marks it paid when `paid` is given (the conditional
 * update makes a second or concurrent payment find nothing): the ids it changed.
 */
export function payAccount(
  businessId: string,
  id: string,
  montoCents: number,
  paid: { fechaPago: string; pagadoEn: Date } | null,
  ex: Executor,
) {
  return ex
    .update(financeAccounts)
    .set({
      montoPagado: sql`${financeAccounts.montoPagado} + ${centsToDecimal(montoCents)}::numeric`,
      ...(paid ? { estado: 'pagado' as const, ...paid } : {}),
      actualizadoEn: sql`now()`,
    })
    .where(
      and(
        eq(financeAccounts.businessId, businessId),
        eq(financeAccounts.id, id),
        eq(financeAccounts.estado, 'pendiente'),
      ),
    )
    .returning({ id: financeAccounts.id });
}

export async function linkAccountMovement(businessId: string, id: string, movimientoId: string, ex: Executor) {
  await ex
    .update(financeAccounts)
    .set({ movimientoId })
    .where(and(eq(financeAccounts.businessId, businessId), eq(financeAccounts.id, id)));
}
