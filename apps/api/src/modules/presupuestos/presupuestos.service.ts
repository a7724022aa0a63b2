import {
  centsToNumber,
  milliToNumber,
  PRESUPUESTO_ESTADO_LABELS,
  PRESUPUESTO_MESSAGES,
  type Presupuesto,
  type PresupuestoCambio,
  type PresupuestoEstado,
  type PresupuestoList,
  type PresupuestoListQuery,
  type PresupuestoOutput,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import type { Row } from '../../db/pipeline.js';
import { audit } from '../../lib/audit.js';
import { addDays, todayIn } from '../../lib/dates.js';
import { conflict, notFound } from '../../lib/errors.js';
import { toMilli } from '../products/common.js';
import type { SaleContext } from '../sales/sales.service.js';
import { amount, priceDocument } from './precios-documento.js';
import {
  deletePresupuestoItems,
  insertPresupuesto,
  insertPresupuestoItems,
  nextPresupuestoNumero,
  presupuestoItemRows,
  presupuestoPage,
  presupuestoRow,
  setPresupuestoEstado,
  updatePresupuesto,
} from './presupuestos.queries.js';

/*
 * Presupuestos (issue 37, decision 0056). What may happen in each state:
 *   borrador, enviado → edited (back to borrador), enviado, aceptado, anulado, convertido
 *   vencido (a borrador or enviado past its day) → edited (renewed from today), anulado, convertido at today's prices
 *   aceptado → anulado, convertido
 *   convertido, anulado → nothing (409)
 */

const iso = (v: unknown) => (v instanceof Date ? v : new Date(v as string)).toISOString();
const label = (e: string) => PRESUPUESTO_ESTADO_LABELS[e as PresupuestoEstado]?.toLowerCase() ?? e;

export const hoyDe = (c: { timezone: string; now: Date }) => todayIn(c.timezone, c.now);

function toPresupuesto(r: Row, items: Row[]): Presupuesto {
  return {
    id: r.id as string,
    numero: r.numero as number,
    fecha: r.fecha as string,
    vence: r.vence as string,
    validez_dias: r.validez_dias as number,
    estado: r.estado as PresupuestoEstado,
    cliente_id: r.cliente_id as string,
    cliente_nombre: r.cliente_nombre as string,
    subtotal: amount(r.subtotal),
    descuento: amount(r.descuento),
    total: amount(r.total),
    notas: (r.notas as string | null) ?? null,
    items: items.map((i) => ({
      posicion: i.posicion as number,
      tipo: i.tipo as 'producto' | 'servicio',
      producto_id: (i.producto_id as string | null) ?? null,
      servicio_id: (i.servicio_id as string | null) ?? null,
      nombre: i.nombre as string,
      cantidad: milliToNumber(toMilli(i.cantidad as string)),
      precio_unitario: amount(i.precio_unitario),
      precio_lista: amount(i.precio_lista),
      descuento: amount(i.descuento),
      subtotal: amount(i.subtotal),
    })),
    venta_id: (r.venta_id as string | null) ?? null,
    venta_numero: (r.venta_numero as number | null) ?? null,
    remito_id: (r.remito_id as string | null) ?? null,
    remito_numero: (r.remito_numero as number | null) ?? null,
    usuario: r.usuario_id ? { id: r.usuario_id as string, nombre: (r.usuario_nombre as string) ?? '' } : null,
    creado_en: iso(r.creado_en),
    actualizado_en: iso(r.actualizado_en),
  };
}

export async function getPresupuesto(ex: Executor, businessId: string, id: string, hoy: string): Promise<Presupuesto> {
  const r = await presupuestoRow(businessId, id, hoy, ex);
  if (!r) throw notFound(PRESUPUESTO_MESSAGES.notFound);
  return toPresupuesto(r, await presupuestoItemRows(businessId, id, ex));
}

export async function listPresupuestos(
  ex: Executor,
  businessId: string,
  q: PresupuestoListQuery,
  hoy: string,
): Promise<PresupuestoList> {
  const { total, list } = await presupuestoPage(businessId, q, hoy, ex);
  return {
    total,
    presupuestos: list.map((r) => ({
      id: r.id as string,
      numero: r.numero as number,
      fecha: r.fecha as string,
      vence: r.vence as string,
      estado: r.estado as PresupuestoEstado,
      cliente_id: r.cliente_id as string,
      cliente_nombre: r.cliente_nombre as string,
      total: amount(r.total),
    })),
  };
}

async function fieldsOf(tx: Executor, c: SaleContext, input: PresupuestoOutput) {
  const priced = await priceDocument(tx, c, input.cliente_id, input.items, input.descuento ?? 0);
  const fecha = hoyDe(c);
  return {
    priced,
    fields: {
      clienteId: input.cliente_id,
      fecha,
      validezDias: input.validez_dias,
      vence: addDays(fecha, input.validez_dias),
      subtotal: priced.subtotal,
      descuento: priced.descuento,
      total: priced.total,
      notas: input.notas ?? null,
    },
  };
}

export async function createPresupuesto(db: Db, c: SaleContext, input: PresupuestoOutput): Promise<Presupuesto> {
  const hoy = hoyDe(c);
  return db.transaction(async (tx) => {
    const { priced, fields } = await fieldsOf(tx, c, input);
    const numero = await nextPresupuestoNumero(c.businessId, tx);
    const id = await insertPresupuesto(c.businessId, numero, fields, c.userId, tx);
    await insertPresupuestoItems(c.businessId, id, priced.lines, tx);
    await audit(tx, {
      businessId: c.businessId,
      userId: c.userId,
      entidad: 'presupuesto',
      entidadId: id,
      accion: 'crear',
      despues: { numero, cliente_id: input.cliente_id, total: centsToNumber(priced.total) },
    });
    return getPresupuesto(tx, c.businessId, id, hoy);
  });
}

/** Locked, or 404. */
async function locked(tx: Executor, businessId: string, id: string, hoy: string) {
  const r = await presupuestoRow(businessId, id, hoy, tx, true);
  if (!r) throw notFound(PRESUPUESTO_MESSAGES.notFound);
  return r;
}

export async function updatePresupuestoDoc(
  db: Db,
  c: SaleContext,
  id: string,
  input: PresupuestoOutput,
): Promise<Presupuesto> {
  const hoy = hoyDe(c);
  return db.transaction(async (tx) => {
    const r = await locked(tx, c.businessId, id, hoy);
    const estado = r.estado as PresupuestoEstado;
    if (!['borrador', 'enviado', 'vencido'].includes(estado)) {
      throw conflict('INVALID_STATE', PRESUPUESTO_MESSAGES.notEditable(label(estado)));
    }
    const { priced, fields } = await fieldsOf(tx, c, input);
    await updatePresupuesto(c.businessId, id, fields, tx);
    await deletePresupuestoItems(c.businessId, id, tx);
    await insertPresupuestoItems(c.businessId, id, priced.lines, tx);
    await audit(tx, {
      businessId: c.businessId,
      userId: c.userId,
      entidad: 'presupuesto',
      entidadId: id,
      accion: 'actualizar',
      antes: { estado, total: amount(r.total) },
      despues: { numero: r.numero, estado: 'borrador', total: centsToNumber(priced.total) },
    });
    return getPresupuesto(tx, c.businessId, id, hoy);
  });
}

/** What each state may become by hand. */
const CAMBIOS: Record<PresupuestoEstado, readonly PresupuestoCambio[]> = {
  borrador: ['enviado', 'aceptado', 'anulado'],
  enviado: ['enviado', 'aceptado', 'anulado'],
  vencido: ['anulado'],
  aceptado: ['anulado'],
  convertido: [],
  anulado: [],
};

export async function changePresupuestoEstado(
  db: Db,
  c: { businessId: string; userId: string; timezone: string; now: Date },
  id: string,
  estado: PresupuestoCambio,
): Promise<Presupuesto> {
  const hoy = hoyDe(c);
  return db.transaction(async (tx) => {
    const r = await locked(tx, c.businessId, id, hoy);
    const actual = r.estado as PresupuestoEstado;
    if (!CAMBIOS[actual].includes(estado)) {
      if (actual === 'vencido' && estado === 'aceptado') throw conflict('INVALID_STATE', PRESUPUESTO_MESSAGES.vencido);
      throw conflict('INVALID_STATE', PRESUPUESTO_MESSAGES.badTransition(label(actual), label(estado)));
    }
    await setPresupuestoEstado(c.businessId, id, c.userId, actual, estado, tx);
    return getPresupuesto(tx, c.businessId, id, hoy);
  });
}

/**
 * Whether a presupuesto in `estado` may become a sale or a remito (409 otherwise): not converted
 * nor void; a vencido one only at today's prices.
 */
export function checkConvertible(estado: PresupuestoEstado, precios: 'presupuesto' | 'actuales') {
  if (estado === 'convertido' || estado === 'anulado') {
    throw conflict('INVALID_STATE', PRESUPUESTO_MESSAGES.badTransition(label(estado), 'convertido'));
  }
  if (estado === 'vencido' && precios === 'presupuesto') throw conflict('INVALID_STATE', PRESUPUESTO_MESSAGES.vencido);
}
