import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { CustomerListQuery } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { customers, financeAccounts, financeMovements, subscriptions } from '../../db/schema/index.js';
import { es, searchFunction, searchTerms } from '../products/common.js';

/*
 * The customers' statements (decision 0044): every function takes the business first.
 */

export type CustomerRow = typeof customers.$inferSelect;
export type CustomerColumns = Partial<Omit<typeof customers.$inferInsert, 'id' | 'businessId'>>;

/** The folded text that the GIN index customers_search_idx covers (same expression, so it is used). */
const haystack = sql`f_unaccent(lower(coalesce(${customers.nombre}, '') || ' ' || coalesce(${customers.apellido}, '') || ' ' || coalesce(${customers.email}, '') || ' ' || coalesce(${customers.documentoNumero}, '')))`;

const customerSearch = searchFunction('buscar_clientes', customers.id);

function filters(businessId: string, q: Pick<CustomerListQuery, 'q' | 'documento_tipo'>): SQL[] {
  const where: SQL[] = [eq(customers.businessId, businessId)];
  if (q.documento_tipo) where.push(eq(customers.documentoTipo, q.documento_tipo));
  const terms = searchTerms(haystack, q.q);
  // A CUIT typed without hyphens still finds the stored XX-XXXXXXXX-X. That alternative is tested
  // on every row of the business anyway, so the words are too; otherwise the index serves them.
  const digits = q.q?.replace(/[\s.-]/g, '') ?? '';
  if (terms.length && /^\d{3,}$/.test(digits)) {
    where.push(
      sql`(${and(...terms)} OR regexp_replace(coalesce(${customers.documentoNumero}, ''), '\\D', '', 'g') LIKE ${`%${digits}%`})`,
    );
  } else where.push(...searchTerms(haystack, q.q, customerSearch));
  return where;
}

/** Sorted by apellido, nombre (a company without apellido sorts by its nombre), the Spanish way. */
/** By surname (else name) the Spanish way, unless `orden` asks for another column; ties by name. */
function orderOf(q: CustomerListQuery): SQL[] {
  const dir = q.direccion === 'desc' ? desc : asc;
  const name = [es(sql`coalesce(${customers.apellido}, ${customers.nombre})`), es(customers.nombre)];
  const main =
    q.orden === 'documento'
      ? [sql`${dir(customers.documentoNumero)} NULLS LAST`]
      : q.orden === 'creado_en'
        ? [dir(customers.creadoEn)]
        : [];
  const byName = !q.orden || q.orden === 'nombre' ? name.map((c) => dir(c)) : name.map((c) => asc(c));
  return [...main, ...byName, asc(customers.id)];
}

/** A page of the list and the count of the whole list. */
export async function listCustomerRows(businessId: string, q: CustomerListQuery, ex: Executor) {
  const where = and(...filters(businessId, q));
  const [rows, [{ total }]] = await Promise.all([
    ex
      .select()
      .from(customers)
      .where(where)
      .orderBy(...orderOf(q))
      .limit(q.limit)
      .offset(q.offset),
    ex
      .select({ total: sql<number>`count(*)::int` })
      .from(customers)
      .where(where),
  ]);
  return { rows, total };
}

export async function findCustomerRow(businessId: string, id: string, ex: Executor) {
  const [r] = await ex
    .select()
    .from(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.id, id)));
  return r as CustomerRow | undefined;
}

/**
 * Whether another business uses the id (decision 0036); cliente_id_tomado locks the id for the
 * transaction, so two requests with one id wait for each other.
 */
export async function customerIdTaken(businessId: string, id: string, ex: Executor) {
  const [check] = await ex
    .execute<{ tomado: boolean }>(sql`SELECT cliente_id_tomado(${id}, ${businessId}) AS tomado`)
    .then((r) => r.rows);
  return !!check?.tomado;
}

export async function insertCustomer(businessId: string, id: string | undefined, cols: CustomerColumns, ex: Executor) {
  const [row] = await ex
    .insert(customers)
    .values({
      businessId,
      ...(id ? { id } : {}),
      ...cols,
    } as typeof customers.$inferInsert)
    .returning();
  return row;
}

/** The customer locked for an update or a delete, or undefined. */
export async function lockCustomer(businessId: string, id: string, ex: Executor) {
  const [before] = await ex
    .select()
    .from(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.id, id)))
    .for('update');
  return before;
}

export async function updateCustomerRow(businessId: string, id: string, cols: CustomerColumns, ex: Executor) {
  const [row] = await ex
    .update(customers)
    .set({ ...cols, actualizadoEn: sql`now()` })
    .where(and(eq(customers.businessId, businessId), eq(customers.id, id)))
    .returning();
  return row;
}

/** Whether movements, accounts or subscriptions reference the customer. */
export async function customerInUse(businessId: string, id: string, ex: Executor) {
  const [ref] = await ex
    .execute<{ used: boolean }>(
      sql`
        SELECT EXISTS (SELECT 1 FROM ${financeMovements} WHERE business_id = ${businessId} AND cliente_id = ${id})
            OR EXISTS (SELECT 1 FROM ${financeAccounts} WHERE business_id = ${businessId} AND cliente_id = ${id})
            OR EXISTS (SELECT 1 FROM ${subscriptions} WHERE business_id = ${businessId} AND cliente_id = ${id}) AS used`,
    )
    .then((r) => r.rows);
  return !!ref?.used;
}

export async function deleteCustomerRow(businessId: string, id: string, ex: Executor) {
  await ex.delete(customers).where(and(eq(customers.businessId, businessId), eq(customers.id, id)));
}
