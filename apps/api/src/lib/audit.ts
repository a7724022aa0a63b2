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

/** The action of an attempt that was refused, shown to the owner in the change log. */
export const ATTEMPT_ACTION = 'intento_rechazado';

/** What a refused attempt leaves in the change log: the entity tried and what was tried. */
export interface RefusedAttempt {
  entidad: string;
  entidadId?: string | null;
  despues: Record<string, unknown>;
}

const attempts = new WeakMap<Error, RefusedAttempt>();

/**
 * Marks a refusal the owner should see (a discount over the maximum, a price change, a sale over
 * the credit limit). The refused transaction rolls back and leaves nothing; the error handler then
 * writes this one row on its own, with the business and the user who tried (recordAttempt).
 */
export function asAttempt<E extends Error>(error: E, attempt: RefusedAttempt): E {
  attempts.set(error, attempt);
  return error;
}

/** The attempt a refusal was marked with (asAttempt), if any. */
export const attemptOf = (error: unknown): RefusedAttempt | undefined =>
  error instanceof Error ? attempts.get(error) : undefined;

/** One insert, outside the refused operation's transaction (which has rolled back by now). */
export async function recordAttempt(ex: Executor, businessId: string, userId: string, a: RefusedAttempt) {
  await audit(ex, {
    businessId,
    userId,
    entidad: a.entidad,
    entidadId: a.entidadId ?? null,
    accion: ATTEMPT_ACTION,
    despues: a.despues,
  });
}
