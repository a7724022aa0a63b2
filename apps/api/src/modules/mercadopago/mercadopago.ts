import type { FastifyBaseLogger } from 'fastify';
import { MERCADOPAGO_MESSAGES as M, type OrdenEstado } from '@mostrador/shared';
import type { Database, Executor } from '../../db/client.js';
import { enNegocio, todosLosNegocios } from '../../db/tenant.js';
import { AppError } from '../../lib/errors.js';
import type { SecretBox } from '../facturacion/arca-crypto.js';
import * as mp from './mp-client.js';
import type { MpCall, MpOrder } from './mp-client.js';
import {
  configRow,
  insertReembolso,
  markAprobadaTarde,
  moveOrden,
  ordenesPorVerificar,
  ordenRow,
  reembolsoRows,
  touchOrden,
} from './mercadopago.queries.js';
import { claveDe } from './reembolsos.js';

/*
 * The business's side of Mercado Pago (decision 0052): its credentials (decrypted per call), the
 * state of its orders as MP says it (after a notification, a cancel, or the polling pass), and
 * the polling pass itself, which re-reads from MP the orders still pending after `pendingAfterMs`
 * so a lost notification is recovered. Several instances may run passes: a state only moves from
 * pendiente, so the second to read it changes nothing.
 */

export interface MercadoPagoSettings {
  /** MP's API (MERCADOPAGO_API_URL); MP's own by default. */
  apiUrl?: string;
  /** Deadline of each call to MP. */
  timeoutMs?: number;
  /** Polling pass every this many ms; 0 = none (tests run passes themselves). */
  workerMs?: number;
  /** A pending order is re-read from MP once this long passed since it was last read. */
  pendingAfterMs?: number;
}

/** MP's order status as the counter reads it. */
export function estadoDe(o: MpOrder): OrdenEstado {
  switch (o.status) {
    case 'processed':
    case 'refunded':
      return 'aprobada';
    case 'failed':
      return 'rechazada';
    case 'canceled':
      return 'cancelada';
    case 'expired':
      return 'expirada';
    default:
      return 'pendiente';
  }
}

export class MercadoPago {
  readonly apiUrl: string;
  readonly timeoutMs: number;
  readonly pendingAfterMs: number;
  private readonly workerMs: number;
  private timer: NodeJS.Timeout | null = null;
  private pass: Promise<void> | null = null;

  constructor(
    private readonly database: Database,
    readonly box: SecretBox,
    settings: MercadoPagoSettings,
    readonly now: () => Date,
    private readonly log: FastifyBaseLogger,
  ) {
    this.apiUrl = settings.apiUrl || mp.MP_API_URL;
    this.timeoutMs = settings.timeoutMs ?? 10_000;
    this.workerMs = settings.workerMs ?? 5_000;
    this.pendingAfterMs = settings.pendingAfterMs ?? 10_000;
  }

