import { and, eq, inArray, sql } from 'drizzle-orm';
import { CODIGO_PROVEEDOR_MESSAGES, type CodigoProveedor, codigosProveedorInput } from '@mostrador/shared';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client.js';
import { productosProveedor, suppliers } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { conflict, invalid } from '../../lib/errors.js';
import { getProduct } from '../products/products.service.js';

/*
 * A product's codes at its suppliers (issue 17, decision 0024): edited on the product form and
 * learnt from a supplier's list keyed by "Código del proveedor".
 */

export async function listCodigos(ex: Executor, businessId: string, productoId: string): Promise<CodigoProveedor[]> {
  const { rows } = await ex.execute<CodigoProveedor>(sql`
    SELECT pp.proveedor_id, s.nombre AS proveedor_nombre, pp.codigo
      FROM productos_proveedor pp
      JOIN suppliers s ON s.business_id = pp.business_id AND s.id = pp.proveedor_id
     WHERE pp.business_id = ${businessId} AND pp.producto_id = ${productoId}
     ORDER BY s.nombre COLLATE "es-AR-x-icu", pp.codigo`);
  return rows;
}

/** Replaces the product's supplier codes with the given list (all or nothing). */
export async function setCodigos(
  db: Db,
  businessId: string,
  userId: string,
  productoId: string,
  input: z.output<typeof codigosProveedorInput>,
) {
  return db.transaction(async (tx) => {
    await getProduct(tx, businessId, productoId);
    const seen = new Set<string>();
    input.codigos.forEach((c, i) => {
      const k = `${c.proveedor_id}\u0000${c.codigo}`;
      if (seen.has(k)) throw invalid(`codigos.${i}.codigo`, CODIGO_PROVEEDOR_MESSAGES.repetido(c.codigo));
      seen.add(k);
    });
    const ids = [...new Set(input.codigos.map((c) => c.proveedor_id))];
    if (ids.length) {
      const found = await tx
        .select({ id: suppliers.id })
        .from(suppliers)
        .where(and(eq(suppliers.businessId, businessId), inArray(suppliers.id, ids)));
      const ok = new Set(found.map((s) => s.id));
      const bad = input.codigos.findIndex((c) => !ok.has(c.proveedor_id));
      if (bad >= 0) throw invalid(`codigos.${bad}.proveedor_id`, CODIGO_PROVEEDOR_MESSAGES.proveedorNoEncontrado);
      // A code of a supplier names one product: another product's is a conflict, named.
      const { rows: taken } = await tx.execute<{ codigo: string; nombre: string }>(sql`
        SELECT pp.codigo, p.nombre FROM productos_proveedor pp
          JOIN products p ON p.business_id = pp.business_id AND p.id = pp.producto_id
          JOIN jsonb_to_recordset(${JSON.stringify(input.codigos)}::jsonb) AS x(proveedor_id uuid, codigo text)
            ON x.proveedor_id = pp.proveedor_id AND x.codigo = pp.codigo
         WHERE pp.business_id = ${businessId} AND pp.producto_id <> ${productoId}
         LIMIT 1`);
      if (taken.length)
        throw conflict('DUPLICATE', CODIGO_PROVEEDOR_MESSAGES.duplicado(taken[0].codigo, taken[0].nombre));
    }
    const antes = await listCodigos(tx, businessId, productoId);
    await tx
      .delete(productosProveedor)
      .where(and(eq(productosProveedor.businessId, businessId), eq(productosProveedor.productoId, productoId)));
    if (input.codigos.length) {
      await tx
        .insert(productosProveedor)
        .values(input.codigos.map((c) => ({ businessId, productoId, proveedorId: c.proveedor_id, codigo: c.codigo })));
    }
    const despues = await listCodigos(tx, businessId, productoId);
    await audit(tx, {
      businessId,
      userId,
      entidad: 'producto',
      entidadId: productoId,
      accion: 'codigos_proveedor',
      antes: { codigos: antes.map((c) => ({ proveedor_id: c.proveedor_id, codigo: c.codigo })) },
      despues: { codigos: despues.map((c) => ({ proveedor_id: c.proveedor_id, codigo: c.codigo })) },
    });
    return despues;
  });
}
