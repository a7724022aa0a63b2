import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { FacturaCents, PurchaseListQuery } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import {
  financeAccounts,
  financeCategories,
  financeMovements,
  products,
  purchaseInvoices,
  purchaseItems,
  purchases,
  suppliers,
} from '../../db/schema/index.js';
import { es } from '../products/common.js';

/*
 * The purchases' statements (decision 0044): every function takes the business first.
 */

export type PurchaseRow = typeof purchases.$inferSelect;
export type PurchaseColumns = Partial<Omit<typeof purchases.$inferInsert, 'id' | 'businessId'>>;
export type AccountRow = typeof financeAccounts.$inferSelect;
export type MovementRow = typeof financeMovements.$inferSelect;
export type InvoiceRow = typeof purchaseInvoices.$inferSelect;
type InvoiceValues = Omit<typeof purchaseInvoices.$inferInsert, 'businessId' | 'compraId' | 'proveedorId'>;
type LineValues = Omit<typeof purchaseItems.$inferInsert, 'businessId' | 'compraId'>;

/* ---------------------------------------------------------------- reading */

/** A purchase with its supplier's current name, its payable, its latest movement and its line counts. */
function selectPurchases(ex: Executor) {
  return ex
    .select({
      p: purchases,
      proveedorActual: suppliers.nombre,
      cuentaId: financeAccounts.id,
      cuentaEstado: financeAccounts.estado,
      cuentaVencimiento: financeAccounts.fechaVencimiento,
      movimientoId: sql<string | null>`(
        SELECT m.id FROM ${financeMovements} m
         WHERE m.business_id = "purchases"."business_id" AND m.compra_id = "purchases"."id"
         ORDER BY m.anulado, m.creado_en DESC LIMIT 1)`,
      cantidadItems: sql<number>`(SELECT count(*)::int FROM ${purchaseItems} i
        WHERE i.compra_id = "purchases"."id" AND i.business_id = "purchases"."business_id")`,
      itemsPendientes: sql<number>`(SELECT count(*)::int FROM ${purchaseItems} i
        WHERE i.compra_id = "purchases"."id" AND i.business_id = "purchases"."business_id"
          AND i.cantidad_recibida < i.cantidad)`,
    })
    .from(purchases)
    .leftJoin(suppliers, and(eq(suppliers.businessId, purchases.businessId), eq(suppliers.id, purchases.proveedorId)))
    .leftJoin(
      financeAccounts,
      and(eq(financeAccounts.businessId, purchases.businessId), eq(financeAccounts.compraId, purchases.id)),
    );
}
export type SelectedPurchase = Awaited<ReturnType<ReturnType<typeof selectPurchases>['where']>>[number];

export async function findPurchaseRow(businessId: string, id: string, ex: Executor) {
  const [r] = await selectPurchases(ex).where(and(eq(purchases.businessId, businessId), eq(purchases.id, id)));
  return r as SelectedPurchase | undefined;
}

/** Newest first unless `orden` asks for a column (ties newest first). */
function orderOf(q: PurchaseListQuery): SQL[] {
  const dir = q.direccion === 'desc' ? desc : asc;
  const newest = [desc(purchases.fecha), desc(purchases.numero)];
  switch (q.orden) {
    case 'fecha':
      return [dir(purchases.fecha), dir(purchases.numero)];
    case 'numero':
      return [dir(purchases.numero)];
    case 'proveedor':
      return [dir(es(sql`coalesce(${suppliers.nombre}, ${purchases.proveedorNombre})`)), ...newest];
    case 'total':
      return [dir(purchases.total), ...newest];
    case 'estado':
      return [dir(purchases.estado), ...newest];
    default:
      return newest;
  }
}

/** A page of the list (without lines) and the count of the whole list. */
export async function listPurchaseRows(businessId: string, q: PurchaseListQuery, ex: Executor) {
  const where: SQL[] = [eq(purchases.businessId, businessId)];
  if (q.fecha_desde) where.push(gte(purchases.fecha, q.fecha_desde));
  if (q.fecha_hasta) where.push(lte(purchases.fecha, q.fecha_hasta));
  if (q.estado) where.push(eq(purchases.estado, q.estado));
  if (q.proveedor_id) where.push(eq(purchases.proveedorId, q.proveedor_id));
  if (q.producto_id) {
    where.push(
      sql`EXISTS (SELECT 1 FROM ${purchaseItems} i WHERE i.compra_id = "purchases"."id" AND i.business_id = ${businessId} AND i.producto_id = ${q.producto_id})`,
    );
  }
  const [rows, [{ total }]] = await Promise.all([
    selectPurchases(ex)
      .where(and(...where))
      .orderBy(...orderOf(q))
      .limit(q.limit)
      .offset(q.offset),
    ex
      .select({ total: sql<number>`count(*)::int` })
      .from(purchases)
      .where(and(...where)),
  ]);
  return { rows, total };
}

