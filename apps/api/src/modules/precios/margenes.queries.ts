import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { productCategories, products, reglasMargen, suppliers } from '../../db/schema/index.js';

/*
 * The margin rules' statements (decision 0044): every function takes the business first.
 */

export type ReglaRow = {
  id: string;
  producto_id: string | null;
  categoria_id: string | null;
  proveedor_id: string | null;
  nombre: string;
  margen: string;
  actualizado_en: Date | string;
};

/** The rules (or one), products first, then categories, then suppliers, by name. */
export async function reglaRows(businessId: string, id: string | undefined, ex: Executor) {
  const { rows } = await ex.execute<ReglaRow>(sql`
  SELECT r.id, r.producto_id, r.categoria_id, r.proveedor_id, r.margen::text AS margen, r.actualizado_en,
         coalesce(p.nombre, c.nombre, s.nombre) AS nombre
    FROM reglas_margen r
    LEFT JOIN products p ON p.business_id = r.business_id AND p.id = r.producto_id
    LEFT JOIN product_categories c ON c.business_id = r.business_id AND c.id = r.categoria_id
    LEFT JOIN suppliers s ON s.business_id = r.business_id AND s.id = r.proveedor_id
   WHERE r.business_id = ${businessId} ${id ? sql`AND r.id = ${id}` : sql``}
   ORDER BY CASE WHEN r.producto_id IS NOT NULL THEN 0 WHEN r.categoria_id IS NOT NULL THEN 1 ELSE 2 END,
            coalesce(p.nombre, c.nombre, s.nombre) COLLATE "es-AR-x-icu", r.id`);
  return rows;
}

/** Whether the product, category or supplier is the business's. */
export async function targetExists(
  businessId: string,
  kind: 'producto' | 'categoria' | 'proveedor',
  id: string,
  ex: Executor,
) {
  const table = kind === 'producto' ? products : kind === 'categoria' ? productCategories : suppliers;
  const [found] = await ex
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.businessId, businessId), eq(table.id, id)));
  return Boolean(found);
}

/** Creates the rule of one product, category or supplier or replaces its margin; its margin before. */
export async function upsertRegla(
  businessId: string,
  t: { producto_id: string | null; categoria_id: string | null; proveedor_id: string | null },
  margen: string,
  ex: Executor,
) {
  const target = t.producto_id
    ? sql`(business_id, producto_id) WHERE producto_id IS NOT NULL`
    : t.categoria_id
      ? sql`(business_id, categoria_id) WHERE categoria_id IS NOT NULL`
      : sql`(business_id, proveedor_id) WHERE proveedor_id IS NOT NULL`;
  const { rows } = await ex.execute<{ id: string; antes: string | null }>(sql`
      WITH prev AS (
        SELECT margen::text AS antes FROM reglas_margen
         WHERE business_id = ${businessId}
           AND producto_id IS NOT DISTINCT FROM ${t.producto_id}::uuid
           AND categoria_id IS NOT DISTINCT FROM ${t.categoria_id}::uuid
           AND proveedor_id IS NOT DISTINCT FROM ${t.proveedor_id}::uuid)
      INSERT INTO reglas_margen (business_id, producto_id, categoria_id, proveedor_id, margen)
      VALUES (${businessId}, ${t.producto_id}, ${t.categoria_id}, ${t.proveedor_id}, ${margen})
      ON CONFLICT ${target} DO UPDATE SET margen = EXCLUDED.margen, actualizado_en = now()
      RETURNING id, (SELECT antes FROM prev) AS antes`);
  return rows[0];
}

/** Removes a rule; the row removed, if there was one. */
export async function deleteReglaRow(businessId: string, id: string, ex: Executor) {
  const [gone] = await ex
    .delete(reglasMargen)
    .where(and(eq(reglasMargen.businessId, businessId), eq(reglasMargen.id, id)))
    .returning();
  return gone as typeof reglasMargen.$inferSelect | undefined;
}

/** The stored margins that may apply: these products', every category's and the supplier's. */
export async function applicableReglaRows(
  businessId: string,
  productIds: string[],
  proveedorId: string | null,
  ex: Executor,
) {
  const { rows } = await ex.execute<{
    producto_id: string | null;
    categoria_id: string | null;
    proveedor_id: string | null;
    margen: string;
  }>(sql`
    SELECT producto_id, categoria_id, proveedor_id, margen::text AS margen FROM reglas_margen
     WHERE business_id = ${businessId}
       AND (producto_id = ANY(${`{${productIds.join(',')}}`}::uuid[]) OR categoria_id IS NOT NULL
            OR proveedor_id = ${proveedorId})`);
  return rows;
}
