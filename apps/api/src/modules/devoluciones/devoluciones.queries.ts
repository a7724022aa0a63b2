import { sql } from 'drizzle-orm';
import { centsToDecimal, milliToDecimal, type MedioTipo, type PaymentMethod } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { rows } from '../caja/rows.js';

/*
 * The returns' statements (decision 0044): every function takes the business first. Their money
 * and stock rows are written by the posting module.
 */

const selectDevolucion = sql`
  SELECT d.id, d.numero, d.fecha, d.venta_id, s.numero AS venta_numero, d.cliente_id,
         nullif(concat_ws(' ', c.nombre, c.apellido), '') AS cliente_nombre, d.medio_pago_id, pm.nombre AS medio_nombre,
         d.tipo, d.metodo_pago, d.monto::text, d.turno_id, d.motivo, d.usuario_id,
         (SELECT nullif(concat_ws(' ', u.nombre, u.apellido), '') FROM users u WHERE u.id = d.usuario_id) AS usuario_nombre
    FROM devoluciones d
    JOIN sales s ON s.business_id = d.business_id AND s.id = d.venta_id
    JOIN payment_methods pm ON pm.business_id = d.business_id AND pm.id = d.medio_pago_id
    LEFT JOIN customers c ON c.business_id = d.business_id AND c.id = d.cliente_id`;

/** The return (none or one row), with its sale's number, customer, medio and user names. */
export function findDevolucionRows(businessId: string, id: string, ex: Executor) {
  return rows(ex, sql`${selectDevolucion} WHERE d.business_id = ${businessId} AND d.id = ${id}`);
}

/** The returns of a sale, oldest first. */
export function saleDevolucionRows(businessId: string, ventaId: string, ex: Executor) {
  return rows(
    ex,
    sql`${selectDevolucion} WHERE d.business_id = ${businessId} AND d.venta_id = ${ventaId} ORDER BY d.numero`,
  );
}

/** The lines of the returns `ids`, in the order of the sale's lines. */
export function devolucionItemRows(businessId: string, ids: string[], ex: Executor) {
  return rows(
    ex,
    sql`SELECT di.devolucion_id, di.venta_item_id, i.tipo, i.producto_id, i.servicio_id, i.nombre, di.cantidad::text,
               i.precio_unitario::text, di.monto::text
          FROM devolucion_items di JOIN sale_items i ON i.business_id = di.business_id AND i.id = di.venta_item_id
         WHERE di.business_id = ${businessId} AND di.devolucion_id = ANY(${`{${ids.join(',')}}`}::uuid[])
         ORDER BY i.posicion`,
  );
}

export async function saleExists(businessId: string, ventaId: string, ex: Executor) {
  const [sale] = await rows(ex, sql`SELECT id FROM sales WHERE business_id = ${businessId} AND id = ${ventaId}`);
  return !!sale;
}

/* ---------------------------------------------------------------- idempotency keys */

const keyOf = (businessId: string, userId: string, clave: string) =>
  sql`business_id = ${businessId} AND user_id = ${userId} AND clave = ${clave}`;

/** Claims the key for a new request: false when it was already there. */
export async function insertReturnKey(
  businessId: string,
  k: { userId: string; clave: string; hash: string; now: Date },
  ex: Executor,
) {
  const claimed = await rows(
    ex,
    sql`INSERT INTO sale_idempotency_keys (business_id, user_id, clave, hash, status, respuesta, creado_en)
        VALUES (${businessId}, ${k.userId}, ${k.clave}, ${k.hash}, 0, '{}', ${k.now.toISOString()}::timestamptz)
        ON CONFLICT DO NOTHING RETURNING clave`,
  );
  return claimed.length > 0;
}

/** The key's stored answer, locked (a concurrent duplicate waits until the first one ends). */
export async function lockReturnKey(businessId: string, userId: string, clave: string, ex: Executor) {
  const where = keyOf(businessId, userId, clave);
  const [prev] = await rows(
    ex,
    sql`SELECT hash, status, respuesta, creado_en FROM sale_idempotency_keys WHERE ${where} FOR UPDATE`,
  );
  return prev;
}

/** Takes over an expired (or unanswered) key for this request. */
export async function retakeReturnKey(
  businessId: string,
  k: { userId: string; clave: string; hash: string; now: Date },
  ex: Executor,
) {
  const where = keyOf(businessId, k.userId, k.clave);
  await ex.execute(
    sql`UPDATE sale_idempotency_keys SET hash = ${k.hash}, status = 0, respuesta = '{}', venta_id = NULL,
               creado_en = ${k.now.toISOString()}::timestamptz WHERE ${where}`,
  );
}

/** Keeps the answer of the request that holds the key. */
export async function saveReturnAnswer(businessId: string, userId: string, clave: string, body: unknown, ex: Executor) {
  await ex.execute(
    sql`UPDATE sale_idempotency_keys SET status = 201, respuesta = ${JSON.stringify(body)}::jsonb
         WHERE business_id = ${businessId} AND user_id = ${userId} AND clave = ${clave}`,
  );
}

