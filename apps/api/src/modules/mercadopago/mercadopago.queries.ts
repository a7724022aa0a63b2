import { sql, type SQL } from 'drizzle-orm';
import { centsToDecimal, MERCADOPAGO_MEDIO } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { rows, type R } from '../caja/rows.js';

/*
 * Mercado Pago's statements (decision 0044): every function takes the business first and the
 * executor last, but for the two that find orders across businesses (the notifications and the
 * polling pass, run in the context of every business) — listed in tenant-statements.test.ts.
 */

const uuids = (ids: string[]) => `{${ids.join(',')}}`;
/** A text[] literal of any strings (quotes and backslashes escaped). */
const texts = (list: string[]) => `{${list.map((t) => `"${t.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;

/* ---------------------------------------------------------------- configuration */

export async function configRow(businessId: string, ex: Executor, lock = false) {
  const [r] = await rows(
    ex,
    sql`SELECT business_id, token_cifrado, webhook_secret_cifrado, medio_pago_id, actualizado_en
          FROM mercadopago_config WHERE business_id = ${businessId} ${lock ? sql`FOR UPDATE` : sql``}`,
  );
  return r as
    | {
        business_id: string;
        token_cifrado: string;
        webhook_secret_cifrado: string | null;
        medio_pago_id: string;
        actualizado_en: Date | string;
      }
    | undefined;
}