  start() {
    if (this.workerMs <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      if (this.pass) return;
      this.pass = this.poll()
        .then(() => undefined)
        .catch((e) => this.log.error({ err: e }, 'mercado pago: pasada fallida'))
        .finally(() => (this.pass = null));
    }, this.workerMs);
    this.timer.unref();
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.pass;
  }

  /** The business's credentials for a call to MP; 409 when MP is not configured. */
  async call(
    businessId: string,
    ex: Executor,
  ): Promise<MpCall & { medioPagoId: string; webhookSecret: string | null }> {
    const cfg = await configRow(businessId, ex);
    if (!cfg) throw new AppError(409, 'INVALID_STATE', M.notConfigured);
    return {
      baseUrl: this.apiUrl,
      timeoutMs: this.timeoutMs,
      token: this.box.open(cfg.token_cifrado),
      medioPagoId: cfg.medio_pago_id,
      webhookSecret: cfg.webhook_secret_cifrado ? this.box.open(cfg.webhook_secret_cifrado) : null,
    };
  }

  /**
   * Reads the order from MP (or takes `given`, what MP just answered) and records it: a pending
   * order moves to what MP says; an order MP approved after it was cancelled, expired or rejected
   * here is marked and refunded at once. Answers the order's state here afterwards.
   */
  async sync(businessId: string, ordenId: string, given?: MpOrder): Promise<OrdenEstado | null> {
    return enNegocio(businessId, async () => {
      const { db } = this.database;
      const row = await ordenRow(businessId, ordenId, db);
      if (!row) return null;
      const call = await this.call(businessId, db);
      const o = given ?? (await mp.getOrder(call, row.mp_orden_id));
      if (o.id !== row.mp_orden_id) {
        this.log.warn({ orden: ordenId }, 'mercado pago: la orden leída no es la pedida');
        return row.estado as OrdenEstado;
      }
      const estado = estadoDe(o);
      const pay = o.transactions?.payments?.[0];
      const pago = { mpPagoId: pay?.id ?? null, mpPagoReferencia: pay?.reference?.id ?? null };
      if (row.estado === 'pendiente' && estado !== 'pendiente') {
        await moveOrden(
          businessId,
          ordenId,
          {
            estado,
            mpEstado: o.status,
            mpEstadoDetalle: o.status_detail ?? null,
            ...pago,
            aprobada: estado === 'aprobada',
          },
          db,
        );
      } else {
        await touchOrden(businessId, ordenId, o.status, o.status_detail ?? null, db);
      }
      const after = (await ordenRow(businessId, ordenId, db))!;
      if (estado === 'aprobada' && after.estado !== 'aprobada') {
        await markAprobadaTarde(businessId, ordenId, pago, db);
        await this.refundLate(businessId, ordenId, call, o);
      }
      return after.estado as OrdenEstado;
    });
  }

  /** An order MP approved after it stopped waiting here: the whole amount back, once. */
  private async refundLate(businessId: string, ordenId: string, call: MpCall, o: MpOrder) {
    await this.database.db.transaction(async (tx) => {
      const row = await ordenRow(businessId, ordenId, tx, true);
      if (!row) return;
      const done = await reembolsoRows(businessId, [ordenId], tx);
      if (done.some((r) => r.origen === 'aprobada_tarde')) return;
      const cents = mp.mpCents(row.monto);
      const clave = claveDe(businessId, ordenId, 'aprobada_tarde', 0, cents);
      // Refunded at MP already (from its panel): what MP gave back is recorded.
      const answer = o.status === 'refunded' ? o : await mp.refundOrder(call, row.mp_orden_id, clave);
      const r = answer.transactions?.refunds?.at(-1);
      await insertReembolso(
        businessId,
        {
          ordenId,
          origen: 'aprobada_tarde',
          ventaId: null,
          devolucionId: null,
          montoCents: cents,
          mpReembolsoId: r?.id ?? null,
          mpEstado: r?.status ?? answer.status,
          clave,
          usuarioId: null,
        },
        tx,
      );
      this.log.warn({ orden: ordenId }, 'mercado pago: orden aprobada después de cancelada, reintegrada');
    });
  }

  /**
   * The polling pass: the orders of every business still pending (or approved late and not
   * refunded) that nobody read from MP in `pendingAfterMs`, re-read one by one. Answers how many.
   */
  async poll(): Promise<number> {
    const antes = new Date(this.now().getTime() - this.pendingAfterMs);
    const due = await todosLosNegocios('mercado pago: las órdenes pendientes de todos los negocios', () =>
      ordenesPorVerificar(antes, 100, this.database.db),
    );
    let n = 0;
    for (const o of due) {
      try {
        await this.sync(o.business_id, o.id);
        n++;
      } catch (e) {
        // MP unreachable or refusing: the order is read again on a later pass.
        this.log.warn({ err: e, orden: o.id }, 'mercado pago: no se pudo leer la orden');
        await enNegocio(o.business_id, () =>
          this.database.db.transaction((tx) => touchOrdenQuiet(o.business_id, o.id, tx)),
        ).catch(() => undefined);
      }
    }
    return n;
  }
}

/** Marks the order read now (its MP status unchanged), so a failing order waits for the next pass. */
async function touchOrdenQuiet(businessId: string, id: string, tx: Executor) {
  const row = await ordenRow(businessId, id, tx);
  if (row) await touchOrden(businessId, id, row.mp_estado as string, (row.mp_estado_detalle as string) ?? null, tx);
}
