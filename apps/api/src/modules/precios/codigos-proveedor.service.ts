import { CODIGO_PROVEEDOR_MESSAGES, type CodigoProveedor, codigosProveedorInput } from '@mostrador/shared';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { conflict, invalid } from '../../lib/errors.js';
import { getProduct } from '../products/products.service.js';
import { codigoRows, codigoTaken, knownSupplierIds, replaceCodigos } from './codigos-proveedor.queries.js';

/*
 * A product's codes at its suppliers (issue 17, decision 0024): edited on the product form and
 * learnt from a supplier's list keyed by "Código del proveedor".
 */

export async function listCodigos(ex: Executor, businessId: string, productoId: string): Promise<CodigoProveedor[]> {
  return codigoRows(businessId, productoId, ex);
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
      const ok = await knownSupplierIds(businessId, ids, tx);
      const bad = input.codigos.findIndex((c) => !ok.has(c.proveedor_id));
      if (bad >= 0) throw invalid(`codigos.${bad}.proveedor_id`, CODIGO_PROVEEDOR_MESSAGES.proveedorNoEncontrado);
      // A code of a supplier names one product: another product's is a conflict, named.
      const taken = await codigoTaken(businessId, productoId, input.codigos, tx);
      if (taken) throw conflict('DUPLICATE', CODIGO_PROVEEDOR_MESSAGES.duplicado(taken.codigo, taken.nombre));
    }
    const antes = await listCodigos(tx, businessId, productoId);
    await replaceCodigos(businessId, productoId, input.codigos, tx);
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