/** The cajas with an MP point of sale or terminal, in the business's caja order. */
export function configCajaRows(businessId: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT m.caja_id, c.nombre AS caja_nombre, m.pos_id, m.terminal_id
          FROM mercadopago_cajas m JOIN cajas c ON c.business_id = m.business_id AND c.id = m.caja_id
         WHERE m.business_id = ${businessId} ORDER BY lower(c.nombre)`,
  );
}

/** Which of `ids` are cajas of the business. */
export function cajasOf(businessId: string, ids: string[], ex: Executor) {
  return rows(
    ex,
    sql`SELECT id, nombre FROM cajas WHERE business_id = ${businessId} AND id = ANY(${uuids(ids)}::uuid[])`,
  );
}

export async function saveConfig(
  businessId: string,
  v: { tokenCifrado: string; webhookSecretCifrado: string | null; medioPagoId: string },
  ex: Executor,
) {
  await ex.execute(sql`
    INSERT INTO mercadopago_config (business_id, token_cifrado, webhook_secret_cifrado, medio_pago_id, actualizado_en)
    VALUES (${businessId}, ${v.tokenCifrado}, ${v.webhookSecretCifrado}, ${v.medioPagoId}, now())
    ON CONFLICT (business_id) DO UPDATE
      SET token_cifrado = excluded.token_cifrado, webhook_secret_cifrado = excluded.webhook_secret_cifrado,
          medio_pago_id = excluded.medio_pago_id, actualizado_en = now()`);
}

/** The cajas' MP points of sale and terminals, replaced by `list`. */
export async function replaceConfigCajas(
  businessId: string,
  list: { cajaId: string; posId: string | null; terminalId: string | null }[],
  ex: Executor,
) {
  await ex.execute(sql`DELETE FROM mercadopago_cajas WHERE business_id = ${businessId}`);
  if (!list.length) return;
  await ex.execute(sql`
    INSERT INTO mercadopago_cajas (business_id, caja_id, pos_id, terminal_id)
    VALUES ${sql.join(
      list.map((c) => sql`(${businessId}, ${c.cajaId}::uuid, ${c.posId}, ${c.terminalId})`),
      sql`, `,
    )}`);
}

/**
 * The medio "Mercado Pago" the business's MP money is recorded with: the one configured before if
 * it still exists, else the one of that name, else a new one (tipo qr); active either way.
 */
export async function ensureMedio(businessId: string, configured: string | null, ex: Executor) {
  if (configured) {
    const [m] = await rows(
      ex,
      sql`UPDATE payment_methods SET activo = true, actualizado_en = now()
           WHERE business_id = ${businessId} AND id = ${configured} RETURNING id, nombre, tipo`,
    );
    if (m) return m as { id: string; nombre: string; tipo: string };
  }
  await ex.execute(sql`
    INSERT INTO payment_methods (business_id, nombre, tipo, orden)
    SELECT ${businessId}, ${MERCADOPAGO_MEDIO}, 'qr',
           coalesce((SELECT max(orden) FROM payment_methods WHERE business_id = ${businessId}), 0) + 1
    ON CONFLICT DO NOTHING`);
  const [m] = await rows(
    ex,
    sql`UPDATE payment_methods SET activo = true, actualizado_en = now()
         WHERE business_id = ${businessId} AND lower(nombre) = lower(${MERCADOPAGO_MEDIO}) RETURNING id, nombre, tipo`,
  );
  return m as { id: string; nombre: string; tipo: string };
}

/* ---------------------------------------------------------------- orders */

/** The caja an order is for, with its MP point of sale and terminal. */
export async function cajaForOrden(businessId: string, cajaId: string, ex: Executor) {
  const [r] = await rows(
    ex,
    sql`SELECT c.id, c.nombre, c.activa, m.pos_id, m.terminal_id
          FROM cajas c LEFT JOIN mercadopago_cajas m ON m.business_id = c.business_id AND m.caja_id = c.id
         WHERE c.business_id = ${businessId} AND c.id = ${cajaId}`,
  );
  return r as
    { id: string; nombre: string; activa: boolean; pos_id: string | null; terminal_id: string | null } | undefined;
}

export interface NewOrden {
  cajaId: string;
  tipo: 'qr' | 'point';
  montoCents: number;
  referencia: string;
  clave: string;
  mpOrdenId: string;
  mpEstado: string;
  mpEstadoDetalle: string | null;
  qrData: string | null;
  usuarioId: string;
}

/** The new order; a second insert of the same MP order (a retry) answers the first row's id. */
export async function insertOrden(businessId: string, o: NewOrden, ex: Executor): Promise<string> {
  const [r] = await rows(
    ex,
    sql`INSERT INTO mercadopago_ordenes (business_id, caja_id, tipo, monto, referencia, clave, mp_orden_id, mp_estado,
                                         mp_estado_detalle, qr_data, usuario_id)
        VALUES (${businessId}, ${o.cajaId}, ${o.tipo}, ${centsToDecimal(o.montoCents)}::numeric, ${o.referencia},
                ${o.clave}, ${o.mpOrdenId}, ${o.mpEstado}, ${o.mpEstadoDetalle}, ${o.qrData}, ${o.usuarioId})
        ON CONFLICT (business_id, mp_orden_id) DO UPDATE SET actualizado_en = mercadopago_ordenes.actualizado_en
        RETURNING id`,
  );
  return r.id as string;
}

const selectOrden = sql`
  SELECT o.id, o.business_id, o.caja_id, o.tipo, o.estado, o.monto::text, o.qr_data, o.referencia, o.clave,
         o.mp_orden_id, o.mp_estado, o.mp_estado_detalle, o.mp_pago_id, o.mp_pago_referencia, o.aprobada_tarde, o.creado_en,
         o.actualizado_en, o.verificado_en,
         (SELECT sp.venta_id FROM sale_payments sp
           WHERE sp.business_id = o.business_id AND sp.mercadopago_orden_id = o.id) AS venta_id
    FROM mercadopago_ordenes o`;

export type OrdenRow = R & {
  id: string;
  business_id: string;
  caja_id: string;
  tipo: 'qr' | 'point';
  estado: string;
  monto: string;
  mp_orden_id: string;
  mp_pago_id: string | null;
  aprobada_tarde: boolean;
  venta_id: string | null;
};

export async function ordenRow(businessId: string, id: string, ex: Executor, lock = false) {
  const [r] = await rows(
    ex,
    sql`${selectOrden} WHERE o.business_id = ${businessId} AND o.id = ${id} ${lock ? sql`FOR UPDATE OF o` : sql``}`,
  );
  return r as OrdenRow | undefined;
}

/** The refunds of orders `ids`, oldest first. */
export function reembolsoRows(businessId: string, ids: string[], ex: Executor) {
  return rows(
    ex,
    sql`SELECT id, orden_id, origen, monto::text, venta_id, devolucion_id, creado_en
          FROM mercadopago_reembolsos
         WHERE business_id = ${businessId} AND orden_id = ANY(${uuids(ids)}::uuid[])
         ORDER BY creado_en, id`,
  );
}

/**
 * What MP said of a pending order: its state here moves only from pendiente (a late answer
 * finds it moved already and changes nothing). Answers whether it moved.
 */
export async function moveOrden(
  businessId: string,
  id: string,
  v: {
    estado: string;
    mpEstado: string;
    mpEstadoDetalle: string | null;
    mpPagoId: string | null;
    mpPagoReferencia: string | null;
    aprobada: boolean;
  },
  ex: Executor,
) {
  const r = await ex.execute(sql`
    UPDATE mercadopago_ordenes
       SET estado = ${v.estado}, mp_estado = ${v.mpEstado}, mp_estado_detalle = ${v.mpEstadoDetalle},
           mp_pago_id = coalesce(${v.mpPagoId}, mp_pago_id), mp_pago_referencia = coalesce(${v.mpPagoReferencia}, mp_pago_referencia),
           aprobada_en = CASE WHEN ${v.aprobada} THEN now() ELSE aprobada_en END,
           actualizado_en = now(), verificado_en = now()
     WHERE business_id = ${businessId} AND id = ${id} AND estado = 'pendiente'`);
  return (r.rowCount ?? 0) > 0;
}

/** The order was read from MP now (nothing new, or its MP status only). */
export async function touchOrden(
  businessId: string,
  id: string,
  mpEstado: string,
  detalle: string | null,
  ex: Executor,
) {
  await ex.execute(sql`
    UPDATE mercadopago_ordenes SET verificado_en = now(), mp_estado = ${mpEstado}, mp_estado_detalle = ${detalle}
     WHERE business_id = ${businessId} AND id = ${id}`);
}

/** MP approved an order already cancelled, expired or rejected here: marked, to be refunded. */
export async function markAprobadaTarde(
  businessId: string,
  id: string,
  v: { mpPagoId: string | null; mpPagoReferencia: string | null },
  ex: Executor,
) {
  await ex.execute(sql`
    UPDATE mercadopago_ordenes
       SET aprobada_tarde = true, mp_pago_id = coalesce(${v.mpPagoId}, mp_pago_id),
           mp_pago_referencia = coalesce(${v.mpPagoReferencia}, mp_pago_referencia), actualizado_en = now()
     WHERE business_id = ${businessId} AND id = ${id} AND estado <> 'aprobada'`);
}

/**
 * The order MP's id names, in whatever business (the notifications come without one). Sent
 * in the context of every business by its only caller (webhook.ts).
 */
export async function ordenByMpId(mpOrdenId: string, ex: Executor) {
  const [r] = await rows(
    ex,
    sql`SELECT id, business_id FROM mercadopago_ordenes WHERE mp_orden_id = ${mpOrdenId} LIMIT 2`,
  );
  return r as { id: string; business_id: string } | undefined;
}

/**
 * The polling pass's work, across businesses (in the context of every business): orders still pending,
 * and approved-late ones not refunded yet, not read from MP since `antes`, oldest read first.
 */
export function ordenesPorVerificar(antes: Date, limit: number, ex: Executor) {
  return rows(
    ex,
    sql`SELECT o.id, o.business_id FROM mercadopago_ordenes o
         WHERE (o.estado = 'pendiente' OR (o.aprobada_tarde AND o.estado <> 'aprobada'))
           AND o.verificado_en < ${antes.toISOString()}::timestamptz
           AND NOT EXISTS (SELECT 1 FROM mercadopago_reembolsos r
                            WHERE r.business_id = o.business_id AND r.orden_id = o.id AND r.origen = 'aprobada_tarde')
         ORDER BY o.verificado_en LIMIT ${limit}`,
  ) as Promise<{ id: string; business_id: string }[]>;
}

/* ---------------------------------------------------------------- record-sale */

/**
 * What record-sale reads, in its first round trip, about the MP orders its payments name: the
 * orders (locked, so a concurrent sale with the same order waits), then — in their own statement,
 * after the lock — the sales that already hold them, and the business's MP medio.
 */
export function saleOrdenReads(businessId: string, ids: string[]): [string, SQL][] {
  const list = uuids(ids);
  return [
    [
      'mp_ordenes',
      sql`SELECT id, estado, monto::text FROM mercadopago_ordenes
           WHERE business_id = ${businessId} AND id = ANY(${list}::uuid[]) ORDER BY id FOR UPDATE`,
    ],
    [
      'mp_usadas',
      sql`SELECT mercadopago_orden_id AS id FROM sale_payments
           WHERE business_id = ${businessId} AND mercadopago_orden_id = ANY(${list}::uuid[])`,
    ],
    ['mp_config', sql`SELECT medio_pago_id FROM mercadopago_config WHERE business_id = ${businessId}`],
  ];
}

/* ---------------------------------------------------------------- refunds */

/** The MP orders that paid a sale, locked, with what was refunded of each. */
export function saleOrdenRows(businessId: string, ventaId: string, ex: Executor) {
  return rows(
    ex,
    sql`SELECT o.id, o.mp_orden_id, o.mp_pago_id, o.monto::text,
               coalesce((SELECT sum(r.monto) FROM mercadopago_reembolsos r
                          WHERE r.business_id = o.business_id AND r.orden_id = o.id), 0)::text AS reembolsado,
               (SELECT count(*) FROM mercadopago_reembolsos r
                 WHERE r.business_id = o.business_id AND r.orden_id = o.id)::int AS reembolsos
          FROM mercadopago_ordenes o
          JOIN sale_payments sp ON sp.business_id = o.business_id AND sp.mercadopago_orden_id = o.id
         WHERE o.business_id = ${businessId} AND sp.venta_id = ${ventaId}
         ORDER BY sp.posicion
         FOR UPDATE OF o`,
  ) as Promise<
    {
      id: string;
      mp_orden_id: string;
      mp_pago_id: string | null;
      monto: string;
      reembolsado: string;
      reembolsos: number;
    }[]
  >;
}

export async function insertReembolso(
  businessId: string,
  r: {
    ordenId: string;
    origen: 'devolucion' | 'anulacion' | 'aprobada_tarde';
    ventaId: string | null;
    devolucionId: string | null;
    montoCents: number;
    mpReembolsoId: string | null;
    mpEstado: string | null;
    clave: string;
    usuarioId: string | null;
  },
  ex: Executor,
) {
  await ex.execute(sql`
    INSERT INTO mercadopago_reembolsos (business_id, orden_id, origen, venta_id, devolucion_id, monto, mp_reembolso_id,
                                        mp_estado, clave, usuario_id)
    VALUES (${businessId}, ${r.ordenId}, ${r.origen}, ${r.ventaId}, ${r.devolucionId},
            ${centsToDecimal(r.montoCents)}::numeric, ${r.mpReembolsoId}, ${r.mpEstado}, ${r.clave}, ${r.usuarioId})`);
}

/* ---------------------------------------------------------------- conciliación */

/** The instants the business's calendar days `desde`..`hasta` run between (its time zone). */
export async function periodo(businessId: string, desde: string, hasta: string, ex: Executor) {
  const [r] = await rows(
    ex,
    sql`SELECT (${desde}::date::timestamp AT TIME ZONE z.tz) AS desde,
               ((${hasta}::date + 1)::timestamp AT TIME ZONE z.tz) AS hasta, z.tz AS timezone
          FROM (SELECT totales_zona(${businessId}::uuid) AS tz) z`,
  );
  return { desde: new Date(r.desde as string), hasta: new Date(r.hasta as string), timezone: r.timezone as string };
}

/**
 * The payments of completed sales made with the MP medio in [desde, hasta): each with its sale,
 * its MP order (if any) and what went back of that order through MP.
 */
export function ventasMpRows(businessId: string, medioId: string, desde: Date, hasta: Date, ex: Executor) {
  return rows(
    ex,
    sql`SELECT s.id AS venta_id, s.numero, s.fecha, sp.total::text, sp.mercadopago_orden_id AS orden_id,
               o.referencia, o.mp_pago_referencia,
               coalesce((SELECT sum(r.monto) FROM mercadopago_reembolsos r
                          WHERE r.business_id = sp.business_id AND r.orden_id = sp.mercadopago_orden_id), 0)::text
                 AS reembolsado
          FROM sale_payments sp
          JOIN sales s ON s.business_id = sp.business_id AND s.id = sp.venta_id
          LEFT JOIN mercadopago_ordenes o ON o.business_id = sp.business_id AND o.id = sp.mercadopago_orden_id
         WHERE sp.business_id = ${businessId} AND sp.medio_pago_id = ${medioId} AND s.estado = 'completada'
           AND s.fecha >= ${desde.toISOString()}::timestamptz AND s.fecha < ${hasta.toISOString()}::timestamptz
         ORDER BY s.fecha, sp.posicion`,
  );
}

/** The business's orders by MP payment id or external reference (to match MP's payments). */
export function ordenesPorPago(businessId: string, pagos: string[], referencias: string[], ex: Executor) {
  return rows(
    ex,
    sql`SELECT o.id, o.referencia, o.mp_pago_referencia,
               (SELECT sp.venta_id FROM sale_payments sp
                 WHERE sp.business_id = o.business_id AND sp.mercadopago_orden_id = o.id) AS venta_id
          FROM mercadopago_ordenes o
         WHERE o.business_id = ${businessId}
           AND (o.mp_pago_referencia = ANY(${texts(pagos)}::text[]) OR o.referencia = ANY(${texts(referencias)}::text[]))`,
  );
}
