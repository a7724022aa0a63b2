import {
  centsToNumber,
  DEPOSITO_MESSAGES,
  milliToNumber,
  REMITO_MESSAGES,
  SALE_MESSAGES,
  type RecordSaleOutput,
  type Remito,
  type RemitoEstado,
  type RemitoList,
  type RemitoListQuery,
  type RemitoOutput,
  type RemitoResumen,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import type { Row } from '../../db/pipeline.js';
import { depositoNamed, stockInDeposito } from '../posting/stock.js';
import { audit } from '../../lib/audit.js';
import { conflict, invalid, notFound } from '../../lib/errors.js';
import { toMilli } from '../products/common.js';
import type { SaleContext } from '../sales/sales.service.js';
import { amount, priceDocument, type Priced } from '../presupuestos/precios-documento.js';
import { markConvertedToRemito, presupuestoRow } from '../presupuestos/presupuestos.queries.js';
import { checkConvertible, hoyDe } from '../presupuestos/presupuestos.service.js';
import {
  insertRemito,
  markRemitoAnulado,
  moveRemitoStock,
  nextRemitoNumero,
  remitoItemRows,
  remitoEventoRows,
  remitoPage,
  remitoRow,
  stockTakenByRemito,
} from './remitos.queries.js';

/*
 * Remitos (issue 37, decision 0056): written with their stock out, in one transaction; voided
 * (while not invoiced) with their stock back by new movements; invoiced by facturar.ts.
 */

const qtyFormat = new Intl.NumberFormat('es-AR', { maximumFractionDigits: 3 });
const iso = (v: unknown) => (v ? (v instanceof Date ? v : new Date(v as string)).toISOString() : null);
const person = (id: unknown, nombre: unknown) => (id ? { id: id as string, nombre: (nombre as string) ?? '' } : null);

export function toResumen(r: Row): RemitoResumen {
  return {
    id: r.id as string,
    numero: r.numero as number,
    fecha: iso(r.fecha)!,
    estado: r.estado as RemitoEstado,
    cliente_id: r.cliente_id as string,
    cliente_nombre: r.cliente_nombre as string,
    total: amount(r.total),
    venta_id: (r.venta_id as string | null) ?? null,
    venta_numero: (r.venta_numero as number | null) ?? null,
  };
}

export async function getRemito(ex: Executor, businessId: string, id: string): Promise<Remito> {
  const r = await remitoRow(businessId, id, ex);
  if (!r) throw notFound(REMITO_MESSAGES.notFound);
  const [items, eventos] = await Promise.all([
    remitoItemRows(businessId, [id], ex),
    remitoEventoRows(businessId, id, ex),
  ]);
  return {
    ...toResumen(r),
    subtotal: amount(r.subtotal),
    descuento: amount(r.descuento),
    notas: (r.notas as string | null) ?? null,
    items: items.map((i) => ({
      posicion: i.posicion as number,
      tipo: i.tipo as 'producto' | 'servicio',
      producto_id: (i.producto_id as string | null) ?? null,
      servicio_id: (i.servicio_id as string | null) ?? null,
      nombre: i.nombre as string,
      cantidad: milliToNumber(toMilli(i.cantidad as string)),
      precio_unitario: amount(i.precio_unitario),
      descuento: amount(i.descuento),
      subtotal: amount(i.subtotal),
    })),
    presupuesto_id: (r.presupuesto_id as string | null) ?? null,
    presupuesto_numero: (r.presupuesto_numero as number | null) ?? null,
    facturado_en: iso(r.facturado_en),
    anulado_en: iso(r.anulado_en),
    anulado_por: person(r.anulado_por, r.anulado_por_nombre),
    motivo_anulacion: (r.motivo_anulacion as string | null) ?? null,
    usuario: person(r.usuario_id, r.usuario_nombre),
    eventos: eventos.map((e) => ({
      estado: e.estado as 'facturado' | 'pendiente',
      venta_id: e.venta_id as string,
      venta_numero: e.venta_numero as number,
      motivo: (e.motivo as string | null) ?? null,
      creado_en: iso(e.creado_en)!,
      usuario: person(e.usuario_id, e.usuario_nombre),
    })),
  };
}

export async function listRemitos(ex: Executor, businessId: string, q: RemitoListQuery): Promise<RemitoList> {
  const { total, list } = await remitoPage(businessId, q, ex);
  return { total, remitos: list.map(toResumen) };
}

/**
 * The stock each product line takes ([id, thousandths] in id order; untracked products take
 * none), or 409 naming the first short one unless the business sells without stock (as a sale).
 */
function stockOut(p: Priced): [string, number][] {
  const per = new Map<string, number>();
  for (const l of p.lines) {
    if (l.tipo === 'producto' && p.productos.get(l.id)!.controla) per.set(l.id, (per.get(l.id) ?? 0) + l.cantidad);
  }
  const changes = [...per.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [id, cantidad] of changes) {
    const info = p.productos.get(id)!;
    if (info.stock < cantidad && !info.sinStock) {
      throw conflict(
        'INSUFFICIENT_STOCK',
        SALE_MESSAGES.insufficientStock(info.nombre, qtyFormat.format(info.stock / 1000)),
      );
    }
  }
  return changes;
}

export interface RemitoNuevo {
  clienteId: string;
  items: RecordSaleOutput['items'];
  descuento: number;
  notas: string | null;
  presupuestoId: string | null;
  /** false: today's prices of the customer's list (the items' prices are ignored). */
  conPrecios?: boolean;
  /** The depósito the goods leave (decision 0059): default the principal. */
  depositoId?: string | null;
}

/** Writes a remito inside `tx` (its products locked, its stock out); returns its id. */
export async function writeRemito(
  tx: Executor,
  c: SaleContext,
  n: RemitoNuevo,
): Promise<{ id: string; numero: number }> {
  const deposito = await depositoNamed(tx, c.businessId, n.depositoId);
  if (!deposito) throw notFound(DEPOSITO_MESSAGES.notInBusiness);
  const priced = await priceDocument(tx, c, n.clienteId, n.items, n.descuento, { conPrecios: n.conPrecios });
  // The stock checked is the depósito's (decision 0059), read after the products' lock.
  const enDeposito = await stockInDeposito(tx, c.businessId, deposito, [...priced.productos.keys()]);
  for (const [pid, p] of priced.productos) p.stock = enDeposito.get(pid) ?? 0;
  const changes = stockOut(priced);
  const numero = await nextRemitoNumero(c.businessId, tx);
  const id = await insertRemito(
    c.businessId,
    {
      numero,
      fecha: c.now,
      clienteId: n.clienteId,
      presupuestoId: n.presupuestoId,
      subtotal: priced.subtotal,
      descuento: priced.descuento,
      total: priced.total,
      notas: n.notas,
      userId: c.userId,
    },
    priced.lines,
    tx,
  );
  await moveRemitoStock(
    c.businessId,
    c.userId,
    id,
    deposito,
    changes,
    { origen: 'remito', motivo: `Remito #${numero}` },
    tx,
  );
  await audit(tx, {
    businessId: c.businessId,
    userId: c.userId,
    entidad: 'remito',
    entidadId: id,
    accion: 'crear',
    despues: {
      numero,
      cliente_id: n.clienteId,
      presupuesto_id: n.presupuestoId,
      total: centsToNumber(priced.total),
      items: priced.lines.map((l) => ({
        tipo: l.tipo,
        id: l.id,
        nombre: l.nombre,
        cantidad: milliToNumber(l.cantidad),
      })),
    },
  });
  return { id, numero };
}

/** `POST /remitos`: with a presupuesto, it becomes convertido into this remito (409 when it cannot). */
export async function createRemito(db: Db, c: SaleContext, input: RemitoOutput): Promise<Remito> {
  return db.transaction(async (tx) => {
    const presupuestoId = input.presupuesto_id ?? null;
    if (presupuestoId) {
      const p = await presupuestoRow(c.businessId, presupuestoId, hoyDe(c), tx, true);
      if (!p) throw invalid('presupuesto_id', REMITO_MESSAGES.presupuestoNotInBusiness);
      if (p.cliente_id !== input.cliente_id) throw invalid('presupuesto_id', REMITO_MESSAGES.presupuestoOtroCliente);
      // The lines are the ones given now, at their prices: a vencido presupuesto may be delivered.
      checkConvertible(p.estado as never, 'actuales');
    }
    const { id } = await writeRemito(tx, c, {
      clienteId: input.cliente_id,
      items: input.items,
      descuento: 0,
      notas: input.notas ?? null,
      presupuestoId,
      depositoId: input.deposito_id ?? null,
    });
    if (presupuestoId) await markConvertedToRemito(c.businessId, presupuestoId, id, tx);
    return getRemito(tx, c.businessId, id);
  });
}

/** Voids a remito not invoiced: its stock comes back by new movements (`anulacion`). */
export async function anularRemito(
  db: Db,
  c: { businessId: string; userId: string; now: Date },
  id: string,
  motivo: string | null,
): Promise<Remito> {
  return db.transaction(async (tx) => {
    const r = await remitoRow(c.businessId, id, tx, true);
    if (!r) throw notFound(REMITO_MESSAGES.notFound);
    if (r.estado === 'anulado') throw conflict('INVALID_STATE', REMITO_MESSAGES.yaAnulado);
    if (r.estado === 'facturado') throw conflict('INVALID_STATE', REMITO_MESSAGES.noAnulable);
    // Back into the depósito each product left (decision 0059).
    const taken = await stockTakenByRemito(c.businessId, id, tx);
    const porDeposito = new Map<string, { principal: boolean; changes: [string, number][] }>();
    for (const t of taken) {
      const q = toMilli(t.cantidad as string);
      if (q <= 0) continue;
      const d = porDeposito.get(t.deposito_id as string) ?? { principal: t.principal as boolean, changes: [] };
      d.changes.push([t.producto_id as string, q]);
      porDeposito.set(t.deposito_id as string, d);
    }
    for (const [depositoId, d] of porDeposito) {
      await moveRemitoStock(
        c.businessId,
        c.userId,
        id,
        { id: depositoId, principal: d.principal },
        d.changes,
        { origen: 'anulacion', motivo: `Anulación del remito #${r.numero as number}` },
        tx,
      );
    }
    await markRemitoAnulado(c.businessId, id, c.userId, motivo, c.now, tx);
    await audit(tx, {
      businessId: c.businessId,
      userId: c.userId,
      entidad: 'remito',
      entidadId: id,
      accion: 'anular',
      antes: { estado: 'pendiente' },
      despues: { numero: r.numero, estado: 'anulado', motivo },
    });
    return getRemito(tx, c.businessId, id);
  });
}
