import { and, desc, eq, sql } from 'drizzle-orm';
import type { ListaProveedorClave } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { listasProveedorAplicadas, productosProveedor, suppliers, users } from '../../db/schema/index.js';
import { userName } from '../products/stock.service.js';

/*
 * The supplier lists' statements (decision 0044): every function takes the business first.
 */

export type ListaProductRow = {
  id: string;
  nombre: string;
  key: string;
  categoria_id: string | null;
  precio_compra: string | null;
  precio_venta: string;
};

const textArray = (keys: string[]) => `{${keys.map((k) => `"${k.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;

/** The peso products the keys name, in one query (locked when applying), by key. */
export async function productsByKey(
  businessId: string,
  clave: ListaProveedorClave,
  keys: string[],
  lock: boolean,
  proveedorId: string | null,
  ex: Executor,
) {
  const cols = sql`p.id, p.nombre, p.categoria_id, p.precio_compra::text AS precio_compra, p.precio_venta::text AS precio_venta`;
  const forUpdate = lock ? sql`FOR UPDATE OF p` : sql``;
  if (clave === 'codigo_proveedor') {
    const { rows } = await ex.execute<ListaProductRow>(sql`
      SELECT ${cols}, pp.codigo AS key
        FROM productos_proveedor pp
        JOIN products p ON p.business_id = pp.business_id AND p.id = pp.producto_id
       WHERE pp.business_id = ${businessId} AND pp.proveedor_id = ${proveedorId} AND p.moneda = 'ARS'
         AND pp.codigo = ANY(${textArray(keys)}::text[])
       ORDER BY p.id ${forUpdate}`);
    return rows;
  }
  const keyExpr = clave === 'codigo' ? sql`lower(p.codigo)` : sql`p.codigo_barras`;
  const { rows } = await ex.execute<ListaProductRow>(sql`
    SELECT ${cols}, ${keyExpr} AS key
      FROM products p
     WHERE p.business_id = ${businessId} AND p.moneda = 'ARS'
       AND ${keyExpr} = ANY(${textArray(keys)}::text[])
     ORDER BY p.id ${forUpdate}`);
  return rows;
}

/** Whether the supplier is the business's. */
export async function supplierExists(businessId: string, proveedorId: string, ex: Executor) {
  const [s] = await ex
    .select({ id: suppliers.id })
    .from(suppliers)
    .where(and(eq(suppliers.businessId, businessId), eq(suppliers.id, proveedorId)));
  return Boolean(s);
}

export async function insertAplicada(
  businessId: string,
  values: Omit<typeof listasProveedorAplicadas.$inferInsert, 'businessId'>,
  ex: Executor,
) {
  const [row] = await ex
    .insert(listasProveedorAplicadas)
    .values({ businessId, ...values })
    .returning({ id: listasProveedorAplicadas.id });
  return row;
}

/** Supplier codes learnt from a list (a code already known stays as it is). */
export function learnCodigos(businessId: string, proveedorId: string, codes: [string, string][], ex: Executor) {
  return ex
    .insert(productosProveedor)
    .values(codes.map(([codigo, productoId]) => ({ businessId, proveedorId, codigo, productoId })))
    .onConflictDoNothing();
}

/** One statement for every product: unnest of ids, costs and prices. */
export async function writePrices(
  businessId: string,
  rows: { id: string; costo: number | null; precio: number }[],
  ex: Executor,
) {
  const arr = (xs: (string | number | null)[]) => `{${xs.map((x) => (x === null ? 'NULL' : String(x))).join(',')}}`;
  await ex.execute(sql`
    UPDATE products p SET precio_compra = x.costo, precio_venta = x.precio, actualizado_en = now()
      FROM unnest(${arr(rows.map((r) => r.id))}::uuid[], ${arr(rows.map((r) => r.costo))}::numeric[],
                  ${arr(rows.map((r) => r.precio))}::numeric[]) AS x(id, costo, precio)
     WHERE p.business_id = ${businessId} AND p.id = x.id`);
}

/** The last 50 lists applied, newest first, with who applied them. */
export function aplicadaRows(businessId: string, ex: Executor) {
  return ex
    .select({
      id: listasProveedorAplicadas.id,
      archivo: listasProveedorAplicadas.archivo,
      clave: listasProveedorAplicadas.clave,
      proveedorId: listasProveedorAplicadas.proveedorId,
      margen: listasProveedorAplicadas.margen,
      productos: listasProveedorAplicadas.productos,
      fecha: listasProveedorAplicadas.fecha,
      deshechaEn: listasProveedorAplicadas.deshechaEn,
      usuarioId: listasProveedorAplicadas.usuarioId,
      usuarioNombre: userName,
    })
    .from(listasProveedorAplicadas)
    .leftJoin(users, eq(users.id, listasProveedorAplicadas.usuarioId))
    .where(eq(listasProveedorAplicadas.businessId, businessId))
    .orderBy(desc(listasProveedorAplicadas.fecha), desc(listasProveedorAplicadas.id))
    .limit(50);
}

/** An applied list, locked to undo it. */
export async function lockAplicada(businessId: string, id: string, ex: Executor) {
  const [a] = await ex
    .select()
    .from(listasProveedorAplicadas)
    .where(and(eq(listasProveedorAplicadas.businessId, businessId), eq(listasProveedorAplicadas.id, id)))
    .for('update');
  return a as typeof listasProveedorAplicadas.$inferSelect | undefined;
}

/** Whether any of these products was sold since the date. */
export async function soldSince(businessId: string, productIds: string[], since: Date, ex: Executor) {
  const { rows } = await ex.execute(sql`
    SELECT 1 FROM sale_items si JOIN sales s ON s.business_id = si.business_id AND s.id = si.venta_id
     WHERE si.business_id = ${businessId} AND si.producto_id = ANY(${uuidArray(productIds)}::uuid[])
       AND s.fecha >= ${since.toISOString()}::timestamptz
     LIMIT 1`);
  return rows.length > 0;
}

/** These products' cost and price now, locked. */
export async function lockProductPrices(businessId: string, productIds: string[], ex: Executor) {
  const { rows } = await ex.execute<{ id: string; precio_compra: string | null; precio_venta: string }>(
    sql`SELECT id, precio_compra::text AS precio_compra, precio_venta::text AS precio_venta FROM products
         WHERE business_id = ${businessId} AND id = ANY(${uuidArray(productIds)}::uuid[]) ORDER BY id FOR UPDATE`,
  );
  return rows;
}

export function markAplicadaUndone(businessId: string, id: string, ex: Executor) {
  return ex
    .update(listasProveedorAplicadas)
    .set({ deshechaEn: sql`now()` })
    .where(and(eq(listasProveedorAplicadas.businessId, businessId), eq(listasProveedorAplicadas.id, id)));
}