/** The purchase's lines with their product's name, code and unit, in order. */
export function lineRows(businessId: string, compraId: string, ex: Executor) {
  return ex
    .select({
      i: purchaseItems,
      nombre: products.nombre,
      codigo: products.codigo,
      unidad: products.unidad,
    })
    .from(purchaseItems)
    .innerJoin(
      products,
      and(eq(products.businessId, purchaseItems.businessId), eq(products.id, purchaseItems.productoId)),
    )
    .where(and(eq(purchaseItems.businessId, businessId), eq(purchaseItems.compraId, compraId)))
    .orderBy(asc(purchaseItems.posicion));
}

/* ---------------------------------------------------------------- the supplier's invoice */

export async function invoiceRow(businessId: string, compraId: string, ex: Executor) {
  const [r] = await ex
    .select()
    .from(purchaseInvoices)
    .where(and(eq(purchaseInvoices.businessId, businessId), eq(purchaseInvoices.compraId, compraId)));
  return r as InvoiceRow | undefined;
}

export function deleteInvoice(businessId: string, compraId: string, ex: Executor) {
  return ex
    .delete(purchaseInvoices)
    .where(and(eq(purchaseInvoices.businessId, businessId), eq(purchaseInvoices.compraId, compraId)));
}

/** Whether the supplier's invoice with this type and number is on a purchase already. */
export async function invoiceTaken(businessId: string, proveedorId: string, f: FacturaCents, ex: Executor) {
  const [dup] = await ex
    .select({ id: purchaseInvoices.compraId })
    .from(purchaseInvoices)
    .where(
      and(
        eq(purchaseInvoices.businessId, businessId),
        eq(purchaseInvoices.proveedorId, proveedorId),
        eq(purchaseInvoices.tipo, f.tipo),
        eq(purchaseInvoices.puntoVenta, f.punto_venta),
        eq(purchaseInvoices.numero, f.numero),
      ),
    );
  return Boolean(dup);
}

export function insertInvoice(
  businessId: string,
  compraId: string,
  proveedorId: string | null,
  values: InvoiceValues,
  ex: Executor,
) {
  return ex.insert(purchaseInvoices).values({ businessId, compraId, proveedorId, ...values });
}

/* ---------------------------------------------------------------- writing a purchase */

/** Which of these ids are products of the business. */
export async function knownProductIds(businessId: string, ids: string[], ex: Executor) {
  const found = await ex
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.businessId, businessId), inArray(products.id, ids)));
  return new Set(found.map((f) => f.id));
}

export function insertLineRows(businessId: string, compraId: string, lines: LineValues[], ex: Executor) {
  return ex.insert(purchaseItems).values(lines.map((l) => ({ businessId, compraId, ...l })));
}

export function deleteLineRows(businessId: string, compraId: string, ex: Executor) {
  return ex
    .delete(purchaseItems)
    .where(and(eq(purchaseItems.businessId, businessId), eq(purchaseItems.compraId, compraId)));
}

/** The lines forget the cost their products had before they were received. */
export function clearCostosAnteriores(businessId: string, compraId: string, ex: Executor) {
  return ex
    .update(purchaseItems)
    .set({ precioCompraAnterior: null })
    .where(and(eq(purchaseItems.businessId, businessId), eq(purchaseItems.compraId, compraId)));
}

