import { sql, type SQL } from 'drizzle-orm';
import { centsToDecimal, type ChequeEstado, type ChequeListQuery, type ChequeTipo } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { rows } from '../caja/rows.js';

/*
 * The cheques' statements (decision 0044 and 0057): every function takes the business first.
 * Finance movements and audit rows are the posting module's; a cheque's row changes only in
 * its state (setEstado), its history is cheque_eventos.
 */

/** A cheque's data as it is stored (money in cents). */
export interface NewCheque {
  tipo: ChequeTipo;
  electronico: boolean;
  banco: string;
  numero: string;
  fechaEmision: string | null;
  fechaPago: string;
  montoCents: number;
  libradorNombre: string | null;
  libradorCuit: string | null;
  estado: ChequeEstado;
  clienteId: string | null;
  proveedorId: string | null;
  ventaId?: string | null;
  cobroId?: string | null;
  observaciones: string | null;
}

export async function insertCheque(businessId: string, userId: string, c: NewCheque, ex: Executor) {
  const [row] = await rows(
    ex,
    sql`INSERT INTO cheques (business_id, tipo, electronico, banco, numero, fecha_emision, fecha_pago, monto,
                             librador_nombre, librador_cuit, estado, cliente_id, proveedor_id, venta_id, cobro_id,
                             observaciones, creado_por)
        VALUES (${businessId}, ${c.tipo}, ${c.electronico}, ${c.banco}, ${c.numero}, ${c.fechaEmision}::date,
                ${c.fechaPago}::date, ${centsToDecimal(c.montoCents)}::numeric, ${c.libradorNombre}, ${c.libradorCuit},
                ${c.estado}, ${c.clienteId}::uuid, ${c.proveedorId}::uuid, ${c.ventaId ?? null}::uuid,
                ${c.cobroId ?? null}::uuid, ${c.observaciones}, ${userId})
        RETURNING id`,
  );
  return row.id as string;
}

export interface NewEvento {
  chequeId: string;
  estado: ChequeEstado;
  anterior: ChequeEstado | null;
  fecha: string;
  proveedorId?: string | null;
  clienteId?: string | null;
  gastosCents?: number | null;
  deudaCents?: number | null;
  motivo?: string | null;
}

export async function insertEvento(businessId: string, userId: string, e: NewEvento, ex: Executor) {
  await ex.execute(
    sql`INSERT INTO cheque_eventos (business_id, cheque_id, estado, anterior, fecha, proveedor_id, cliente_id,
                                    gastos_bancarios, deuda, motivo, usuario_id)
        VALUES (${businessId}, ${e.chequeId}, ${e.estado}, ${e.anterior}, ${e.fecha}::date, ${e.proveedorId ?? null}::uuid,
                ${e.clienteId ?? null}::uuid,
                ${e.gastosCents == null ? null : centsToDecimal(e.gastosCents)}::numeric,
                ${e.deudaCents == null ? null : centsToDecimal(e.deudaCents)}::numeric, ${e.motivo ?? null}, ${userId})`,
  );
}

const chequeColumns = sql`ch.id, ch.tipo, ch.electronico, ch.banco, ch.numero, ch.fecha_emision::text AS fecha_emision,
       ch.fecha_pago::text AS fecha_pago, ch.monto::text AS monto, ch.librador_nombre, ch.librador_cuit, ch.estado,
       ch.cliente_id, concat_ws(' ', c.nombre, c.apellido) AS cliente_nombre, ch.proveedor_id, p.nombre AS proveedor_nombre,
       ch.venta_id, s.numero AS venta_numero, ch.cobro_id, k.numero AS cobro_numero, ch.observaciones, ch.creado_en`;

const chequeJoins = sql`LEFT JOIN customers c ON c.business_id = ch.business_id AND c.id = ch.cliente_id
       LEFT JOIN suppliers p ON p.business_id = ch.business_id AND p.id = ch.proveedor_id
       LEFT JOIN sales s ON s.business_id = ch.business_id AND s.id = ch.venta_id
       LEFT JOIN cobros k ON k.business_id = ch.business_id AND k.id = ch.cobro_id`;

function listWhere(businessId: string, q: ChequeListQuery): SQL {
  const parts: SQL[] = [sql`ch.business_id = ${businessId}`];
  if (q.estado) parts.push(sql`ch.estado = ${q.estado}`);
  if (q.tipo) parts.push(sql`ch.tipo = ${q.tipo}`);
  if (q.cliente_id) parts.push(sql`ch.cliente_id = ${q.cliente_id}`);
  if (q.proveedor_id) parts.push(sql`ch.proveedor_id = ${q.proveedor_id}`);
  if (q.venta_id) parts.push(sql`ch.venta_id = ${q.venta_id}`);
  if (q.vence_hasta) parts.push(sql`ch.fecha_pago <= ${q.vence_hasta}::date`);
  return sql.join(parts, sql` AND `);
}

