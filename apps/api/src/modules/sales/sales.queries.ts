import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { SaleListQuery } from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import {
  customers,
  devoluciones,
  financeMovements,
  saleItems,
  salePayments,
  sales,
  stockMovements,
  turnos,
} from '../../db/schema/index.js';

/*
 * The statements of the sales' list, detail and void (decision 0044): every function takes the
 * business first. record-sale's are in record-sale.queries.ts, the report's in reports.queries.ts.
 */

export type SaleRow = typeof sales.$inferSelect;
export type ItemRow = typeof saleItems.$inferSelect;

const vendedor = sql<
  string | null
>`(SELECT nullif(concat_ws(' ', u.nombre, u.apellido), '') FROM users u WHERE u.id = ${sales.vendedorId})`;
const autorizante = sql<
  string | null
>`(SELECT nullif(concat_ws(' ', u.nombre, u.apellido), '') FROM users u WHERE u.id = ${sales.autorizadoPor})`;
const anulador = sql<
  string | null
>`(SELECT nullif(concat_ws(' ', u.nombre, u.apellido), '') FROM users u WHERE u.id = ${sales.anuladaPor})`;

function selectSales(ex: Executor) {
  return ex
    .select({
      s: sales,
      clienteNombre: customers.nombre,
      clienteApellido: customers.apellido,
      vendedorNombre: vendedor,
      autorizanteNombre: autorizante,
      anuladorNombre: anulador,
    })
    .from(sales)
    .leftJoin(customers, and(eq(customers.businessId, sales.businessId), eq(customers.id, sales.clienteId)));
}

/** The sale with the names of its customer, seller, authorizer and voider, or undefined. */
export async function saleRow(businessId: string, id: string, ex: Executor) {
  const [row] = await selectSales(ex).where(and(eq(sales.businessId, businessId), eq(sales.id, id)));
  return row;
}

/** Newest first unless `orden` asks for the number or the total (ties newest first). */
function orderOf(q: SaleListQuery): SQL[] {
  const dir = q.direccion === 'desc' ? desc : asc;
  const newest = [desc(sales.fecha), desc(sales.numero)];
  if (q.orden === 'total') return [dir(sales.total), ...newest];
  if (q.orden === 'fecha' || q.orden === 'numero') return [dir(sales.fecha), dir(sales.numero)];
  return newest;
}

/**
 * A page of the sales matching the filters (instants `from` ≤ fecha < `to`) and how many match,
 * read together.
 */
export function salePage(businessId: string, range: { from?: Date; to?: Date }, q: SaleListQuery, db: Db) {
  const where: SQL[] = [eq(sales.businessId, businessId)];
  if (range.from) where.push(gte(sales.fecha, range.from));
  if (range.to) where.push(lt(sales.fecha, range.to));
  if (q.estado) where.push(eq(sales.estado, q.estado));
  if (q.cliente_id) where.push(eq(sales.clienteId, q.cliente_id));
  // A split sale matches each of its payments' methods.
  if (q.metodo_pago) {
    where.push(
      sql`EXISTS (SELECT 1 FROM sale_payments sp WHERE sp.business_id = ${sales.businessId} AND sp.venta_id = ${sales.id}
                   AND sp.metodo_pago = ${q.metodo_pago})`,
    );
  }
  const cond = and(...where);
  return Promise.all([
    selectSales(db)
      .where(cond)
      .orderBy(...orderOf(q))
      .limit(q.limit)
      .offset(q.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(sales)
      .where(cond),
  ]);
}

/** What the returns of a sale line took back: its quantity or its money. */
const returnedOf = (col: 'cantidad' | 'monto') =>
  sql<string>`(SELECT coalesce(sum(di.${sql.raw(col)}), 0)::text FROM devolucion_items di WHERE di.business_id = ${saleItems.businessId} AND di.venta_item_id = ${saleItems.id})`;

/** The lines of the sales, by sale and position, with what their returns took back. */
export function itemRows(businessId: string, saleIds: string[], ex: Executor) {
  return ex
    .select({ r: saleItems, devuelta: returnedOf('cantidad'), devuelto: returnedOf('monto') })
    .from(saleItems)
    .where(and(eq(saleItems.businessId, businessId), inArray(saleItems.ventaId, saleIds)))
    .orderBy(asc(saleItems.ventaId), asc(saleItems.posicion));
}

/** The payments of the sales, by sale and position. */
export function paymentRows(businessId: string, saleIds: string[], ex: Executor) {
  return ex
    .select()
    .from(salePayments)
    .where(and(eq(salePayments.businessId, businessId), inArray(salePayments.ventaId, saleIds)))
    .orderBy(asc(salePayments.ventaId), asc(salePayments.posicion));
}

/* ---------------------------------------------------------------- void */

/** The state of a turno, or undefined. */
export async function turnoState(businessId: string, turnoId: string, ex: Executor) {
  const [t] = await ex
    .select({ estado: turnos.estado })
    .from(turnos)
    .where(and(eq(turnos.businessId, businessId), eq(turnos.id, turnoId)));
  return t?.estado;
}

/** The sale locked for its void, or undefined. */
export async function lockSale(businessId: string, saleId: string, ex: Executor) {
  const [sale] = await ex
    .select()
    .from(sales)
    .where(and(eq(sales.businessId, businessId), eq(sales.id, saleId)))
    .for('update');
  return sale;
}

/** Whether the sale has a return. */
export async function hasReturns(businessId: string, saleId: string, ex: Executor) {
  const [returned] = await ex
    .select({ id: devoluciones.id })
    .from(devoluciones)
    .where(and(eq(devoluciones.businessId, businessId), eq(devoluciones.ventaId, saleId)))
    .limit(1);
  return Boolean(returned);
}

/**
 * The sale and its lines marked voided; the sale also for the sweep (`conciliar`): its nota de
 * crédito, if it was invoiced, is reconciled if the after-step never runs.
 */
export async function markSaleVoided(
  businessId: string,
  saleId: string,
  v: { anuladaEn: Date; anuladaPor: string; motivoAnulacion: string | null; anuladaTurnoId: string | null },
  ex: Executor,
) {
  await ex
    .update(sales)
    .set({ estado: 'anulada', ...v, conciliar: true })
    .where(and(eq(sales.businessId, businessId), eq(sales.id, saleId)));

  await ex
    .update(saleItems)
    .set({ anulada: true })
    .where(and(eq(saleItems.businessId, businessId), eq(saleItems.ventaId, saleId)));
}

/** What the sale took from the stock, per product (thousandths as numeric text, positive). */
export function stockTakenBy(businessId: string, saleId: string, ex: Executor) {
  return ex
    .select({ productoId: stockMovements.productoId, cantidad: sql<string>`-sum(${stockMovements.cantidad})` })
    .from(stockMovements)
    .where(
      and(
        eq(stockMovements.businessId, businessId),
        eq(stockMovements.referenciaId, saleId),
        eq(stockMovements.origen, 'venta'),
      ),
    )
    .groupBy(stockMovements.productoId);
}

/** The sale's income movements not voided yet, marked `anulado` (out of every total): their ids. */
export function voidSaleMovements(businessId: string, saleId: string, ex: Executor) {
  return ex
    .update(financeMovements)
    .set({ anulado: true, actualizadoEn: sql`now()` })
    .where(
      and(
        eq(financeMovements.businessId, businessId),
        eq(financeMovements.ventaId, saleId),
        eq(financeMovements.anulado, false),
      ),
    )
    .returning({ id: financeMovements.id });
}
