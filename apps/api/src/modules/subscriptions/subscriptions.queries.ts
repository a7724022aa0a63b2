import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { SubscriptionListQuery } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { customers, services, subscriptions } from '../../db/schema/index.js';
import { es, searchTerms } from '../products/common.js';

/*
 * The subscriptions' statements (decision 0044): every function takes the business first.
 */

export type SubscriptionRow = typeof subscriptions.$inferSelect;
type SubscriptionColumns = Partial<Omit<typeof subscriptions.$inferInsert, 'id' | 'businessId'>>;

const clienteNombre = sql<string | null>`nullif(concat_ws(' ', ${customers.nombre}, ${customers.apellido}), '')`;

function selectSubscriptions(ex: Executor) {
  return ex
    .select({ s: subscriptions, clienteNombre, servicioNombre: services.nombre })
    .from(subscriptions)
    .leftJoin(
      customers,
      and(eq(customers.businessId, subscriptions.businessId), eq(customers.id, subscriptions.clienteId)),
    )
    .leftJoin(
      services,
      and(eq(services.businessId, subscriptions.businessId), eq(services.id, subscriptions.servicioId)),
    );
}

/** The estado as read: an `activa` past its `fecha_fin` is `vencida`. */
const stateSql = (today: string) =>
  sql`CASE WHEN ${subscriptions.estado} = 'activa' AND ${subscriptions.fechaFin} < ${today}::date THEN 'vencida' ELSE ${subscriptions.estado} END`;

/** A page of the list (by the customer's surname, the Spanish way) and the count of the whole list. */
export async function listSubscriptionRows(businessId: string, q: SubscriptionListQuery, today: string, db: Executor) {
  const where: SQL[] = [eq(subscriptions.businessId, businessId)];
  if (q.cliente_id) where.push(eq(subscriptions.clienteId, q.cliente_id));
  if (q.servicio_id) where.push(eq(subscriptions.servicioId, q.servicio_id));
  if (q.estado) where.push(sql`${stateSql(today)} = ${q.estado}`);
  where.push(
    ...searchTerms(
      sql`f_unaccent(lower(${subscriptions.nombre} || ' ' || coalesce(${customers.nombre}, '') || ' ' || coalesce(${customers.apellido}, '')))`,
      q.q,
    ),
  );
  const cond = and(...where);
  const [rows, [{ total }]] = await Promise.all([
    selectSubscriptions(db)
      .where(cond)
      .orderBy(
        es(sql`coalesce(${customers.apellido}, ${customers.nombre})`),
        es(customers.nombre),
        es(subscriptions.nombre),
        subscriptions.id,
      )
      .limit(q.limit)
      .offset(q.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(subscriptions)
      .leftJoin(
        customers,
        and(eq(customers.businessId, subscriptions.businessId), eq(customers.id, subscriptions.clienteId)),
      )
      .where(cond),
  ]);
  return { rows, total };
}

export async function findSubscriptionRow(businessId: string, id: string, ex: Executor) {
  const [r] = await selectSubscriptions(ex).where(
    and(eq(subscriptions.businessId, businessId), eq(subscriptions.id, id)),
  );
  return r;
}

/** Whether the customer is the business's, locked FOR SHARE. */
export async function shareCustomer(businessId: string, id: string, ex: Executor) {
  const [row] = await ex
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.id, id)))
    .for('share');
  return !!row;
}

/** The service's name and price, locked FOR SHARE (undefined when it is not the business's). */
export async function shareService(businessId: string, id: string, ex: Executor) {
  const [row] = await ex
    .select({ nombre: services.nombre, precio: services.precio })
    .from(services)
    .where(and(eq(services.businessId, businessId), eq(services.id, id)))
    .for('share');
  return row;
}

export async function insertSubscription(
  businessId: string,
  cols: Omit<typeof subscriptions.$inferInsert, 'businessId'>,
  ex: Executor,
) {
  const [row] = await ex
    .insert(subscriptions)
    .values({ businessId, ...cols })
    .returning();
  return row;
}

/** The subscription locked for a change, or undefined. */
export async function lockSubscription(businessId: string, id: string, ex: Executor) {
  const [row] = await ex
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.businessId, businessId), eq(subscriptions.id, id)))
    .for('update');
  return row;
}

export async function updateSubscriptionRow(businessId: string, id: string, cols: SubscriptionColumns, ex: Executor) {
  await ex
    .update(subscriptions)
    .set({ ...cols, actualizadoEn: sql`now()` })
    .where(and(eq(subscriptions.businessId, businessId), eq(subscriptions.id, id)));
}

export async function deleteSubscriptionRow(businessId: string, id: string, ex: Executor) {
  await ex.delete(subscriptions).where(and(eq(subscriptions.businessId, businessId), eq(subscriptions.id, id)));
}
