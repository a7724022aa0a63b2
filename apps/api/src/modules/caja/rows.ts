import type { SQL } from 'drizzle-orm';
import { CAJA_MESSAGES } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { conflict, invalid } from '../../lib/errors.js';
import { shareOpenTurnos, shareTurno } from './turnos.queries.js';

/** Raw rows of the caja's aggregate queries, and how their values come back (timestamps as text). */
export type R = Record<string, unknown>;
export const rows = async (ex: Executor, q: SQL) => (await ex.execute(q)).rows as R[];
export const iso = (v: unknown) => new Date(v as string).toISOString();
export const person = (id: unknown, nombre: unknown) =>
  id ? { id: id as string, nombre: (nombre as string) ?? '' } : null;

/**
 * The open turno a sale or a cobro taken at the counter enters when it names none: the one its
 * user opened, else the business's only open turno; none otherwise.
 */
export function counterTurno(open: R[], userId: string): string | null {
  const mine = open.find((t) => t.abierto_por === userId);
  if (mine) return mine.id as string;
  return open.length === 1 ? (open[0].id as string) : null;
}

/**
 * The turno money taken or given back at the counter (a cobro, a return, a void) belongs to: the
 * one named (it must be open: 409), else counterTurno. Held FOR SHARE so it cannot close meanwhile.
 */
export async function counterTurnoOf(ex: Executor, businessId: string, userId: string, turnoId?: string | null) {
  if (turnoId) {
    const t = await shareTurno(businessId, turnoId, ex);
    if (!t) throw invalid('turno_id', CAJA_MESSAGES.turnoNotInBusiness);
    if (t.estado !== 'abierto') throw conflict('TURNO_CLOSED', CAJA_MESSAGES.turnoClosed);
    return turnoId;
  }
  const open = await shareOpenTurnos(businessId, ex);
  return counterTurno(open, userId);
}
