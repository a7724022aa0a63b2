import { sql, type SQL } from 'drizzle-orm';
import {
  CAJA_MESSAGES,
  centsToDecimal,
  centsToNumber,
  type Caja,
  type CajaValues,
  type Diferencia,
  type MedioTipo,
  type MontoMedio,
  type Turno,
  type TurnoListQuery,
  type TurnoMedioDetalle,
  type TurnoMoveType,
  type TurnoResumen,
  type turnoCerrarInput,
} from '@mostrador/shared';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { AppError, conflict, invalid, isUniqueViolation, notFound } from '../../lib/errors.js';
import { toCents } from '../products/common.js';
import { iso, person, rows, type R } from './rows.js';
import { dayRange } from '../sales/sales.service.js';

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

function toResumen(r: R): TurnoResumen {
  return {
    id: r.id as string,
    numero: r.numero as number,
    caja_id: r.caja_id as string,
    caja_nombre: r.caja_nombre as string,
    estado: r.estado as TurnoResumen['estado'],
    fondo_inicial: Number(r.fondo_inicial),
    abierto_por: person(r.abierto_por, r.abierto_por_nombre),
    abierto_en: iso(r.abierto_en),
    cerrado_por: person(r.cerrado_por, r.cerrado_por_nombre),
    cerrado_en: r.cerrado_en ? iso(r.cerrado_en) : null,
    ventas_cantidad: r.ventas_cantidad as number,
    ventas_total: Number(r.ventas_total),
    diferencia: r.estado === 'cerrado' && r.diferencia !== null ? Number(r.diferencia) : null,
  };
}

/* ---------------------------------------------------------------- cajas */

export async function listCajas(ex: Executor, businessId: string): Promise<Caja[]> {
  const [cajas, open] = await Promise.all([
    rows(
      ex,
      sql`SELECT id, nombre, activa, punto_venta FROM cajas WHERE business_id = ${businessId} ORDER BY lower(nombre)`,
    ),
    rows(ex, sql`${resumenSelect} WHERE t.business_id = ${businessId} AND t.estado = 'abierto'`),
  ]);
  const byCaja = new Map(open.map((r) => [r.caja_id as string, toResumen(r)]));
  return cajas.map((c) => ({
    id: c.id as string,
    nombre: c.nombre as string,
    activa: c.activa as boolean,
    punto_venta: (c.punto_venta as number | null) ?? null,
    turno_abierto: byCaja.get(c.id as string) ?? null,
  }));
}

