import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { listasPrecios, listasPreciosItems, preciosHistorial, products, users } from '../../db/schema/index.js';
import { userName } from '../products/stock.service.js';

/*
 * The price history's and the price lists' statements (decision 0044): every function takes the
 * business first.
 */

export type ListaRow = typeof listasPrecios.$inferSelect;
export type ListaColumns = Partial<Omit<typeof listasPrecios.$inferInsert, 'id' | 'businessId'>>;
export type ListaItemValues = Omit<typeof listasPreciosItems.$inferInsert, 'businessId'>;

/** A page of a product's price history, newest first, and its count. */
export async function precioHistorialRows(
  businessId: string,
  productId: string,
  page: { limit: number; offset: number },
  ex: Executor,
) {
  const where = and(eq(preciosHistorial.businessId, businessId), eq(preciosHistorial.productoId, productId));
  const [rows, [{ total }]] = await Promise.all([
    ex
      .select({ h: preciosHistorial, usuarioNombre: userName })
      .from(preciosHistorial)
      .leftJoin(users, eq(users.id, preciosHistorial.usuarioId))
      .where(where)
      .orderBy(desc(preciosHistorial.fecha), desc(preciosHistorial.id))
      .limit(page.limit)
      .offset(page.offset),
    ex
      .select({ total: sql<number>`count(*)::int` })
      .from(preciosHistorial)
      .where(where),
  ]);
  return { rows, total };
}

/** Every list of the business, in no order. */
export function listaRows(businessId: string, ex: Executor) {
  return ex.select().from(listasPrecios).where(eq(listasPrecios.businessId, businessId));
}

/** Every list of the business by name, the Spanish way. */
export function listaRowsByName(businessId: string, ex: Executor) {
  return ex
    .select()
    .from(listasPrecios)
    .where(eq(listasPrecios.businessId, businessId))
    .orderBy(sql`${listasPrecios.nombre} COLLATE "es-AR-x-icu"`, asc(listasPrecios.id));
}

/** Every list by name with how many products have a fixed price in it and how many customers use it. */
export function listaRowsWithCounts(businessId: string, ex: Executor) {
  return ex
    .select({
      l: listasPrecios,
      productos: sql<number>`(SELECT count(*)::int FROM listas_precios_items i
                               WHERE i.business_id = listas_precios.business_id AND i.lista_id = listas_precios.id)`,
      clientes: sql<number>`(SELECT count(*)::int FROM customers c
                              WHERE c.business_id = listas_precios.business_id AND c.lista_precios_id = listas_precios.id)`,
    })
    .from(listasPrecios)
    .where(eq(listasPrecios.businessId, businessId))
    .orderBy(sql`${listasPrecios.nombre} COLLATE "es-AR-x-icu"`, asc(listasPrecios.id));
}

export async function insertLista(businessId: string, values: ListaColumns, ex: Executor) {
  const [row] = await ex
    .insert(listasPrecios)
    .values({ businessId, ...values } as typeof listasPrecios.$inferInsert)
    .returning({ id: listasPrecios.id });
  return row;
}

export function updateListaRow(businessId: string, id: string, values: ListaColumns, ex: Executor) {
  return ex
    .update(listasPrecios)
    .set({ ...values, actualizadoEn: sql`now()` })
    .where(and(eq(listasPrecios.businessId, businessId), eq(listasPrecios.id, id)));
}

/** A list computed on this one, if any. */
export async function childLista(businessId: string, id: string, ex: Executor) {
  const [child] = await ex
    .select({ id: listasPrecios.id })
    .from(listasPrecios)
    .where(and(eq(listasPrecios.businessId, businessId), eq(listasPrecios.baseListaId, id)))
    .limit(1);
  return child as { id: string } | undefined;
}

export function deleteListaRow(businessId: string, id: string, ex: Executor) {
  return ex.delete(listasPrecios).where(and(eq(listasPrecios.businessId, businessId), eq(listasPrecios.id, id)));
}

/** A fixed-price list's items with their product's name, by name. */
export function precioFijoRows(businessId: string, listaId: string, ex: Executor) {
  return ex
    .select({ i: listasPreciosItems, nombre: products.nombre })
    .from(listasPreciosItems)
    .innerJoin(
      products,
      and(eq(products.businessId, listasPreciosItems.businessId), eq(products.id, listasPreciosItems.productoId)),
    )
    .where(and(eq(listasPreciosItems.businessId, businessId), eq(listasPreciosItems.listaId, listaId)))
    .orderBy(sql`${products.nombre} COLLATE "es-AR-x-icu"`, asc(products.id));
}

/** Which of these ids are products of the business. */
export async function knownProductIds(businessId: string, ids: string[], ex: Executor) {
  const rows = await ex
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.businessId, businessId), inArray(products.id, ids)));
  return new Set(rows.map((r) => r.id));
}

/** Sets fixed prices (a product already in the list gets the new price and minimum). */
export function upsertPreciosFijos(businessId: string, items: ListaItemValues[], ex: Executor) {
  return ex
    .insert(listasPreciosItems)
    .values(items.map((i) => ({ businessId, ...i })))
    .onConflictDoUpdate({
      target: [listasPreciosItems.businessId, listasPreciosItems.listaId, listasPreciosItems.productoId],
      set: { precio: sql`excluded.precio`, cantidadMinima: sql`excluded.cantidad_minima` },
    });
}

/** Removes these products' fixed prices from the list; how many there were. */
export async function deletePreciosFijos(businessId: string, listaId: string, productIds: string[], ex: Executor) {
  const gone = await ex
    .delete(listasPreciosItems)
    .where(
      and(
        eq(listasPreciosItems.businessId, businessId),
        eq(listasPreciosItems.listaId, listaId),
        inArray(listasPreciosItems.productoId, productIds),
      ),
    )
    .returning({ id: listasPreciosItems.productoId });
  return gone.length;
}

/** The fixed prices of these products in any list. */
export function precioFijoItemRows(businessId: string, productIds: string[], ex: Executor) {
  return ex
    .select()
    .from(listasPreciosItems)
    .where(and(eq(listasPreciosItems.businessId, businessId), inArray(listasPreciosItems.productoId, productIds)));
}
