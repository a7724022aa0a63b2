import type { Options as HashCost } from '@node-rs/argon2';
import { AUTORIZACION_ATTEMPTS, AUTORIZACION_MESSAGES, type AutorizacionInput } from '@mostrador/shared';
import type { Db } from '../../db/client.js';
import { asAttempt } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import type { RateLimiter } from '../../lib/rate-limit.js';
import { authorizerRow } from './autorizacion.queries.js';
import { pinMatches } from './pin.js';

/** A member who authorized with their PIN, and what they may do at the counter. */
export interface Autorizante {
  id: string;
  nombre: string;
  precios: { cambiar: boolean; descuentoMaximo: number | null };
  excederCredito: boolean;
}

export interface PinCheck {
  db: Db;
  /** Wrong PINs per member of the business (PIN_FAILURES in PIN_WINDOW_MINUTES). */
  limiter: RateLimiter;
  cost?: HashCost;
}

/**
 * The member of the business who authorizes with their PIN, or 403 (not a member here, no PIN,
 * a wrong PIN) and 429 after too many wrong ones: each refusal goes to the change log with who
 * tried. Counted before the PIN is checked, so concurrent guesses cannot pass the limit together;
 * a right PIN gives its attempt back (only failures stay counted, as for passwords).
 */
export async function autorizar(p: PinCheck, businessId: string, input: AutorizacionInput): Promise<Autorizante> {
  const tried = (motivo: string) => ({ entidad: 'venta', despues: { motivo, autorizador_id: input.usuario_id } });
  const key = `${businessId}:${input.usuario_id}`;
  try {
    await p.limiter.take(key);
  } catch (e) {
    throw asAttempt(e as Error, tried(AUTORIZACION_ATTEMPTS.tooMany));
  }
  const row = await authorizerRow(businessId, input.usuario_id, p.db);
  const ok = await pinMatches(row?.pin_hash ?? null, input.pin, p.cost);
  if (!row?.pin_hash) {
    throw asAttempt(
      new AppError(403, 'AUTHORIZATION_REFUSED', AUTORIZACION_MESSAGES.cannotAuthorize, {
        field: 'autorizacion.usuario_id',
      }),
      tried(AUTORIZACION_ATTEMPTS.cannotAuthorize),
    );
  }
  if (!ok) {
    throw asAttempt(
      new AppError(403, 'WRONG_PIN', AUTORIZACION_MESSAGES.wrongPin, { field: 'autorizacion.pin' }),
      tried(AUTORIZACION_ATTEMPTS.wrongPin),
    );
  }
  await p.limiter.release(key);
  const full = row.acceso_total;
  return {
    id: row.usuario_id,
    nombre: row.nombre,
    precios: {
      cambiar: full || row.cambiar_precios,
      descuentoMaximo: full || row.cambiar_precios ? null : row.descuento_maximo,
    },
    excederCredito: full || row.exceder_credito,
  };
}
