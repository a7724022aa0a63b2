import {
  CHEQUE_ACCION_ESTADO,
  CHEQUE_ESTADO_LABELS,
  CHEQUE_MESSAGES,
  CHEQUE_TRANSICIONES,
  centsToDecimal,
  centsToNumber,
  chequeAcciones,
  formatPesos,
  type Cheque,
  type ChequeAccion,
  type ChequeDetalle,
  type ChequeEstado,
  type ChequeList,
  type ChequeListQuery,
  type ChequeRecibido,
  type ChequeTipo,
  type ChequeValues,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { daysBetween, todayIn } from '../../lib/dates.js';
import { conflict, invalid, notFound } from '../../lib/errors.js';
import { requireKnownIds } from '../../lib/known-ids.js';
import { payAccount } from '../finance/accounts.queries.js';
import { postMovement } from '../posting/finance.js';
import { toCents } from '../products/common.js';
import { iso, person, type R } from '../caja/rows.js';
import {
  chequeCategories,
  chequePage,
  chequeRow,
  eventoRows,
  insertCheque,
  insertChequePago,
  insertEvento,
  lockCheque,
  lockSaleCheques,
  lockSupplierPayables,
  setEstado,
  supplierName,
  unpayChequePayables,
  voidChequeMovements,
} from './cheques.queries.js';

/*
 * Cheques (issue 37, decision 0057). A cheque is not money until the bank pays it: a third-party
 * cheque's income is recorded when it is credited (cobrado) or when it pays a supplier
 * (endosado); an own cheque's expense when it is debited. Every change of state is a row of
 * cheque_eventos and an audit row, in the transaction of the change.
 */

export interface ChequeContext {
  businessId: string;
  userId: string;
  timezone: string;
  now: Date;
}

const money = (v: unknown) => centsToNumber(toCents(v as string));
const orNull = (v: unknown) => (v === null || v === undefined ? null : money(v));

function toCheque(r: R, today: string): Cheque {
  const c = { tipo: r.tipo as ChequeTipo, estado: r.estado as ChequeEstado };
  return {
    id: r.id as string,
    tipo: c.tipo,
    electronico: r.electronico as boolean,
    banco: r.banco as string,
    numero: r.numero as string,
    fecha_emision: (r.fecha_emision as string | null) ?? null,
    fecha_pago: r.fecha_pago as string,
    monto: money(r.monto),
    librador_nombre: (r.librador_nombre as string | null) ?? null,
    librador_cuit: (r.librador_cuit as string | null) ?? null,
    estado: c.estado,
    cliente: person(r.cliente_id, r.cliente_nombre),
    proveedor: person(r.proveedor_id, r.proveedor_nombre),
    venta: r.venta_id ? { id: r.venta_id as string, numero: r.venta_numero as number } : null,
    cobro: r.cobro_id ? { id: r.cobro_id as string, numero: r.cobro_numero as number } : null,
    observaciones: (r.observaciones as string | null) ?? null,
    dias: daysBetween(today, r.fecha_pago as string),
    acciones: chequeAcciones(c),
    creado_en: iso(r.creado_en),
  };
}

export async function listCheques(
  ex: Executor,
  businessId: string,
  q: ChequeListQuery,
  today: string,
): Promise<ChequeList> {
  const [page, [sum]] = await chequePage(businessId, q, ex);
  return { cheques: page.map((r) => toCheque(r, today)), total: sum.n as number, monto_total: money(sum.monto) };
}

export async function getCheque(ex: Executor, businessId: string, id: string, today: string): Promise<ChequeDetalle> {
  const [r, eventos] = await Promise.all([chequeRow(businessId, id, ex), eventoRows(businessId, id, ex)]);
  if (!r) throw notFound(CHEQUE_MESSAGES.notFound);
  return {
    ...toCheque(r, today),
    eventos: eventos.map((e) => ({
      estado: e.estado as ChequeEstado,
      anterior: (e.anterior as ChequeEstado | null) ?? null,
      fecha: e.fecha as string,
      creado_en: iso(e.creado_en),
      usuario: person(e.usuario_id, e.usuario_nombre),
      proveedor: person(e.proveedor_id, e.proveedor_nombre),
      motivo: (e.motivo as string | null) ?? null,
      gastos_bancarios: orNull(e.gastos_bancarios),
      deuda: orNull(e.deuda),
    })),
  };
}

/**
 * A third-party cheque received in a cobro (a sale's go in its one statement: record-sale's
 * receivedChequesCtes): into the cartera, the customer's.
 */
export async function receiveCheque(
  tx: Executor,
  c: ChequeContext,
  r: { datos: ChequeRecibido; montoCents: number; clienteId: string; cobroId: string },
): Promise<string> {
  const id = await insertCheque(
    c.businessId,
    c.userId,
    {
      tipo: 'tercero',
      ...datosOf(r.datos),
      montoCents: r.montoCents,
      estado: 'en_cartera',
      clienteId: r.clienteId,
      proveedorId: null,
      cobroId: r.cobroId,
      observaciones: null,
    },
    tx,
  );
  const fecha = todayIn(c.timezone, c.now);
  await insertEvento(c.businessId, c.userId, { chequeId: id, estado: 'en_cartera', anterior: null, fecha }, tx);
  return id;
}

const datosOf = (d: ChequeRecibido | ChequeValues) => ({
  electronico: d.electronico,
  banco: d.banco,
  numero: d.numero,
  fechaEmision: d.fecha_emision ?? null,
  fechaPago: d.fecha_pago,
  libradorNombre: d.librador_nombre ?? null,
  libradorCuit: d.librador_cuit ?? null,
});

const nombreCheque = (ch: R) => `cheque N° ${ch.numero as string} (${ch.banco as string})`;

/**
 * The supplier's pending payables paid with the cheque, oldest first: each payment is a row of
 * cheque_pagos, and, when `movements` (an endorsed third-party cheque), an expense paid with the
 * cheque. The cheque may not exceed what is owed (409).
 */
async function payPayables(
  tx: Executor,
  c: ChequeContext,
  ch: R,
  proveedor: { id: string; nombre: string },
  fecha: string,
  movements: { compras: string | null } | null,
) {
  const { businessId, userId } = c;
  const payables = await lockSupplierPayables(businessId, proveedor.id, tx);
  const owed = payables.reduce((s, p) => s + toCents(p.falta as string), 0);
  const monto = toCents(ch.monto as string);
  if (owed <= 0) throw conflict('OVER_BALANCE', CHEQUE_MESSAGES.sinDeuda(proveedor.nombre));
  if (monto > owed) throw conflict('OVER_BALANCE', CHEQUE_MESSAGES.superaDeuda(formatPesos(owed)));
  let left = monto;
  for (const p of payables) {
    if (left <= 0) break;
    const falta = toCents(p.falta as string);
    const part = Math.min(left, falta);
    left -= part;
    const cuentaId = p.id as string;
    await payAccount(businessId, cuentaId, part, part === falta ? { fechaPago: fecha, pagadoEn: c.now } : null, tx);
    await insertChequePago(businessId, { chequeId: ch.id as string, cuentaId, montoCents: part, fecha }, tx);
    if (movements) {
      await postMovement(tx, businessId, userId, {
        tipo: 'egreso',
        categoriaId: movements.compras,
        montoCents: part,
        fecha,
        metodoPago: 'cheque',
        descripcion: `Pago con ${nombreCheque(ch)}: ${p.descripcion as string}`,
        observaciones: null,
        clienteId: null,
        origen: 'cheque',
        cuentaId,
        chequeId: ch.id as string,
      });
    }
  }
}

async function knownSupplier(tx: Executor, businessId: string, id: string) {
  const nombre = await supplierName(businessId, id, tx);
  if (!nombre) throw invalid('proveedor_id', 'Proveedor no encontrado en este negocio.');
  return { id, nombre };
}

/** POST …/cheques: a third party's into the cartera, or one of ours given (to a supplier, paying what is owed). */
export async function createCheque(db: Db, c: ChequeContext, input: ChequeValues): Promise<ChequeDetalle> {
  const { businessId, userId } = c;
  const today = todayIn(c.timezone, c.now);
  const id = await db.transaction(async (tx) => {
    await requireKnownIds(tx, businessId, [{ field: 'cliente_id', kind: 'cliente', id: input.cliente_id }]);
    const proveedor = input.proveedor_id ? await knownSupplier(tx, businessId, input.proveedor_id) : null;
    const estado: ChequeEstado = input.tipo === 'tercero' ? 'en_cartera' : 'entregado';
    const chequeId = await insertCheque(
      businessId,
      userId,
      {
        tipo: input.tipo,
        ...datosOf(input),
        montoCents: input.monto,
        estado,
        clienteId: input.cliente_id ?? null,
        proveedorId: proveedor?.id ?? null,
        observaciones: input.observaciones ?? null,
      },
      tx,
    );
    const ch = { id: chequeId, monto: centsToDecimal(input.monto), numero: input.numero, banco: input.banco };
    // An own cheque given to a supplier pays what is owed now; its expense comes when it is debited.
    if (proveedor) await payPayables(tx, c, ch, proveedor, today, null);
    await insertEvento(
      businessId,
      userId,
      { chequeId, estado, anterior: null, fecha: today, proveedorId: proveedor?.id ?? null },
      tx,
    );
    await audit(tx, {
      businessId,
      userId,
      entidad: 'cheque',
      entidadId: chequeId,
      accion: 'crear',
      despues: {
        tipo: input.tipo,
        banco: input.banco,
        numero: input.numero,
        monto: centsToNumber(input.monto),
        fecha_pago: input.fecha_pago,
        estado,
        cliente_id: input.cliente_id ?? null,
        proveedor_id: proveedor?.id ?? null,
      },
    });
    return chequeId;
  });
  return getCheque(db, businessId, id, today);
}

export interface AccionInput {
  fecha?: string | null;
  proveedor_id?: string;
  gastos_bancarios?: number;
  motivo?: string | null;
}

/**
 * A change of state (depositar, endosar, cobrar, rechazar, anular). The cheque is locked first,
 * so of two concurrent changes the second sees the first's state and is refused (409).
 */
export async function changeCheque(
  db: Db,
  c: ChequeContext,
  id: string,
  accion: ChequeAccion,
  input: AccionInput,
): Promise<ChequeDetalle> {
  const { businessId, userId } = c;
  const today = todayIn(c.timezone, c.now);
  const fecha = input.fecha ?? today;
  await db.transaction(async (tx) => {
    const ch = await lockCheque(businessId, id, tx);
    if (!ch) throw notFound(CHEQUE_MESSAGES.notFound);
    const tipo = ch.tipo as ChequeTipo;
    const desde = ch.estado as ChequeEstado;
    if (!CHEQUE_TRANSICIONES[tipo][accion]?.includes(desde)) {
      throw conflict('INVALID_STATE', CHEQUE_MESSAGES.refused(accion, desde));
    }
    if (accion === 'anular' && tipo === 'tercero' && (ch.venta_id || ch.cobro_id)) {
      throw conflict('INVALID_STATE', CHEQUE_MESSAGES.anularOrigen);
    }
    const estado = CHEQUE_ACCION_ESTADO[accion];
    const monto = toCents(ch.monto as string);
    const cats = await chequeCategories(businessId, tx);
    const clienteId = (ch.cliente_id as string | null) ?? null;
    const evento: Parameters<typeof insertEvento>[2] = { chequeId: id, estado, anterior: desde, fecha };
    const despues: Record<string, unknown> = { estado, fecha };
    let proveedorId: string | undefined;

    if (accion === 'endosar') {
      const proveedor = await knownSupplier(tx, businessId, input.proveedor_id!);
      proveedorId = proveedor.id;
      await payPayables(tx, c, ch, proveedor, fecha, { compras: cats.compras });
      // The customer's payment becomes income now: it paid the supplier.
      await postMovement(tx, businessId, userId, {
        tipo: 'ingreso',
        categoriaId: cats.ventas,
        montoCents: monto,
        fecha,
        metodoPago: 'cheque',
        descripcion: `${capital(nombreCheque(ch))} endosado a ${proveedor.nombre}`,
        observaciones: null,
        clienteId,
        origen: 'cheque',
        chequeId: id,
      });
      evento.proveedorId = proveedor.id;
      despues.proveedor_id = proveedor.id;
    } else if (accion === 'cobrar') {
      const propio = tipo === 'propio';
      await postMovement(tx, businessId, userId, {
        tipo: propio ? 'egreso' : 'ingreso',
        categoriaId: propio ? cats.compras : cats.ventas,
        montoCents: monto,
        fecha,
        metodoPago: 'transferencia',
        descripcion: propio
          ? `Cheque propio N° ${ch.numero as string} debitado (${ch.banco as string})`
          : `${capital(nombreCheque(ch))} acreditado`,
        observaciones: null,
        clienteId,
        origen: 'cheque',
        chequeId: id,
      });
    } else if (accion === 'rechazar') {
      const gastos = input.gastos_bancarios ?? 0;
      if (desde === 'endosado') {
        // The supplier gives it back: what it paid is owed again, and neither the income nor the
        // payments it made happened.
        await unpayChequePayables(businessId, id, tx);
        await voidChequeMovements(businessId, id, tx);
      }
      if (gastos > 0) {
        await postMovement(tx, businessId, userId, {
          tipo: 'egreso',
          categoriaId: null,
          montoCents: gastos,
          fecha,
          metodoPago: 'transferencia',
          descripcion: `Gastos por ${nombreCheque(ch)} rechazado`,
          observaciones: input.motivo ?? null,
          clienteId,
          origen: 'cheque',
          chequeId: id,
        });
      }
      evento.gastosCents = gastos;
      evento.motivo = input.motivo ?? null;
      // The customer owes it again, with the bank's fees.
      if (clienteId) {
        evento.clienteId = clienteId;
        evento.deudaCents = monto + gastos;
        despues.deuda = centsToNumber(monto + gastos);
      }
      despues.gastos_bancarios = centsToNumber(gastos);
      despues.motivo = input.motivo ?? null;
    } else if (accion === 'anular') {
      if (tipo === 'propio') await unpayChequePayables(businessId, id, tx);
      evento.motivo = input.motivo ?? null;
      despues.motivo = input.motivo ?? null;
    }

    if (!(await setEstado(businessId, id, desde, estado, proveedorId, tx))) {
      throw conflict('INVALID_STATE', CHEQUE_MESSAGES.refused(accion, estado));
    }
    await insertEvento(businessId, userId, evento, tx);
    await audit(tx, {
      businessId,
      userId,
      entidad: 'cheque',
      entidadId: id,
      accion,
      antes: { estado: desde },
      despues,
    });
  });
  return getCheque(db, businessId, id, today);
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * A sale voided gives its cheques back to the customer (anulado): only while they are in the
 * cartera; one deposited or endorsed stops the void (409).
 */
export async function voidSaleCheques(tx: Executor, c: ChequeContext, ventaId: string, motivo: string | null) {
  const list = await lockSaleCheques(c.businessId, ventaId, tx);
  const out = list.find((ch) => ch.estado !== 'en_cartera');
  if (out) throw conflict('INVALID_STATE', CHEQUE_MESSAGES.ventaConCheque(out.numero as string));
  const fecha = todayIn(c.timezone, c.now);
  for (const ch of list) {
    const id = ch.id as string;
    await setEstado(c.businessId, id, 'en_cartera', 'anulado', undefined, tx);
    await insertEvento(
      c.businessId,
      c.userId,
      { chequeId: id, estado: 'anulado', anterior: 'en_cartera', fecha, motivo },
      tx,
    );
  }
}

/**
 * A return that gives the customer back the cheque they paid with (decision 0057): a cheque of
 * that sale, still in the cartera, for exactly what the return gives back. It becomes anulado
 * with an event saying so; no money moves (the cheque never was income). 422 when it is not the
 * sale's or the amounts differ, 409 when it already left the cartera.
 */
export async function devolverChequeDeVenta(
  tx: Executor,
  c: ChequeContext,
  d: { chequeId: string; ventaId: string; montoCents: number; devolucionNumero: number; clienteId: string | null },
) {
  const ch = await lockCheque(c.businessId, d.chequeId, tx);
  if (!ch || ch.venta_id !== d.ventaId) throw invalid('cheque_id', CHEQUE_MESSAGES.noEsDeLaVenta);
  const estado = ch.estado as ChequeEstado;
  if (estado !== 'en_cartera') {
    throw conflict(
      'INVALID_STATE',
      CHEQUE_MESSAGES.noDevolvible(ch.numero as string, CHEQUE_ESTADO_LABELS[estado].toLowerCase()),
    );
  }
  const monto = toCents(ch.monto as string);
  if (monto !== d.montoCents) {
    throw invalid('cheque_id', CHEQUE_MESSAGES.devolucionOtroMonto(formatPesos(monto), formatPesos(d.montoCents)));
  }
  await setEstado(c.businessId, d.chequeId, 'en_cartera', 'anulado', undefined, tx);
  await insertEvento(
    c.businessId,
    c.userId,
    {
      chequeId: d.chequeId,
      estado: 'anulado',
      anterior: 'en_cartera',
      fecha: todayIn(c.timezone, c.now),
      clienteId: d.clienteId,
      motivo: CHEQUE_MESSAGES.devueltoAlCliente(d.devolucionNumero),
    },
    tx,
  );
}
