import { sql, type SQL } from 'drizzle-orm';
import {
  DEPOSITO_MESSAGES,
  milliToDecimal,
  milliToNumber,
  PRODUCT_MESSAGES,
  type StockOrigin,
} from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
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
  /** The depósito the stock entered or left (default: the business's principal depósito). */
  depositoId?: SQL;
}

/** The business's principal depósito (one per business, migration 0076). */
export const principalDepositoSql = (businessId: string): SQL =>
  sql`(SELECT id FROM depositos WHERE business_id = ${businessId}::uuid AND principal)`;

/**
 * The stock of product `producto` (an SQL expression of its id; `total` its stock_actual) in a
 * depósito: the principal's is the total less the other depósitos' (decision 0059).
 */
export function depositoStockSql(
  businessId: string,
  deposito: { id: string; principal: boolean },
  producto: SQL,
  total: SQL,
): SQL {
  return deposito.principal
    ? sql`(${total} - coalesce((SELECT sum(sd.stock) FROM stock_depositos sd
             WHERE sd.business_id = ${businessId}::uuid AND sd.producto_id = ${producto}), 0))`
    : sql`coalesce((SELECT sd.stock FROM stock_depositos sd
             WHERE sd.business_id = ${businessId}::uuid AND sd.deposito_id = ${deposito.id}::uuid
               AND sd.producto_id = ${producto}), 0)`;
}

/**
 * The INSERT that moves the stock of a depósito other than the principal ([product id, thousandths
 * to add] from `from`, whose columns are `producto_id` and `cantidad`); nothing for the principal,
 * whose stock is the total's. The products' rows must already be locked (the rule of every stock
 * change: the product row first, then stock_depositos, so that they never deadlock).
 */
export function depositoStockUpsertSql(
  businessId: string,
  deposito: { id: string; principal: boolean },
  from: SQL,
): SQL {
  return sql`INSERT INTO stock_depositos AS sd (business_id, deposito_id, producto_id, stock)
    SELECT ${businessId}::uuid, ${deposito.id}::uuid, producto_id, cantidad ${from}
    ON CONFLICT (business_id, deposito_id, producto_id) DO UPDATE SET stock = sd.stock + excluded.stock`;
}

