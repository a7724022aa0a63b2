import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rows } from '../caja/rows.js';

/*
 * Sucursales' and depósitos' statements (decision 0044 and 0059): every function takes the
 * business first. The principal depósito keeps no stock_depositos rows: its stock is the total
 * (products.stock_actual) less the other depósitos'.
 */

export async function sucursalRows(businessId: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT id, nombre, direccion, principal FROM sucursales WHERE business_id = ${businessId}
         ORDER BY principal DESC, lower(nombre)`,
  );
}

/** The depósitos with their sucursal's name: the principal first, then each sucursal's oldest first. */
export async function depositoRows(businessId: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT d.id, d.nombre, d.sucursal_id, s.nombre AS sucursal_nombre, d.principal
          FROM depositos d JOIN sucursales s ON s.business_id = d.business_id AND s.id = d.sucursal_id
         WHERE d.business_id = ${businessId}
         ORDER BY d.principal DESC, d.creado_en, d.id`,
  );
}

/** The cajas with their sucursal (null: the principal). */
export async function cajaSucursalRows(businessId: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT c.id, c.nombre, coalesce(c.sucursal_id,
               (SELECT s.id FROM sucursales s WHERE s.business_id = c.business_id AND s.principal)) AS sucursal_id
          FROM cajas c WHERE c.business_id = ${businessId} ORDER BY lower(c.nombre)`,
  );
}

export async function insertSucursal(
  businessId: string,
  s: { nombre: string; direccion: string | null },
  ex: Executor,
) {
  const [row] = await rows(
    ex,
    sql`INSERT INTO sucursales (business_id, nombre, direccion) VALUES (${businessId}, ${s.nombre}, ${s.direccion})
        RETURNING id`,
  );
  return row.id as string;
}

export async function updateSucursalRow(
  businessId: string,
  id: string,
  s: { nombre?: string; direccion?: string | null },
  ex: Executor,
) {
  const r = await rows(
    ex,
    sql`UPDATE sucursales SET nombre = coalesce(${s.nombre ?? null}::text, nombre),
               direccion = ${s.direccion === undefined ? sql`direccion` : sql`${s.direccion}::text`}
         WHERE business_id = ${businessId} AND id = ${id} RETURNING id`,
  );
  return r.length > 0;
}

/** The sucursal locked, with what keeps it from being deleted. */
export async function lockSucursal(businessId: string, id: string, ex: Executor) {
  const [row] = await rows(
    ex,
    sql`SELECT s.id, s.principal,
               (SELECT count(*) FROM cajas c WHERE c.business_id = s.business_id AND c.sucursal_id = s.id)::int AS cajas
          FROM sucursales s WHERE s.business_id = ${businessId} AND s.id = ${id} FOR UPDATE`,
  );
  return row;
}

/**
 * The depósito locked (depósitos `FOR UPDATE`), with its stock (any product not at 0) and whether
 * something records it (stock movements, transferencias).
 */
export async function lockDepositos(businessId: string, where: { id?: string; sucursalId?: string }, ex: Executor) {
  const cond = where.id ? sql`d.id = ${where.id}` : sql`d.sucursal_id = ${where.sucursalId}`;
  return rows(
    ex,
    sql`SELECT d.id, d.principal,
               EXISTS (SELECT 1 FROM stock_depositos sd
                        WHERE sd.business_id = d.business_id AND sd.deposito_id = d.id AND sd.stock <> 0) AS con_stock,
               (EXISTS (SELECT 1 FROM stock_movements m WHERE m.business_id = d.business_id AND m.deposito_id = d.id)
                OR EXISTS (SELECT 1 FROM transferencias t WHERE t.business_id = d.business_id
                            AND (t.origen_id = d.id OR t.destino_id = d.id))) AS con_movimientos
          FROM depositos d WHERE d.business_id = ${businessId} AND ${cond} FOR UPDATE OF d`,
  );
}

export async function deleteDepositoRows(businessId: string, ids: string[], ex: Executor) {
  if (!ids.length) return;
  const list = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  await ex.execute(sql`DELETE FROM stock_depositos WHERE business_id = ${businessId} AND deposito_id IN (${list})`);
  await ex.execute(sql`DELETE FROM depositos WHERE business_id = ${businessId} AND id IN (${list})`);
}

export async function deleteSucursalRow(businessId: string, id: string, ex: Executor) {
  await ex.execute(sql`DELETE FROM sucursales WHERE business_id = ${businessId} AND id = ${id}`);
}

export async function sucursalExists(businessId: string, id: string, ex: Executor) {
  return (await rows(ex, sql`SELECT 1 FROM sucursales WHERE business_id = ${businessId} AND id = ${id}`)).length > 0;
}

export async function insertDeposito(businessId: string, d: { nombre: string; sucursalId: string }, ex: Executor) {
  const [row] = await rows(
    ex,
    sql`INSERT INTO depositos (business_id, sucursal_id, nombre) VALUES (${businessId}, ${d.sucursalId}, ${d.nombre})
        RETURNING id`,
  );
  return row.id as string;
}

export async function renameDeposito(businessId: string, id: string, nombre: string, ex: Executor) {
  const r = await rows(
    ex,
    sql`UPDATE depositos SET nombre = ${nombre} WHERE business_id = ${businessId} AND id = ${id} RETURNING id`,
  );
  return r.length > 0;
}

/** A product's stock in each depósito (empty when the product is not in the business). */
export async function productStockRows(businessId: string, productId: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT d.id AS deposito_id, d.nombre AS deposito_nombre, d.sucursal_id,
               (CASE WHEN d.principal
                     THEN p.stock_actual - coalesce((SELECT sum(o.stock) FROM stock_depositos o
                                                      WHERE o.business_id = p.business_id AND o.producto_id = p.id), 0)
                     ELSE coalesce(sd.stock, 0) END)::text AS stock
          FROM products p
          JOIN depositos d ON d.business_id = p.business_id
          LEFT JOIN stock_depositos sd ON sd.business_id = p.business_id AND sd.deposito_id = d.id AND sd.producto_id = p.id
         WHERE p.business_id = ${businessId} AND p.id = ${productId}
         ORDER BY d.principal DESC, d.creado_en, d.id`,
  );
}

/** Whether the depósito is the business's, and whether it is the principal (null: not found). */
export async function depositoKind(businessId: string, id: string, ex: Executor) {
  const [row] = await rows(ex, sql`SELECT principal FROM depositos WHERE business_id = ${businessId} AND id = ${id}`);
  return row ? { id, principal: row.principal as boolean } : null;
}