/** A page of the cheques, by due date (the soonest first), and the count and sum of all that match. */
export function chequePage(businessId: string, q: ChequeListQuery, ex: Executor) {
  const where = listWhere(businessId, q);
  return Promise.all([
    rows(
      ex,
      sql`SELECT ${chequeColumns} FROM cheques ch ${chequeJoins}
           WHERE ${where}
           ORDER BY ch.fecha_pago, ch.creado_en, ch.id LIMIT ${q.limit} OFFSET ${q.offset}`,
    ),
    rows(ex, sql`SELECT count(*)::int AS n, coalesce(sum(ch.monto), 0)::text AS monto FROM cheques ch WHERE ${where}`),
  ]);
}

/** One cheque with its names, or undefined. */
export async function chequeRow(businessId: string, id: string, ex: Executor) {
  const [r] = await rows(
    ex,
    sql`SELECT ${chequeColumns} FROM cheques ch ${chequeJoins} WHERE ch.business_id = ${businessId} AND ch.id = ${id}`,
  );
  return r;
}

/** Its history, oldest first. */
export function eventoRows(businessId: string, chequeId: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT e.estado, e.anterior, e.fecha::text AS fecha, e.creado_en, e.usuario_id,
               nullif(concat_ws(' ', u.nombre, u.apellido), '') AS usuario_nombre, e.proveedor_id, p.nombre AS proveedor_nombre,
               e.motivo, e.gastos_bancarios::text AS gastos_bancarios, e.deuda::text AS deuda
          FROM cheque_eventos e
          LEFT JOIN users u ON u.id = e.usuario_id
          LEFT JOIN suppliers p ON p.business_id = e.business_id AND p.id = e.proveedor_id
         WHERE e.business_id = ${businessId} AND e.cheque_id = ${chequeId}
         ORDER BY e.creado_en, e.id`,
  );
}

/** The cheque locked for a change of state, or undefined. */
export async function lockCheque(businessId: string, id: string, ex: Executor) {
  const [r] = await rows(
    ex,
    sql`SELECT id, tipo, estado, monto::text AS monto, banco, numero, cliente_id, proveedor_id, venta_id, cobro_id
          FROM cheques WHERE business_id = ${businessId} AND id = ${id} FOR UPDATE`,
  );
  return r;
}

/**
 * The state changed from `desde` (a concurrent change that got there first leaves nothing to
 * change: the caller answers 409); `proveedorId` when it is endorsed. True when it changed.
 */
export async function setEstado(
  businessId: string,
  id: string,
  desde: ChequeEstado,
  estado: ChequeEstado,
  proveedorId: string | undefined,
  ex: Executor,
) {
  const changed = await rows(
    ex,
    sql`UPDATE cheques SET estado = ${estado}, actualizado_en = now()
               ${proveedorId ? sql`, proveedor_id = ${proveedorId}::uuid` : sql``}
         WHERE business_id = ${businessId} AND id = ${id} AND estado = ${desde}
        RETURNING id`,
  );
  return changed.length === 1;
}

/** The supplier's name, or undefined when it is not the business's. */
export async function supplierName(businessId: string, id: string, ex: Executor) {
  const [r] = await rows(ex, sql`SELECT nombre FROM suppliers WHERE business_id = ${businessId} AND id = ${id}`);
  return r?.nombre as string | undefined;
}

/** The supplier's pending payables, oldest first, locked (a payment of them waits for this one). */
export function lockSupplierPayables(businessId: string, proveedorId: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT id, compra_id, (monto - monto_pagado)::text AS falta, descripcion FROM finance_accounts
         WHERE business_id = ${businessId} AND proveedor_id = ${proveedorId} AND tipo = 'por_pagar' AND estado = 'pendiente'
         ORDER BY fecha_vencimiento, creado_en, id FOR UPDATE`,
  );
}

export async function insertChequePago(
  businessId: string,
  p: { chequeId: string; cuentaId: string; montoCents: number; fecha: string },
  ex: Executor,
) {
  await ex.execute(
    sql`INSERT INTO cheque_pagos (business_id, cheque_id, cuenta_id, monto, fecha)
        VALUES (${businessId}, ${p.chequeId}, ${p.cuentaId}, ${centsToDecimal(p.montoCents)}::numeric, ${p.fecha}::date)`,
  );
}

/**
 * What the cheque paid of each payable given back to it: the payable is pending again for that
 * much (a rejected endorsed cheque, a voided own cheque): the payables changed.
 */
