import { sql, type SQL } from 'drizzle-orm';
import {
  centsToDecimal,
  type Impresora,
  type ImpresoraEtiquetas,
  type TurnoListQuery,
  type TurnoMoveType,
} from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { rows } from './rows.js';

/*
 * The cajas' and turnos' statements (decision 0044): every function takes the business first.
 */

const userName = (col: SQL) =>
  sql`(SELECT nullif(concat_ws(' ', u.nombre, u.apellido), '') FROM users u WHERE u.id = ${col})`;

/**
 * A sale `s` of the turno counts in it unless it was voided with the money leaving that same
 * turno: voided in another turno (or with none open), it stays in its own, which closed as it was,
 * and the refund is the other's (decision 0009).
 */
const inTurno = (turno: SQL) => sql`(s.estado = 'completada' OR s.anulada_turno_id IS DISTINCT FROM ${turno})`;

/** A turno's row with its caja, people and sales figures (the columns toResumen reads). */
const resumenSelect = sql`
  SELECT t.id, t.numero, t.caja_id, c.nombre AS caja_nombre, t.estado, t.fondo_inicial, t.abierto_por,
         ${userName(sql`t.abierto_por`)} AS abierto_por_nombre, t.abierto_en, t.cerrado_por,
         ${userName(sql`t.cerrado_por`)} AS cerrado_por_nombre, t.cerrado_en, t.observaciones,
         (SELECT count(*) FROM sales s WHERE s.business_id = t.business_id AND s.turno_id = t.id AND ${inTurno(sql`t.id`)})::int AS ventas_cantidad,
         (SELECT coalesce(sum(s.total), 0) FROM sales s WHERE s.business_id = t.business_id AND s.turno_id = t.id AND ${inTurno(sql`t.id`)})::text AS ventas_total,
         (SELECT sum(a.diferencia) FROM turno_arqueos a WHERE a.business_id = t.business_id AND a.turno_id = t.id)::text AS diferencia
    FROM turnos t JOIN cajas c ON c.business_id = t.business_id AND c.id = t.caja_id`;

/* ---------------------------------------------------------------- cajas */

