import { sql, type SQL } from 'drizzle-orm';
import { centsToDecimal, milliToDecimal, type PresupuestoListQuery } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import type { Row } from '../../db/pipeline.js';
import { auditRowsSql } from '../posting/audit.js';
import type { DocLine } from './precios-documento.js';

/*
 * The presupuestos' statements (decisions 0044, 0056): every function takes the business first.
 * `estado` reads `vencido` for a borrador or enviado one whose `vence` day has passed (`hoy`, the
 * business's day).
 */

const rows = async (ex: Executor, q: SQL) => (await ex.execute(q)).rows as Row[];

const estadoLeido = (hoy: string) =>
  sql`CASE WHEN p.estado IN ('borrador', 'enviado') AND p.vence < ${hoy}::date THEN 'vencido' ELSE p.estado END`;

/** Numbers never skip: one writer at a time per business takes the next (until commit). */
export async function nextPresupuestoNumero(businessId: string, ex: Executor): Promise<number> {
  await ex.execute(sql`SELECT pg_advisory_xact_lock(hashtext('presupuestos:' || ${businessId}))`);
  const [r] = await rows(
    ex,
    sql`SELECT coalesce(max(numero), 0) + 1 AS numero FROM presupuestos WHERE business_id = ${businessId}`,
  );
  return Number(r.numero);
}

export interface PresupuestoFields {
  clienteId: string;
  fecha: string;
  validezDias: number;
  vence: string;
  subtotal: number;
  descuento: number;
  total: number;
  notas: string | null;
}

export async function insertPresupuesto(
  businessId: string,
  numero: number,
  f: PresupuestoFields,
  userId: string,
  ex: Executor,
): Promise<string> {
  const [r] = await rows(
    ex,
    sql`INSERT INTO presupuestos (business_id, numero, fecha, cliente_id, validez_dias, vence, subtotal, descuento, total,
                                  notas, usuario_id)
        VALUES (${businessId}, ${numero}, ${f.fecha}::date, ${f.clienteId}, ${f.validezDias}, ${f.vence}::date,
                ${centsToDecimal(f.subtotal)}::numeric, ${centsToDecimal(f.descuento)}::numeric,
                ${centsToDecimal(f.total)}::numeric, ${f.notas}, ${userId})
        RETURNING id`,
  );
  return r.id as string;
}

/** An edit: the fields again, back to borrador (an edited quote is a new draft of it). */
export async function updatePresupuesto(businessId: string, id: string, f: PresupuestoFields, ex: Executor) {
  await ex.execute(sql`UPDATE presupuestos p
       SET cliente_id = ${f.clienteId}, fecha = ${f.fecha}::date, validez_dias = ${f.validezDias}, vence = ${f.vence}::date,
           subtotal = ${centsToDecimal(f.subtotal)}::numeric, descuento = ${centsToDecimal(f.descuento)}::numeric,
           total = ${centsToDecimal(f.total)}::numeric, notas = ${f.notas}, estado = 'borrador', actualizado_en = now()
     WHERE p.business_id = ${businessId} AND p.id = ${id}`);
}

export async function deletePresupuestoItems(businessId: string, id: string, ex: Executor) {
  await ex.execute(
    sql`DELETE FROM presupuesto_items pi WHERE pi.business_id = ${businessId} AND pi.presupuesto_id = ${id}`,
  );
}

export async function insertPresupuestoItems(businessId: string, id: string, lines: DocLine[], ex: Executor) {
  const values = lines.map(
    (
      l,
    ) => sql`(${businessId}::uuid, ${id}::uuid, ${l.posicion}::int, ${l.tipo}, ${l.tipo === 'producto' ? l.id : null}::uuid,
      ${l.tipo === 'servicio' ? l.id : null}::uuid, ${l.nombre}, ${milliToDecimal(l.cantidad)}::numeric,
      ${centsToDecimal(l.precio)}::numeric, ${centsToDecimal(l.precioLista)}::numeric,
      ${centsToDecimal(l.descuento)}::numeric, ${centsToDecimal(l.subtotal)}::numeric)`,
  );
  await ex.execute(sql`INSERT INTO presupuesto_items (business_id, presupuesto_id, posicion, tipo, producto_id, servicio_id,
                         nombre, cantidad, precio_unitario, precio_lista, descuento, subtotal)
      VALUES ${sql.join(values, sql`, `)}`);
}

