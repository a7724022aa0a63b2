import { sql, type SQL } from 'drizzle-orm';
import { centsToDecimal, milliToDecimal, type RemitoListQuery } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import type { Row } from '../../db/pipeline.js';
import { auditRowsSql } from '../posting/audit.js';
import { moveDepositoStock } from '../posting/stock.js';
import type { DocLine } from '../presupuestos/precios-documento.js';

/*
 * The remitos' statements (decisions 0044, 0056): every function takes the business first. Their
 * stock moves through the posting module (moveDepositoStock, decision 0059), as a sale's does.
 */

const rows = async (ex: Executor, q: SQL) => (await ex.execute(q)).rows as Row[];
const uuids = (ids: string[]) => `{${ids.join(',')}}`;

/** Numbers never skip: one writer at a time per business takes the next (until commit). */
export async function nextRemitoNumero(businessId: string, ex: Executor): Promise<number> {
  await ex.execute(sql`SELECT pg_advisory_xact_lock(hashtext('remitos:' || ${businessId}))`);
  const [r] = await rows(
    ex,
    sql`SELECT coalesce(max(numero), 0) + 1 AS numero FROM remitos WHERE business_id = ${businessId}`,
  );
  return Number(r.numero);
}

export interface RemitoFields {
  numero: number;
  fecha: Date;
  clienteId: string;
  presupuestoId: string | null;
  subtotal: number;
  descuento: number;
  total: number;
  notas: string | null;
  userId: string;
}

export async function insertRemito(businessId: string, f: RemitoFields, lines: DocLine[], ex: Executor) {
  const [r] = await rows(
    ex,
    sql`INSERT INTO remitos (business_id, numero, fecha, cliente_id, presupuesto_id, subtotal, descuento, total, notas,
                             usuario_id)
        VALUES (${businessId}, ${f.numero}, ${f.fecha.toISOString()}::timestamptz, ${f.clienteId}, ${f.presupuestoId}::uuid,
                ${centsToDecimal(f.subtotal)}::numeric, ${centsToDecimal(f.descuento)}::numeric,
                ${centsToDecimal(f.total)}::numeric, ${f.notas}, ${f.userId})
        RETURNING id`,
  );
  const id = r.id as string;
  const values = lines.map(
    (
      l,
    ) => sql`(${businessId}::uuid, ${id}::uuid, ${l.posicion}::int, ${l.tipo}, ${l.tipo === 'producto' ? l.id : null}::uuid,
      ${l.tipo === 'servicio' ? l.id : null}::uuid, ${l.nombre}, ${milliToDecimal(l.cantidad)}::numeric,
      ${centsToDecimal(l.precio)}::numeric, ${centsToDecimal(l.descuento)}::numeric, ${centsToDecimal(l.subtotal)}::numeric)`,
  );
  await ex.execute(sql`INSERT INTO remito_items (business_id, remito_id, posicion, tipo, producto_id, servicio_id, nombre,
                         cantidad, precio_unitario, descuento, subtotal)
      VALUES ${sql.join(values, sql`, `)}`);
  return id;
}

/**
 * The stock a remito moves ([product id, thousandths] in ascending id order, checked before on the
 * locked rows) in one depósito (decision 0059): out on delivery (`remito`, negative), back when it
 * is voided (`anulacion`, positive). Products that do not track stock are left alone.
 */
export async function moveRemitoStock(
  businessId: string,
  userId: string,
  remitoId: string,
  deposito: { id: string; principal: boolean },
  changes: [string, number][],
  o: { origen: 'remito' | 'anulacion'; motivo: string },
  ex: Executor,
) {
  const sign = o.origen === 'remito' ? -1 : 1;
  await moveDepositoStock(
    ex,
    businessId,
    userId,
    deposito,
    changes.map(([id, q]) => [id, sign * q]),
    { origen: o.origen, motivo: o.motivo, referenciaId: remitoId },
  );
}