export function cajaRows(businessId: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT c.id, c.nombre, c.activa, c.punto_venta, c.impresora, c.impresora_etiquetas, c.sucursal_id,
               mc.medio_pago_id AS mp_medio_pago_id, mk.pos_id IS NOT NULL AS mp_qr,
               mk.terminal_id IS NOT NULL AS mp_point
          FROM cajas c
          LEFT JOIN mercadopago_config mc ON mc.business_id = c.business_id
          LEFT JOIN mercadopago_cajas mk ON mk.business_id = c.business_id AND mk.caja_id = c.id
         WHERE c.business_id = ${businessId}
         ORDER BY lower(c.nombre)`,
  );
}

/** The open turnos with their figures (the columns toResumen reads). */
export function openTurnoRows(businessId: string, ex: Executor) {
  return rows(ex, sql`${resumenSelect} WHERE t.business_id = ${businessId} AND t.estado = 'abierto'`);
}

export async function insertCaja(
  businessId: string,
  c: {
    nombre: string;
    punto: number | null;
    impresora: Impresora | null;
    etiquetas: ImpresoraEtiquetas | null;
    sucursalId: string | null;
  },
  ex: Executor,
) {
  const impresora = c.impresora === null ? null : JSON.stringify(c.impresora);
  const etiquetas = c.etiquetas === null ? null : JSON.stringify(c.etiquetas);
  const [row] = await rows(
    ex,
    sql`INSERT INTO cajas (business_id, nombre, punto_venta, impresora, impresora_etiquetas, sucursal_id)
        VALUES (${businessId}, ${c.nombre}, ${c.punto}, ${impresora}::jsonb, ${etiquetas}::jsonb, ${c.sucursalId}::uuid)
        RETURNING id, nombre, activa, punto_venta, impresora, impresora_etiquetas, sucursal_id`,
  );
  return row;
}

/** The caja locked for a change, or undefined. */
export async function lockCaja(businessId: string, cajaId: string, ex: Executor) {
  const [before] = await rows(
    ex,
    sql`SELECT id, nombre, activa, punto_venta, impresora, impresora_etiquetas, sucursal_id FROM cajas
         WHERE business_id = ${businessId} AND id = ${cajaId} FOR UPDATE`,
  );
  return before;
}

export async function updateCajaRow(
  businessId: string,
  cajaId: string,
  c: {
    nombre: string;
    punto: number | null;
    impresora: Impresora | null;
    etiquetas: ImpresoraEtiquetas | null;
    sucursalId: string | null;
  },
  ex: Executor,
) {
  const impresora = c.impresora === null ? null : JSON.stringify(c.impresora);
  const etiquetas = c.etiquetas === null ? null : JSON.stringify(c.etiquetas);
  const [row] = await rows(
    ex,
    sql`UPDATE cajas SET nombre = ${c.nombre}, punto_venta = ${c.punto}, impresora = ${impresora}::jsonb,
                         impresora_etiquetas = ${etiquetas}::jsonb, sucursal_id = ${c.sucursalId}::uuid
         WHERE business_id = ${businessId} AND id = ${cajaId}
         RETURNING id, nombre, activa, punto_venta, impresora, impresora_etiquetas, sucursal_id`,
  );
  return row;
}

/** Whether the sucursal is the business's (a caja's sucursal_id, decision 0059). */
export async function sucursalOfBusiness(businessId: string, sucursalId: string, ex: Executor) {
  return (
    (await rows(ex, sql`SELECT 1 FROM sucursales WHERE business_id = ${businessId} AND id = ${sucursalId}`)).length > 0
  );
}

/** A caja's printer and name (printing, issue 35); undefined when the caja is not the business's. */
export async function cajaImpresora(businessId: string, cajaId: string, ex: Executor) {
  const [c] = await rows(
    ex,
    sql`SELECT id, nombre, impresora, impresora_etiquetas FROM cajas WHERE business_id = ${businessId} AND id = ${cajaId}`,
  );
  return c as
    | { id: string; nombre: string; impresora: Impresora | null; impresora_etiquetas: ImpresoraEtiquetas | null }
    | undefined;
}

/* ---------------------------------------------------------------- turnos */

/** The caja a turno opens on, locked (one open turno per caja). */
export async function lockCajaToOpen(businessId: string, cajaId: string, ex: Executor) {
  const [caja] = await rows(
    ex,
    sql`SELECT id, nombre, activa FROM cajas WHERE business_id = ${businessId} AND id = ${cajaId} FOR UPDATE`,
  );
  return caja;
}

export async function openTurnoOfCaja(businessId: string, cajaId: string, ex: Executor) {
  const [open] = await rows(
    ex,
    sql`SELECT id FROM turnos WHERE business_id = ${businessId} AND caja_id = ${cajaId} AND estado = 'abierto'`,
  );
  return open;
}

/** Opens a turno with the business's next number (taken one at a time: cajas open turnos concurrently). */
export async function insertTurno(
  businessId: string,
  t: { cajaId: string; fondo: number; userId: string; now: Date },
  ex: Executor,
) {
  await ex.execute(sql`SELECT pg_advisory_xact_lock(hashtext('turnos:' || ${businessId}))`);
  const [row] = await rows(
    ex,
    sql`INSERT INTO turnos (business_id, caja_id, numero, fondo_inicial, abierto_por, abierto_en)
        SELECT ${businessId}, ${t.cajaId}, coalesce(max(numero), 0) + 1, ${centsToDecimal(t.fondo)}::numeric, ${t.userId},
               ${t.now.toISOString()}::timestamptz
          FROM turnos WHERE business_id = ${businessId}
        RETURNING id, numero`,
  );
  return row;
}

/** The turno locked (FOR SHARE: no closing meanwhile; FOR UPDATE to close it), or undefined. */
export async function lockTurno(businessId: string, id: string, mode: 'share' | 'update', ex: Executor) {
  const [t] = await rows(
    ex,
    sql`SELECT id, estado, numero, abierto_por FROM turnos WHERE business_id = ${businessId} AND id = ${id}
        ${mode === 'share' ? sql`FOR SHARE` : sql`FOR UPDATE`}`,
  );
  return t;
}

/** The movement an Idempotency-Key made, if any. */
export async function findTurnoMovimiento(businessId: string, clave: string, ex: Executor) {
  const [prev] = await rows(
    ex,
    sql`SELECT id, turno_id FROM turno_movimientos WHERE business_id = ${businessId} AND clave = ${clave}`,
  );
  return prev;
}

/** An ingreso or retiro; undefined when a request with the same key made it first. */
export async function insertTurnoMovimiento(
  businessId: string,
  m: { turnoId: string; tipo: TurnoMoveType; monto: number; motivo: string; userId: string; clave: string | null },
  ex: Executor,
) {
  const [r] = await rows(
    ex,
    sql`INSERT INTO turno_movimientos (business_id, turno_id, tipo, monto, motivo, usuario_id, clave)
        VALUES (${businessId}, ${m.turnoId}, ${m.tipo}, ${centsToDecimal(m.monto)}::numeric, ${m.motivo}, ${m.userId}, ${m.clave})
        ON CONFLICT (business_id, clave) WHERE clave IS NOT NULL DO NOTHING
        RETURNING id`,
  );
  return r;
}

/**
 * The turno's medios, its sales by medio, its ingresos and retiros, its cobros by medio and the
 * money given back in it (returns, and voids of sales of another turno or of none).
 */
export function turnoFigureRows(businessId: string, turnoId: string, ex: Executor) {
  return Promise.all([
    rows(
      ex,
      sql`SELECT id, nombre, tipo, activo FROM payment_methods WHERE business_id = ${businessId} ORDER BY orden, nombre`,
    ),
    rows(
      ex,
      sql`SELECT sp.medio_pago_id, count(DISTINCT s.id)::int AS n, sum(sp.total)::text AS total
            FROM sales s JOIN sale_payments sp ON sp.business_id = s.business_id AND sp.venta_id = s.id
           WHERE s.business_id = ${businessId} AND s.turno_id = ${turnoId} AND ${inTurno(sql`${turnoId}::uuid`)}
             AND sp.medio_pago_id IS NOT NULL
           GROUP BY 1`,
    ),
    rows(
      ex,
      sql`SELECT tipo, coalesce(sum(monto), 0)::text AS total FROM turno_movimientos
           WHERE business_id = ${businessId} AND turno_id = ${turnoId} GROUP BY 1`,
    ),
    rows(
      ex,
      sql`SELECT medio_pago_id, count(*)::int AS n, sum(monto)::text AS total FROM cobros
           WHERE business_id = ${businessId} AND turno_id = ${turnoId} GROUP BY 1`,
    ),
    // Money given back in the turno: returns, and voids of sales of another turno (or of none).
    rows(
      ex,
      sql`SELECT medio_pago_id, sum(monto)::text AS total FROM (
            SELECT d.medio_pago_id, d.monto FROM devoluciones d WHERE d.business_id = ${businessId} AND d.turno_id = ${turnoId}
            UNION ALL
            SELECT sp.medio_pago_id, sp.total
              FROM sales s JOIN sale_payments sp ON sp.business_id = s.business_id AND sp.venta_id = s.id
             WHERE s.business_id = ${businessId} AND s.anulada_turno_id = ${turnoId} AND s.estado = 'anulada'
               AND s.turno_id IS DISTINCT FROM ${turnoId} AND sp.medio_pago_id IS NOT NULL
          ) x GROUP BY 1`,
    ),
  ]);
}

export async function findTurnoRow(businessId: string, id: string, ex: Executor) {
  const [r] = await rows(ex, sql`${resumenSelect} WHERE t.business_id = ${businessId} AND t.id = ${id}`);
  return r;
}

/** The turno's ingresos and retiros, in order. */
export function turnoMovimientoRows(businessId: string, id: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT m.id, m.tipo, m.monto::text, m.motivo, m.usuario_id, ${userName(sql`m.usuario_id`)} AS usuario_nombre, m.creado_en
          FROM turno_movimientos m WHERE m.business_id = ${businessId} AND m.turno_id = ${id} ORDER BY m.creado_en, m.id`,
  );
}

