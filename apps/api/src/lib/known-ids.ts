import { sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Executor } from '../db/client.js';
import { businessOf } from './access.js';
import { invalid } from './errors.js';

/** What a filter id may name, and how a missing one is said (API-CONTRACT §1.3 field messages). */
const KINDS = {
  categoria: { table: sql`product_categories`, message: 'Categoría no encontrada en este negocio.' },
  categoria_financiera: {
    table: sql`finance_categories`,
    message: 'Categoría financiera no encontrada en este negocio.',
  },
  cliente: { table: sql`customers`, message: 'Cliente no encontrado en este negocio.' },
  deposito: { table: sql`depositos`, message: 'Depósito no encontrado en este negocio.' },
  proveedor: { table: sql`suppliers`, message: 'Proveedor no encontrado en este negocio.' },
  producto: { table: sql`products`, message: 'Producto no encontrado en este negocio.' },
  servicio: { table: sql`services`, message: 'Servicio no encontrado en este negocio.' },
  venta: { table: sql`sales`, message: 'Venta no encontrada en este negocio.' },
} satisfies Record<string, { table: SQL; message: string }>;

export type KnownKind = keyof typeof KINDS | 'miembro';

export interface FilterRef {
  /** The query parameter, for the 422's field. */
  field: string;
  kind: KnownKind;
  id: string | null | undefined;
}

/**
 * 422 for an id in a query string that names nothing of the business (API-CONTRACT §1.3): a
 * filter on another business's customer must not look like "no results". One query for all the
 * ids given; filters left out are skipped.
 */
export async function requireKnownIds(ex: Executor, businessId: string, refs: FilterRef[]): Promise<void> {
  const given = refs.filter((r): r is FilterRef & { id: string } => Boolean(r.id));
  if (!given.length) return;
  const checks = given.map((r) =>
    r.kind === 'miembro'
      ? // A member, or someone who was one and still has tasks of the business.
        sql`(EXISTS (SELECT 1 FROM business_members WHERE business_id = ${businessId} AND user_id = ${r.id})
             OR EXISTS (SELECT 1 FROM tasks WHERE business_id = ${businessId} AND asignada_a = ${r.id}))`
      : sql`EXISTS (SELECT 1 FROM ${KINDS[r.kind].table} WHERE business_id = ${businessId} AND id = ${r.id})`,
  );
  const { rows } = await ex.execute<{ found: boolean[] }>(sql`SELECT ARRAY[${sql.join(checks, sql`, `)}] AS found`);
  const missing = given.find((_, i) => !rows[0].found[i]);
  if (missing) {
    throw invalid(
      missing.field,
      missing.kind === 'miembro' ? 'Usuario no encontrado en este negocio.' : KINDS[missing.kind].message,
    );
  }
}

/**
 * A list route's preHandler: its query filters `field` must name something of the business
 * (`except` is a filter value that names nothing on purpose, such as `ninguna`).
 */
export function knownFilters(ex: Executor, filters: { field: string; kind: KnownKind; except?: string }[]) {
  return async (req: FastifyRequest) => {
    const q = (req.query ?? {}) as Record<string, unknown>;
    const ids = filters.map(({ field, kind, except }) => {
      const v = q[field];
      return { field, kind, id: typeof v === 'string' && v !== except ? v : null };
    });
    await requireKnownIds(ex, businessOf(req).id, ids);
  };
}
