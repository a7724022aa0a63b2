import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { products, purchaseItems, purchaseReceptionItems, purchaseReceptions, users } from '../../db/schema/index.js';

/*
 * The receptions' statements (decision 0044): every function takes the business first.
 */

/** The purchase's next reception number. */
export async function nextReceptionNumber(businessId: string, compraId: string, ex: Executor) {
  const [{ n }] = await ex
    .select({ n: sql<number>`(coalesce(max(${purchaseReceptions.numero}), 0) + 1)::int` })
    .from(purchaseReceptions)
    .where(and(eq(purchaseReceptions.businessId, businessId), eq(purchaseReceptions.compraId, compraId)));
  return n;
}

export async function insertReception(
  businessId: string,
  values: Omit<typeof purchaseReceptions.$inferInsert, 'businessId'>,
  ex: Executor,
) {
  const [rec] = await ex
    .insert(purchaseReceptions)
    .values({ businessId, ...values })
    .returning({ id: purchaseReceptions.id });
  return rec;
}

/** The product's cost becomes `costo`; its cost before and its sale price. */
export async function setProductCost(businessId: string, productId: string, costo: string, ex: Executor) {
  const { rows } = await ex.execute<{ anterior: string | null; precio_venta: string }>(sql`
      UPDATE ${products} np SET precio_compra = ${costo}::numeric, actualizado_en = now()
        FROM (SELECT id, precio_compra AS anterior FROM ${products}
               WHERE business_id = ${businessId} AND id = ${productId} FOR UPDATE) old
       WHERE np.business_id = ${businessId} AND np.id = old.id
      RETURNING old.anterior, np.precio_venta`);
  return rows[0] as { anterior: string | null; precio_venta: string } | undefined;
}

/**
 * The line counts `cantidad` more as received (keeping the cost from before its first reception),
 * unless that is more than it has; whether it did.
 */
export async function receiveLine(
  businessId: string,
  lineId: string,
  cantidad: string,
  anterior: string | null,
  ex: Executor,
) {
  const updated = await ex
    .update(purchaseItems)
    .set({
      cantidadRecibida: sql`${purchaseItems.cantidadRecibida} + ${cantidad}::numeric`,
      precioCompraAnterior: sql`CASE WHEN ${purchaseItems.cantidadRecibida} = 0 THEN ${anterior}::numeric
                                     ELSE ${purchaseItems.precioCompraAnterior} END`,
    })
    .where(
      and(
        eq(purchaseItems.businessId, businessId),
        eq(purchaseItems.id, lineId),
        sql`${purchaseItems.cantidadRecibida} + ${cantidad}::numeric <= ${purchaseItems.cantidad}`,
      ),
    )
    .returning({ id: purchaseItems.id });
  return updated.length > 0;
}

export function insertReceptionItem(
  businessId: string,
  values: Omit<typeof purchaseReceptionItems.$inferInsert, 'businessId'>,
  ex: Executor,
) {
  return ex.insert(purchaseReceptionItems).values({ businessId, ...values });
}

/** Whether every line of the purchase arrived whole. */
export async function purchaseComplete(businessId: string, compraId: string, ex: Executor) {
  const [{ completa }] = await ex
    .select({ completa: sql<boolean>`bool_and(${purchaseItems.cantidadRecibida} = ${purchaseItems.cantidad})` })
    .from(purchaseItems)
    .where(and(eq(purchaseItems.businessId, businessId), eq(purchaseItems.compraId, compraId)));
  return completa;
}

/** Nothing of the purchase counts as received, and its receptions are marked reverted at `now`. */
export async function revertReceptions(businessId: string, compraId: string, now: Date, ex: Executor) {
  await ex
    .update(purchaseItems)
    .set({ cantidadRecibida: '0' })
    .where(and(eq(purchaseItems.businessId, businessId), eq(purchaseItems.compraId, compraId)));
  await ex
    .update(purchaseReceptions)
    .set({ revertidaEn: now })
    .where(
      and(
        eq(purchaseReceptions.businessId, businessId),
        eq(purchaseReceptions.compraId, compraId),
        sql`${purchaseReceptions.revertidaEn} IS NULL`,
      ),
    );
}