/** What the remito took out ([product id, thousandths taken] in id order, with the depósito), to give back. */
export async function stockTakenByRemito(businessId: string, remitoId: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT m.producto_id, m.deposito_id, d.principal, (-sum(m.cantidad))::text AS cantidad
          FROM stock_movements m JOIN depositos d ON d.business_id = m.business_id AND d.id = m.deposito_id
         WHERE m.business_id = ${businessId} AND m.referencia_id = ${remitoId} AND m.origen = 'remito'
         GROUP BY m.producto_id, m.deposito_id, d.principal ORDER BY m.producto_id`,
  );
}

const remitoSelect = sql`SELECT r.id, r.numero, r.fecha, r.estado, r.cliente_id,
               concat_ws(' ', c.nombre, c.apellido) AS cliente_nombre, r.total::text AS total,
               r.venta_id, s.numero AS venta_numero`;
const remitoJoins = sql`FROM remitos r
          JOIN customers c ON c.business_id = r.business_id AND c.id = r.cliente_id
          LEFT JOIN sales s ON s.business_id = r.business_id AND s.id = r.venta_id`;

/** The remito with its customer, sale, presupuesto and people, optionally locked. */
export async function remitoRow(businessId: string, id: string, ex: Executor, lock = false) {
  const [r] = await rows(
    ex,
    sql`${remitoSelect}, r.subtotal::text AS subtotal, r.descuento::text AS descuento, r.notas, r.presupuesto_id,
               p.numero AS presupuesto_numero, r.facturado_en, r.anulado_en, r.anulado_por, ua.nombre AS anulado_por_nombre,
               r.motivo_anulacion, r.usuario_id, u.nombre AS usuario_nombre
          FROM remitos r
          JOIN customers c ON c.business_id = r.business_id AND c.id = r.cliente_id
          LEFT JOIN sales s ON s.business_id = r.business_id AND s.id = r.venta_id
          LEFT JOIN presupuestos p ON p.business_id = r.business_id AND p.id = r.presupuesto_id
          LEFT JOIN users u ON u.id = r.usuario_id
          LEFT JOIN users ua ON ua.id = r.anulado_por
         WHERE r.business_id = ${businessId} AND r.id = ${id}
        ${lock ? sql`FOR UPDATE OF r` : sql``}`,
  );
  return r;
}

/** The lines of some remitos, by remito number and position. */
export function remitoItemRows(businessId: string, ids: string[], ex: Executor) {
  return rows(
    ex,
    sql`SELECT ri.remito_id, ri.posicion, ri.tipo, ri.producto_id, ri.servicio_id, ri.nombre, ri.cantidad::text AS cantidad,
               ri.precio_unitario::text AS precio_unitario, ri.descuento::text AS descuento, ri.subtotal::text AS subtotal
          FROM remito_items ri
          JOIN remitos r ON r.business_id = ri.business_id AND r.id = ri.remito_id
         WHERE ri.business_id = ${businessId} AND ri.remito_id = ANY(${uuids(ids)}::uuid[])
         ORDER BY r.numero, ri.posicion`,
  );
}

/** Some remitos of the business (those of another business are simply not there). */
export function remitosByIds(businessId: string, ids: string[], ex: Executor) {
  return rows(
    ex,
    sql`SELECT r.id, r.numero, r.estado, r.cliente_id, r.descuento::text AS descuento FROM remitos r
         WHERE r.business_id = ${businessId} AND r.id = ANY(${uuids(ids)}::uuid[]) ORDER BY r.numero`,
  );
}

/**
 * A voided sale's remitos back to pendiente (decision 0056): locked in id order (as invoicing locks
 * them), unlinked from the sale, each with its `pendiente` event naming the sale. Their stock stays
 * out: the goods were delivered. The remitos' numbers, in order (none for a sale of the counter).
 */
export async function remitosVuelvenAPendiente(
  businessId: string,
  userId: string,
  saleId: string,
  motivo: string,
  ex: Executor,
): Promise<{ id: string; numero: number }[]> {
  const found = await rows(
    ex,
    sql`WITH lk AS (
          SELECT r.id FROM remitos r WHERE r.business_id = ${businessId} AND r.venta_id = ${saleId}
           ORDER BY r.id FOR UPDATE OF r
        ), up AS (
          UPDATE remitos r SET estado = 'pendiente', venta_id = NULL, facturado_en = NULL
            FROM lk
           WHERE r.business_id = ${businessId} AND r.id = lk.id AND r.venta_id = ${saleId}
          RETURNING r.id, r.numero
        ), ev AS (
          INSERT INTO remito_eventos (business_id, remito_id, estado, venta_id, motivo, usuario_id)
          SELECT ${businessId}::uuid, up.id, 'pendiente', ${saleId}::uuid, ${motivo}::text, ${userId}::uuid FROM up
        ), au AS (${auditRowsSql(businessId, userId, {
          entidad: 'remito',
          accion: 'desfacturar',
          entidadId: sql`up.id`,
          antes: sql`jsonb_build_object('estado', 'facturado', 'venta_id', ${saleId}::uuid)`,
          despues: sql`jsonb_build_object('numero', up.numero, 'estado', 'pendiente', 'motivo', ${motivo}::text)`,
          from: sql`FROM up`,
        })})
        SELECT id, numero FROM up ORDER BY numero`,
  );
  return found.map((r) => ({ id: r.id as string, numero: Number(r.numero) }));
}

/** A remito's invoicing history, oldest first, with the sale's number. */
export function remitoEventoRows(businessId: string, remitoId: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT e.estado, e.venta_id, s.numero AS venta_numero, e.motivo, e.creado_en, e.usuario_id, u.nombre AS usuario_nombre
          FROM remito_eventos e
          JOIN sales s ON s.business_id = e.business_id AND s.id = e.venta_id
          LEFT JOIN users u ON u.id = e.usuario_id
         WHERE e.business_id = ${businessId} AND e.remito_id = ${remitoId}
         ORDER BY e.creado_en, e.estado`,
  );
}