/* ---------------------------------------------------------------- returning */

/**
 * The sale, locked as FOR UPDATE would, and marked: the return's nota de crédito (if the sale was
 * invoiced) is reconciled by the sweep should the after-step never run (decision 0013).
 */
export async function lockSaleForReturn(businessId: string, ventaId: string, ex: Executor) {
  const [sale] = await rows(
    ex,
    sql`UPDATE sales SET conciliar = true
         WHERE business_id = ${businessId} AND id = ${ventaId}
     RETURNING id, numero, estado, cliente_id, total::text`,
  );
  return sale;
}

/** The sale's lines with what was returned of each before. */
export function saleLineRows(businessId: string, ventaId: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT i.id, i.nombre, i.producto_id, i.cantidad::text, i.subtotal::text, i.costo_total::text,
               coalesce(sum(di.cantidad), 0)::text AS devuelta, coalesce(sum(di.monto), 0)::text AS monto,
               coalesce(sum(di.subtotal), 0)::text AS dsub, coalesce(sum(di.costo), 0)::text AS dcosto
          FROM sale_items i LEFT JOIN devolucion_items di ON di.business_id = i.business_id AND di.venta_item_id = i.id
         WHERE i.business_id = ${businessId} AND i.venta_id = ${ventaId}
         GROUP BY i.id, i.business_id ORDER BY i.posicion`,
  );
}

export async function findMedio(businessId: string, medioId: string, ex: Executor) {
  const [m] = await rows(
    ex,
    sql`SELECT id, nombre, tipo, activo FROM payment_methods WHERE business_id = ${businessId} AND id = ${medioId}`,
  );
  return m;
}

/** The business's next return number, one at a time per business, held until commit: consecutive, without gaps. */
export async function nextDevolucionNumero(businessId: string, ex: Executor) {
  await ex.execute(sql`SELECT pg_advisory_xact_lock(hashtext('devoluciones:' || ${businessId}))`);
  const [{ numero }] = await rows(
    ex,
    sql`SELECT coalesce(max(numero), 0) + 1 AS numero FROM devoluciones WHERE business_id = ${businessId}`,
  );
  return numero as number;
}

/** The products whose stock the sale took (a product that did not track stock took none). */
export async function productsTakenBy(businessId: string, ventaId: string, ex: Executor) {
  return new Set(
    (
      await rows(
        ex,
        sql`SELECT DISTINCT producto_id FROM stock_movements
             WHERE business_id = ${businessId} AND referencia_id = ${ventaId} AND origen = 'venta'`,
      )
    ).map((r) => r.producto_id as string),
  );
}

/** Locks the customer as a sale or a cobro locks it. */
export async function lockCustomerForReturn(businessId: string, clienteId: string | null, ex: Executor) {
  await ex.execute(sql`SELECT 1 FROM customers WHERE business_id = ${businessId} AND id = ${clienteId} FOR UPDATE`);
}

export interface NewDevolucion {
  id: string;
  numero: number;
  ventaId: string;
  fecha: Date;
  montoCents: number;
  medioPagoId: string;
  metodo: PaymentMethod;
  tipo: MedioTipo;
  clienteId: string | null;
  turnoId: string | null;
  motivo: string | null;
  usuarioId: string;
}

export async function insertDevolucion(businessId: string, d: NewDevolucion, ex: Executor) {
  await ex.execute(
    sql`INSERT INTO devoluciones (id, business_id, numero, venta_id, fecha, monto, medio_pago_id, metodo_pago, tipo, cliente_id,
                                  turno_id, motivo, usuario_id)
        VALUES (${d.id}, ${businessId}, ${d.numero}, ${d.ventaId}, ${d.fecha.toISOString()}::timestamptz,
                ${centsToDecimal(d.montoCents)}::numeric, ${d.medioPagoId}, ${d.metodo}, ${d.tipo}, ${d.clienteId}::uuid, ${d.turnoId}::uuid,
                ${d.motivo}, ${d.usuarioId})`,
  );
}

/** The return's lines: quantity in thousandths, amounts in cents. */
export async function insertDevolucionItems(
  businessId: string,
  devolucionId: string,
  items: { ventaItemId: string; cantidad: number; monto: number; subtotal: number; costo: number }[],
  ex: Executor,
) {
  await ex.execute(
    sql`INSERT INTO devolucion_items (business_id, devolucion_id, venta_item_id, cantidad, monto, subtotal, costo)
        VALUES ${sql.join(
          items.map(
            (p) => sql`(${businessId}, ${devolucionId}, ${p.ventaItemId}, ${milliToDecimal(p.cantidad)}::numeric,
                        ${centsToDecimal(p.monto)}::numeric, ${centsToDecimal(p.subtotal)}::numeric,
                        ${centsToDecimal(p.costo)}::numeric)`,
          ),
          sql`, `,
        )}`,
  );
}
