import { createHmac, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FakeNotification } from './fake/fake-mp.js';
import { crearOrden, mpShop, mpTestApp } from '../../test/mercadopago.js';

/*
 * MP's notifications and the polling pass (decision 0052): the signature is checked (a bad one
 * changes nothing), the body is never believed (the order is read from MP again), so duplicates,
 * late and out-of-order notifications are harmless; a lost one is recovered by the pass; an order
 * MP approves after it was cancelled is refunded.
 */
const { ctx, fake, owner } = await mpTestApp();
const { app } = ctx;
const s = await mpShop(ctx, fake, owner);
const other = await mpShop(ctx, fake, owner, 'Otro negocio');
// The other business's MP application has a secret of its own.
await app.inject({
  method: 'PUT',
  url: `${other.base}/mercadopago/config`,
  headers: owner.auth,
  payload: { webhook_secret: 'otra-clave-secreta-distinta', cajas: [{ caja_id: other.caja, pos_id: other.pos }] },
});
fake.cuenta(other.token, { webhook_secret: 'otra-clave-secreta-distinta' });

const estado = async (shop: typeof s, id: string) =>
  (await app.inject({ method: 'GET', url: `${shop.base}/mercadopago/ordenes/${id}`, headers: owner.auth })).json();

/** Posts a notification as MP would, or with what the test changes. */
const post = (n: FakeNotification, headers: Record<string, string | undefined> = {}, path = n.path) =>
  app.inject({
    method: 'POST',
    url: `/api/v1/webhooks/mercadopago${path}`,
    headers: Object.fromEntries(
      Object.entries({ ...n.headers, ...headers }).filter(([, v]) => v !== undefined),
    ) as Record<string, string>,
    payload: n.body,
  });

/** Signs a notification for `dataId` with `secret`, as MP does. */
function signed(dataId: string, secret: string, body: Record<string, unknown>): FakeNotification {
  const requestId = randomUUID();
  const ts = String(Date.now());
  const v1 = createHmac('sha256', secret)
    .update(`id:${dataId.toLowerCase()};request-id:${requestId};ts:${ts};`)
    .digest('hex');
  return {
    url: 'http://mostrador',
    path: `?data.id=${dataId}&type=order`,
    headers: { 'content-type': 'application/json', 'x-request-id': requestId, 'x-signature': `ts=${ts},v1=${v1}` },
    body,
  };
}

/** An order created with its notifications held back (the test delivers them). */
async function ordenSilenciosa(shop = s, monto = 100) {
  fake.setSwitches({ perder_notificaciones: true });
  const o = (await crearOrden(ctx, owner, shop, { monto })).json();
  return o as { id: string; mp_orden_id: string };
}

describe('notifications', () => {
  it('a signed notification makes the order what MP says: paid', async () => {
    fake.setSwitches({ perder_notificaciones: false });
    const o = (await crearOrden(ctx, owner, s, { monto: 1500 })).json();
    fake.pagar(o.mp_orden_id);
    await fake.idle();
    const n = fake.notifications.at(-1)!;
    expect(n.body).toMatchObject({ action: 'order.processed', type: 'order', data: { id: o.mp_orden_id } });
    expect(await estado(s, o.id)).toMatchObject({ estado: 'aprobada', monto: 1500 });
  });

  it('a bad, missing or other business’s signature is 401 and changes nothing', async () => {
    const o = await ordenSilenciosa();
    fake.pagar(o.mp_orden_id);
    const n = fake.notifications.at(-1)!;
    fake.setSwitches({ perder_notificaciones: false });
    const reads = () =>
      fake.requests.filter((r) => r.method === 'GET' && r.path === `/v1/orders/${o.mp_orden_id}`).length;
    const before = reads();
    const forged = n.headers['x-signature'].replace(/v1=[0-9a-f]+/, `v1=${'ab'.repeat(32)}`);
    const wrong = await post(n, { 'x-signature': forged });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ detail: 'Firma de la notificación no válida.', code: 'UNAUTHENTICATED' });
    expect((await post(n, { 'x-signature': undefined })).statusCode).toBe(401);
    expect((await post(n, { 'x-signature': 'ts=1,v1=nada' })).statusCode).toBe(401);
    // Another request id than the one signed, or another order's id: the manifest differs.
    expect((await post(n, { 'x-request-id': randomUUID() })).statusCode).toBe(401);
    // Signed with another business's secret (its MP application).
    const ajena = signed(o.mp_orden_id, 'otra-clave-secreta-distinta', n.body);
    expect((await post(ajena)).statusCode).toBe(401);
    expect(reads()).toBe(before);
    expect((await estado(s, o.id)).estado).toBe('pendiente');
    // The genuine one, then.
    expect((await post(n)).json()).toEqual({ recibido: true });
    expect((await estado(s, o.id)).estado).toBe('aprobada');
  });

  it('the body is never believed: a signed notification saying "paid" of an unpaid order changes nothing', async () => {
    const o = await ordenSilenciosa();
    fake.setSwitches({ perder_notificaciones: false });
    const lie = signed(o.mp_orden_id, 'secreto-de-webhooks-de-prueba', {
      action: 'order.processed',
      type: 'order',
      data: { id: o.mp_orden_id, status: 'processed', total_paid_amount: '100.00' },
    });
    const r = await post(lie);
    expect(r.statusCode).toBe(200);
    expect((await estado(s, o.id)).estado).toBe('pendiente');
  });

  it('duplicated notifications are harmless', async () => {
    fake.setSwitches({ perder_notificaciones: false, duplicar_notificaciones: true });
    const o = (await crearOrden(ctx, owner, s, { monto: 250 })).json();
    const sent = fake.notifications.length;
    fake.pagar(o.mp_orden_id);
    await fake.idle();
    fake.setSwitches({ duplicar_notificaciones: false });
    expect(fake.notifications.length).toBe(sent + 1);
    expect(await estado(s, o.id)).toMatchObject({ estado: 'aprobada', reembolsado: 0, aprobada_tarde: false });
    // The same notification, again, later.
    expect((await post(fake.notifications.at(-1)!)).statusCode).toBe(200);
    expect((await estado(s, o.id)).estado).toBe('aprobada');
  });

  it('out of order: an older notification arriving after a newer one changes nothing', async () => {
    const o = await ordenSilenciosa();
    fake.setSwitches({ perder_notificaciones: false });
    // MP expires the order, then the customer's late payment attempt is refused: the notifications
    // arrive expired first, then an old "created"-era one signed before.
    const old = signed(o.mp_orden_id, 'secreto-de-webhooks-de-prueba', {
      action: 'order.action_required',
      type: 'order',
      data: { id: o.mp_orden_id, status: 'action_required' },
    });
    fake.expirar(o.mp_orden_id);
    await fake.idle();
    expect((await estado(s, o.id)).estado).toBe('expirada');
    expect((await post(old)).statusCode).toBe(200);
    expect((await estado(s, o.id)).estado).toBe('expirada');
  });

  it('a notification of an order no business has, or of another topic, is acknowledged and ignored', async () => {
    const n = signed('ORD01NOEXISTE', 'secreto-de-webhooks-de-prueba', {
      type: 'order',
      data: { id: 'ORD01NOEXISTE' },
    });
    expect((await post(n)).json()).toEqual({ recibido: false });
    const pago = signed('123456', 'secreto-de-webhooks-de-prueba', { type: 'payment', data: { id: '123456' } });
    expect((await post(pago, {}, '?data.id=123456&type=payment')).json()).toEqual({ recibido: false });
  });

  it('MP unreachable while reading the order: 503 (MP sends it again); the polling pass recovers it', async () => {
    const o = await ordenSilenciosa();
    fake.pagar(o.mp_orden_id);
    const n = fake.notifications.at(-1)!;
    fake.setSwitches({ perder_notificaciones: false, caido: true });
    const r = await post(n);
    expect(r.statusCode).toBe(503);
    expect((await estado(s, o.id)).estado).toBe('pendiente');
    // Still down: the pass reads nothing and keeps it pending.
    await app.mercadopago.poll();
    expect((await estado(s, o.id)).estado).toBe('pendiente');
    fake.setSwitches({ caido: false });
    await app.mercadopago.poll();
    expect((await estado(s, o.id)).estado).toBe('aprobada');
  });
});