export async function createCaja(db: Db, businessId: string, userId: string, input: CajaValues): Promise<Caja> {
  const punto = input.punto_venta ?? null;
  try {
    return await db.transaction(async (tx) => {
      const [c] = await rows(
        tx,
        sql`INSERT INTO cajas (business_id, nombre, punto_venta) VALUES (${businessId}, ${input.nombre}, ${punto})
            RETURNING id, nombre, activa, punto_venta`,
      );
      await audit(tx, {
        businessId,
        userId,
        entidad: 'caja',
        entidadId: c.id as string,
        accion: 'crear',
        despues: { nombre: input.nombre, punto_venta: punto },
      });
      return { ...cajaOut(c), turno_abierto: null };
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError(409, 'DUPLICATE', CAJA_MESSAGES.cajaNameTaken, { field: 'nombre' });
    throw e;
  }
}

const cajaOut = (c: Record<string, unknown>) => ({
  id: c.id as string,
  nombre: c.nombre as string,
  activa: c.activa as boolean,
  punto_venta: (c.punto_venta as number | null) ?? null,
});

/** Renames a caja or sets the ARCA punto de venta it invoices from. */
export async function updateCaja(
  db: Db,
  businessId: string,
  userId: string,
  cajaId: string,
  input: Partial<CajaValues>,
): Promise<Caja> {
  try {
    return await db.transaction(async (tx) => {
      const [before] = await rows(
        tx,
        sql`SELECT id, nombre, activa, punto_venta FROM cajas
             WHERE business_id = ${businessId} AND id = ${cajaId} FOR UPDATE`,
      );
      if (!before) throw notFound(CAJA_MESSAGES.cajaNotFound);
      const nombre = input.nombre ?? (before.nombre as string);
      const punto =
        input.punto_venta === undefined ? ((before.punto_venta as number | null) ?? null) : input.punto_venta;
      const [c] = await rows(
        tx,
        sql`UPDATE cajas SET nombre = ${nombre}, punto_venta = ${punto}
             WHERE business_id = ${businessId} AND id = ${cajaId} RETURNING id, nombre, activa, punto_venta`,
      );
      await audit(tx, {
        businessId,
        userId,
        entidad: 'caja',
        entidadId: cajaId,
        accion: 'editar',
        antes: { nombre: before.nombre, punto_venta: before.punto_venta },
        despues: { nombre, punto_venta: punto },
      });
      return (await listCajas(tx, businessId)).find((x) => x.id === c.id) ?? { ...cajaOut(c), turno_abierto: null };
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError(409, 'DUPLICATE', CAJA_MESSAGES.cajaNameTaken, { field: 'nombre' });
    throw e;
  }
}

/* ---------------------------------------------------------------- turnos */

/** Opens a turno on a caja: one open turno per caja (409 otherwise); numbered per business. */
export async function openTurno(db: Db, businessId: string, userId: string, cajaId: string, fondo: number, now: Date) {
  return db.transaction(async (tx) => {
    const [caja] = await rows(
      tx,
      sql`SELECT id, nombre, activa FROM cajas WHERE business_id = ${businessId} AND id = ${cajaId} FOR UPDATE`,
    );
    if (!caja) throw notFound(CAJA_MESSAGES.cajaNotFound);
    if (!caja.activa) throw conflict('INVALID_STATE', CAJA_MESSAGES.cajaInactive);
    const [open] = await rows(
      tx,
      sql`SELECT id FROM turnos WHERE business_id = ${businessId} AND caja_id = ${cajaId} AND estado = 'abierto'`,
    );
    if (open) throw conflict('TURNO_OPEN', CAJA_MESSAGES.turnoAlreadyOpen(caja.nombre as string));
    // Numbers per business, taken one at a time (cajas of a business open turnos concurrently).
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('turnos:' || ${businessId}))`);
    const [t] = await rows(
      tx,
      sql`INSERT INTO turnos (business_id, caja_id, numero, fondo_inicial, abierto_por, abierto_en)
          SELECT ${businessId}, ${cajaId}, coalesce(max(numero), 0) + 1, ${centsToDecimal(fondo)}::numeric, ${userId},
                 ${now.toISOString()}::timestamptz
            FROM turnos WHERE business_id = ${businessId}
          RETURNING id, numero`,
    );
    await audit(tx, {
      businessId,
      userId,
      entidad: 'turno',
      entidadId: t.id as string,
      accion: 'abrir',
      despues: { numero: t.numero, caja: caja.nombre, fondo_inicial: centsToNumber(fondo) },
    });
    return getTurno(tx, businessId, t.id as string);
  });
}

/** The turno locked (FOR SHARE: no closing meanwhile; FOR UPDATE to close it), 409 when closed. */
async function lockOpenTurno(ex: Executor, businessId: string, id: string, mode: 'share' | 'update') {
  const [t] = await rows(
    ex,
    sql`SELECT id, estado, numero FROM turnos WHERE business_id = ${businessId} AND id = ${id}
        ${mode === 'share' ? sql`FOR SHARE` : sql`FOR UPDATE`}`,
  );
  if (!t) throw notFound(CAJA_MESSAGES.turnoNotFound);
  if (t.estado !== 'abierto') throw conflict('TURNO_CLOSED', CAJA_MESSAGES.turnoClosed);
  return t;
}

export async function addMovimiento(
  db: Db,
  businessId: string,
  userId: string,
  turnoId: string,
  m: { tipo: TurnoMoveType; monto: number; motivo: string },
  clave: string | null = null,
) {
  return db.transaction(async (tx) => {
    // A replay of the same Idempotency-Key (the offline POS's queue) answers the movement it made.
    const replay = async () => {
      if (!clave) return null;
      const [prev] = await rows(
        tx,
        sql`SELECT id, turno_id FROM turno_movimientos WHERE business_id = ${businessId} AND clave = ${clave}`,
      );
      return prev ? { id: prev.id as string, turno: await getTurno(tx, businessId, prev.turno_id as string) } : null;
    };
    const before = await replay();
    if (before) return before;
    const t = await lockOpenTurno(tx, businessId, turnoId, 'share');
    const [r] = await rows(
      tx,
      sql`INSERT INTO turno_movimientos (business_id, turno_id, tipo, monto, motivo, usuario_id, clave)
          VALUES (${businessId}, ${turnoId}, ${m.tipo}, ${centsToDecimal(m.monto)}::numeric, ${m.motivo}, ${userId}, ${clave})
          ON CONFLICT (business_id, clave) WHERE clave IS NOT NULL DO NOTHING
          RETURNING id`,
    );
    // A concurrent request with the same key committed first (the insert waited for it).
    if (!r) return (await replay())!;
    await audit(tx, {
      businessId,
      userId,
      entidad: 'turno',
      entidadId: turnoId,
      accion: m.tipo,
      despues: { numero: t.numero, tipo: m.tipo, monto: centsToNumber(m.monto), motivo: m.motivo },
    });
    return { id: r.id as string, turno: await getTurno(tx, businessId, turnoId) };
  });
}

interface Figures {
  porMedio: TurnoMedioDetalle[];
  esperado: Map<string, number>;
  ingresos: number;
  retiros: number;
  /** Money given back from the caja (returns and voids by a medio that is counted). */
  devoluciones: number;
}

/**
 * What should be in the caja for each medio: what its sales brought (completed sales of the
 * turno; a voided one is reversed) and its cobros, less what went back in it (returns, voids of
 * other turnos' sales) and, for cash, the float plus ingresos minus retiros. Every
 * cash medio counts into one drawer: the first cash medio of the business holds the whole cash.
 */
async function figures(ex: Executor, businessId: string, turnoId: string, fondo: number): Promise<Figures> {
  const [medios, ventas, moves, cobrados, devueltos] = await Promise.all([
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
  const refunded = new Map(devueltos.map((v) => [v.medio_pago_id as string, toCents(v.total as string)]));
  const paid = new Map(cobrados.map((v) => [v.medio_pago_id as string, toCents(v.total as string)]));
  const sold = new Map(
    ventas.map((v) => [v.medio_pago_id as string, { n: v.n as number, total: toCents(v.total as string) }]),
  );
  const move = (tipo: string) => toCents((moves.find((m) => m.tipo === tipo)?.total as string) ?? '0');
  const ingresos = move('ingreso');
  const retiros = move('retiro');
  const shown = medios.filter(
    (m) => m.activo || sold.has(m.id as string) || paid.has(m.id as string) || refunded.has(m.id as string),
  );
  // Sales on account bring no money into the caja: nothing to count for that medio.
  const counted = shown.filter((m) => m.tipo !== 'cuenta_corriente');
  const drawer = (shown.find((m) => m.tipo === 'efectivo' && m.activo) ?? shown.find((m) => m.tipo === 'efectivo'))?.id;
  const esperado = new Map<string, number>();
  for (const m of counted) {
    const id = m.id as string;
    esperado.set(id, (sold.get(id)?.total ?? 0) + (paid.get(id) ?? 0) - (refunded.get(id) ?? 0));
  }
  if (drawer) {
    let cash = fondo + ingresos - retiros;
    for (const m of counted) {
      if (m.tipo !== 'efectivo') continue;
      cash += esperado.get(m.id as string)!;
      esperado.set(m.id as string, 0);
    }
    esperado.set(drawer as string, cash);
  }
  return {
    porMedio: shown.map((m) => ({
      medio_pago_id: m.id as string,
      nombre: m.nombre as string,
      tipo: m.tipo as MedioTipo,
      ventas: centsToNumber(sold.get(m.id as string)?.total ?? 0),
      ventas_cantidad: sold.get(m.id as string)?.n ?? 0,
      cobros: centsToNumber(paid.get(m.id as string) ?? 0),
      devoluciones: centsToNumber(refunded.get(m.id as string) ?? 0),
    })),
    esperado,
    ingresos,
    retiros,
    devoluciones: counted.reduce((t, m) => t + (refunded.get(m.id as string) ?? 0), 0),
  };
}

export async function getTurno(ex: Executor, businessId: string, id: string): Promise<Turno> {
  const [r] = await rows(ex, sql`${resumenSelect} WHERE t.business_id = ${businessId} AND t.id = ${id}`);
  if (!r) throw notFound(CAJA_MESSAGES.turnoNotFound);
  const [f, movs, arqueo] = await Promise.all([
    figures(ex, businessId, id, toCents(r.fondo_inicial as string)),
    rows(
      ex,
      sql`SELECT m.id, m.tipo, m.monto::text, m.motivo, m.usuario_id, ${userName(sql`m.usuario_id`)} AS usuario_nombre, m.creado_en
            FROM turno_movimientos m WHERE m.business_id = ${businessId} AND m.turno_id = ${id} ORDER BY m.creado_en, m.id`,
    ),
    rows(
      ex,
      sql`SELECT a.medio_pago_id, a.esperado::text, a.contado::text, a.diferencia::text
            FROM turno_arqueos a JOIN payment_methods pm ON pm.business_id = a.business_id AND pm.id = a.medio_pago_id
           WHERE a.business_id = ${businessId} AND a.turno_id = ${id} ORDER BY pm.orden, pm.nombre`,
    ),
  ]);
  const closed = r.estado === 'cerrado';
  const diferencias: Diferencia[] = arqueo.map((a) => ({
    medio_pago_id: a.medio_pago_id as string,
    esperado: Number(a.esperado),
    contado: Number(a.contado),
    diferencia: Number(a.diferencia),
  }));
  // A closed turno shows what was expected when it closed.
  const esperado: MontoMedio[] = closed
    ? diferencias.map((d) => ({ medio_pago_id: d.medio_pago_id, monto: d.esperado }))
    : [...f.esperado].map(([medio_pago_id, c]) => ({ medio_pago_id, monto: centsToNumber(c) }));
  return {
    ...toResumen(r),
    observaciones: (r.observaciones as string | null) ?? null,
    esperado,
    por_medio: f.porMedio,
    ingresos: centsToNumber(f.ingresos),
    retiros: centsToNumber(f.retiros),
    devoluciones: centsToNumber(f.devoluciones),
    movimientos: movs.map((m) => ({
      id: m.id as string,
      tipo: m.tipo as TurnoMoveType,
      monto: Number(m.monto),
      motivo: m.motivo as string,
      usuario: person(m.usuario_id, m.usuario_nombre),
      creado_en: iso(m.creado_en),
    })),
    diferencias,
  };
}

export async function listTurnos(ex: Executor, businessId: string, timezone: string, q: TurnoListQuery) {
  const where: SQL[] = [sql`t.business_id = ${businessId}`];
  if (q.caja_id) where.push(sql`t.caja_id = ${q.caja_id}`);
  if (q.estado) where.push(sql`t.estado = ${q.estado}`);
  const { from, to } = dayRange(timezone, q.desde, q.hasta);
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
  return { rows: list.map(toResumen), total: n as number };
}

type Counted = z.output<typeof turnoCerrarInput>;

/**
 * Closes a turno: for each medio the expected amount, the amount counted and the difference,
 * stored. Every medio with something expected must be counted; others count 0 when left out.
 */
export async function closeTurno(db: Db, businessId: string, userId: string, id: string, input: Counted, now: Date) {
  return db.transaction(async (tx) => {
    const t = await lockOpenTurno(tx, businessId, id, 'update');
    const [row] = await rows(
      tx,
      sql`SELECT fondo_inicial::text FROM turnos WHERE business_id = ${businessId} AND id = ${id}`,
    );
    const f = await figures(tx, businessId, id, toCents(row.fondo_inicial as string));
    const counted = new Map<string, number>();
    input.contado.forEach((c, i) => {
      if (!f.esperado.has(c.medio_pago_id))
        throw invalid(`contado.${i}.medio_pago_id`, CAJA_MESSAGES.countUnknownMedio);
      counted.set(c.medio_pago_id, c.monto);
    });
    for (const m of f.porMedio) {
      if (!counted.has(m.medio_pago_id) && (f.esperado.get(m.medio_pago_id) ?? 0) !== 0) {
        throw invalid('contado', CAJA_MESSAGES.countMissing(m.nombre));
      }
    }
    const diferencias: Diferencia[] = [...f.esperado].map(([medio, esperado]) => {
      const contado = counted.get(medio) ?? 0;
      return {
        medio_pago_id: medio,
        esperado: centsToNumber(esperado),
        contado: centsToNumber(contado),
        diferencia: centsToNumber(contado - esperado),
      };
    });
    if (diferencias.length) {
      await tx.execute(sql`
        INSERT INTO turno_arqueos (business_id, turno_id, medio_pago_id, esperado, contado, diferencia)
        VALUES ${sql.join(
          [...f.esperado].map(([medio, esperado]) => {
            const contado = counted.get(medio) ?? 0;
            return sql`(${businessId}, ${id}, ${medio}, ${centsToDecimal(esperado)}::numeric, ${centsToDecimal(contado)}::numeric,
                        ${centsToDecimal(contado - esperado)}::numeric)`;
          }),
          sql`, `,
        )}`);
    }
    await tx.execute(sql`
      UPDATE turnos SET estado = 'cerrado', cerrado_por = ${userId}, cerrado_en = ${now.toISOString()}::timestamptz,
             observaciones = ${input.observaciones ?? null}
       WHERE business_id = ${businessId} AND id = ${id}`);
    await audit(tx, {
      businessId,
      userId,
      entidad: 'turno',
      entidadId: id,
      accion: 'cerrar',
      antes: { estado: 'abierto' },
      despues: { estado: 'cerrado', numero: t.numero, diferencias },
    });
    return { ...(await getTurno(tx, businessId, id)), diferencias };
  });
}