/** What was counted at the closing, by the medios' order. */
export function turnoArqueoRows(businessId: string, id: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT a.medio_pago_id, a.esperado::text, a.contado::text, a.diferencia::text
          FROM turno_arqueos a JOIN payment_methods pm ON pm.business_id = a.business_id AND pm.id = a.medio_pago_id
         WHERE a.business_id = ${businessId} AND a.turno_id = ${id} ORDER BY pm.orden, pm.nombre`,
  );
}

/** A page of the turnos (newest first) opened in [from, to), and the count of them all. */
export async function listTurnoRows(
  businessId: string,
  q: TurnoListQuery,
  from: Date | null | undefined,
  to: Date | null | undefined,
  ex: Executor,
) {
  const where: SQL[] = [sql`t.business_id = ${businessId}`];
  if (q.caja_id) where.push(sql`t.caja_id = ${q.caja_id}`);
  if (q.estado) where.push(sql`t.estado = ${q.estado}`);
  if (from) where.push(sql`t.abierto_en >= ${from.toISOString()}::timestamptz`);
  if (to) where.push(sql`t.abierto_en < ${to.toISOString()}::timestamptz`);
  const cond = sql.join(where, sql` AND `);
  const [list, [{ n }]] = await Promise.all([
    rows(
      ex,
      sql`${resumenSelect} WHERE ${cond} ORDER BY t.abierto_en DESC, t.numero DESC LIMIT ${q.limit} OFFSET ${q.offset}`,
    ),
    rows(ex, sql`SELECT count(*)::int AS n FROM turnos t WHERE ${cond}`),
  ]);
  return { list, n };
}

export async function turnoFondo(businessId: string, id: string, ex: Executor) {
  const [row] = await rows(
    ex,
    sql`SELECT fondo_inicial::text FROM turnos WHERE business_id = ${businessId} AND id = ${id}`,
  );
  return row.fondo_inicial as string;
}

/** The closing's count by medio: expected and counted, in cents. */
export async function insertArqueos(
  businessId: string,
  turnoId: string,
  counts: { medio: string; esperado: number; contado: number }[],
  ex: Executor,
) {
  await ex.execute(sql`
    INSERT INTO turno_arqueos (business_id, turno_id, medio_pago_id, esperado, contado, diferencia)
    VALUES ${sql.join(
      counts.map(
        ({ medio, esperado, contado }) =>
          sql`(${businessId}, ${turnoId}, ${medio}, ${centsToDecimal(esperado)}::numeric, ${centsToDecimal(contado)}::numeric,
                    ${centsToDecimal(contado - esperado)}::numeric)`,
      ),
      sql`, `,
    )}`);
}

export async function closeTurnoRow(
  businessId: string,
  id: string,
  c: { userId: string; now: Date; observaciones: string | null },
  ex: Executor,
) {
  await ex.execute(sql`
    UPDATE turnos SET estado = 'cerrado', cerrado_por = ${c.userId}, cerrado_en = ${c.now.toISOString()}::timestamptz,
           observaciones = ${c.observaciones}
     WHERE business_id = ${businessId} AND id = ${id}`);
}

/* ---------------------------------------------------------------- the counter's turno */

/** The named turno, held FOR SHARE so it cannot close meanwhile. */
export async function shareTurno(businessId: string, turnoId: string, ex: Executor) {
  const [t] = await rows(
    ex,
    sql`SELECT id, estado FROM turnos WHERE business_id = ${businessId} AND id = ${turnoId} FOR SHARE`,
  );
  return t;
}

/** The open turnos, newest first, held FOR SHARE. */
export function shareOpenTurnos(businessId: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT id, abierto_por FROM turnos WHERE business_id = ${businessId} AND estado = 'abierto' ORDER BY abierto_en DESC FOR SHARE`,
  );
}
