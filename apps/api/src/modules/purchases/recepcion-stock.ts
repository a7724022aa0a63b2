import { and, eq, sql } from 'drizzle-orm';
import { centsToDecimal, centsToNumber, milliToDecimal, milliToNumber, RECEPCION_MESSAGES } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import {
  products,
  purchaseItems,
  purchaseReceptionItems,
  purchaseReceptions,
  purchases,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { conflict } from '../../lib/errors.js';
import { precioOrigen } from '../../lib/precios-origen.js';
import { toCents } from '../products/common.js';
import { applyStockChange } from '../posting/stock.js';

/*
 * Receiving goods (decision 0023): the full reception of a PUT and the partial ones of
 * POST …/recepciones both come here. The caller holds the purchase row lock, so two receptions
 * of one purchase run one after the other; the conditional update of the line (and its CHECK)
 * makes over-receiving impossible even so.
 */

type PurchaseRow = typeof purchases.$inferSelect;

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
  const [{ n }] = await tx
    .select({ n: sql<number>`(coalesce(max(${purchaseReceptions.numero}), 0) + 1)::int` })
    .from(purchaseReceptions)
    .where(and(eq(purchaseReceptions.businessId, businessId), eq(purchaseReceptions.compraId, p.id)));
  const [rec] = await tx
    .insert(purchaseReceptions)
    .values({ businessId, compraId: p.id, numero: n, creadoPor: ctx.userId, creadoEn: ctx.now })
    .returning({ id: purchaseReceptions.id });
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
    });
    const { rows } = await tx.execute<{ anterior: string | null; precio_venta: string }>(sql`
      UPDATE ${products} np SET precio_compra = ${centsToDecimal(l.precio_unitario)}::numeric, actualizado_en = now()
        FROM (SELECT id, precio_compra AS anterior FROM ${products}
               WHERE business_id = ${businessId} AND id = ${l.producto_id} FOR UPDATE) old
       WHERE np.business_id = ${businessId} AND np.id = old.id
      RETURNING old.anterior, np.precio_venta`);
    const anterior = rows[0]?.anterior ?? null;
    const n = milliToDecimal(cantidad);
    const updated = await tx
      .update(purchaseItems)
      .set({
        cantidadRecibida: sql`${purchaseItems.cantidadRecibida} + ${n}::numeric`,
        precioCompraAnterior: sql`CASE WHEN ${purchaseItems.cantidadRecibida} = 0 THEN ${anterior}::numeric
                                       ELSE ${purchaseItems.precioCompraAnterior} END`,
      })
      .where(
        and(
          eq(purchaseItems.businessId, businessId),
          eq(purchaseItems.id, l.id),
          sql`${purchaseItems.cantidadRecibida} + ${n}::numeric <= ${purchaseItems.cantidad}`,
        ),
      )
      .returning({ id: purchaseItems.id });
    if (!updated.length) {
      throw conflict(
        'OVER_BALANCE',
        RECEPCION_MESSAGES.overReceive(l.nombre, String(milliToNumber(l.cantidad - l.cantidadRecibida))),
      );
    }
    await tx.insert(purchaseReceptionItems).values({
      businessId,
      recepcionId: rec.id,
      itemId: l.id,
      productoId: l.producto_id,
      cantidad: n,
      costo: centsToDecimal(l.precio_unitario),
      costoAnterior: anterior,
      precioVenta: rows[0].precio_venta,
    });
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
  const [{ completa }] = await tx
    .select({ completa: sql<boolean>`bool_and(${purchaseItems.cantidadRecibida} = ${purchaseItems.cantidad})` })
    .from(purchaseItems)
    .where(and(eq(purchaseItems.businessId, businessId), eq(purchaseItems.compraId, p.id)));
  const [row] = await tx
    .update(purchases)
    .set(
      completa
        ? { estado: 'recibida', recibidaEn: ctx.now, actualizadoEn: sql`now()` }
        : { estado: 'recibida_parcial', actualizadoEn: sql`now()` },
    )
    .where(and(eq(purchases.businessId, businessId), eq(purchases.id, p.id)))
    .returning();
  return { row, recepcionId: rec.id, numero: n };
}

/** After the goods went out again (back to pendiente, or cancelled): nothing counts as received. */
export async function markReceptionsReverted(ctx: ReceiveCtx, compraId: string) {
  await ctx.tx
    .update(purchaseItems)
    .set({ cantidadRecibida: '0' })
    .where(and(eq(purchaseItems.businessId, ctx.businessId), eq(purchaseItems.compraId, compraId)));
  await ctx.tx
    .update(purchaseReceptions)
    .set({ revertidaEn: ctx.now })
    .where(
      and(
        eq(purchaseReceptions.businessId, ctx.businessId),
        eq(purchaseReceptions.compraId, compraId),
        sql`${purchaseReceptions.revertidaEn} IS NULL`,
      ),
    );
}
