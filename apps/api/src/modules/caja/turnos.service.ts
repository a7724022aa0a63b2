import {
  CAJA_MESSAGES,
  DEPOSITO_MESSAGES,
  centsToNumber,
  type Caja,
  type CajaValues,
  type CuadreLinea,
  type Impresora,
  type ImpresoraEtiquetas,
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
import { asAttempt, audit } from '../../lib/audit.js';
import { AppError, conflict, invalid, isUniqueViolation, notFound } from '../../lib/errors.js';
import { toCents } from '../products/common.js';
import { iso, person, type R } from './rows.js';
import {
  cajaRows,
  closeTurnoRow,
  findTurnoMovimiento,
  findTurnoRow,
  insertArqueos,
  insertCaja,
  sucursalOfBusiness,
  insertTurno,
  insertTurnoMovimiento,
  listTurnoRows,
  cajaImpresora,
  lockCaja,
  lockCajaToOpen,
  lockTurno,
  openTurnoOfCaja,
  openTurnoRows,
  turnoArqueoRows,
  turnoFigureRows,
  turnoFondo,
  turnoMovimientoRows,
  updateCajaRow,
} from './turnos.queries.js';
import { dayRange } from '../sales/sales.service.js';

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

/** A caja's name and printer (printing, issue 35); undefined when it is not the business's. */
export const impresoraDeCaja = (ex: Executor, businessId: string, cajaId: string) =>
  cajaImpresora(businessId, cajaId, ex);

export async function listCajas(ex: Executor, businessId: string): Promise<Caja[]> {
  const [cajas, open] = await Promise.all([cajaRows(businessId, ex), openTurnoRows(businessId, ex)]);
  const byCaja = new Map(open.map((r) => [r.caja_id as string, toResumen(r)]));
  return cajas.map((c) => ({
    id: c.id as string,
    nombre: c.nombre as string,
    activa: c.activa as boolean,
    punto_venta: (c.punto_venta as number | null) ?? null,
    impresora: (c.impresora as Impresora | null) ?? null,
    impresora_etiquetas: (c.impresora_etiquetas as ImpresoraEtiquetas | null) ?? null,
    sucursal_id: (c.sucursal_id as string | null) ?? null,
    // Whether it charges through Mercado Pago (decision 0052), for every member: no secret in it.
    mercadopago: c.mp_medio_pago_id
      ? { medio_pago_id: c.mp_medio_pago_id as string, qr: c.mp_qr === true, point: c.mp_point === true }
      : null,
    turno_abierto: byCaja.get(c.id as string) ?? null,
  }));
}

export async function createCaja(db: Db, businessId: string, userId: string, input: CajaValues): Promise<Caja> {
  const punto = input.punto_venta ?? null;
  try {
    return await db.transaction(async (tx) => {
      const impresora = input.impresora ?? null;
      const etiquetas = input.impresora_etiquetas ?? null;
      const sucursalId = input.sucursal_id ?? null;
      if (sucursalId && !(await sucursalOfBusiness(businessId, sucursalId, tx))) {
        throw invalid('sucursal_id', DEPOSITO_MESSAGES.sucursalNotInBusiness);
      }
      const c = await insertCaja(businessId, { nombre: input.nombre, punto, impresora, etiquetas, sucursalId }, tx);
      await audit(tx, {
        businessId,
        userId,
        entidad: 'caja',
        entidadId: c.id as string,
        accion: 'crear',
        despues: { nombre: input.nombre, punto_venta: punto, impresora, impresora_etiquetas: etiquetas },
      });
      return (await listCajas(tx, businessId)).find((x) => x.id === c.id) ?? { ...cajaOut(c), turno_abierto: null };
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
  impresora: (c.impresora as Impresora | null) ?? null,
  impresora_etiquetas: (c.impresora_etiquetas as ImpresoraEtiquetas | null) ?? null,
  sucursal_id: (c.sucursal_id as string | null) ?? null,
  mercadopago: null,
});

/** Renames a caja, sets the ARCA punto de venta it invoices from or its printer (admins). */
export async function updateCaja(
  db: Db,
  businessId: string,
  userId: string,
  cajaId: string,
  input: Partial<CajaValues>,
): Promise<Caja> {
  try {
    return await db.transaction(async (tx) => {
      const before = await lockCaja(businessId, cajaId, tx);
      if (!before) throw notFound(CAJA_MESSAGES.cajaNotFound);
      const nombre = input.nombre ?? (before.nombre as string);
      const punto =
        input.punto_venta === undefined ? ((before.punto_venta as number | null) ?? null) : input.punto_venta;
      const impresora =
        input.impresora === undefined ? ((before.impresora as Impresora | null) ?? null) : input.impresora;
      const etiquetas =
        input.impresora_etiquetas === undefined
          ? ((before.impresora_etiquetas as ImpresoraEtiquetas | null) ?? null)
          : input.impresora_etiquetas;
      const sucursalId =
        input.sucursal_id === undefined ? ((before.sucursal_id as string | null) ?? null) : input.sucursal_id;
      if (sucursalId && sucursalId !== before.sucursal_id && !(await sucursalOfBusiness(businessId, sucursalId, tx))) {
        throw invalid('sucursal_id', DEPOSITO_MESSAGES.sucursalNotInBusiness);
      }
      const c = await updateCajaRow(businessId, cajaId, { nombre, punto, impresora, etiquetas, sucursalId }, tx);
      await audit(tx, {
        businessId,
        userId,
        entidad: 'caja',
        entidadId: cajaId,
        accion: 'editar',
        antes: {
          nombre: before.nombre,
          punto_venta: before.punto_venta,
          impresora: before.impresora ?? null,
          impresora_etiquetas: before.impresora_etiquetas ?? null,
        },
        despues: {
          nombre,
          punto_venta: punto,
          impresora,
          impresora_etiquetas: etiquetas,
          ...(sucursalId !== (before.sucursal_id ?? null) ? { sucursal_id: sucursalId } : {}),
        },
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
    const caja = await lockCajaToOpen(businessId, cajaId, tx);
    if (!caja) throw notFound(CAJA_MESSAGES.cajaNotFound);
    if (!caja.activa) throw conflict('INVALID_STATE', CAJA_MESSAGES.cajaInactive);
    const open = await openTurnoOfCaja(businessId, cajaId, tx);
    if (open) throw conflict('TURNO_OPEN', CAJA_MESSAGES.turnoAlreadyOpen(caja.nombre as string));
    const t = await insertTurno(businessId, { cajaId, fondo, userId, now }, tx);
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
  const t = await lockTurno(businessId, id, mode, ex);
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
      const prev = await findTurnoMovimiento(businessId, clave, tx);
      return prev ? { id: prev.id as string, turno: await getTurno(tx, businessId, prev.turno_id as string) } : null;
    };
    const before = await replay();
    if (before) return before;
    const t = await lockOpenTurno(tx, businessId, turnoId, 'share');
    const r = await insertTurnoMovimiento(businessId, { turnoId, ...m, userId, clave }, tx);
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
  /** How each counted medio's esperado adds up (contado and diferencia come from the closing). */
  cuadre: Omit<CuadreLinea, 'contado' | 'diferencia'>[];
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
  const [medios, ventas, moves, cobrados, devueltos] = await turnoFigureRows(businessId, turnoId, ex);
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
  // Each counted medio's parts, in cents; cash medios are folded into the drawer's line.
  const parts = new Map(
    counted.map((m) => {
      const id = m.id as string;
      const own = { fondo: 0, ventas: sold.get(id)?.total ?? 0, cobros: paid.get(id) ?? 0, ingresos: 0, retiros: 0 };
      return [id, { ...own, devoluciones: refunded.get(id) ?? 0 }];
    }),
  );
  if (drawer) {
    const cash = { fondo, ventas: 0, cobros: 0, ingresos, retiros, devoluciones: 0 };
    for (const m of counted) {
      if (m.tipo !== 'efectivo') continue;
      const p = parts.get(m.id as string)!;
      cash.ventas += p.ventas;
      cash.cobros += p.cobros;
      cash.devoluciones += p.devoluciones;
      parts.set(m.id as string, { fondo: 0, ventas: 0, cobros: 0, ingresos: 0, retiros: 0, devoluciones: 0 });
    }
    parts.set(drawer as string, cash);
  }
  const esperado = new Map<string, number>();
  for (const [id, p] of parts) {
    esperado.set(id, p.fondo + p.ventas + p.cobros + p.ingresos - p.retiros - p.devoluciones);
  }
  return {
    cuadre: counted.map((m) => {
      const p = parts.get(m.id as string)!;
      return {
        medio_pago_id: m.id as string,
        nombre: m.nombre as string,
        tipo: m.tipo as MedioTipo,
        fondo: centsToNumber(p.fondo),
        ventas: centsToNumber(p.ventas),
        cobros: centsToNumber(p.cobros),
        ingresos: centsToNumber(p.ingresos),
        retiros: centsToNumber(p.retiros),
        devoluciones: centsToNumber(p.devoluciones),
        esperado: centsToNumber(esperado.get(m.id as string)!),
      };
    }),
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
  const r = await findTurnoRow(businessId, id, ex);
  if (!r) throw notFound(CAJA_MESSAGES.turnoNotFound);
  const [f, movs, arqueo] = await Promise.all([
    figures(ex, businessId, id, toCents(r.fondo_inicial as string)),
    turnoMovimientoRows(businessId, id, ex),
    turnoArqueoRows(businessId, id, ex),
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
  const contado = new Map(diferencias.map((d) => [d.medio_pago_id, d]));
  return {
    ...toResumen(r),
    observaciones: (r.observaciones as string | null) ?? null,
    esperado,
    arqueo_ciego: false,
    a_contar: f.cuadre.map((c) => ({ medio_pago_id: c.medio_pago_id, nombre: c.nombre, tipo: c.tipo })),
    cuadre: f.cuadre.map((c) => {
      const d = contado.get(c.medio_pago_id);
      return {
        ...c,
        esperado: d?.esperado ?? c.esperado,
        contado: d?.contado ?? null,
        diferencia: d?.diferencia ?? null,
      };
    }),
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

/**
 * A turno as a member counting blind sees it while it is open (arqueo a ciegas, issue 33): what
 * the caja should hold, the sales amounts and the differences are hidden; closed, everything shows.
 */
export function aCiegas<T extends TurnoResumen>(t: T): T {
  if (t.estado !== 'abierto') return t;
  const hidden: Partial<Turno> = { ventas_total: null, diferencia: null };
  if ('esperado' in t) {
    Object.assign(hidden, { esperado: null, cuadre: null, por_medio: [], diferencias: [], arqueo_ciego: true });
  }
  return { ...t, ...hidden };
}

export async function listTurnos(ex: Executor, businessId: string, timezone: string, q: TurnoListQuery) {
  const { from, to } = dayRange(timezone, q.desde, q.hasta);
  const { list, n } = await listTurnoRows(businessId, q, from, to, ex);
  return { rows: list.map(toResumen), total: n as number };
}

type Counted = z.output<typeof turnoCerrarInput>;

/** Who closes: full access closes any turno; cerrar_turno, the turnos one opened (lib/access.ts). */
export interface Closer {
  full: boolean;
  cerrarTurno: boolean;
}

/** 403 (and a refused attempt in the change log) when the closer may not close this turno. */
function assertMayClose(who: Closer, userId: string, t: Record<string, unknown>) {
  if (who.full || (who.cerrarTurno && t.abierto_por === userId)) return;
  const message = who.cerrarTurno ? CAJA_MESSAGES.closeOthersTurno : CAJA_MESSAGES.closeNotAllowed;
  throw asAttempt(new AppError(403, 'FORBIDDEN', message), {
    entidad: 'turno',
    entidadId: t.id as string,
    despues: { motivo: CAJA_MESSAGES.closeAttempt, numero: t.numero },
  });
}

/**
 * Closes a turno: for each medio the expected amount, the amount counted and the difference,
 * stored. Every medio with something expected must be counted; others count 0 when left out.
 */
export async function closeTurno(
  db: Db,
  businessId: string,
  userId: string,
  who: Closer,
  id: string,
  input: Counted,
  now: Date,
) {
  return db.transaction(async (tx) => {
    const t = await lockOpenTurno(tx, businessId, id, 'update');
    assertMayClose(who, userId, t);
    const fondo = await turnoFondo(businessId, id, tx);
    const f = await figures(tx, businessId, id, toCents(fondo));
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
      await insertArqueos(
        businessId,
        id,
        [...f.esperado].map(([medio, esperado]) => ({ medio, esperado, contado: counted.get(medio) ?? 0 })),
        tx,
      );
    }
    await closeTurnoRow(businessId, id, { userId, now, observaciones: input.observaciones ?? null }, tx);
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