export async function unpayChequePayables(businessId: string, chequeId: string, ex: Executor) {
  return rows(
    ex,
    sql`WITH paid AS (
          SELECT cuenta_id, sum(monto) AS monto FROM cheque_pagos
           WHERE business_id = ${businessId} AND cheque_id = ${chequeId} GROUP BY cuenta_id
        )
        UPDATE finance_accounts a
           SET monto_pagado = a.monto_pagado - paid.monto, estado = 'pendiente', fecha_pago = NULL, pagado_en = NULL,
               actualizado_en = now()
          FROM paid
         WHERE a.business_id = ${businessId} AND a.id = paid.cuenta_id
        RETURNING a.id, paid.monto::text AS monto`,
  );
}

/** The cheque's finance movements voided (a rejected endorsed cheque: neither the income nor the payments happened). */
export function voidChequeMovements(businessId: string, chequeId: string, ex: Executor) {
  return rows(
    ex,
    sql`UPDATE finance_movements SET anulado = true, actualizado_en = now()
         WHERE business_id = ${businessId} AND cheque_id = ${chequeId} AND NOT anulado
        RETURNING id`,
  );
}

/** The system categories a cheque's movements go in: income "Ventas" and the expense one (purchases). */
export async function chequeCategories(businessId: string, ex: Executor) {
  const [r] = await rows(
    ex,
    sql`SELECT (SELECT id FROM finance_categories
                 WHERE business_id = ${businessId} AND sistema AND tipo = 'ingreso' AND lower(nombre) = 'ventas' LIMIT 1) AS ventas,
               (SELECT id FROM finance_categories
                 WHERE business_id = ${businessId} AND sistema AND tipo = 'egreso' ORDER BY creado_en LIMIT 1) AS compras`,
  );
  return { ventas: (r?.ventas as string | null) ?? null, compras: (r?.compras as string | null) ?? null };
}

/** Third-party cheques in the cartera or deposited, and own cheques given, due on or before `hasta`. */
export function dueChequeRows(businessId: string, hasta: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT id, tipo, estado, banco, numero, fecha_pago::text AS fecha_pago, monto::text AS monto, librador_nombre,
               creado_en
          FROM cheques
         WHERE business_id = ${businessId} AND estado IN ('en_cartera', 'entregado') AND fecha_pago <= ${hasta}::date
         ORDER BY fecha_pago, creado_en LIMIT 50`,
  );
}

/** A third-party cheque received in a sale's payment (its amount is the part's total, cents). */
export interface SaleCheque {
  montoCents: number;
  electronico: boolean;
  banco: string;
  numero: string;
  fechaEmision: string | null;
  fechaPago: string;
  libradorNombre: string | null;
  libradorCuit: string | null;
}

/**
 * record-sale's common table expressions for the cheques its payments brought (decision 0057):
 * `ch`, the cheques into the cartera, the customer's and the sale's (`s`); `ce`, their first event.
 */
export function receivedChequesCtes(
  businessId: string,
  userId: string,
  r: { clienteId: string; fecha: string; cheques: SaleCheque[] },
): SQL {
  const values = r.cheques.map(
    (c, i) => sql`(${i}::int, ${c.electronico}::boolean, ${c.banco}::text, ${c.numero}::text, ${c.fechaEmision}::date,
      ${c.fechaPago}::date, ${centsToDecimal(c.montoCents)}::numeric, ${c.libradorNombre}::text, ${c.libradorCuit}::text)`,
  );
  return sql`ch AS (
      INSERT INTO cheques (business_id, tipo, electronico, banco, numero, fecha_emision, fecha_pago, monto,
                           librador_nombre, librador_cuit, estado, cliente_id, venta_id, creado_por)
      SELECT ${businessId}, 'tercero', v.electronico, v.banco, v.numero, v.fecha_emision, v.fecha_pago, v.monto,
             v.librador_nombre, v.librador_cuit, 'en_cartera', ${r.clienteId}::uuid, s.id, ${userId}::uuid
        FROM s, (VALUES ${sql.join(values, sql`, `)})
          AS v (posicion, electronico, banco, numero, fecha_emision, fecha_pago, monto, librador_nombre, librador_cuit)
       ORDER BY v.posicion
      RETURNING id
    ), ce AS (
      INSERT INTO cheque_eventos (business_id, cheque_id, estado, fecha, usuario_id)
      SELECT ${businessId}, ch.id, 'en_cartera', ${r.fecha}::date, ${userId}::uuid FROM ch
    )`;
}

/** The cheques a sale's payments brought, locked. */
export function lockSaleCheques(businessId: string, ventaId: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT id, estado, numero, banco FROM cheques
         WHERE business_id = ${businessId} AND venta_id = ${ventaId} ORDER BY id FOR UPDATE`,
  );
}
