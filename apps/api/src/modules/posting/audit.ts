import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { auditLog } from '../../db/schema/index.js';

/*
 * The posting module owns every write of the change log (audit_log), as it owns the finance and
 * stock movements (decision 0038): one function for one row, one builder for a statement that
 * writes many rows at once. No other file inserts into audit_log.
 */

export interface AuditEntry {
  businessId: string;
  userId: string | null;
  entidad: string;
  entidadId?: string | null;
  accion: string;
  antes?: Record<string, unknown> | null;
  despues?: Record<string, unknown> | null;
}

/** Written inside the transaction of the change it records, so a failed change leaves none. */
export async function audit(ex: Executor, e: AuditEntry): Promise<void> {
  await ex.insert(auditLog).values({
    businessId: e.businessId,
    userId: e.userId,
    entidad: e.entidad,
    entidadId: e.entidadId ?? null,
    accion: e.accion,
    antes: e.antes ?? null,
    despues: e.despues ?? null,
  });
}

/** One audit row per row of a source, the expressions read from it (`from` is the rest: `FROM …`). */
export interface AuditRows {
  entidad: string;
  accion: string;
  /** Uuid expressions. */
  entidadId: SQL;
  /** Jsonb expressions; `antes` null when left out. */
  antes?: SQL;
  despues: SQL;
  from: SQL;
}

/** The INSERT … SELECT of audit rows, to run alone or as a CTE of a pipelined statement. */
export function auditRowsSql(businessId: string, userId: string | null, a: AuditRows): SQL {
  return sql`INSERT INTO audit_log (business_id, user_id, entidad, entidad_id, accion, antes, despues)
    SELECT ${businessId}::uuid, ${userId}::uuid, ${a.entidad}, ${a.entidadId}, ${a.accion}, ${a.antes ?? sql`NULL::jsonb`},
           ${a.despues}
      ${a.from}`;
}
