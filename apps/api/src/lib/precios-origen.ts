import { sql } from 'drizzle-orm';
import type { PrecioOrigen } from '@mostrador/shared';
import type { Executor } from '../db/client.js';

/**
 * Tells the price-history trigger (migration 0040) who changes prices in this transaction and
 * why. Transaction-local (`set_config(…, true)`), so a pooled connection keeps nothing and a
 * transaction-mode pooler still works (decision 0010). A change made without it is recorded as
 * `manual` (or `alta` for a new product) with no user: the history never misses a change.
 */
export async function precioOrigen(
  ex: Executor,
  o: { origen: PrecioOrigen; userId: string | null; referenciaId?: string | null },
): Promise<void> {
  await ex.execute(sql`SELECT set_config('mostrador.precio_origen', ${o.origen}, true),
                              set_config('mostrador.usuario_id', ${o.userId ?? ''}, true),
                              set_config('mostrador.precio_referencia', ${o.referenciaId ?? ''}, true)`);
}

/** The same as one SQL fragment, for a statement that is sent with others (pipelined). */
export const precioOrigenSql = (o: { origen: PrecioOrigen; userId: string | null; referenciaId?: string | null }) =>
  sql`SELECT set_config('mostrador.precio_origen', ${o.origen}, true),
             set_config('mostrador.usuario_id', ${o.userId ?? ''}, true),
             set_config('mostrador.precio_referencia', ${o.referenciaId ?? ''}, true)`;
