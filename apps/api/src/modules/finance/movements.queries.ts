import { and, desc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { MovementListQuery } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { customers, financeCategories, financeMovements } from '../../db/schema/index.js';
import { customerName } from './finance.queries.js';

/*
 * The movements' reads and the changes of manual movements (decision 0044); new movements are
 * written by the posting module. Every function takes the business first.
 */

export type MovementRow = typeof financeMovements.$inferSelect;
type MovementColumns = Partial<Omit<typeof financeMovements.$inferInsert, 'id' | 'businessId'>>;

function selectMovements(ex: Executor) {
  return ex
    .select({ m: financeMovements, categoriaNombre: financeCategories.nombre, clienteNombre: customerName })
    .from(financeMovements)
    .leftJoin(
      financeCategories,
      and(
        eq(financeCategories.businessId, financeMovements.businessId),
        eq(financeCategories.id, financeMovements.categoriaId),
      ),
    )
    .leftJoin(
      customers,
      and(eq(customers.businessId, financeMovements.businessId), eq(customers.id, financeMovements.clienteId)),
    );
}

export async function findMovementRow(businessId: string, id: string, ex: Executor) {
  const [r] = await selectMovements(ex).where(
    and(eq(financeMovements.businessId, businessId), eq(financeMovements.id, id)),
  );
  return r;
}

/** Newest date first, then newest created; voided movements only when asked for. */
export async function listMovementRows(businessId: string, q: MovementListQuery, db: Executor) {
  const where: SQL[] = [eq(financeMovements.businessId, businessId)];
  if (q.tipo) where.push(eq(financeMovements.tipo, q.tipo));
  if (q.categoria_id) where.push(eq(financeMovements.categoriaId, q.categoria_id));
  if (q.origen) where.push(eq(financeMovements.origen, q.origen));
  if (q.fecha_desde) where.push(gte(financeMovements.fecha, q.fecha_desde));
  if (q.fecha_hasta) where.push(lte(financeMovements.fecha, q.fecha_hasta));
  if (!q.incluir_anulados) where.push(eq(financeMovements.anulado, false));
  const [rows, [{ total }]] = await Promise.all([
    selectMovements(db)
      .where(and(...where))
      .orderBy(desc(financeMovements.fecha), desc(financeMovements.creadoEn), desc(financeMovements.id))
      .limit(q.limit)
      .offset(q.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(financeMovements)
      .where(and(...where)),
  ]);
  return { rows, total };
}

/** The stored movement, locked for an update or a delete. */
export async function lockMovement(businessId: string, id: string, ex: Executor) {
  const [row] = await ex
    .select()
    .from(financeMovements)
    .where(and(eq(financeMovements.businessId, businessId), eq(financeMovements.id, id)))
    .for('update');
  return row;
}

export async function updateManualMovement(businessId: string, id: string, cols: MovementColumns, ex: Executor) {
  await ex
    .update(financeMovements)
    .set({ ...cols, actualizadoEn: sql`now()` })
    .where(and(eq(financeMovements.businessId, businessId), eq(financeMovements.id, id)));
}

export async function deleteManualMovement(businessId: string, id: string, ex: Executor) {
  await ex
    .delete(financeMovements)
    .where(and(eq(financeMovements.businessId, businessId), eq(financeMovements.id, id)));
}
