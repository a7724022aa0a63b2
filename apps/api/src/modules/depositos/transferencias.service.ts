import {
  DEPOSITO_MESSAGES,
  milliToNumber,
  PRODUCT_MESSAGES,
  type Transferencia,
  type TransferenciaEstado,
  type TransferenciaOutput,
  type TransferenciaRecibirOutput,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { AppError, conflict, invalid, notFound } from '../../lib/errors.js';
import { iso } from '../caja/rows.js';
import { moveDepositoStock, stockInDeposito } from '../posting/stock.js';
import { toMilli } from '../products/common.js';
import { depositoKind } from './depositos.queries.js';
import {
  insertTransferencia,
  lockTransferencia,
  lockTransferProducts,
  markRecibida,
  nextTransferenciaNumero,
  transferenciaItemRows,
  transferenciaRows,
} from './transferencias.queries.js';

/*
 * Transferencias (issue 38 part 1, decision 0059): sent, the stock leaves the origin at once (en
 * tránsito it is in no depósito: the product's total is the depósitos'); received, what arrived
 * enters the destination and what did not stays recorded as the line's difference. The products
 * are locked first, in id order, as a sale locks them: a transfer and a sale of the last unit
 * cannot both take it.
 */

const qty = new Intl.NumberFormat('es-AR', { maximumFractionDigits: 3 });

export interface TransferContext {
  businessId: string;
  userId: string;
}

export async function listTransferencias(db: Executor, businessId: string, estado?: TransferenciaEstado) {
  const list = await transferenciaRows(businessId, { estado }, db);
  const items = list.length
    ? await transferenciaItemRows(
        businessId,
        list.map((t) => t.id as string),
        db,
      )
    : [];
  return list.map((t) => toTransferencia(t, items));
}

export async function getTransferencia(db: Executor, businessId: string, id: string): Promise<Transferencia> {
  const [t] = await transferenciaRows(businessId, { id }, db);
  if (!t) throw notFound(DEPOSITO_MESSAGES.transferenciaNotFound);
  return toTransferencia(t, await transferenciaItemRows(businessId, [id], db));
}

function toTransferencia(t: Record<string, unknown>, items: Record<string, unknown>[]): Transferencia {
  return {
    id: t.id as string,
    numero: t.numero as number,
    origen_id: t.origen_id as string,
    origen_nombre: t.origen_nombre as string,
    destino_id: t.destino_id as string,
    destino_nombre: t.destino_nombre as string,
    estado: t.estado as TransferenciaEstado,
    observaciones: (t.observaciones as string | null) ?? null,
    creado_en: iso(t.creado_en),
    creado_por_nombre: (t.creado_por_nombre as string | null) ?? null,
    recibido_en: t.recibido_en ? iso(t.recibido_en) : null,
    recibido_por_nombre: (t.recibido_por_nombre as string | null) ?? null,
    items: items
      .filter((i) => i.transferencia_id === t.id)
      .map((i) => {
        const cantidad = toMilli(i.cantidad as string);
        const recibida = i.cantidad_recibida === null ? null : toMilli(i.cantidad_recibida as string);
        return {
          producto_id: i.producto_id as string,
          nombre: i.nombre as string,
          cantidad: milliToNumber(cantidad),
          cantidad_recibida: recibida === null ? null : milliToNumber(recibida),
          diferencia: recibida === null ? null : milliToNumber(cantidad - recibida),
        };
      }),
  };
}

/** POST …/transferencias: the stock leaves the origin now (409 when the origin lacks it). */
export async function createTransferencia(db: Db, c: TransferContext, input: TransferenciaOutput) {
  const { businessId, userId } = c;
  if (input.origen_id === input.destino_id) throw invalid('destino_id', DEPOSITO_MESSAGES.mismoDeposito);
  const seen = new Set<string>();
  input.items.forEach((i, n) => {
    if (seen.has(i.producto_id)) throw invalid(`items.${n}.producto_id`, DEPOSITO_MESSAGES.productoRepetido);
    seen.add(i.producto_id);
  });
  const id = await db.transaction(async (tx) => {
    const origen = await depositoKind(businessId, input.origen_id, tx);
    if (!origen) throw notFound(DEPOSITO_MESSAGES.notInBusiness);
    if (!(await depositoKind(businessId, input.destino_id, tx))) throw notFound(DEPOSITO_MESSAGES.notInBusiness);
    const ids = [...seen].sort();
    const locked = new Map((await lockTransferProducts(businessId, ids, tx)).map((p) => [p.id as string, p]));
    const stock = await stockInDeposito(tx, businessId, origen, ids);
    const items = input.items.map((i, n) => {
      const p = locked.get(i.producto_id);
      if (!p) throw notFound(PRODUCT_MESSAGES.notInBusiness);
      const nombre = p.nombre as string;
      if (!p.controla_stock) throw invalid(`items.${n}.producto_id`, DEPOSITO_MESSAGES.productoNoControla(nombre));
      const disponible = stock.get(i.producto_id) ?? 0;
      if (disponible < i.cantidad) {
        throw new AppError(
          409,
          'INSUFFICIENT_STOCK',
          DEPOSITO_MESSAGES.sinStock(nombre, qty.format(Math.max(0, disponible) / 1000)),
        );
      }
      return { productoId: i.producto_id, nombre, cantidad: i.cantidad };
    });
    const numero = await nextTransferenciaNumero(businessId, tx);
    const tid = await insertTransferencia(
      businessId,
      userId,
      {
        numero,
        origenId: input.origen_id,
        destinoId: input.destino_id,
        observaciones: input.observaciones ?? null,
        items,
      },
      tx,
    );
    await moveDepositoStock(
      tx,
      businessId,
      userId,
      origen,
      items.map((i) => [i.productoId, -i.cantidad] as [string, number]).sort((a, b) => (a[0] < b[0] ? -1 : 1)),
      { origen: 'transferencia', motivo: `Transferencia #${numero} enviada`, referenciaId: tid },
    );
    await audit(tx, {
      businessId,
      userId,
      entidad: 'transferencia',
      entidadId: tid,
      accion: 'crear',
      despues: {
        numero,
        origen_id: input.origen_id,
        destino_id: input.destino_id,
        items: items.map((i) => ({ producto_id: i.productoId, cantidad: milliToNumber(i.cantidad) })),
      },
    });
    return tid;
  });
  return getTransferencia(db, businessId, id);
}

/**
 * POST …/transferencias/{id}/recibir: what arrived enters the destination; a line not named
 * arrived whole. More than was sent is refused; less stays as the line's difference.
 */
export async function receiveTransferencia(db: Db, c: TransferContext, id: string, input: TransferenciaRecibirOutput) {
  const { businessId, userId } = c;
  await db.transaction(async (tx) => {
    const t = await lockTransferencia(businessId, id, tx);
    if (!t) throw notFound(DEPOSITO_MESSAGES.transferenciaNotFound);
    if (t.estado !== 'en_transito') throw conflict('INVALID_STATE', DEPOSITO_MESSAGES.yaRecibida);
    const lines = await transferenciaItemRows(businessId, [id], tx);
    const recibida = new Map(lines.map((l) => [l.producto_id as string, toMilli(l.cantidad as string)]));
    const seen = new Set<string>();
    input.items.forEach((i, n) => {
      const field = `items.${n}.producto_id`;
      if (!recibida.has(i.producto_id)) throw invalid(field, DEPOSITO_MESSAGES.itemNoEnTransferencia);
      if (seen.has(i.producto_id)) throw invalid(field, DEPOSITO_MESSAGES.productoRepetido);
      seen.add(i.producto_id);
      if (i.cantidad_recibida > recibida.get(i.producto_id)!) {
        throw invalid(`items.${n}.cantidad_recibida`, DEPOSITO_MESSAGES.recibidaDeMas);
      }
      recibida.set(i.producto_id, i.cantidad_recibida);
    });
    const ids = [...recibida.keys()].sort();
    await lockTransferProducts(businessId, ids, tx);
    const destino = { id: t.destino_id as string, principal: t.destino_principal as boolean };
    await moveDepositoStock(
      tx,
      businessId,
      userId,
      destino,
      ids.filter((pid) => recibida.get(pid)! > 0).map((pid) => [pid, recibida.get(pid)!] as [string, number]),
      { origen: 'transferencia', motivo: `Transferencia #${t.numero as number} recibida`, referenciaId: id },
    );
    await markRecibida(businessId, userId, id, [...recibida.entries()], tx);
    await audit(tx, {
      businessId,
      userId,
      entidad: 'transferencia',
      entidadId: id,
      accion: 'recibir',
      antes: { estado: 'en_transito' },
      despues: {
        estado: 'recibida',
        items: [...recibida.entries()].map(([pid, q]) => ({ producto_id: pid, cantidad_recibida: milliToNumber(q) })),
      },
    });
  });
  return getTransferencia(db, businessId, id);
}
