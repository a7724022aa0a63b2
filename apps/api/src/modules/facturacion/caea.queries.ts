import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { caeas, comprobantes, facturacionConfig } from '../../db/schema/index.js';

/*
 * The statements of the CAEA contingency (decision 0047), each taking the business first
 * (decision 0044): the fortnights' CAEAs, the outage mark of the setup, the comprobantes issued
 * under a CAEA and their reports.
 */

export type CaeaRow = typeof caeas.$inferSelect;
type ComprobanteRow = typeof comprobantes.$inferSelect;

/** The CAEA row of a fortnight, if any (granted or refused). */
export async function caeaDeQuincena(businessId: string, periodo: number, orden: number, ex: Executor) {
  const [r] = await ex
    .select()
    .from(caeas)
    .where(and(eq(caeas.businessId, businessId), eq(caeas.periodo, periodo), eq(caeas.orden, orden)));
  return r ?? null;
}

/** Stores what ARCA answered for a fortnight: its CAEA, or why it was not granted. */
export async function guardarCaea(
  businessId: string,
  v: Omit<typeof caeas.$inferInsert, 'businessId' | 'intentadoEn' | 'creadoEn'>,
  intentadoEn: Date,
  ex: Executor,
) {
  const values = { ...v, businessId, intentadoEn };
  await ex
    .insert(caeas)
    .values(values)
    .onConflictDoUpdate({
      target: [caeas.businessId, caeas.periodo, caeas.orden],
      set: {
        cuit: values.cuit,
        entorno: values.entorno,
        caea: values.caea,
        vigDesde: values.vigDesde,
        vigHasta: values.vigHasta,
        topeInforme: values.topeInforme,
        errorCodigo: values.errorCodigo,
        errorMensaje: values.errorMensaje,
        intentadoEn,
      },
    });
}

/** The CAEA granted for a day (YYYY-MM-DD) to the CUIT in the environment. */
export async function caeaVigente(businessId: string, cuit: string, entorno: string, dia: string, ex: Executor) {
  const [r] = await ex
    .select()
    .from(caeas)
    .where(
      and(
        eq(caeas.businessId, businessId),
        eq(caeas.cuit, cuit),
        eq(caeas.entorno, entorno),
        sql`${caeas.caea} IS NOT NULL AND ${caeas.vigDesde} <= ${dia}::date AND ${caeas.vigHasta} >= ${dia}::date`,
      ),
    );
  return r ?? null;
}

/** The newest CAEAs with how many comprobantes each was used on. */
export async function caeasRecientes(businessId: string, limit: number, ex: Executor) {
  const rows = await ex
    .select({
      caea: caeas,
      usados: sql<number>`(SELECT count(*)::int FROM comprobantes c
                            WHERE c.business_id = ${caeas.businessId} AND c.emision = 'caea' AND c.cae = ${caeas.caea})`,
    })
    .from(caeas)
    .where(eq(caeas.businessId, businessId))
    .orderBy(desc(caeas.periodo), desc(caeas.orden))
    .limit(limit);
  return rows.map((r) => ({ ...r.caea, usados: Number(r.usados) }));
}

/** Granted CAEAs whose fortnight ended before `hoy`, never used, not yet informed without movement. */
export async function caeasSinUsar(businessId: string, cuit: string, hoy: string, ex: Executor) {
  return ex
    .select()
    .from(caeas)
    .where(
      and(
        eq(caeas.businessId, businessId),
        eq(caeas.cuit, cuit),
        sql`${caeas.caea} IS NOT NULL AND ${caeas.sinMovimiento} IS NULL AND ${caeas.vigHasta} < ${hoy}::date`,
        sql`NOT EXISTS (SELECT 1 FROM comprobantes c WHERE c.business_id = ${caeas.businessId}
                          AND c.emision = 'caea' AND c.cae = ${caeas.caea})`,
      ),
    );
}

export async function marcarSinMovimiento(
  businessId: string,
  k: { periodo: number; orden: number },
  v: { estado: 'informado' | 'rechazado'; puntoVenta: number; errorCodigo: string | null; errorMensaje: string | null },
  ex: Executor,
) {
  await ex
    .update(caeas)
    .set({
      sinMovimiento: v.estado,
      sinMovimientoPuntoVenta: v.puntoVenta,
      errorCodigo: v.errorCodigo,
      errorMensaje: v.errorMensaje,
    })
    .where(and(eq(caeas.businessId, businessId), eq(caeas.periodo, k.periodo), eq(caeas.orden, k.orden)));
}

/** WSFE did not answer: the outage began now unless it had begun before. */
export async function marcarWsfeCaido(businessId: string, ahora: Date, ex: Executor) {
  await ex
    .update(facturacionConfig)
    .set({ wsfeCaidoDesde: sql`coalesce(${facturacionConfig.wsfeCaidoDesde}, ${ahora.toISOString()}::timestamptz)` })
    .where(eq(facturacionConfig.businessId, businessId));
}

/** WSFE answered: no outage. */
export async function marcarWsfeResponde(businessId: string, ex: Executor) {
  await ex
    .update(facturacionConfig)
    .set({ wsfeCaidoDesde: null })
    .where(and(eq(facturacionConfig.businessId, businessId), sql`${facturacionConfig.wsfeCaidoDesde} IS NOT NULL`));
}