describe('the polling pass', () => {
  it('recovers lost notifications of every business: paid, rejected, expired', async () => {
    const a = await ordenSilenciosa(s, 10);
    const b = await ordenSilenciosa(other, 20);
    const c = await ordenSilenciosa(s, 30);
    const d = await ordenSilenciosa(s, 40);
    fake.pagar(a.mp_orden_id);
    fake.pagar(b.mp_orden_id);
    fake.rechazar(c.mp_orden_id);
    fake.expirar(d.mp_orden_id);
    fake.setSwitches({ perder_notificaciones: false });
    for (const [shop, o] of [
      [s, a],
      [other, b],
      [s, c],
      [s, d],
    ] as const) {
      expect((await estado(shop, o.id)).estado).toBe('pendiente');
    }
    expect(await app.mercadopago.poll()).toBeGreaterThanOrEqual(4);
    expect((await estado(s, a.id)).estado).toBe('aprobada');
    expect((await estado(other, b.id)).estado).toBe('aprobada');
    expect((await estado(s, c.id)).estado).toBe('rechazada');
    expect((await estado(s, d.id)).estado).toBe('expirada');
    // Settled orders are not read again.
    const reads = fake.requests.length;
    await app.mercadopago.poll();
    const again = fake.requests.slice(reads).map((r) => r.path);
    for (const o of [a, b, c, d]) expect(again).not.toContain(`/v1/orders/${o.mp_orden_id}`);
  });
});

describe('an order MP approves after it was cancelled', () => {
  it('is refunded in full at once, and marked (record-sale refuses it: mercadopago-venta.test)', async () => {
    fake.setSwitches({ perder_notificaciones: false });
    const o = (await crearOrden(ctx, owner, s, { monto: 880 })).json();
    const c = await app.inject({
      method: 'POST',
      url: `${s.base}/mercadopago/ordenes/${o.id}/cancelar`,
      headers: owner.auth,
    });
    expect(c.json().estado).toBe('cancelada');
    await fake.idle();
    fake.pagar(o.mp_orden_id, { tarde: true });
    await fake.idle();
    const after = await estado(s, o.id);
    expect(after).toMatchObject({
      estado: 'cancelada',
      aprobada_tarde: true,
      reembolsado: 880,
      reembolsos: [expect.objectContaining({ origen: 'aprobada_tarde', monto: 880, venta_id: null })],
    });
    expect(fake.order(o.mp_orden_id)!.status).toBe('refunded');
    // Notified again (the refund's own notification, a duplicate): refunded once.
    await post(fake.notifications.at(-1)!);
    await app.mercadopago.poll();
    expect((await estado(s, o.id)).reembolsos).toHaveLength(1);
    const refunds = fake.requests.filter((r) => r.path === `/v1/orders/${o.mp_orden_id}/refund`);
    expect(refunds).toHaveLength(1);
    expect(refunds[0].body).toBeUndefined();
  });
});