/** The next number of the business, under a per-business lock so two purchases never share one. */
export async function nextPurchaseNumber(businessId: string, ex: Executor): Promise<number> {
  await ex.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`compras:${businessId}`}, 0))`);
  const [r] = await ex
    .select({ n: sql<number>`(coalesce(max(${purchases.numero}), 0) + 1)::int` })
    .from(purchases)
    .where(eq(purchases.businessId, businessId));
  return r.n;
}

export async function insertPurchase(
  businessId: string,
  values: Omit<typeof purchases.$inferInsert, 'businessId'>,
  ex: Executor,
) {
  const [p] = await ex
    .insert(purchases)
    .values({ businessId, ...values })
    .returning();
  return p;
}

export async function lockPurchaseRow(businessId: string, id: string, ex: Executor) {
  const [row] = await ex
    .select()
    .from(purchases)
    .where(and(eq(purchases.businessId, businessId), eq(purchases.id, id)))
    .for('update');
  return row as PurchaseRow | undefined;
}

/** Sets columns of the purchase (and its actualizado_en); the row as it is now. */
export async function setPurchase(businessId: string, id: string, values: PurchaseColumns, ex: Executor) {
  const [row] = await ex
    .update(purchases)
    .set({ ...values, actualizadoEn: sql`now()` })
    .where(and(eq(purchases.businessId, businessId), eq(purchases.id, id)))
    .returning();
  return row;
}

export function deletePurchaseRow(businessId: string, id: string, ex: Executor) {
  return ex.delete(purchases).where(and(eq(purchases.businessId, businessId), eq(purchases.id, id)));
}

/**
 * The product's cost goes back to what it was before the line was received, unless it changed
 * since (then it is not this purchase's cost any more); whether it went back.
 */
export async function restoreCost(
  businessId: string,
  productId: string,
  recibido: string,
  anterior: string | null,
  ex: Executor,
) {
  const restored = await ex
    .update(products)
    .set({ precioCompra: anterior, actualizadoEn: sql`now()` })
    .where(and(eq(products.businessId, businessId), eq(products.id, productId), eq(products.precioCompra, recibido)))
    .returning({ id: products.id });
  return restored.length > 0;
}

/* ---------------------------------------------------------------- the money side */

/** The system category "Compras" (egreso), if the business has it. */
export async function comprasCategoryId(businessId: string, ex: Executor): Promise<string | null> {
  const [c] = await ex
    .select({ id: financeCategories.id })
    .from(financeCategories)
    .where(
      and(
        eq(financeCategories.businessId, businessId),
        eq(financeCategories.sistema, true),
        eq(financeCategories.tipo, 'egreso'),
        eq(financeCategories.nombre, 'Compras'),
      ),
    );
  return c?.id ?? null;
}

/** The purchase's movement that is not voided, locked. */
export async function lockLinkedMovement(businessId: string, compraId: string, ex: Executor) {
  const [m] = await ex
    .select()
    .from(financeMovements)
    .where(
      and(
        eq(financeMovements.businessId, businessId),
        eq(financeMovements.compraId, compraId),
        eq(financeMovements.anulado, false),
      ),
    )
    .for('update');
  return m as MovementRow | undefined;
}

/** Every movement of the purchase, locked. */
export function lockPurchaseMovements(businessId: string, compraId: string, ex: Executor) {
  return ex
    .select()
    .from(financeMovements)
    .where(and(eq(financeMovements.businessId, businessId), eq(financeMovements.compraId, compraId)))
    .for('update');
}

export function updateMovementRow(
  businessId: string,
  id: string,
  values: Partial<Pick<MovementRow, 'monto' | 'fecha' | 'metodoPago' | 'descripcion' | 'anulado'>>,
  ex: Executor,
) {
  return ex
    .update(financeMovements)
    .set({ ...values, actualizadoEn: sql`now()` })
    .where(and(eq(financeMovements.businessId, businessId), eq(financeMovements.id, id)));
}

export function deleteMovementRow(businessId: string, id: string, ex: Executor) {
  return ex
    .delete(financeMovements)
    .where(and(eq(financeMovements.businessId, businessId), eq(financeMovements.id, id)));
}

/** The purchase's payable, locked. */
export async function lockPurchaseAccount(businessId: string, compraId: string, ex: Executor) {
  const [a] = await ex
    .select()
    .from(financeAccounts)
    .where(and(eq(financeAccounts.businessId, businessId), eq(financeAccounts.compraId, compraId)))
    .for('update');
  return a as AccountRow | undefined;
}

export async function insertAccount(
  businessId: string,
  values: Omit<typeof financeAccounts.$inferInsert, 'businessId'>,
  ex: Executor,
) {
  const [row] = await ex
    .insert(financeAccounts)
    .values({ businessId, ...values })
    .returning();
  return row;
}

export function updateAccountRow(
  businessId: string,
  id: string,
  values: Partial<
    Pick<AccountRow, 'proveedorId' | 'proveedorNombre' | 'monto' | 'fechaEmision' | 'fechaVencimiento' | 'descripcion'>
  >,
  ex: Executor,
) {
  return ex
    .update(financeAccounts)
    .set({ ...values, actualizadoEn: sql`now()` })
    .where(and(eq(financeAccounts.businessId, businessId), eq(financeAccounts.id, id)));
}

export function deleteAccountRow(businessId: string, id: string, ex: Executor) {
  return ex.delete(financeAccounts).where(and(eq(financeAccounts.businessId, businessId), eq(financeAccounts.id, id)));
}

/* ---------------------------------------------------------------- Libro IVA Compras */

/** The invoices dated in the month starting `desde` of purchases not cancelled, with their supplier. */
export function libroIvaRows(businessId: string, desde: string, ex: Executor) {
  return ex
    .select({
      f: purchaseInvoices,
      numero: purchases.numero,
      nombre: purchases.proveedorNombre,
      actual: suppliers.nombre,
      cuit: suppliers.cuit,
    })
    .from(purchaseInvoices)
    .innerJoin(
      purchases,
      and(eq(purchases.businessId, purchaseInvoices.businessId), eq(purchases.id, purchaseInvoices.compraId)),
    )
    .leftJoin(suppliers, and(eq(suppliers.businessId, purchases.businessId), eq(suppliers.id, purchases.proveedorId)))
    .where(
      and(
        eq(purchaseInvoices.businessId, businessId),
        gte(purchaseInvoices.fecha, desde),
        sql`${purchaseInvoices.fecha} < (${desde}::date + interval '1 month')::date`,
        sql`${purchases.estado} <> 'cancelada'`,
      ),
    )
    .orderBy(
      asc(purchaseInvoices.fecha),
      asc(purchaseInvoices.puntoVenta),
      asc(purchaseInvoices.numero),
      asc(purchases.numero),
    );
}