/** Whether the purchase exists in the business. */
export async function purchaseExists(businessId: string, compraId: string, ex: Executor) {
  const [r] = await ex
    .execute<{ id: string }>(sql`SELECT id FROM purchases WHERE business_id = ${businessId} AND id = ${compraId}`)
    .then((x) => x.rows);
  return Boolean(r);
}

/** The purchase's receptions (or one), oldest first, with who made them. */
export function receptionRows(businessId: string, compraId: string, onlyId: string | undefined, ex: Executor) {
  return ex
    .select({
      r: purchaseReceptions,
      nombre: sql<string | null>`nullif(concat_ws(' ', ${users.nombre}, ${users.apellido}), '')`,
    })
    .from(purchaseReceptions)
    .leftJoin(users, eq(users.id, purchaseReceptions.creadoPor))
    .where(
      and(
        eq(purchaseReceptions.businessId, businessId),
        eq(purchaseReceptions.compraId, compraId),
        onlyId ? eq(purchaseReceptions.id, onlyId) : undefined,
      ),
    )
    .orderBy(asc(purchaseReceptions.numero));
}

/** The lines of these receptions with their product's name and unit, by name. */
export function receptionItemRows(businessId: string, recepcionIds: string[], ex: Executor) {
  return ex
    .select({ i: purchaseReceptionItems, nombre: products.nombre, unidad: products.unidad })
    .from(purchaseReceptionItems)
    .innerJoin(
      products,
      and(
        eq(products.businessId, purchaseReceptionItems.businessId),
        eq(products.id, purchaseReceptionItems.productoId),
      ),
    )
    .where(
      and(eq(purchaseReceptionItems.businessId, businessId), inArray(purchaseReceptionItems.recepcionId, recepcionIds)),
    )
    .orderBy(asc(products.nombre));
}

/** The reception's lines, if it is not reverted, with their product as it is now (locked to apply prices). */
export async function receptionProductRows(businessId: string, recepcionId: string, lock: boolean, ex: Executor) {
  const q = ex
    .select({ i: purchaseReceptionItems, p: products })
    .from(purchaseReceptionItems)
    .innerJoin(
      purchaseReceptions,
      and(
        eq(purchaseReceptions.businessId, purchaseReceptionItems.businessId),
        eq(purchaseReceptions.id, purchaseReceptionItems.recepcionId),
      ),
    )
    .innerJoin(
      products,
      and(
        eq(products.businessId, purchaseReceptionItems.businessId),
        eq(products.id, purchaseReceptionItems.productoId),
      ),
    )
    .where(
      and(
        eq(purchaseReceptionItems.businessId, businessId),
        eq(purchaseReceptionItems.recepcionId, recepcionId),
        sql`${purchaseReceptions.revertidaEn} IS NULL`,
      ),
    )
    .orderBy(asc(products.id));
  return lock ? await q.for('update', { of: products }) : await q;
}

/** The supplier of the reception's purchase (none for free-text suppliers). */
export async function receptionSupplierId(businessId: string, recepcionId: string, ex: Executor) {
  const { rows } = await ex.execute<{ proveedor_id: string | null }>(sql`
    SELECT c.proveedor_id FROM purchase_receptions r
      JOIN purchases c ON c.business_id = r.business_id AND c.id = r.compra_id
     WHERE r.business_id = ${businessId} AND r.id = ${recepcionId}`);
  return rows[0]?.proveedor_id ?? null;
}

/** Whether the reception belongs to the purchase in the business. */
export async function receptionExists(businessId: string, compraId: string, recepcionId: string, ex: Executor) {
  const [r] = await ex
    .select({ id: purchaseReceptions.id })
    .from(purchaseReceptions)
    .where(
      and(
        eq(purchaseReceptions.businessId, businessId),
        eq(purchaseReceptions.compraId, compraId),
        eq(purchaseReceptions.id, recepcionId),
      ),
    );
  return Boolean(r);
}

/** A product's name, if it is the business's. */
export async function productName(businessId: string, id: string, ex: Executor) {
  const [p] = await ex
    .select({ nombre: products.nombre })
    .from(products)
    .where(and(eq(products.businessId, businessId), eq(products.id, id)));
  return p?.nombre;
}

/** Sets the product's sale price. */
export function setSalePrice(businessId: string, id: string, precio: string, ex: Executor) {
  return ex
    .update(products)
    .set({ precioVenta: precio, actualizadoEn: sql`now()` })
    .where(and(eq(products.businessId, businessId), eq(products.id, id)));
}
