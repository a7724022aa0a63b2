import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { isUuid } from '../../lib/access.js';

/** The ids an audit row mentions: its entity and every `…_id` value before and after. */
export function idsOf(row: { entidadId: string | null; antes: unknown; despues: unknown }): string[] {
  const ids = new Set<string>();
  if (row.entidadId) ids.add(row.entidadId);
  for (const side of [row.antes, row.despues]) {
    if (!side || typeof side !== 'object') continue;
    for (const [k, v] of Object.entries(side)) {
      if (k.endsWith('_id') && typeof v === 'string' && isUuid(v)) ids.add(v);
    }
  }
  return [...ids];
}

/**
 * What people call the records behind ids of one business: products, services, customers,
 * suppliers, categories, medios de pago, cajas, sales, purchases, turnos, receipts and members.
 * Ids of records deleted since (or of other businesses) are simply absent.
 */
export async function namesOf(ex: Executor, businessId: string, ids: string[]): Promise<Map<string, string>> {
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