export async function remitoPage(businessId: string, q: RemitoListQuery, ex: Executor) {
  const where = [sql`r.business_id = ${businessId}`];
  if (q.cliente_id) where.push(sql`r.cliente_id = ${q.cliente_id}`);
  if (q.estado) where.push(sql`r.estado = ${q.estado}`);
  const cond = sql.join(where, sql` AND `);
  const [count] = await rows(ex, sql`SELECT count(*)::int AS n FROM remitos r WHERE ${cond}`);
  const list = await rows(
    ex,
    sql`${remitoSelect} ${remitoJoins} WHERE ${cond} ORDER BY r.numero DESC
         LIMIT ${q.limit} OFFSET ${q.offset}`,
  );
  return { total: count.n as number, list };
}

export async function markRemitoAnulado(
  businessId: string,
  id: string,
  userId: string,
  motivo: string | null,
  now: Date,
  ex: Executor,
) {
  await ex.execute(sql`UPDATE remitos r SET estado = 'anulado', anulado_en = ${now.toISOString()}::timestamptz,
         anulado_por = ${userId}, motivo_anulacion = ${motivo}
     WHERE r.business_id = ${businessId} AND r.id = ${id}`);
}

/* ---------------------------------------------------------------- inside record-sale (decision 0056) */

/** The remitos invoiced, locked in id order by the sale's first round trip (a second invoice waits here). */
export function lockRemitosSql(businessId: string, ids: string[]): SQL {
  return sql`SELECT r.id, r.numero, r.estado, r.cliente_id FROM remitos r
              WHERE r.business_id = ${businessId} AND r.id = ANY(${uuids(ids)}::uuid[])
              ORDER BY r.id FOR UPDATE OF r`;
}

/** `rf`: the remitos invoiced by the sale `s`; `rfe`: their events (migration 0071); `ra`: their audit rows. */
export function facturadosCtes(businessId: string, userId: string, ids: string[]): SQL {
  return sql`rf AS (
      UPDATE remitos r SET estado = 'facturado', venta_id = s.id, facturado_en = s.fecha
        FROM s
       WHERE r.business_id = ${businessId} AND r.id = ANY(${uuids(ids)}::uuid[])
      RETURNING r.id, r.numero, s.id AS venta_id, s.numero AS venta_numero
    ), rfe AS (
      INSERT INTO remito_eventos (business_id, remito_id, estado, venta_id, usuario_id)
      SELECT ${businessId}::uuid, rf.id, 'facturado', rf.venta_id, ${userId}::uuid FROM rf
    ), ra AS (${auditRowsSql(businessId, userId, {
      entidad: 'remito',
      accion: 'facturar',
      entidadId: sql`rf.id`,
      antes: sql`jsonb_build_object('estado', 'pendiente')`,
      despues: sql`jsonb_build_object('numero', rf.numero, 'estado', 'facturado', 'venta_id', rf.venta_id, 'venta_numero', rf.venta_numero)`,
      from: sql`FROM rf`,
    })})`;
}
