import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { MovementType } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { financeCategories, financeMovements } from '../../db/schema/index.js';

/*
 * The finance categories' statements (decision 0044): every function takes the business first.
 */

export type FinanceCategoryRow = typeof financeCategories.$inferSelect;
type FinanceCategoryColumns = Partial<Omit<typeof financeCategories.$inferInsert, 'id' | 'businessId'>>;

/** By type, then by name the Spanish way. */
export function listFinanceCategories(businessId: string, f: { tipo?: MovementType; activo?: boolean }, ex: Executor) {
  const where: SQL[] = [eq(financeCategories.businessId, businessId)];
  if (f.tipo) where.push(eq(financeCategories.tipo, f.tipo));
  if (f.activo !== undefined) where.push(eq(financeCategories.activo, f.activo));
  return ex
    .select()
    .from(financeCategories)
    .where(and(...where))
    .orderBy(
      asc(financeCategories.tipo),
      sql`${financeCategories.nombre} COLLATE "es-AR-x-icu"`,
      asc(financeCategories.id),
    );
}

export async function insertFinanceCategory(
  businessId: string,
  cols: FinanceCategoryColumns & { nombre: string; tipo: MovementType },
  ex: Executor,
) {
  const [row] = await ex
    .insert(financeCategories)
    .values({ businessId, ...cols })
    .returning();
  return row;
}

/** Whether any movement uses the category. */
export async function categoryHasMovements(businessId: string, id: string, ex: Executor) {
  const [row] = await ex
    .select({ one: sql`1` })
    .from(financeMovements)
    .where(and(eq(financeMovements.businessId, businessId), eq(financeMovements.categoriaId, id)))
    .limit(1);
  return Boolean(row);
}

/** The category locked for an update or a delete, or undefined. */
export async function lockFinanceCategory(businessId: string, id: string, ex: Executor) {
  const [before] = await ex
    .select()
    .from(financeCategories)
    .where(and(eq(financeCategories.businessId, businessId), eq(financeCategories.id, id)))
    .for('update');
  return before;
}

export async function updateFinanceCategory(
  businessId: string,
  id: string,
  cols: FinanceCategoryColumns,
  ex: Executor,
) {
  const [row] = await ex
    .update(financeCategories)
    .set({ ...cols, actualizadoEn: sql`now()` })
    .where(and(eq(financeCategories.businessId, businessId), eq(financeCategories.id, id)))
    .returning();
  return row;
}

export async function deleteFinanceCategory(businessId: string, id: string, ex: Executor) {
  await ex
    .delete(financeCategories)
    .where(and(eq(financeCategories.businessId, businessId), eq(financeCategories.id, id)));
}
