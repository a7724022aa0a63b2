import { sql, type SQL } from 'drizzle-orm';
import {
  centsToDecimal,
  type Movement,
  type MovementOrigin,
  type MovementType,
  type PaymentMethod,
} from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { auditRowsSql } from './audit.js';

/*
 * Every finance movement is written here (decision 0038): all its columns named, and its audit
 * row ('movimiento', 'crear') with the one snapshot below, built by the database from the row it
 * wrote. Single movements (manual, account payments, purchases, cobros, returns) go through
 * postMovement; a sale composes the same two statements into its pipelined write.
 */

/** The fields the change log keeps of a movement (created, changed or deleted). */
export const MOVEMENT_SNAPSHOT = [
  'tipo',
  'categoria_id',
  'monto',
  'fecha',
  'metodo_pago',
  'descripcion',
  'observaciones',
  'cliente_id',
] as const;

export const movementSnapshot = (m: Movement) =>
  Object.fromEntries(MOVEMENT_SNAPSHOT.map((k) => [k, m[k]])) as Pick<Movement, (typeof MOVEMENT_SNAPSHOT)[number]>;

/** One value per column, as SQL expressions (they may read the rows of `from`). */
export interface MovementExprs {
  tipo: SQL;
  categoriaId: SQL;
  monto: SQL;
  fecha: SQL;
  metodoPago: SQL;
  medioPagoId: SQL;
  descripcion: SQL;
  observaciones: SQL;
  clienteId: SQL;
  origen: SQL;
  cuentaId: SQL;
  ventaId: SQL;
  compraId: SQL;
  cobroId: SQL;
  devolucionId: SQL;
  /** The cheque that made it (decision 0057); none when left out. */
  chequeId?: SQL;
}

/**
 * The INSERT of movements, one per row of `from` (`FROM … ORDER BY …`, or none for one row),
 * returning what their audit rows read; compose it as a CTE and follow it with movementsAuditSql.
 */
export function movementsInsertSql(businessId: string, userId: string, e: MovementExprs, from: SQL = sql``): SQL {
  return sql`INSERT INTO finance_movements (business_id, tipo, categoria_id, monto, fecha, metodo_pago, medio_pago_id,
                                 descripcion, observaciones, cliente_id, origen, cuenta_id, venta_id, compra_id,
                                 cobro_id, devolucion_id, cheque_id, creado_por)
    SELECT ${businessId}::uuid, ${e.tipo}, ${e.categoriaId}, ${e.monto}, ${e.fecha}, ${e.metodoPago}, ${e.medioPagoId},
           ${e.descripcion}, ${e.observaciones}, ${e.clienteId}, ${e.origen}, ${e.cuentaId}, ${e.ventaId}, ${e.compraId},
           ${e.cobroId}, ${e.devolucionId}, ${e.chequeId ?? sql`NULL::uuid`}, ${userId}::uuid
      ${from}
    RETURNING id, ${sql.raw(MOVEMENT_SNAPSHOT.join(', '))}`;
}

/** The audit rows of the movements a CTE named `cte` (a movementsInsertSql) wrote. */
export function movementsAuditSql(businessId: string, userId: string, cte: string): SQL {
  const fields = MOVEMENT_SNAPSHOT.map((k) => `'${k}', m.${k}`).join(', ');
  return auditRowsSql(businessId, userId, {
    entidad: 'movimiento',
    accion: 'crear',
    entidadId: sql`m.id`,
    despues: sql.raw(`jsonb_build_object(${fields})`),
    from: sql`FROM ${sql.identifier(cte)} m`,
  });
}

export interface NewMovement {
  tipo: MovementType;
  categoriaId: string | null;
  montoCents: number;
  fecha: string;
  metodoPago: PaymentMethod;
  medioPagoId?: string | null;
  descripcion: string | null;
  observaciones: string | null;
  clienteId: string | null;
  origen: MovementOrigin;
  cuentaId?: string | null;
  ventaId?: string | null;
  compraId?: string | null;
  cobroId?: string | null;
  devolucionId?: string | null;
  chequeId?: string | null;
}

const uuid = (v: string | null | undefined) => sql`${v ?? null}::uuid`;

/** One movement and its audit row, in one statement inside the caller's transaction; its id. */
export async function postMovement(ex: Executor, businessId: string, userId: string, m: NewMovement): Promise<string> {
  const values: MovementExprs = {
    tipo: sql`${m.tipo}`,
    categoriaId: uuid(m.categoriaId),
    monto: sql`${centsToDecimal(m.montoCents)}::numeric`,
    fecha: sql`${m.fecha}::date`,
    metodoPago: sql`${m.metodoPago}`,
    medioPagoId: uuid(m.medioPagoId),
    descripcion: sql`${m.descripcion}::text`,
    observaciones: sql`${m.observaciones}::text`,
    clienteId: uuid(m.clienteId),
    origen: sql`${m.origen}`,
    cuentaId: uuid(m.cuentaId),
    ventaId: uuid(m.ventaId),
    compraId: uuid(m.compraId),
    cobroId: uuid(m.cobroId),
    devolucionId: uuid(m.devolucionId),
    chequeId: uuid(m.chequeId),
  };
  const { rows } = await ex.execute<{ id: string }>(sql`
    WITH fm AS (${movementsInsertSql(businessId, userId, values)}), fa AS (${movementsAuditSql(businessId, userId, 'fm')})
    SELECT id FROM fm`);
  return rows[0].id;
}
