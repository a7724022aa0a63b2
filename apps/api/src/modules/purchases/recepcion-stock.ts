import { centsToDecimal, centsToNumber, milliToDecimal, milliToNumber, RECEPCION_MESSAGES } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { conflict } from '../../lib/errors.js';
import { precioOrigen } from '../../lib/precios-origen.js';
import { toCents } from '../products/common.js';
import { applyStockChange } from '../posting/stock.js';
import { setPurchase, type PurchaseRow } from './purchases.queries.js';
import {
  insertReception,
  insertReceptionItem,
  nextReceptionNumber,
  purchaseComplete,
  receiveLine,
  revertReceptions,
  setProductCost,
} from './recepciones.queries.js';

/*
 * Receiving goods (decision 0023): the full reception of a PUT and the partial ones of
 * POST …/recepciones both come here. The caller holds the purchase row lock, so two receptions
 * of one purchase run one after the other; the conditional update of the line (and its CHECK)
 * makes over-receiving impossible even so.
 */

export interface ReceivableLine {
  id: string;
  producto_id: string;
  nombre: string;
  /** Thousandths. */
  cantidad: number;
  cantidadRecibida: number;
  /** Cents. */
  precio_unitario: number;
}

export interface ReceiveCtx {
  tx: Executor;
  businessId: string;
  userId: string;
  now: Date;
  /** The depósito the goods enter (default the principal; decision 0059). */
  depositoId?: string | null;
}

const byProduct = <T extends { line: { producto_id: string } }>(xs: T[]) =>
  [...xs].sort((a, b) =>
    a.line.producto_id < b.line.producto_id ? -1 : a.line.producto_id > b.line.producto_id ? 1 : 0,
  );

/**
 * One reception: for each line in ascending product id order, stock in (a stock movement
 * `compra`), the product's cost becomes the line's price (the cost from before the first
 * reception of the line is kept on it), and the line counts what arrived. The purchase becomes
 * `recibida` when nothing is pending, `recibida_parcial` otherwise.
 */
export async function receiveLines(
  ctx: ReceiveCtx,
  p: PurchaseRow,
  wanted: { line: ReceivableLine; cantidad: number }[],
): Promise<{ row: PurchaseRow; recepcionId: string; numero: number }> {
  const { tx, businessId } = ctx;
  const motivo = `Compra #${p.numero}${p.proveedorNombre ? ` - ${p.proveedorNombre}` : ''}`;
  const n = await nextReceptionNumber(businessId, p.id, tx);
  const rec = await insertReception(
    businessId,
    { compraId: p.id, numero: n, creadoPor: ctx.userId, creadoEn: ctx.now },
    tx,
  );
  await precioOrigen(tx, { origen: 'compra', userId: ctx.userId, referenciaId: p.id });
  for (const { line: l, cantidad } of byProduct(wanted)) {
    await applyStockChange(tx, {
      businessId,
      productId: l.producto_id,
      cantidad,
      origen: 'compra',
      motivo,
      referenciaId: p.id,
      userId: ctx.userId,
      depositoId: ctx.depositoId ?? null,
    });
    const cost = await setProductCost(businessId, l.producto_id, centsToDecimal(l.precio_unitario), tx);
    const anterior = cost?.anterior ?? null;
    const n = milliToDecimal(cantidad);
    const received = await receiveLine(businessId, l.id, n, anterior, tx);
    if (!received) {
      throw conflict(
        'OVER_BALANCE',
        RECEPCION_MESSAGES.overReceive(l.nombre, String(milliToNumber(l.cantidad - l.cantidadRecibida))),
      );
    }
    await insertReceptionItem(
      businessId,
      {
        recepcionId: rec.id,
        itemId: l.id,
        productoId: l.producto_id,
        cantidad: n,
        costo: centsToDecimal(l.precio_unitario),
        costoAnterior: anterior,
        precioVenta: cost!.precio_venta,
      },
      tx,
    );
    const antes = anterior === null ? null : centsToNumber(toCents(anterior));
    const despues = centsToNumber(l.precio_unitario);
    if (antes !== despues) {
      await audit(tx, {
        businessId,
        userId: ctx.userId,
        entidad: 'producto',
        entidadId: l.producto_id,
        accion: 'actualizar',
        antes: { precio_compra: antes },
        despues: { precio_compra: despues, motivo },
      });
    }
  }
  const completa = await purchaseComplete(businessId, p.id, tx);
  const row = await setPurchase(
    businessId,
    p.id,
    completa ? { estado: 'recibida', recibidaEn: ctx.now } : { estado: 'recibida_parcial' },
    tx,
  );
  return { row, recepcionId: rec.id, numero: n };
}

/** After the goods went out again (back to pendiente, or cancelled): nothing counts as received. */
export async function markReceptionsReverted(ctx: ReceiveCtx, compraId: string) {
  await revertReceptions(ctx.businessId, compraId, ctx.now, ctx.tx);
}
