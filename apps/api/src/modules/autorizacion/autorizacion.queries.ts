import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';

/*
 * The statements of the authorization with PIN (decision 0044: the business first). The PIN
 * itself is the user's (pin.ts); the right to authorize is the membership's, in this business.
 */

/** A member's rights at the counter and their PIN's hash, as a row. */
export interface AuthorizerRow {
  usuario_id: string;
  nombre: string;
  pin_hash: string | null;
  acceso_total: boolean;
  cambiar_precios: boolean;
  exceder_credito: boolean;
  descuento_maximo: number | null;
}

const rights = sql`
  u.id AS usuario_id, concat_ws(' ', u.nombre, u.apellido) AS nombre, u.pin_hash,
  (b.creada_por = u.id OR m.rol = 'admin' OR m.acceso_total) AS acceso_total,
  m.cambiar_precios, m.exceder_credito, m.descuento_maximo::float8 AS descuento_maximo`;

/** The accepted member `usuarioId` of the business, with their PIN's hash; undefined otherwise. */
export async function authorizerRow(businessId: string, usuarioId: string, ex: Executor) {
  const { rows } = await ex.execute<AuthorizerRow & Record<string, unknown>>(sql`
    SELECT ${rights}
      FROM business_members m
      JOIN users u ON u.id = m.user_id
      JOIN businesses b ON b.id = m.business_id
     WHERE m.business_id = ${businessId} AND m.user_id = ${usuarioId} AND m.estado = 'aceptado'`);
  return rows[0] as AuthorizerRow | undefined;
}

/**
 * The accepted members with a PIN who may authorize something (full access, cambiar_precios,
 * exceder_credito or a maximum discount above 0), but `except` (the one asking), by name.
 */
export async function authorizerRows(businessId: string, except: string, ex: Executor) {
  const { rows } = await ex.execute<AuthorizerRow & Record<string, unknown>>(sql`
    SELECT ${rights}
      FROM business_members m
      JOIN users u ON u.id = m.user_id
      JOIN businesses b ON b.id = m.business_id
     WHERE m.business_id = ${businessId} AND m.estado = 'aceptado' AND u.pin_hash IS NOT NULL AND u.id <> ${except}
       AND (b.creada_por = u.id OR m.rol = 'admin' OR m.acceso_total OR m.cambiar_precios OR m.exceder_credito
            OR m.descuento_maximo IS NULL OR m.descuento_maximo > 0)
     ORDER BY lower(u.nombre), lower(coalesce(u.apellido, '')), u.id`);
  return rows as AuthorizerRow[];
}
