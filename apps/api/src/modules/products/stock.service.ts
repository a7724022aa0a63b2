import { and, desc, eq, sql } from 'drizzle-orm';
import {
  milliToDecimal,
  milliToNumber,
  PRODUCT_MESSAGES,
  type StockMovement,
  type StockOrigin,
  type StockUser,
} from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { products, stockMovements, users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import { toMilli } from './common.js';

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
}

export interface StockChangeResult {
  movimientoId: string;
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
};

/**
 * The one way stock changes (sales, purchases, voids, imports, adjustments): a conditional
 * UPDATE that never lets the stock go below 0 (no read-modify-write, so concurrent changes
 * cannot oversell), and the stock movement row, in one statement inside the caller's
 * transaction. Throws 409 INSUFFICIENT_STOCK when the change would leave the stock negative.
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
       WHERE business_id = ${c.businessId} AND id = ${c.productId} AND stock_actual + ${n}::numeric >= 0
       RETURNING id, nombre, stock_actual
    ), mov AS (
      INSERT INTO ${stockMovements} (business_id, producto_id, origen, cantidad, stock_resultante, motivo, referencia_id, usuario_id)
      SELECT ${c.businessId}, id, ${c.origen}, ${n}::numeric, stock_actual, ${c.motivo}, ${c.referenciaId ?? null}, ${c.userId}
        FROM upd
      RETURNING id, fecha, stock_resultante
    )
    SELECT upd.nombre, mov.id AS movimiento_id, mov.fecha, mov.stock_resultante FROM upd, mov`);
  const row = rows[0];
  if (!row) {
    const [p] = await tx
      .select({ nombre: products.nombre, stock: products.stockActual })
      .from(products)
      .where(and(eq(products.businessId, c.businessId), eq(products.id, c.productId)));
    if (!p) throw c.notFoundError ? c.notFoundError() : notFound(PRODUCT_MESSAGES.notFound);
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

/**
 * Several stock changes of one business in ONE statement (a sale's product lines): the same
 * conditional UPDATE as {@link applyStockChange} for every product, with each stock movement.
 * One statement cannot fix the order in which it locks the rows, so a caller that may run
 * concurrently with others on the same products locks them first in ascending id order (recordSale
 * reads its catalogue `FOR UPDATE ... ORDER BY id`): no deadlocks. When a change would leave a
 * stock below 0 (or the product is missing), the first such product in id order throws as
 * applyStockChange would (409 INSUFFICIENT_STOCK / 404); the other changes of the statement are
 * then already written, so the caller's transaction must be rolled back (as a thrown error does).
 * Each product at most once; no audit rows (sales write their own). Results in the order of `cs`.
 */
