import { createHash } from 'node:crypto';
import {
  centsToNumber,
  MERCADOPAGO_MEDIO,
  MERCADOPAGO_MESSAGES as M,
  MEDIO_TIPO_LABELS,
  ORDEN_ESTADO_LABELS,
  type MedioTipo,
  type MercadopagoConfig,
  type MercadopagoConfigOutput,
  type MercadopagoProbar,
  type Orden,
  type OrdenEstado,
  type OrdenOutput,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { AppError, conflict, invalid, notFound } from '../../lib/errors.js';
import { toCents } from '../products/common.js';
import { mpFailure } from './fallas.js';
import type { MercadoPago } from './mercadopago.js';
import * as mp from './mp-client.js';
import { MpError, MpUnavailableError } from './mp-client.js';
import {
  cajaForOrden,
  cajasOf,
  configCajaRows,
  configRow,
  ensureMedio,
  insertOrden,
  ordenRow,
  reembolsoRows,
  replaceConfigCajas,
  saveConfig,
  type OrdenRow,
} from './mercadopago.queries.js';

/** Where MP's notifications reach this server. */
export const WEBHOOK_PATH = '/api/v1/webhooks/mercadopago';

interface Ctx {
  businessId: string;
  userId: string;
}

const iso = (v: unknown) => new Date(v as string).toISOString();

/* ---------------------------------------------------------------- configuration */

export async function readConfig(ex: Executor, businessId: string, publicUrl: string): Promise<MercadopagoConfig> {
  const [cfg, cajas] = await Promise.all([configRow(businessId, ex), configCajaRows(businessId, ex)]);
  return {
    configurado: !!cfg,
    tiene_access_token: !!cfg?.token_cifrado,
    tiene_webhook_secret: !!cfg?.webhook_secret_cifrado,
    medio_pago_id: cfg?.medio_pago_id ?? null,
    cajas: cajas.map((c) => ({
      caja_id: c.caja_id as string,
      caja_nombre: c.caja_nombre as string,
      pos_id: (c.pos_id as string | null) ?? null,
      terminal_id: (c.terminal_id as string | null) ?? null,
    })),
    webhook_url: `${publicUrl}${WEBHOOK_PATH}`,
    actualizado_en: cfg ? iso(cfg.actualizado_en) : null,
  };
}

/**
 * The business's MP setup. The token (required the first time) and the webhook secret are kept
 * encrypted and never answered; every caja named must be the business's; the medio "Mercado
 * Pago" (tipo qr) is there, active, once it is saved.
 */
export async function putConfig(
  db: Db,
  m: MercadoPago,
  c: Ctx,
  input: MercadopagoConfigOutput,
  publicUrl: string,
): Promise<MercadopagoConfig> {
  return db.transaction(async (tx) => {
    const before = await configRow(c.businessId, tx, true);
    if (!before && !input.access_token) throw invalid('access_token', M.tokenRequired);
    const ids = input.cajas.map((x) => x.caja_id);
    const seen = new Set<string>();
    input.cajas.forEach((x, i) => {
      if (seen.has(x.caja_id)) throw invalid(`cajas.${i}.caja_id`, M.cajaRepeated);
      seen.add(x.caja_id);
      if (!x.pos_id && !x.terminal_id) throw invalid(`cajas.${i}.pos_id`, M.cajaSinNada);
    });
    const found = new Set((await cajasOf(c.businessId, ids, tx)).map((r) => r.id as string));
    input.cajas.forEach((x, i) => {
      if (!found.has(x.caja_id)) throw invalid(`cajas.${i}.caja_id`, M.cajaNotInBusiness);
    });
    const medio = await ensureMedio(c.businessId, before?.medio_pago_id ?? null, tx);
    if (medio.tipo !== 'qr') {
      throw conflict(
        'INVALID_STATE',
        `Ya hay un medio «${MERCADOPAGO_MEDIO}» de tipo ${MEDIO_TIPO_LABELS[medio.tipo as MedioTipo] ?? medio.tipo}: cambialo a «QR / billetera» para cobrar con Mercado Pago.`,
      );
    }
    await saveConfig(
      c.businessId,
      {
        tokenCifrado: input.access_token ? m.box.seal(input.access_token) : before!.token_cifrado,
        webhookSecretCifrado: input.webhook_secret
          ? m.box.seal(input.webhook_secret)
          : (before?.webhook_secret_cifrado ?? null),
        medioPagoId: medio.id,
      },
      tx,
    );
    const cajasAntes = await configCajaRows(c.businessId, tx);
    await replaceConfigCajas(
      c.businessId,
      input.cajas.map((x) => ({ cajaId: x.caja_id, posId: x.pos_id ?? null, terminalId: x.terminal_id ?? null })),
      tx,
    );
    const after = await readConfig(tx, c.businessId, publicUrl);
    // The change log never holds the token nor the secret: only whether they changed.
    await audit(tx, {
      businessId: c.businessId,
      userId: c.userId,
      entidad: 'mercadopago_config',
      entidadId: c.businessId,
      accion: before ? 'actualizar' : 'crear',
      antes: before
        ? {
            cajas: cajasAntes.map((x) => ({ caja_id: x.caja_id, pos_id: x.pos_id, terminal_id: x.terminal_id })),
            tiene_webhook_secret: !!before.webhook_secret_cifrado,
          }
        : null,
      despues: {
        cajas: after.cajas.map((x) => ({ caja_id: x.caja_id, pos_id: x.pos_id, terminal_id: x.terminal_id })),
        access_token_cambiado: !!input.access_token,
        webhook_secret_cambiado: !!input.webhook_secret,
        tiene_webhook_secret: after.tiene_webhook_secret,
        medio_pago_id: medio.id,
      },
    });
    return after;
  });
}

/** "Probar conexión": the account the token opens, its points of sale and Point terminals. */
export async function probar(db: Db, m: MercadoPago, businessId: string): Promise<MercadopagoProbar> {
  const call = await m.call(businessId, db);
  try {
    const me = await mp.usersMe(call);
    const [pos, terminals] = await Promise.all([
      mp.listPos(call).catch(() => ({ results: [] })),
      mp.listTerminals(call).catch(() => ({ data: { terminals: [] } })),
    ]);
    const nombre = me.nickname ?? String(me.id);
    return {
      ok: true,
      mensaje: M.probarOk(nombre),
      cuenta: { id: String(me.id), nombre },
      cajas_mp: (pos.results ?? []).map((p) => ({
        id: String(p.id),
        external_id: p.external_id ?? null,
        nombre: p.name ?? String(p.id),
      })),
      terminales: (terminals.data?.terminals ?? []).map((t) => ({
        id: t.id,
        external_pos_id: t.external_pos_id ?? null,
        modo: t.operating_mode ?? null,
      })),
    };
  } catch (e) {
    const mensaje =
      e instanceof MpUnavailableError
        ? M.unavailable
        : e instanceof MpError && e.status === 401
          ? M.tokenRejected
          : e instanceof MpError
            ? M.mpRefused(e.message)
            : null;
    if (!mensaje) throw e;
    return { ok: false, mensaje, cuenta: null, cajas_mp: [], terminales: [] };
  }
}

/* ---------------------------------------------------------------- orders */

export async function ordenOut(ex: Executor, businessId: string, row: OrdenRow): Promise<Orden> {
  const reembolsos = await reembolsoRows(businessId, [row.id], ex);
  const list = reembolsos.map((r) => ({
    id: r.id as string,
    origen: r.origen as 'devolucion' | 'anulacion' | 'aprobada_tarde',
    monto: Number(r.monto),
    venta_id: (r.venta_id as string | null) ?? null,
    devolucion_id: (r.devolucion_id as string | null) ?? null,
    creado_en: iso(r.creado_en),
  }));
  return {
    id: row.id,
    caja_id: row.caja_id,
    tipo: row.tipo,
    estado: row.estado as OrdenEstado,
    monto: Number(row.monto),
    qr_data: (row.qr_data as string | null) ?? null,
    referencia: row.referencia as string,
    mp_orden_id: row.mp_orden_id,
    venta_id: row.venta_id ?? null,
    reembolsado: centsToNumber(reembolsos.reduce((s, r) => s + toCents(r.monto as string), 0)),
    reembolsos: list,
    aprobada_tarde: row.aprobada_tarde,
    creado_en: iso(row.creado_en),
    actualizado_en: iso(row.actualizado_en),
  };
}

export async function getOrden(ex: Executor, businessId: string, id: string): Promise<Orden> {
  const row = await ordenRow(businessId, id, ex);
  if (!row) throw notFound(M.ordenNotFound);
  return ordenOut(ex, businessId, row);
}

/**
 * A new order at MP for a caja's QR or Point terminal. Its external_reference and
 * X-Idempotency-Key come from the request's Idempotency-Key (required): a retry after a lost
 * answer asks MP the same and gets the same order, never a second charge. MP is asked first;
 * only an order MP created is recorded.
 */
export async function crearOrden(
  db: Db,
  m: MercadoPago,
  c: Ctx,
  input: OrdenOutput,
  idempotencyKey: string | null,
): Promise<Orden> {
  if (!idempotencyKey) throw invalid('Idempotency-Key', M.idempotencyRequired);
  const call = await m.call(c.businessId, db);
  const caja = await cajaForOrden(c.businessId, input.caja_id, db);
  if (!caja) throw invalid('caja_id', M.cajaNotInBusiness);
  if (input.tipo === 'qr' && !caja.pos_id) throw invalid('caja_id', M.cajaSinPos(caja.nombre));
  if (input.tipo === 'point' && !caja.terminal_id) throw invalid('caja_id', M.cajaSinTerminal(caja.nombre));
  const h = createHash('sha256').update(`${c.businessId}|${c.userId}|${idempotencyKey}`).digest('hex');
  const referencia = `MOS-${h.slice(0, 32)}`;
  const clave = h;
  const amount = mp.mpAmount(input.monto);
  const body: mp.CreateOrderBody =
    input.tipo === 'qr'
      ? {
          type: 'qr',
          external_reference: referencia,
          expiration_time: 'PT15M',
          description: `Venta en ${caja.nombre}`.slice(0, 150),
          total_amount: amount,
          transactions: { payments: [{ amount }] },
          config: { qr: { external_pos_id: caja.pos_id!, mode: 'dynamic' } },
        }
      : {
          type: 'point',
          external_reference: referencia,
          expiration_time: 'PT15M',
          description: `Venta en ${caja.nombre}`.slice(0, 150),
          transactions: { payments: [{ amount }] },
          config: { point: { terminal_id: caja.terminal_id! } },
        };
  let o: mp.MpOrder;
  try {
    o = await mp.createOrder(call, body, clave);
  } catch (e) {
    throw mpFailure(e);
  }
  if (mp.mpCents(o.transactions?.payments?.[0]?.amount ?? o.total_amount) !== input.monto) {
    throw new AppError(503, 'UNAVAILABLE', M.mpRefused('la orden creada no es por el monto pedido'));
  }
  return db.transaction(async (tx) => {
    const id = await insertOrden(
      c.businessId,
      {
        cajaId: caja.id,
        tipo: input.tipo,
        montoCents: input.monto,
        referencia,
        clave,
        mpOrdenId: o.id,
        mpEstado: o.status,
        mpEstadoDetalle: o.status_detail ?? null,
        qrData: o.type_response?.qr_data ?? null,
        usuarioId: c.userId,
      },
      tx,
    );
    return getOrden(tx, c.businessId, id);
  });
}

/**
 * The cashier gives up a pending order: MP cancels it, or says why not (paid already: 409, the
 * sale is to be recorded with it; taken by the Point terminal: cancel it there).
 */
export async function cancelarOrden(db: Db, m: MercadoPago, c: Ctx, id: string): Promise<Orden> {
  const row = await ordenRow(c.businessId, id, db);
  if (!row) throw notFound(M.ordenNotFound);
  if (row.estado === 'cancelada') return ordenOut(db, c.businessId, row);
  if (row.estado === 'aprobada') throw conflict('INVALID_STATE', M.yaAprobada);
  if (row.estado !== 'pendiente') {
    throw conflict('INVALID_STATE', M.noCancelable(ORDEN_ESTADO_LABELS[row.estado as OrdenEstado]));
  }
  const call = await m.call(c.businessId, db);
  let o: mp.MpOrder;
  try {
    o = await mp.cancelOrder(
      call,
      row.mp_orden_id,
      createHash('sha256')
        .update(`cancelar|${row.clave as string}`)
        .digest('hex'),
    );
  } catch (e) {
    if (!(e instanceof MpError) || e.status === 401) throw mpFailure(e);
    // MP would not cancel it: what it says of the order now decides.
    try {
      o = await mp.getOrder(call, row.mp_orden_id);
    } catch (e2) {
      throw mpFailure(e2);
    }
  }
  const estado = await m.sync(c.businessId, id, o);
  if (estado === 'aprobada') throw conflict('INVALID_STATE', M.yaAprobada);
  if (estado === 'pendiente') {
    throw conflict(
      'INVALID_STATE',
      row.tipo === 'point'
        ? 'La terminal ya tomó el cobro: cancelalo desde el Point.'
        : 'Mercado Pago no canceló la orden todavía: probá de nuevo.',
    );
  }
  await audit(db, {
    businessId: c.businessId,
    userId: c.userId,
    entidad: 'mercadopago_orden',
    entidadId: id,
    accion: 'cancelar',
    despues: { estado, monto: Number(row.monto), mp_orden_id: row.mp_orden_id },
  });
  return getOrden(db, c.businessId, id);
}