/** The INSERT of stock movements, one per row of `from` (`FROM … ORDER BY …`), returning id, fecha, stock_resultante. */
export function stockMovementsInsertSql(
  businessId: string,
  userId: string | null,
  e: StockMovementExprs,
  from: SQL,
): SQL {
  return sql`INSERT INTO stock_movements (business_id, producto_id, origen, cantidad, stock_resultante, motivo, referencia_id,
                               usuario_id, deposito_id)
    SELECT ${businessId}::uuid, ${e.productoId}, ${e.origen}, ${e.cantidad}, ${e.stockResultante}, ${e.motivo},
           ${e.referenciaId}, ${userId}::uuid, ${e.depositoId ?? principalDepositoSql(businessId)}
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
  /** The depósito (checked in the business: 404 otherwise); default the principal. */
  depositoId?: string | null;
  /** A void or a return: the depósito of the stock movement of this record and product (else the principal). */
  depositoDe?: string;
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
  /** Thousandths (the product's total, all depósitos). */
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
  transferencia: 'transferir',
};

/** The depósito a change names: the one given, the one of the record's movement, or the principal. */
function depositoOf(c: StockChange): SQL {
  if (c.depositoId)
    return sql`(SELECT id FROM depositos WHERE business_id = ${c.businessId} AND id = ${c.depositoId}::uuid)`;
  if (c.depositoDe) {
    return sql`coalesce((SELECT m.deposito_id FROM stock_movements m
         WHERE m.business_id = ${c.businessId} AND m.referencia_id = ${c.depositoDe}::uuid
           AND m.producto_id = ${c.productId}::uuid ORDER BY m.fecha LIMIT 1), ${principalDepositoSql(c.businessId)})`;
  }
  return principalDepositoSql(c.businessId);
}

/**
 * The one way stock changes (purchases, voids, adjustments): the product's row locked first (as
 * every stock change does), then one statement that moves the depósito's stock and the total with
 * the stock movement row, only when a decrease leaves the depósito at 0 or more (no
 * read-modify-write, so concurrent changes cannot oversell; an increase always goes through, also
 * from a negative stock left by selling without stock), inside the caller's transaction. Throws
 * 409 INSUFFICIENT_STOCK when a decrease would leave the depósito negative. A product that does
 * not track stock does not change (`untracked` says what to do then: by default nothing, an
 * adjustment refuses).
 */
export async function applyStockChange(tx: Executor, c: StockChange): Promise<StockChangeResult> {
  const n = milliToDecimal(c.cantidad);
  // The lock: every writer of this product's stock waits here, so the statement after sees them all.
  const { rows: locked } = await tx.execute<{
    nombre: string;
    controla: boolean;
    stock: string;
    deposito_id: string | null;
    principal: boolean | null;
  }>(sql`
    SELECT p.nombre, p.controla_stock AS controla, p.stock_actual::text AS stock, d.id AS deposito_id, d.principal
      FROM products p LEFT JOIN depositos d ON d.business_id = p.business_id AND d.id = ${depositoOf(c)}
     WHERE p.business_id = ${c.businessId} AND p.id = ${c.productId}
       FOR UPDATE OF p`);
  const p = locked[0];
  if (!p) throw c.notFoundError ? c.notFoundError() : notFound(PRODUCT_MESSAGES.notFound);
  if (!p.deposito_id) throw notFound(DEPOSITO_MESSAGES.notFound);
  if (!p.controla) {
    if (c.untracked === 'refuse') throw conflict('UNTRACKED_STOCK', PRODUCT_MESSAGES.untracked(p.nombre));
    const stock = toMilli(p.stock);
    return { movimientoId: null, nombre: p.nombre, stockAnterior: stock, stockActual: stock, fecha: new Date() };
  }
  const deposito = { id: p.deposito_id, principal: p.principal === true };
  const enDeposito = depositoStockSql(c.businessId, deposito, sql`${c.productId}::uuid`, sql`p.stock_actual`);
  const { rows } = await tx.execute<{
    movimiento_id: string;
    fecha: Date | string;
    stock_resultante: string;
    disponible: string;
  }>(sql`
    WITH cur AS (
      SELECT ${enDeposito} AS disponible FROM products p WHERE p.business_id = ${c.businessId} AND p.id = ${c.productId}
    ), ok AS (
      SELECT ${c.productId}::uuid AS producto_id, ${n}::numeric AS cantidad FROM cur
       WHERE ${n}::numeric >= 0 OR cur.disponible + ${n}::numeric >= 0
    ), sdep AS (${deposito.principal ? sql`SELECT 1` : depositoStockUpsertSql(c.businessId, deposito, sql`FROM ok`)}
    ), upd AS (
      UPDATE products pr SET stock_actual = pr.stock_actual + ok.cantidad, actualizado_en = now()
        FROM ok
       WHERE pr.business_id = ${c.businessId} AND pr.id = ok.producto_id
       RETURNING pr.id, pr.stock_actual
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
        depositoId: sql`${deposito.id}::uuid`,
      },
      sql`FROM upd`,
    )})
    SELECT mov.id AS movimiento_id, mov.fecha, mov.stock_resultante, cur.disponible::text AS disponible
      FROM cur LEFT JOIN mov ON true`);
  const row = rows[0];
  if (!row?.movimiento_id) {
    const message = c.insufficientMessage ?? ((x) => PRODUCT_MESSAGES.negativeAdjustment(x.nombre));
    throw new AppError(
      409,
      'INSUFFICIENT_STOCK',
      message({ nombre: p.nombre, disponible: Number(row?.disponible ?? 0) }),
    );
  }
  const stockActual = toMilli(row.stock_resultante);
  const result: StockChangeResult = {
    movimientoId: row.movimiento_id,
    nombre: p.nombre,
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
        ...(deposito.principal ? {} : { deposito_id: deposito.id }),
      },
    });
  }
  return result;
}

/**
 * Several products' stock moved in one depósito in one statement (transferencias, remitos):
 * [product id, thousandths to add] in ascending id order, on product rows the caller already
 * locked and checked (the stock of a decrease is there). The total and, for a depósito other
 * than the principal, its stock_depositos row move together, each with its stock movement.
 * Products that do not track stock are left alone.
 */
export async function moveDepositoStock(
  tx: Executor,
  businessId: string,
  userId: string | null,
  deposito: { id: string; principal: boolean },
  changes: [string, number][],
  m: { origen: StockOrigin; motivo: string; referenciaId: string },
): Promise<void> {
  if (!changes.length) return;
  const values = sql`(VALUES ${sql.join(
    changes.map(([id, q]) => sql`(${id}::uuid, ${milliToDecimal(q)}::numeric)`),
    sql`, `,
  )}) AS v (producto_id, cantidad)`;
  await tx.execute(sql`WITH st AS (
        UPDATE products p SET stock_actual = p.stock_actual + v.cantidad, actualizado_en = now()
          FROM ${values}
         WHERE p.business_id = ${businessId} AND p.id = v.producto_id AND p.controla_stock
        RETURNING p.id, p.stock_actual, v.cantidad
      )${
        deposito.principal
          ? sql``
          : sql`, sdep AS (${depositoStockUpsertSql(
              businessId,
              deposito,
              sql`FROM (SELECT st.id AS producto_id, st.cantidad FROM st) AS x`,
            )})`
      } ${stockMovementsInsertSql(
        businessId,
        userId,
        {
          productoId: sql`st.id`,
          origen: sql`${m.origen}`,
          cantidad: sql`st.cantidad`,
          stockResultante: sql`st.stock_actual`,
          motivo: sql`${m.motivo}::text`,
          referenciaId: sql`${m.referenciaId}::uuid`,
          depositoId: sql`${deposito.id}::uuid`,
        },
        sql`FROM st ORDER BY st.id`,
      )}`);
}

/**
 * The products' stock in a depósito (thousandths by product id): read in its own statement after
 * the products are locked, so it sees every change committed before (decision 0059). A document
 * that takes its stock from a depósito (a remito, a transferencia) checks this.
 */
export async function stockInDeposito(
  tx: Executor,
  businessId: string,
  deposito: { id: string; principal: boolean },
  ids: string[],
): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const { rows } = await tx.execute<{ id: string; stock: string }>(
    sql`SELECT p.id, (${depositoStockSql(businessId, deposito, sql`p.id`, sql`p.stock_actual`)})::text AS stock
          FROM products p WHERE p.business_id = ${businessId} AND p.id = ANY(${`{${ids.join(',')}}`}::uuid[])`,
  );
  return new Map(rows.map((r) => [r.id, toMilli(r.stock)]));
}

/** The business's depósito named (the principal when none), or null when it is not the business's. */
export async function depositoNamed(tx: Executor, businessId: string, id: string | null | undefined) {
  const { rows } = await tx.execute<{ id: string; principal: boolean }>(
    id
      ? sql`SELECT id, principal FROM depositos WHERE business_id = ${businessId} AND id = ${id}::uuid`
      : sql`SELECT id, principal FROM depositos WHERE business_id = ${businessId} AND principal`,
  );
  return rows[0] ?? null;
}
