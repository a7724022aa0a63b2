import { and, eq, inArray, sql } from 'drizzle-orm';
import type { CodigoProveedor } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { productosProveedor, suppliers } from '../../db/schema/index.js';

/*
 * The statements on a product's codes at its suppliers (decision 0044): every function takes the
 * business first.
 */

/** The product's codes with their supplier's name, by supplier then code. */
export async function codigoRows(businessId: string, productoId: string, ex: Executor) {
  const { rows } = await ex.execute<CodigoProveedor>(sql`
    SELECT pp.proveedor_id, s.nombre AS proveedor_nombre, pp.codigo
      FROM productos_proveedor pp
      JOIN suppliers s ON s.business_id = pp.business_id AND s.id = pp.proveedor_id
     WHERE pp.business_id = ${businessId} AND pp.producto_id = ${productoId}
     ORDER BY s.nombre COLLATE "es-AR-x-icu", pp.codigo`);
  return rows;
}

/** Which of these ids are suppliers of the business. */
export async function knownSupplierIds(businessId: string, ids: string[], ex: Executor) {
  const found = await ex
    .select({ id: suppliers.id })
    .from(suppliers)
    .where(and(eq(suppliers.businessId, businessId), inArray(suppliers.id, ids)));
  return new Set(found.map((s) => s.id));
}

/** One of these codes that another product already has, with that product's name. */
export async function codigoTaken(
  businessId: string,
  productoId: string,
  codigos: { proveedor_id: string; codigo: string }[],
  ex: Executor,
) {
  const { rows } = await ex.execute<{ codigo: string; nombre: string }>(sql`
        SELECT pp.codigo, p.nombre FROM productos_proveedor pp
          JOIN products p ON p.business_id = pp.business_id AND p.id = pp.producto_id
          JOIN jsonb_to_recordset(${JSON.stringify(codigos)}::jsonb) AS x(proveedor_id uuid, codigo text)
            ON x.proveedor_id = pp.proveedor_id AND x.codigo = pp.codigo
         WHERE pp.business_id = ${businessId} AND pp.producto_id <> ${productoId}
         LIMIT 1`);
  return rows[0] as { codigo: string; nombre: string } | undefined;
}

/** Replaces the product's codes with these. */
export async function replaceCodigos(
  businessId: string,
  productoId: string,
  codigos: { proveedor_id: string; codigo: string }[],
  ex: Executor,
) {
  await ex
    .delete(productosProveedor)
    .where(and(eq(productosProveedor.businessId, businessId), eq(productosProveedor.productoId, productoId)));
  if (codigos.length) {
    await ex
      .insert(productosProveedor)
      .values(codigos.map((c) => ({ businessId, productoId, proveedorId: c.proveedor_id, codigo: c.codigo })));
  }
}
