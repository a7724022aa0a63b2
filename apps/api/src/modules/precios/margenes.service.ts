import { and, eq, sql } from 'drizzle-orm';
import {
  centsToDecimal,
  REGLA_MARGEN_MESSAGES,
  type ReglaMargen,
  type ReglaMargenNivel,
  reglaMargenInput,
} from '@mostrador/shared';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client.js';
import { productCategories, products, reglasMargen, suppliers } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { invalid, notFound } from '../../lib/errors.js';

/*
 * Stored margin rules (issue 17, decision 0024): a margin over the cost per product, category or
 * supplier. A supplier's list that changes costs uses the most specific one
 * (lista-proveedor.service.ts); here they are listed, set and removed.
 */

type Row = {
  id: string;
  producto_id: string | null;
  categoria_id: string | null;
  proveedor_id: string | null;
  nombre: string;
  margen: string;
  actualizado_en: Date | string;
};

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

const selectRules = (businessId: string, id?: string) => sql`
  SELECT r.id, r.producto_id, r.categoria_id, r.proveedor_id, r.margen::text AS margen, r.actualizado_en,
         coalesce(p.nombre, c.nombre, s.nombre) AS nombre
    FROM reglas_margen r
    LEFT JOIN products p ON p.business_id = r.business_id AND p.id = r.producto_id
    LEFT JOIN product_categories c ON c.business_id = r.business_id AND c.id = r.categoria_id
    LEFT JOIN suppliers s ON s.business_id = r.business_id AND s.id = r.proveedor_id
   WHERE r.business_id = ${businessId} ${id ? sql`AND r.id = ${id}` : sql``}
   ORDER BY CASE WHEN r.producto_id IS NOT NULL THEN 0 WHEN r.categoria_id IS NOT NULL THEN 1 ELSE 2 END,
            coalesce(p.nombre, c.nombre, s.nombre) COLLATE "es-AR-x-icu", r.id`;

/** Every rule, products first, then categories, then suppliers, by name. */
export async function listReglas(ex: Executor, businessId: string): Promise<ReglaMargen[]> {
  const { rows } = await ex.execute<Row>(selectRules(businessId));
  return rows.map(toRegla);
}

/** The product, category or supplier must be the business's (422 naming the field otherwise). */
async function checkTarget(ex: Executor, businessId: string, t: z.output<typeof reglaMargenInput>) {
  const [field, table, message] = t.producto_id
    ? (['producto_id', products, REGLA_MARGEN_MESSAGES.productoNoEncontrado] as const)
    : t.categoria_id
      ? (['categoria_id', productCategories, REGLA_MARGEN_MESSAGES.categoriaNoEncontrada] as const)
      : (['proveedor_id', suppliers, REGLA_MARGEN_MESSAGES.proveedorNoEncontrado] as const);
  const id = (t.producto_id ?? t.categoria_id ?? t.proveedor_id)!;
  const [found] = await ex
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.businessId, businessId), eq(table.id, id)));
  if (!found) throw invalid(field, message);
}

/** Sets the margin of one product, category or supplier: creates its rule or replaces it. */
export async function setRegla(db: Db, businessId: string, userId: string, input: z.output<typeof reglaMargenInput>) {
  return db.transaction(async (tx) => {
    await checkTarget(tx, businessId, input);
    const target = input.producto_id
      ? sql`(business_id, producto_id) WHERE producto_id IS NOT NULL`
      : input.categoria_id
        ? sql`(business_id, categoria_id) WHERE categoria_id IS NOT NULL`
        : sql`(business_id, proveedor_id) WHERE proveedor_id IS NOT NULL`;
    const margen = centsToDecimal(input.margen);
    const { rows } = await tx.execute<{ id: string; antes: string | null }>(sql`
      WITH prev AS (
        SELECT margen::text AS antes FROM reglas_margen
         WHERE business_id = ${businessId}
           AND producto_id IS NOT DISTINCT FROM ${input.producto_id ?? null}::uuid
           AND categoria_id IS NOT DISTINCT FROM ${input.categoria_id ?? null}::uuid
           AND proveedor_id IS NOT DISTINCT FROM ${input.proveedor_id ?? null}::uuid)
      INSERT INTO reglas_margen (business_id, producto_id, categoria_id, proveedor_id, margen)
      VALUES (${businessId}, ${input.producto_id ?? null}, ${input.categoria_id ?? null}, ${input.proveedor_id ?? null}, ${margen})
      ON CONFLICT ${target} DO UPDATE SET margen = EXCLUDED.margen, actualizado_en = now()
      RETURNING id, (SELECT antes FROM prev) AS antes`);
    const { id, antes } = rows[0];
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
    const { rows: out } = await tx.execute<Row>(selectRules(businessId, id));
    return toRegla(out[0]);
  });
}

export async function deleteRegla(db: Db, businessId: string, userId: string, id: string) {
  await db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(reglasMargen)
      .where(and(eq(reglasMargen.businessId, businessId), eq(reglasMargen.id, id)))
      .returning();
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