/** The presupuesto with its customer, sale and remito numbers and author, optionally locked. */
export async function presupuestoRow(businessId: string, id: string, hoy: string, ex: Executor, lock = false) {
  const [r] = await rows(
    ex,
    sql`SELECT p.id, p.numero, p.fecha::text AS fecha, p.vence::text AS vence, p.validez_dias, p.estado AS guardado,
               ${estadoLeido(hoy)} AS estado, p.cliente_id, concat_ws(' ', c.nombre, c.apellido) AS cliente_nombre,
               p.subtotal::text AS subtotal, p.descuento::text AS descuento, p.total::text AS total, p.notas,
               p.venta_id, s.numero AS venta_numero, p.remito_id, r.numero AS remito_numero,
               p.usuario_id, u.nombre AS usuario_nombre, p.creado_en, p.actualizado_en
          FROM presupuestos p
          JOIN customers c ON c.business_id = p.business_id AND c.id = p.cliente_id
          LEFT JOIN sales s ON s.business_id = p.business_id AND s.id = p.venta_id
          LEFT JOIN remitos r ON r.business_id = p.business_id AND r.id = p.remito_id
          LEFT JOIN users u ON u.id = p.usuario_id
         WHERE p.business_id = ${businessId} AND p.id = ${id}
        ${lock ? sql`FOR UPDATE OF p` : sql``}`,
  );
  return r;
}

export function presupuestoItemRows(businessId: string, id: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT pi.posicion, pi.tipo, pi.producto_id, pi.servicio_id, pi.nombre, pi.cantidad::text AS cantidad,
               pi.precio_unitario::text AS precio_unitario, pi.precio_lista::text AS precio_lista,
               pi.descuento::text AS descuento, pi.subtotal::text AS subtotal
          FROM presupuesto_items pi
         WHERE pi.business_id = ${businessId} AND pi.presupuesto_id = ${id}
         ORDER BY pi.posicion`,
  );
}

export async function presupuestoPage(businessId: string, q: PresupuestoListQuery, hoy: string, ex: Executor) {
  const where = [sql`p.business_id = ${businessId}`];
  if (q.cliente_id) where.push(sql`p.cliente_id = ${q.cliente_id}`);
  if (q.estado) where.push(sql`${estadoLeido(hoy)} = ${q.estado}`);
  const cond = sql.join(where, sql` AND `);
  const [count] = await rows(ex, sql`SELECT count(*)::int AS n FROM presupuestos p WHERE ${cond}`);
  const list = await rows(
    ex,
    sql`SELECT p.id, p.numero, p.fecha::text AS fecha, p.vence::text AS vence, ${estadoLeido(hoy)} AS estado, p.cliente_id,
               concat_ws(' ', c.nombre, c.apellido) AS cliente_nombre, p.total::text AS total
          FROM presupuestos p
          JOIN customers c ON c.business_id = p.business_id AND c.id = p.cliente_id
         WHERE ${cond}
         ORDER BY p.numero DESC
         LIMIT ${q.limit} OFFSET ${q.offset}`,
  );
  return { total: count.n as number, list };
}

/** A state set by hand (enviado, aceptado, anulado), with its audit row. */
export async function setPresupuestoEstado(
  businessId: string,
  id: string,
  userId: string,
  antes: string,
  estado: string,
  ex: Executor,
) {
  await ex.execute(sql`WITH p AS (
      UPDATE presupuestos p SET estado = ${estado}, actualizado_en = now()
       WHERE p.business_id = ${businessId} AND p.id = ${id}
      RETURNING p.id, p.numero
    ) ${auditRowsSql(businessId, userId, {
      entidad: 'presupuesto',
      accion: estado === 'anulado' ? 'anular' : 'actualizar',
      entidadId: sql`p.id`,
      antes: sql`jsonb_build_object('estado', ${antes}::text)`,
      despues: sql`jsonb_build_object('numero', p.numero, 'estado', ${estado}::text)`,
      from: sql`FROM p`,
    })}`);
}

/** Marked convertido into a remito (in the remito's transaction). */
export async function markConvertedToRemito(businessId: string, id: string, remitoId: string, ex: Executor) {
  await ex.execute(sql`UPDATE presupuestos p SET estado = 'convertido', remito_id = ${remitoId}, actualizado_en = now()
     WHERE p.business_id = ${businessId} AND p.id = ${id}`);
}

/* ---------------------------------------------------------------- inside record-sale (decision 0056) */

/** The presupuesto locked by the sale's first round trip (a second conversion waits here). */
export function lockPresupuestoSql(businessId: string, id: string): SQL {
  return sql`SELECT p.id, p.estado, p.vence::text AS vence, p.actualizado_en FROM presupuestos p
              WHERE p.business_id = ${businessId} AND p.id = ${id} FOR UPDATE OF p`;
}

/** `pc`: the presupuesto converted into the sale `s`; `pa`: its audit row. */
export function convertedToSaleCtes(businessId: string, userId: string, id: string): SQL {
  return sql`pc AS (
      UPDATE presupuestos p SET estado = 'convertido', venta_id = s.id, actualizado_en = now()
        FROM s
       WHERE p.business_id = ${businessId} AND p.id = ${id}
      RETURNING p.id, p.numero, s.id AS venta_id, s.numero AS venta_numero
    ), pa AS (${auditRowsSql(businessId, userId, {
      entidad: 'presupuesto',
      accion: 'convertir',
      entidadId: sql`pc.id`,
      despues: sql`jsonb_build_object('numero', pc.numero, 'estado', 'convertido', 'venta_id', pc.venta_id, 'venta_numero', pc.venta_numero)`,
      from: sql`FROM pc`,
    })})`;
}
