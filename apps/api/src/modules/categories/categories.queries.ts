import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { CategoryListQuery } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { productCategories, products, services } from '../../db/schema/index.js';
import { es, searchTerms } from '../products/common.js';

/*
 * The categories' statements (decision 0044): every function takes the business first.
 */

export type CategoryRow = typeof productCategories.$inferSelect;
type CategoryColumns = Partial<Omit<typeof productCategories.$inferInsert, 'id' | 'businessId'>>;

// Qualified by hand: inside a subquery an unqualified column would name the inner table's.
const productCount = sql<number>`(SELECT count(*)::int FROM ${products} p WHERE p.business_id = "product_categories"."business_id" AND p.categoria_id = "product_categories"."id")`;
const serviceCount = sql<number>`(SELECT count(*)::int FROM ${services} s WHERE s.business_id = "product_categories"."business_id" AND s.categoria_id = "product_categories"."id")`;

function selectCategories(ex: Executor) {
  return ex.select({ c: productCategories, productos: productCount, servicios: serviceCount }).from(productCategories);
}

/** Active and inactive, sorted by name the Spanish way, with their product and service counts. */
export function listCategoryRows(businessId: string, q: CategoryListQuery, ex: Executor) {
  const where: SQL[] = [eq(productCategories.businessId, businessId)];
  if (q.activo !== undefined) where.push(eq(productCategories.activo, q.activo));
  where.push(...searchTerms(sql`f_unaccent(lower(${productCategories.nombre}))`, q.q));
  return selectCategories(ex)
    .where(and(...where))
    .orderBy(es(productCategories.nombre), productCategories.id);
}

export async function findCategoryRow(businessId: string, id: string, ex: Executor) {
  const [r] = await selectCategories(ex).where(
    and(eq(productCategories.businessId, businessId), eq(productCategories.id, id)),
  );
  return r;
}

/** The category locked FOR SHARE (a concurrent delete waits), or undefined. */
export async function shareCategory(businessId: string, id: string, ex: Executor) {
  const [row] = await ex
    .select({ id: productCategories.id, nombre: productCategories.nombre })
    .from(productCategories)
    .where(and(eq(productCategories.businessId, businessId), eq(productCategories.id, id)))
    .for('share');
  return row;
}

export async function insertCategory(businessId: string, cols: CategoryColumns & { nombre: string }, ex: Executor) {
  const [row] = await ex
    .insert(productCategories)
    .values({ businessId, ...cols })
    .returning();
  return row;
}

/** The category locked for an update or a delete, or undefined. */
export async function lockCategory(businessId: string, id: string, ex: Executor) {
  const [before] = await ex
    .select()
    .from(productCategories)
    .where(and(eq(productCategories.businessId, businessId), eq(productCategories.id, id)))
    .for('update');
  return before;
}

export async function updateCategoryRow(businessId: string, id: string, cols: CategoryColumns, ex: Executor) {
  await ex
    .update(productCategories)
    .set({ ...cols, actualizadoEn: sql`now()` })
    .where(and(eq(productCategories.businessId, businessId), eq(productCategories.id, id)));
}

/** Whether a product or a service uses the category. */
export async function categoryInUse(businessId: string, id: string, ex: Executor) {
  const { rows } = await ex.execute<{ used: boolean }>(sql`
        SELECT EXISTS (SELECT 1 FROM ${products} WHERE business_id = ${businessId} AND categoria_id = ${id})
            OR EXISTS (SELECT 1 FROM ${services} WHERE business_id = ${businessId} AND categoria_id = ${id}) AS used`);
  return !!rows[0]?.used;
}

export async function deleteCategoryRow(businessId: string, id: string, ex: Executor) {
  await ex
    .delete(productCategories)
    .where(and(eq(productCategories.businessId, businessId), eq(productCategories.id, id)));
}
