import { sql } from 'drizzle-orm';
import { centsToDecimal, type PaymentMethod } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { returnedToAccount, saldoOf } from './cuenta.js';
import { rows } from './rows.js';

/*
 * The customers' accounts' statements (decision 0044): every function takes the business first.
 * The cobros' income movements are written by the posting module.
 */

/** The customer (locked FOR UPDATE first when a payment is being taken) with its balance, or undefined. */
export async function customerBalanceRow(businessId: string, id: string, lock: boolean, ex: Executor) {
  // Locked first, read after: a statement sees what committed before it started (READ COMMITTED),
  // so the balance is read by the next statement, once a concurrent payment has committed.
  if (lock) await ex.execute(sql`SELECT 1 FROM customers WHERE business_id = ${businessId} AND id = ${id} FOR UPDATE`);
  const [c] = await rows(
    ex,
    sql`SELECT c.id, concat_ws(' ', c.nombre, c.apellido) AS nombre, c.limite_credito::text, ${saldoOf(sql`c`)}::text AS saldo
          FROM customers c WHERE c.business_id = ${businessId} AND c.id = ${id}`,
  );
  return c;
}

/** Sales on account, their voids, the cobros, the returns to the account and the bounced cheques, oldest first. */
export function cuentaMoveRows(businessId: string, clienteId: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT 'venta' AS tipo, s.fecha, s.numero, s.id, sum(sp.total)::text AS monto
          FROM sales s JOIN sale_payments sp ON sp.business_id = s.business_id AND sp.venta_id = s.id AND sp.tipo = 'cuenta_corriente'
         WHERE s.business_id = ${businessId} AND s.cliente_id = ${clienteId}
         GROUP BY s.id, s.business_id
        UNION ALL
        SELECT 'anulacion', s.anulada_en, s.numero, s.id, sum(sp.total)::text
          FROM sales s JOIN sale_payments sp ON sp.business_id = s.business_id AND sp.venta_id = s.id AND sp.tipo = 'cuenta_corriente'
         WHERE s.business_id = ${businessId} AND s.cliente_id = ${clienteId} AND s.estado = 'anulada'
         GROUP BY s.id, s.business_id
        UNION ALL
        SELECT 'cobro', k.fecha, k.numero, k.id, k.monto::text
          FROM cobros k WHERE k.business_id = ${businessId} AND k.cliente_id = ${clienteId}
        UNION ALL
        SELECT 'devolucion', d.fecha, d.numero, d.id, d.monto::text
          FROM devoluciones d WHERE d.business_id = ${businessId} AND d.cliente_id = ${clienteId} AND d.tipo = 'cuenta_corriente'
        UNION ALL
        SELECT 'cheque_rechazado', e.creado_en, CASE WHEN length(ch.numero) <= 9 THEN ch.numero::int ELSE 0 END, ch.id,
               e.deuda::text
          FROM cheque_eventos e JOIN cheques ch ON ch.business_id = e.business_id AND ch.id = e.cheque_id
         WHERE e.business_id = ${businessId} AND e.cliente_id = ${clienteId} AND e.deuda IS NOT NULL
        ORDER BY 2, 1 DESC, 3`,
  );
}

export async function findMedio(businessId: string, medioId: string, ex: Executor) {
  const [m] = await rows(
    ex,
    sql`SELECT id, nombre, tipo, activo FROM payment_methods WHERE business_id = ${businessId} AND id = ${medioId}`,
  );
  return m;
}

/** A cobro with the business's next receipt number (one at a time per business, held to commit). */
export async function insertCobro(
  businessId: string,
  k: {
    clienteId: string;
    now: Date;
    montoCents: number;
    medioPagoId: string;
    metodo: PaymentMethod;
    turnoId: string | null;
    userId: string;
    observaciones: string | null;
  },
  ex: Executor,
) {
  await ex.execute(sql`SELECT pg_advisory_xact_lock(hashtext('cobros:' || ${businessId}))`);
  const [row] = await rows(
    ex,
    sql`INSERT INTO cobros (business_id, cliente_id, numero, fecha, monto, medio_pago_id, metodo_pago, turno_id, usuario_id, observaciones)
        SELECT ${businessId}, ${k.clienteId}, coalesce(max(numero), 0) + 1, ${k.now.toISOString()}::timestamptz,
               ${centsToDecimal(k.montoCents)}::numeric, ${k.medioPagoId}, ${k.metodo}, ${k.turnoId}::uuid, ${k.userId},
               ${k.observaciones}
          FROM cobros WHERE business_id = ${businessId}
        RETURNING id, numero, fecha`,
  );
  return row;
}

/** A cobro with its medio's and user's names (its printed receipt), or undefined. */
export async function cobroRow(businessId: string, id: string, ex: Executor) {
  const [k] = await rows(
    ex,
    sql`SELECT k.id, k.numero, k.fecha, k.cliente_id, k.monto::text, k.medio_pago_id, m.nombre AS medio_nombre,
               k.turno_id, k.usuario_id, nullif(concat_ws(' ', u.nombre, u.apellido), '') AS usuario_nombre, k.observaciones
          FROM cobros k
          JOIN payment_methods m ON m.business_id = k.business_id AND m.id = k.medio_pago_id
          LEFT JOIN users u ON u.id = k.usuario_id
         WHERE k.business_id = ${businessId} AND k.id = ${id}`,
  );
  return k;
}

/** The business's system income category "Ventas", where cobros go. */
export async function salesCategory(businessId: string, ex: Executor) {
  const [cat] = await rows(
    ex,
    sql`SELECT id FROM finance_categories
         WHERE business_id = ${businessId} AND sistema AND tipo = 'ingreso' AND lower(nombre) = 'ventas' LIMIT 1`,
  );
  return cat;
}

/**
 * The customers who owe, with each of their debts (completed sales on account and bounced cheques
 * with their fees, decision 0057), oldest first.
 */
export function deudorRows(businessId: string, timezone: string, ex: Executor) {
  return rows(
    ex,
    sql`WITH owed AS (
          SELECT c.id, concat_ws(' ', c.nombre, c.apellido) AS nombre, c.limite_credito::text, ${saldoOf(sql`c`)} AS saldo,
                 ((SELECT coalesce(sum(k.monto), 0) FROM cobros k WHERE k.business_id = c.business_id AND k.cliente_id = c.id)
                  + ${returnedToAccount(sql`c`)})::text AS pagado
            FROM customers c WHERE c.business_id = ${businessId}
        ), debts AS (
          SELECT s.cliente_id, s.fecha, s.id, sum(sp.total) AS monto
            FROM sales s
            JOIN sale_payments sp ON sp.business_id = s.business_id AND sp.venta_id = s.id AND sp.tipo = 'cuenta_corriente'
           WHERE s.business_id = ${businessId} AND s.estado = 'completada'
           GROUP BY s.id, s.business_id
          UNION ALL
          SELECT e.cliente_id, e.creado_en, e.id, e.deuda FROM cheque_eventos e
           WHERE e.business_id = ${businessId} AND e.deuda IS NOT NULL
        )
        SELECT o.id, o.nombre, o.limite_credito, o.saldo::text, o.pagado, (d.fecha AT TIME ZONE ${timezone})::date::text AS dia,
               d.fecha, d.monto::text AS monto
          FROM owed o
          JOIN debts d ON d.cliente_id = o.id
         WHERE o.saldo > 0
         ORDER BY o.id, d.fecha, d.id`,
  );
}
