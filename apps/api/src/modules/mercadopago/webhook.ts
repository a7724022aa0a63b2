import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { enNegocio, todosLosNegocios } from '../../db/tenant.js';
import type { MercadoPago } from './mercadopago.js';
import { MpError, MpUnavailableError } from './mp-client.js';
import { ordenByMpId } from './mercadopago.queries.js';

/*
 * MP's notifications (decision 0052). Each carries `x-signature: ts=<ts>,v1=<hex>`, the HMAC-SHA256
 * with the application's webhook secret of the manifest `id:<data.id>;request-id:<x-request-id>;ts:<ts>;`
 * (data.id as the URL's query gives it, in lowercase; a part MP does not send is left out). The
 * body is never believed: a valid notification only makes us read the order from MP again, so a
 * duplicate, a late or an out-of-order one changes nothing that MP does not say now.
 */

/** The `ts` and `v1` of an x-signature header, or null. */
function partsOf(header: string): { ts: string; v1: string } | null {
  const parts = new Map(
    header.split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()] as const;
    }),
  );
  const ts = parts.get('ts');
  const v1 = parts.get('v1');
  return ts && v1 && /^[0-9a-f]{64}$/i.test(v1) ? { ts, v1 } : null;
}

/** The manifest MP signs. */
export function manifest(dataId: string | null, requestId: string | null, ts: string): string {
  return (
    (dataId ? `id:${/^[a-z0-9]+$/i.test(dataId) ? dataId.toLowerCase() : dataId};` : '') +
    (requestId ? `request-id:${requestId};` : '') +
    `ts:${ts};`
  );
}

export function signatureValid(
  secret: string,
  header: string | undefined,
  dataId: string | null,
  requestId: string | null,
): boolean {
  const p = header ? partsOf(header) : null;
  if (!p) return false;
  const expected = createHmac('sha256', secret)
    .update(manifest(dataId, requestId, p.ts))
    .digest();
  return timingSafeEqual(expected, Buffer.from(p.v1, 'hex'));
}

export type WebhookResult = 'procesada' | 'ignorada' | 'firma_invalida' | 'no_disponible';

export interface Notificacion {
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

const one = (v: unknown) => (Array.isArray(v) ? v[0] : v);

export async function handleWebhook(
  database: Database,
  m: MercadoPago,
  log: FastifyBaseLogger,
  n: Notificacion,
): Promise<WebhookResult> {
  const body = (typeof n.body === 'object' && n.body !== null ? n.body : {}) as {
    type?: unknown;
    data?: { id?: unknown };
  };
  const signature = one(n.headers['x-signature']);
  if (typeof signature !== 'string' || !signature) return 'firma_invalida';
  const queryId = one(n.query['data.id']);
  const dataId = typeof queryId === 'string' ? queryId : typeof body.data?.id === 'string' ? body.data.id : null;
  const type = one(n.query.type) ?? body.type;
  if (!dataId || (type !== undefined && type !== 'order')) return 'ignorada';
  const requestId = one(n.headers['x-request-id']);
  const orden = await todosLosNegocios('mercado pago: la orden de una notificación', () =>
    ordenByMpId(dataId, database.db),
  );
  if (!orden) return 'ignorada';
  return enNegocio(orden.business_id, async () => {
    const call = await m.call(orden.business_id, database.db);
    if (
      !call.webhookSecret ||
      !signatureValid(call.webhookSecret, signature, dataId, typeof requestId === 'string' ? requestId : null)
    ) {
      log.warn({ business_id: orden.business_id }, 'mercado pago: notificación con firma inválida');
      return 'firma_invalida';
    }
    try {
      await m.sync(orden.business_id, orden.id);
      return 'procesada';
    } catch (e) {
      // MP did not answer: MP sends the notification again, and the polling pass reads it anyway.
      if (e instanceof MpUnavailableError) return 'no_disponible';
      if (!(e instanceof MpError)) throw e;
      log.warn({ err: e }, 'mercado pago: no se pudo leer la orden');
      return 'ignorada';
    }
  });
}