/** The next number of a CAEA punto de venta and type: it continues the business's own sequence there. */
export async function proximoNumeroCaea(businessId: string, cuit: string, pv: number, tipo: string, ex: Executor) {
  const [r] = await ex
    .select({ n: sql<number>`coalesce(max(${comprobantes.numero}), 0)::int` })
    .from(comprobantes)
    .where(
      and(
        eq(comprobantes.businessId, businessId),
        eq(comprobantes.emisorCuit, cuit),
        eq(comprobantes.puntoVenta, pv),
        eq(comprobantes.tipo, tipo),
      ),
    );
  return Number(r?.n ?? 0) + 1;
}

/** A pendiente comprobante (factura or nota) issued under the CAEA: its number there, the CAEA as its code, to report. */
export async function emitirConCaea(
  businessId: string,
  id: string,
  v: { puntoVenta: number; numero: number; fecha: string; caea: string; vence: string; generado: Date },
  ex: Executor,
) {
  const res = await ex
    .update(comprobantes)
    .set({
      puntoVenta: v.puntoVenta,
      numero: v.numero,
      fecha: v.fecha,
      // A service's payment is not due before the comprobante's own date.
      vencimientoPago: sql`CASE WHEN ${comprobantes.vencimientoPago} < ${v.fecha}::date THEN ${v.fecha}::date
                               ELSE ${comprobantes.vencimientoPago} END`,
      estado: 'autorizado',
      emision: 'caea',
      caeaInforme: 'pendiente',
      caeaGeneradoEn: v.generado,
      cae: v.caea,
      caeVencimiento: v.vence,
      enviadoEn: null,
      errorCodigo: null,
      errorMensaje: null,
      proximoIntento: null,
      actualizadoEn: v.generado,
    })
    .where(
      and(
        eq(comprobantes.businessId, businessId),
        eq(comprobantes.id, id),
        sql`${comprobantes.estado} = 'pendiente' AND ${comprobantes.numero} IS NULL`,
      ),
    );
  return (res.rowCount ?? 0) > 0;
}

/**
 * The comprobantes issued under a CAEA still to report, by punto de venta, type and number; a
 * number after a rejected one waits (ARCA takes them in sequence), as do the rows of `soloIds`.
 */
export async function porInformar(businessId: string, ex: Executor): Promise<ComprobanteRow[]> {
  return ex
    .select()
    .from(comprobantes)
    .where(
      and(
        eq(comprobantes.businessId, businessId),
        eq(comprobantes.caeaInforme, 'pendiente'),
        sql`NOT EXISTS (SELECT 1 FROM comprobantes r WHERE r.business_id = ${comprobantes.businessId}
                          AND r.caea_informe = 'rechazado' AND r.punto_venta = ${comprobantes.puntoVenta}
                          AND r.tipo = ${comprobantes.tipo} AND r.numero < ${comprobantes.numero})`,
      ),
    )
    .orderBy(comprobantes.puntoVenta, comprobantes.tipo, comprobantes.numero);
}

/**
 * Issued under a CAEA and pending or rejected when reported (the screen's list), each with the
 * deadline ARCA gave to report its CAEA (FchTopeInf), when known.
 */
export async function sinInformar(
  businessId: string,
  ex: Executor,
): Promise<(ComprobanteRow & { topeInforme: string | null })[]> {
  const rows = await ex
    .select({
      c: comprobantes,
      tope: sql<string | null>`(SELECT to_char(max(k.tope_informe), 'YYYY-MM-DD') FROM caeas k
                                 WHERE k.business_id = ${comprobantes.businessId} AND k.caea = ${comprobantes.cae})`,
    })
    .from(comprobantes)
    .where(and(eq(comprobantes.businessId, businessId), sql`${comprobantes.caeaInforme} IN ('pendiente', 'rechazado')`))
    .orderBy(comprobantes.puntoVenta, comprobantes.tipo, comprobantes.numero)
    .limit(200);
  return rows.map((r) => ({ ...r.c, topeInforme: r.tope }));
}

export async function comprobanteCaea(businessId: string, id: string, ex: Executor) {
  const [r] = await ex
    .select()
    .from(comprobantes)
    .where(and(eq(comprobantes.businessId, businessId), eq(comprobantes.id, id)));
  return r ?? null;
}

/** The outcome of a report: informado, or rechazado with ARCA's reason; `enviado` marks it as sent. */
export async function marcarInforme(
  businessId: string,
  id: string,
  v: { estado?: 'informado' | 'rechazado'; enviado?: Date; errorCodigo?: string | null; errorMensaje?: string | null },
  ex: Executor,
) {
  await ex
    .update(comprobantes)
    .set({
      ...(v.estado ? { caeaInforme: v.estado } : {}),
      ...(v.enviado ? { enviadoEn: v.enviado } : {}),
      ...(v.errorCodigo !== undefined ? { errorCodigo: v.errorCodigo } : {}),
      ...(v.errorMensaje !== undefined ? { errorMensaje: v.errorMensaje } : {}),
      actualizadoEn: new Date(),
    })
    .where(and(eq(comprobantes.businessId, businessId), eq(comprobantes.id, id)));
}
