import {
  centsToDecimal,
  REGLA_MARGEN_MESSAGES,
  type ReglaMargen,
  type ReglaMargenNivel,
  reglaMargenInput,
} from '@mostrador/shared';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { invalid, notFound } from '../../lib/errors.js';
import { deleteReglaRow, reglaRows, targetExists, upsertRegla, type ReglaRow } from './margenes.queries.js';

/*
 * Stored margin rules (issue 17, decision 0024): a margin over the cost per product, category or
 * supplier. A supplier's list that changes costs uses the most specific one
 * (lista-proveedor.service.ts); here they are listed, set and removed.
 */

type Row = ReglaRow;

const nivelOf = (r: Pick<Row, 'producto_id' | 'categoria_id'>): ReglaMargenNivel =>
  r.producto_id ? 'producto' : r.categoria_id ? 'categoria' : 'proveedor';

const toRegla = (r: Row): ReglaMargen => ({
  id: r.id,
  nivel: nivelOf(r),
  producto_id: r.producto_id,
  categoria_id: r.categoria_id,
  proveedor_id: r.proveedor_id,
  nombre: r.nombre,
  margen: Number(r.margen),
  actualizado_en: new Date(r.actualizado_en).toISOString(),
});

/** Every rule, products first, then categories, then suppliers, by name. */
export async function listReglas(ex: Executor, businessId: string): Promise<ReglaMargen[]> {
  return (await reglaRows(businessId, undefined, ex)).map(toRegla);
}

/** The product, category or supplier must be the business's (422 naming the field otherwise). */
async function checkTarget(ex: Executor, businessId: string, t: z.output<typeof reglaMargenInput>) {
  const [kind, message] = t.producto_id
    ? (['producto', REGLA_MARGEN_MESSAGES.productoNoEncontrado] as const)
    : t.categoria_id
      ? (['categoria', REGLA_MARGEN_MESSAGES.categoriaNoEncontrada] as const)
      : (['proveedor', REGLA_MARGEN_MESSAGES.proveedorNoEncontrado] as const);
  const id = (t.producto_id ?? t.categoria_id ?? t.proveedor_id)!;
  if (!(await targetExists(businessId, kind, id, ex))) throw invalid(`${kind}_id`, message);
}

/** Sets the margin of one product, category or supplier: creates its rule or replaces it. */
export async function setRegla(db: Db, businessId: string, userId: string, input: z.output<typeof reglaMargenInput>) {
  return db.transaction(async (tx) => {
    await checkTarget(tx, businessId, input);
    const margen = centsToDecimal(input.margen);
    const { id, antes } = await upsertRegla(
      businessId,
      {
        producto_id: input.producto_id ?? null,
        categoria_id: input.categoria_id ?? null,
        proveedor_id: input.proveedor_id ?? null,
      },
      margen,
      tx,
    );
    await audit(tx, {
      businessId,
      userId,
      entidad: 'regla_margen',
      entidadId: id,
      accion: antes === null ? 'crear' : 'actualizar',
      antes: antes === null ? null : { margen: Number(antes) },
      despues: {
        nivel: nivelOf({ producto_id: input.producto_id ?? null, categoria_id: input.categoria_id ?? null }),
        producto_id: input.producto_id ?? null,
        categoria_id: input.categoria_id ?? null,
        proveedor_id: input.proveedor_id ?? null,
        margen: Number(margen),
      },
    });
    const [out] = await reglaRows(businessId, id, tx);
    return toRegla(out);
  });
}

export async function deleteRegla(db: Db, businessId: string, userId: string, id: string) {
  await db.transaction(async (tx) => {
    const gone = await deleteReglaRow(businessId, id, tx);
    if (!gone) throw notFound(REGLA_MARGEN_MESSAGES.noEncontrada);
    await audit(tx, {
      businessId,
      userId,
      entidad: 'regla_margen',
      entidadId: id,
      accion: 'eliminar',
      antes: {
        producto_id: gone.productoId,
        categoria_id: gone.categoriaId,
        proveedor_id: gone.proveedorId,
        margen: Number(gone.margen),
      },
    });
  });
}
