import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { ServiceListQuery } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { productCategories, services, subscriptions } from '../../db/schema/index.js';
import { es, searchFunction, searchTerms } from '../products/common.js';

/*
 * The services' statements (decision 0044): every function takes the business first.
 */

export type ServiceRow = typeof services.$inferSelect;
export type ServiceColumns = Partial<Omit<typeof services.$inferInsert, 'id' | 'businessId'>>;

function selectServices(ex: Executor) {
  return ex
    .select({ s: services, categoriaNombre: productCategories.nombre })
    .from(services)
    .leftJoin(
      productCategories,
      and(eq(productCategories.businessId, services.businessId), eq(productCategories.id, services.categoriaId)),
    );
}

/** By name the Spanish way unless `orden` asks for the price (ties by name). */
function orderOf(q: ServiceListQuery): SQL[] {
  const dir = q.direccion === 'desc' ? desc : asc;
  const main = q.orden === 'precio' ? [dir(services.precio)] : [];
  return [...main, (q.orden === 'precio' ? asc : dir)(es(services.nombre)), asc(services.id)];
}

/** The search function's condition for the indexable words (migration 0055). */
const serviceSearch = searchFunction('buscar_servicios', services.id);

/** A page of the list with its category names, and the count of the whole list. */
export async function listServiceRows(businessId: string, q: ServiceListQuery, ex: Executor) {
  const where: SQL[] = [eq(services.businessId, businessId)];
  if (q.categoria_id) where.push(eq(services.categoriaId, q.categoria_id));
  if (q.activo !== undefined) where.push(eq(services.activo, q.activo));
  where.push(...searchTerms(sql`f_unaccent(lower(${services.nombre}))`, q.q, serviceSearch));
  const cond = and(...where);
  const [rows, [{ total }]] = await Promise.all([
    selectServices(ex)
      .where(cond)
      .orderBy(...orderOf(q))
      .limit(q.limit)
      .offset(q.offset),
    ex
      .select({ total: sql<number>`count(*)::int` })
      .from(services)
      .where(cond),
  ]);
  return { rows, total };
}

export async function findServiceRow(businessId: string, id: string, ex: Executor) {
  const [r] = await selectServices(ex).where(and(eq(services.businessId, businessId), eq(services.id, id)));
  return r;
}

export async function insertService(businessId: string, cols: ServiceColumns, ex: Executor) {
  const [row] = await ex
    .insert(services)
    .values({ businessId, ...cols } as typeof services.$inferInsert)
    .returning({ id: services.id });
  return row;
}

/** Locks the service for an update or a delete; false when it is not the business's. */
export async function lockService(businessId: string, id: string, ex: Executor) {
  const [locked] = await ex
    .select({ id: services.id })
    .from(services)
    .where(and(eq(services.businessId, businessId), eq(services.id, id)))
    .for('update');
  return !!locked;
}

export async function updateServiceRow(businessId: string, id: string, cols: ServiceColumns, ex: Executor) {
  await ex
    .update(services)
    .set({ ...cols, actualizadoEn: sql`now()` })
    .where(and(eq(services.businessId, businessId), eq(services.id, id)));
}

/** Whether a subscription references the service. */
export async function serviceHasSubscriptions(businessId: string, id: string, ex: Executor) {
  const [used] = await ex
    .select({ one: sql`1` })
    .from(subscriptions)
    .where(and(eq(subscriptions.businessId, businessId), eq(subscriptions.servicioId, id)))
    .limit(1);
  return !!used;
}

export async function deleteServiceRow(businessId: string, id: string, ex: Executor) {
  await ex.delete(services).where(and(eq(services.businessId, businessId), eq(services.id, id)));
}
