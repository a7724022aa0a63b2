import type { Executor } from '../db/client.js';
import { audit } from '../modules/posting/audit.js';

/** The change log is written by the posting module (decision 0038); re-exported for its many callers. */
export { audit, type AuditEntry } from '../modules/posting/audit.js';

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
