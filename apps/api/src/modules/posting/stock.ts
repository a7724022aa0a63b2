import { and, eq, sql, type SQL } from 'drizzle-orm';
import { milliToDecimal, milliToNumber, PRODUCT_MESSAGES, type StockOrigin } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { products } from '../../db/schema/index.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { toMilli } from '../products/common.js';
import { audit } from './audit.js';

/*
 * Every stock movement is written here (decision 0038), with the same columns: the product, the
 * origin, the quantity and the stock it left, the reason, the record behind it (null for
 * adjustments, initial stock and imports) and the user. One change at a time goes through
 * applyStockChange; a sale or an import composes stockMovementsInsertSql into its own statement.
 */

/** One value per column, as SQL expressions (they may read the rows of `from`). */
export interface StockMovementExprs {
  productoId: SQL;
  origen: SQL;
  /** Thousandths as numeric: positive adds, negative removes. */
  cantidad: SQL;
  stockResultante: SQL;
  motivo: SQL;
  referenciaId: SQL;
}

/** The INSERT of stock movements, one per row of `from` (`FROM … ORDER BY …`), returning id, fecha, stock_resultante. */
export function stockMovementsInsertSql(
  businessId: string,
  userId: string | null,
  e: StockMovementExprs,
  from: SQL,
): SQL {
  return sql`INSERT INTO stock_movements (business_id, producto_id, origen, cantidad, stock_resultante, motivo, referencia_id,
                               usuario_id)
    SELECT ${businessId}::uuid, ${e.productoId}, ${e.origen}, ${e.cantidad}, ${e.stockResultante}, ${e.motivo},
           ${e.referenciaId}, ${userId}::uuid
      ${from}
    RETURNING id, fecha, stock_resultante`;
}

export interface StockChange {
  businessId: string;
  productId: string;
  /** Thousandths: positive adds, negative removes. */
  cantidad: number;
  origen: StockOrigin;
  motivo: string | null;
  referenciaId?: string | null;
  userId: string | null;
  /** The 409 text when the change would leave the stock below 0 (default: the adjustment's). */
  insufficientMessage?: (p: { nombre: string; disponible: number }) => string;
  /** The 404 error when the product is not in the business (default 404 `Producto no encontrado.`). */
  notFoundError?: () => AppError;
  /** Sales and purchases write their own audit row; everything else records the change here. */
  audit?: boolean;
  /** A product that does not track stock: 'skip' (default) changes nothing; 'refuse' answers 409. */
  untracked?: 'skip' | 'refuse';
}

export interface StockChangeResult {
  /** Null when the product does not track stock (nothing changed). */
  movimientoId: string | null;
  nombre: string;
  /** Thousandths. */
  stockAnterior: number;
  stockActual: number;
  fecha: Date;
}

const AUDIT_ACTION: Record<StockOrigin, string> = {
  inicial: 'crear',
  venta: 'actualizar',
  anulacion: 'anular',
  compra: 'actualizar',
  ajuste: 'ajustar',
  importacion: 'importar',
  devolucion: 'devolver',
  remito: 'actualizar',
};

/**
 * The one way stock changes (purchases, voids, adjustments): a conditional UPDATE that never
 * takes the stock below 0 (no read-modify-write, so concurrent changes cannot oversell; an
 * increase always goes through, also from a negative stock left by selling without stock), and
 * the stock movement row, in one statement inside the caller's transaction. Throws 409
 * INSUFFICIENT_STOCK when a decrease would leave the stock negative. A product that does not
 * track stock does not change (`untracked` says what to do then: by default nothing, an
 * adjustment refuses).
 */
export async function applyStockChange(tx: Executor, c: StockChange): Promise<StockChangeResult> {
  const n = milliToDecimal(c.cantidad);
  const { rows } = await tx.execute<{
    nombre: string;
    movimiento_id: string;
    fecha: Date | string;
    stock_resultante: string;
  }>(sql`
    WITH upd AS (
      UPDATE ${products} SET stock_actual = stock_actual + ${n}::numeric, actualizado_en = now()
       WHERE business_id = ${c.businessId} AND id = ${c.productId} AND controla_stock
         AND (${n}::numeric >= 0 OR stock_actual + ${n}::numeric >= 0)
       RETURNING id, nombre, stock_actual
    ), mov AS (${stockMovementsInsertSql(
      c.businessId,
      c.userId,
      {
        productoId: sql`id`,
        origen: sql`${c.origen}`,
        cantidad: sql`${n}::numeric`,
        stockResultante: sql`stock_actual`,
        motivo: sql`${c.motivo}::text`,
        referenciaId: sql`${c.referenciaId ?? null}::uuid`,
      },
      sql`FROM upd`,
    )})
    SELECT upd.nombre, mov.id AS movimiento_id, mov.fecha, mov.stock_resultante FROM upd, mov`);
  const row = rows[0];
  if (!row) {
    const [p] = await tx
      .select({ nombre: products.nombre, stock: products.stockActual, controla: products.controlaStock })
      .from(products)
      .where(and(eq(products.businessId, c.businessId), eq(products.id, c.productId)));
    if (!p) throw c.notFoundError ? c.notFoundError() : notFound(PRODUCT_MESSAGES.notFound);
    if (!p.controla) {
      if (c.untracked === 'refuse') throw conflict('UNTRACKED_STOCK', PRODUCT_MESSAGES.untracked(p.nombre));
      const stock = toMilli(p.stock);
      return { movimientoId: null, nombre: p.nombre, stockAnterior: stock, stockActual: stock, fecha: new Date() };
    }
    const message = c.insufficientMessage ?? ((x) => PRODUCT_MESSAGES.negativeAdjustment(x.nombre));
    throw new AppError(409, 'INSUFFICIENT_STOCK', message({ nombre: p.nombre, disponible: Number(p.stock) }));
  }
  const stockActual = toMilli(row.stock_resultante);
  const result: StockChangeResult = {
    movimientoId: row.movimiento_id,
    nombre: row.nombre,
    stockAnterior: stockActual - c.cantidad,
    stockActual,
    fecha: row.fecha instanceof Date ? row.fecha : new Date(row.fecha),
  };
  if (c.audit !== false) {
    await audit(tx, {
      businessId: c.businessId,
      userId: c.userId,
      entidad: 'stock',
      entidadId: c.productId,
      accion: AUDIT_ACTION[c.origen],
      antes: { stock_actual: milliToNumber(result.stockAnterior) },
      despues: {
        stock_actual: milliToNumber(stockActual),
        cantidad: milliToNumber(c.cantidad),
        origen: c.origen,
        motivo: c.motivo,
      },
    });
  }
  return result;
}
