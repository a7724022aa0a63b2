import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { auditLog, users } from '../../db/schema/index.js';
import { addDays } from '../../lib/dates.js';

/*
 * The audit log's reads (decision 0044; the posting module writes it): every function takes the
 * business first.
 */

export interface AuditQuery {
  entidad?: string;
  entidad_id?: string;
  accion?: string;
  usuario_id?: string;
  fecha_desde?: string;
  fecha_hasta?: string;
  limit: number;
  offset: number;
}

/** A page of the log, newest first, with who did each, and the count of the whole log. */
export async function listAuditRows(businessId: string, timezone: string, q: AuditQuery, ex: Executor) {
  // Dates are whole days in the business time zone, both ends included.
  const dayStart = (d: string) => sql`(${d}::date::timestamp AT TIME ZONE ${timezone})`;
  const where: SQL[] = [eq(auditLog.businessId, businessId)];
  if (q.entidad) where.push(eq(auditLog.entidad, q.entidad));
  if (q.entidad_id) where.push(eq(auditLog.entidadId, q.entidad_id));
  if (q.accion) where.push(eq(auditLog.accion, q.accion));
  if (q.usuario_id) where.push(eq(auditLog.userId, q.usuario_id));
  if (q.fecha_desde) where.push(gte(auditLog.fecha, dayStart(q.fecha_desde)));
  if (q.fecha_hasta) where.push(lt(auditLog.fecha, dayStart(addDays(q.fecha_hasta, 1))));
  const [{ total }] = await ex
    .select({ total: count() })
    .from(auditLog)
    .where(and(...where));
  const rows = await ex
    .select({ a: auditLog, nombre: users.nombre, apellido: users.apellido, email: users.email })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.userId))
    .where(and(...where))
    .orderBy(desc(auditLog.fecha), desc(auditLog.id))
    .limit(q.limit)
    .offset(q.offset);
  return { total, rows };
}

/**
 * What people call the records behind ids of one business: products, services, customers,
 * suppliers, categories, medios de pago, cajas, sales, purchases, turnos, receipts and members.
 * Ids of records deleted since (or of other businesses) are simply absent.
 */
export async function namesOf(businessId: string, ids: string[], ex: Executor): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const list = sql`${`{${ids.join(',')}}`}::uuid[]`;
  const named = (table: string, label: string) =>
    sql`SELECT id, ${sql.raw(label)} AS nombre FROM ${sql.raw(table)} WHERE business_id = ${businessId} AND id = ANY(${list})`;
  const { rows } = await ex.execute<{ id: string; nombre: string }>(sql`
    ${named('products', 'nombre')}
    UNION ALL ${named('services', 'nombre')}
    UNION ALL ${named('customers', "concat_ws(' ', nombre, apellido)")}
    UNION ALL ${named('suppliers', 'nombre')}
    UNION ALL ${named('product_categories', 'nombre')}
    UNION ALL ${named('finance_categories', 'nombre')}
    UNION ALL ${named('payment_methods', 'nombre')}
    UNION ALL ${named('cajas', 'nombre')}
    UNION ALL ${named('sales', "'Venta #' || numero")}
    UNION ALL ${named('purchases', "'Compra #' || numero")}
    UNION ALL ${named('turnos', "'Turno #' || numero")}
    UNION ALL ${named('cobros', "'Recibo #' || numero")}
    UNION ALL SELECT u.id, concat_ws(' ', u.nombre, u.apellido) FROM users u
      JOIN business_members m ON m.user_id = u.id AND m.business_id = ${businessId}
     WHERE u.id = ANY(${list})`);
  return new Map(rows.map((r) => [String(r.id), r.nombre]));
}
