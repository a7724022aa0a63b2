import { sql } from 'drizzle-orm';
import { milliToDecimal, type TransferenciaEstado } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { rows } from '../caja/rows.js';

/*
 * Transferencias' statements (decision 0044 and 0059): every function takes the business first.
 * The stock moves through the posting module (moveDepositoStock), on product rows locked here.
 */

const uuids = (ids: string[]) => `{${ids.join(',')}}`;

/** The products locked in ascending id order (as sales lock them: no deadlocks). */
export async function lockTransferProducts(businessId: string, ids: string[], ex: Executor) {
  return rows(
    ex,
    sql`SELECT id, nombre, controla_stock FROM products
         WHERE business_id = ${businessId} AND id = ANY(${uuids(ids)}::uuid[]) ORDER BY id FOR UPDATE`,
  );
}

/** The next number, one transferencia at a time per business (held until commit: no gaps). */
export async function nextTransferenciaNumero(businessId: string, ex: Executor) {
  await ex.execute(sql`SELECT pg_advisory_xact_lock(hashtext('transferencias:' || ${businessId}))`);
  const [{ numero }] = await rows(
    ex,
    sql`SELECT coalesce(max(numero), 0) + 1 AS numero FROM transferencias WHERE business_id = ${businessId}`,
  );
  return numero as number;
}

export async function insertTransferencia(
  businessId: string,
  userId: string,
  t: {
    numero: number;
    origenId: string;
    destinoId: string;
    observaciones: string | null;
    items: { productoId: string; nombre: string; cantidad: number }[];
  },
  ex: Executor,
) {
  const [row] = await rows(
    ex,
    sql`INSERT INTO transferencias (business_id, numero, origen_id, destino_id, estado, observaciones, creado_por)
        VALUES (${businessId}, ${t.numero}, ${t.origenId}, ${t.destinoId}, 'en_transito', ${t.observaciones}, ${userId})
        RETURNING id`,
  );
  const id = row.id as string;
  await ex.execute(sql`INSERT INTO transferencia_items (business_id, transferencia_id, posicion, producto_id, nombre, cantidad)
      VALUES ${sql.join(
        t.items.map(
          (i, n) =>
            sql`(${businessId}::uuid, ${id}::uuid, ${n}::int, ${i.productoId}::uuid, ${i.nombre}, ${milliToDecimal(i.cantidad)}::numeric)`,
        ),
        sql`, `,
      )}`);
  return id;
}

/** The transferencia locked (FOR UPDATE), with its depósitos' kinds. */
export async function lockTransferencia(businessId: string, id: string, ex: Executor) {
  const [row] = await rows(
    ex,
    sql`SELECT t.id, t.numero, t.estado, t.origen_id, t.destino_id, dd.principal AS destino_principal,
               dd.nombre AS destino_nombre
          FROM transferencias t
          JOIN depositos dd ON dd.business_id = t.business_id AND dd.id = t.destino_id
         WHERE t.business_id = ${businessId} AND t.id = ${id} FOR UPDATE OF t`,
  );
  return row;
}

export async function transferenciaItemRows(businessId: string, ids: string[], ex: Executor) {
  return rows(
    ex,
    sql`SELECT transferencia_id, producto_id, nombre, cantidad::text AS cantidad, cantidad_recibida::text AS cantidad_recibida
          FROM transferencia_items WHERE business_id = ${businessId} AND transferencia_id = ANY(${uuids(ids)}::uuid[])
         ORDER BY transferencia_id, posicion`,
  );
}

/** What arrived of each product ([product id, thousandths]), and the transferencia received. */
export async function markRecibida(
  businessId: string,
  userId: string,
  id: string,
  recibidas: [string, number][],
  ex: Executor,
) {
  await ex.execute(sql`UPDATE transferencia_items i SET cantidad_recibida = v.recibida
        FROM (VALUES ${sql.join(
          recibidas.map(([pid, q]) => sql`(${pid}::uuid, ${milliToDecimal(q)}::numeric)`),
          sql`, `,
        )}) AS v (producto_id, recibida)
       WHERE i.business_id = ${businessId} AND i.transferencia_id = ${id} AND i.producto_id = v.producto_id`);
  await ex.execute(sql`UPDATE transferencias SET estado = 'recibida', recibido_por = ${userId}, recibido_en = now()
       WHERE business_id = ${businessId} AND id = ${id}`);
}

const userName = (col: string) =>
  sql.raw(`(SELECT nullif(concat_ws(' ', u.nombre, u.apellido), '') FROM users u WHERE u.id = ${col})`);

/** The transferencias, newest first (one when `id` is given). */
export async function transferenciaRows(
  businessId: string,
  f: { id?: string; estado?: TransferenciaEstado; limit?: number },
  ex: Executor,
) {
  return rows(
    ex,
    sql`SELECT t.id, t.numero, t.estado, t.origen_id, o.nombre AS origen_nombre, t.destino_id, d.nombre AS destino_nombre,
               t.observaciones, t.creado_en, ${userName('t.creado_por')} AS creado_por_nombre,
               t.recibido_en, ${userName('t.recibido_por')} AS recibido_por_nombre
          FROM transferencias t
          JOIN depositos o ON o.business_id = t.business_id AND o.id = t.origen_id
          JOIN depositos d ON d.business_id = t.business_id AND d.id = t.destino_id
         WHERE t.business_id = ${businessId}
           ${f.id ? sql`AND t.id = ${f.id}` : sql``}
           ${f.estado ? sql`AND t.estado = ${f.estado}` : sql``}
         ORDER BY t.numero DESC LIMIT ${f.limit ?? 200}`,
  );
}
