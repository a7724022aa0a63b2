import { auditLog } from '../db/schema/index.js';
import type { Executor } from '../db/client.js';

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

/** Only the fields that changed, before and after. */
export function diff<T extends Record<string, unknown>>(before: T, after: Partial<T>) {
  const antes: Record<string, unknown> = {};
  const despues: Record<string, unknown> = {};
  for (const k of Object.keys(after)) {
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) {
      antes[k] = before[k];
      despues[k] = after[k];
    }
  }
  return { antes, despues, changed: Object.keys(despues).length > 0 };
}