export async function applyStockChanges(tx: Executor, cs: StockChange[]): Promise<StockChangeResult[]> {
  if (!cs.length) return [];
  const businessId = cs[0].businessId;
  if (cs.some((c) => c.businessId !== businessId || c.audit !== false)) {
    throw new Error('applyStockChanges: one business, audit: false');
  }
  if (new Set(cs.map((c) => c.productId)).size !== cs.length) throw new Error('applyStockChanges: repeated product');
  const order = cs.map((_, i) => i).sort((x, y) => (cs[x].productId < cs[y].productId ? -1 : 1));
  const values = order.map((i) => {
    const c = cs[i];
    return sql`(${i}::int, ${c.productId}::uuid, ${milliToDecimal(c.cantidad)}::numeric, ${c.origen}::text,
      ${c.motivo}::text, ${c.referenciaId ?? null}::uuid, ${c.userId}::uuid)`;
  });
  const { rows } = await tx.execute<{
    ord: number;
    nombre: string | null;
    movimiento_id: string | null;
    fecha: Date | string | null;
    stock_resultante: string | null;
  }>(sql`
    WITH v (ord, producto_id, cantidad, origen, motivo, referencia_id, usuario_id) AS (
      VALUES ${sql.join(values, sql`, `)}
    ), upd AS (
      UPDATE ${products} p SET stock_actual = p.stock_actual + v.cantidad, actualizado_en = now()
        FROM v
       WHERE p.business_id = ${businessId} AND p.id = ANY(${`{${order.map((i) => cs[i].productId).join(',')}}`}::uuid[])
         AND p.id = v.producto_id AND p.stock_actual + v.cantidad >= 0
      RETURNING p.id, p.nombre, p.stock_actual
    ), mov AS (
      INSERT INTO ${stockMovements} (business_id, producto_id, origen, cantidad, stock_resultante, motivo, referencia_id, usuario_id)
      SELECT ${businessId}, upd.id, v.origen, v.cantidad, upd.stock_actual, v.motivo, v.referencia_id, v.usuario_id
        FROM upd JOIN v ON v.producto_id = upd.id
       ORDER BY upd.id
      RETURNING id, producto_id, fecha, stock_resultante
    )
    SELECT v.ord, upd.nombre, mov.id AS movimiento_id, mov.fecha, mov.stock_resultante
      FROM v
      LEFT JOIN upd ON upd.id = v.producto_id
      LEFT JOIN mov ON mov.producto_id = v.producto_id
     ORDER BY v.ord`);
  const failed = rows.filter((r) => !r.movimiento_id).map((r) => cs[r.ord]);
  if (failed.length) {
    // The first product (in id order) that could not change says why, as applyStockChange would;
    // the caller's transaction is rolled back by the error.
    const c = failed.sort((x, y) => (x.productId < y.productId ? -1 : x.productId > y.productId ? 1 : 0))[0];
    const [p] = await tx
      .select({ nombre: products.nombre, stock: products.stockActual })
      .from(products)
      .where(and(eq(products.businessId, businessId), eq(products.id, c.productId)));
    if (!p) throw c.notFoundError ? c.notFoundError() : notFound(PRODUCT_MESSAGES.notFound);
    const message = c.insufficientMessage ?? ((x) => PRODUCT_MESSAGES.negativeAdjustment(x.nombre));
    throw new AppError(409, 'INSUFFICIENT_STOCK', message({ nombre: p.nombre, disponible: Number(p.stock) }));
  }
  return rows.map((r) => {
    const c = cs[r.ord];
    const stockActual = toMilli(r.stock_resultante!);
    return {
      movimientoId: r.movimiento_id!,
      nombre: r.nombre!,
      stockAnterior: stockActual - c.cantidad,
      stockActual,
      fecha: r.fecha instanceof Date ? r.fecha : new Date(r.fecha!),
    };
  });
}

/** "Ana Pérez" of a user, for stock movements. */
export const userName = sql<string | null>`nullif(concat_ws(' ', ${users.nombre}, ${users.apellido}), '')`;

export function toUser(id: string | null, nombre: string | null): StockUser | null {
  return id ? { id, nombre: nombre ?? '' } : null;
}

/** A product's stock history, newest first. */
export async function listStockMovements(
  ex: Executor,
  businessId: string,
  productId: string,
  page: { limit: number; offset: number },
) {
  const where = and(eq(stockMovements.businessId, businessId), eq(stockMovements.productoId, productId));
  const [rows, [{ total }]] = await Promise.all([
    ex
      .select({ m: stockMovements, usuarioNombre: userName })
      .from(stockMovements)
      .leftJoin(users, eq(users.id, stockMovements.usuarioId))
      .where(where)
      .orderBy(desc(stockMovements.fecha), desc(stockMovements.id))
      .limit(page.limit)
      .offset(page.offset),
    ex
      .select({ total: sql<number>`count(*)::int` })
      .from(stockMovements)
      .where(where),
  ]);
  return {
    total,
    rows: rows.map(({ m, usuarioNombre }): StockMovement => ({
      id: m.id,
      fecha: m.fecha.toISOString(),
      cantidad: Number(m.cantidad),
      stock_resultante: Number(m.stockResultante),
      origen: m.origen,
      referencia_id: m.referenciaId,
      motivo: m.motivo,
      usuario: toUser(m.usuarioId, usuarioNombre),
    })),
  };
}
