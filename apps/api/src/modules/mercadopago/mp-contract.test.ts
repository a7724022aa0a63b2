import { createHmac, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { crearOrden, mpShop, mpTestApp, ordenPagada } from '../../test/mercadopago.js';
import { estadoDe } from './mercadopago.js';
import { manifest, signatureValid } from './webhook.js';

/*
 * Our client and our fake against what MP's reference publishes (decision 0052, where the sources
 * are listed): the shapes below are written from the reference of the Orders API for in-person
 * payments (QR and Point), the refunds, the payments search and the webhooks' signature — not
 * from our fake. Our client's requests must fit them, the fake's answers must fit them, and the
 * fake must refuse what MP refuses.
 */

const AMOUNT = z.string().regex(/^\d+\.\d{2}$/);
/** POST /v1/orders for QR or Point, as the reference lists its body. */
const createOrderBody = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('qr'),
    external_reference: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    expiration_time: z
      .string()
      .regex(/^PT(\d+H)?(\d+M)?(\d+S)?$/)
      .optional(),
    description: z.string().max(150).optional(),
    total_amount: AMOUNT,
    transactions: z.strictObject({ payments: z.array(z.strictObject({ amount: AMOUNT })).length(1) }),
    config: z.strictObject({
      qr: z.strictObject({ external_pos_id: z.string(), mode: z.enum(['static', 'dynamic', 'hybrid']).optional() }),
    }),
  }),
  z.strictObject({
    type: z.literal('point'),
    external_reference: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    expiration_time: z
      .string()
      .regex(/^PT(\d+H)?(\d+M)?(\d+S)?$/)
      .optional(),
    description: z.string().max(150).optional(),
    transactions: z.strictObject({ payments: z.array(z.strictObject({ amount: AMOUNT })).length(1) }),
    config: z.strictObject({
      point: z.strictObject({ terminal_id: z.string(), print_on_terminal: z.string().optional() }),
    }),
  }),
]);
/** The order statuses the reference documents for QR and Point. */
const STATUSES = [
  'created',
  'at_terminal',
  'processing',
  'action_required',
  'processed',
  'refunded',
  'canceled',
  'expired',
  'failed',
];
/** The answer of create, get, cancel and refund: the fields we read. */
const orderAnswer = z.object({
  id: z.string(),
  type: z.enum(['qr', 'point']),
  external_reference: z.string(),
  total_amount: AMOUNT,
  status: z.enum(STATUSES),
  status_detail: z.string(),
  created_date: z.string(),
  last_updated_date: z.string(),
  transactions: z.object({
    payments: z.array(
      z.object({
        id: z.string(),
        amount: AMOUNT,
        status: z.string(),
        status_detail: z.string(),
        reference: z.object({ id: z.string() }).optional(),
      }),
    ),
    refunds: z
      .array(z.object({ id: z.string(), transaction_id: z.string(), amount: AMOUNT, status: z.string() }))
      .optional(),
  }),
  type_response: z.object({ qr_data: z.string() }).optional(),
});
/** A partial refund's body: one payment transaction and its amount (none: the whole order). */
const refundBody = z.strictObject({
  transactions: z.array(z.strictObject({ id: z.string(), amount: AMOUNT })).length(1),
});
/** GET /v1/payments/search: its documented query and the fields of a result we read. */
const searchQuery = z.object({
  range: z.enum(['date_created', 'date_last_updated', 'date_approved', 'money_release_date']),
  begin_date: z.iso.datetime(),
  end_date: z.iso.datetime(),
  sort: z.enum(['date_approved', 'date_created', 'date_last_updated', 'money_release_date']),
  criteria: z.enum(['asc', 'desc']),
  limit: z.coerce.number().int().min(1).max(1000),
  offset: z.coerce.number().int().min(0),
});
const paymentResult = z.object({
  id: z.number(),
  status: z.string(),
  date_approved: z.string(),
  external_reference: z.string().nullable(),
  transaction_amount: z.number(),
  transaction_amount_refunded: z.number(),
  fee_details: z.array(z.object({ type: z.string(), amount: z.number(), fee_payer: z.string() })),
  transaction_details: z.object({ net_received_amount: z.number(), total_paid_amount: z.number() }),
});

const { ctx, fake, owner } = await mpTestApp();
const { app } = ctx;
const s = await mpShop(ctx, fake, owner, 'Contrato MP');

describe('our client’s requests fit MP’s reference', () => {
  it('creates QR and Point orders with the documented body and headers', async () => {
    const from = fake.requests.length;
    await crearOrden(ctx, owner, s, { monto: 1234.5 });
    await crearOrden(ctx, owner, s, { monto: 10, tipo: 'point' });
    const creates = fake.requests.slice(from).filter((r) => r.method === 'POST' && r.path === '/v1/orders');
    expect(creates).toHaveLength(2);
    for (const r of creates) {
      expect(createOrderBody.safeParse(r.body).error).toBeUndefined();
      expect(r.headers.authorization).toMatch(/^Bearer \S+$/);
      expect(r.headers['x-idempotency-key']).toBeTruthy();
      expect(r.headers['content-type']).toBe('application/json');
    }
  });

  it('refunds with no body (all) or one transaction and its amount (part), with X-Idempotency-Key', async () => {
    const o = await ordenPagada(ctx, fake, owner, s, 3000);
    const venta = await app.inject({
      method: 'POST',
      url: '/api/v1/ventas/record-sale',
      headers: owner.auth,
      payload: {
        negocio_id: s.id,
        items: [{ id: s.producto, tipo: 'producto', cantidad: 2 }],
        pagos: [{ medio_pago_id: s.medioMp, monto: 3000, mercadopago_orden_id: o.id }],
      },
    });
    const sale = (
      await app.inject({ method: 'GET', url: `${s.base}/ventas/sales/${venta.json().id}`, headers: owner.auth })
    ).json();
    await app.inject({
      method: 'POST',
      url: `${s.base}/ventas/${sale.id}/devoluciones`,
      headers: owner.auth,
      payload: { items: [{ item_id: sale.items[0].id, cantidad: 1 }], medio_pago_id: s.medioMp },
    });
    const [refund] = fake.requests.filter((r) => r.path === `/v1/orders/${o.mp_orden_id}/refund`);
    expect(refundBody.safeParse(refund.body).error).toBeUndefined();
    expect(refund.headers['x-idempotency-key']).toMatch(/^[0-9a-f]{64}$/);
    expect(orderAnswer.safeParse(fake.order(o.mp_orden_id)).error).toBeUndefined();
  });

  it('searches payments with the documented query, and reads the documented result', async () => {
    // The business's day (Buenos Aires), not UTC's: after 21:00 there they differ.
    const hoy = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Argentina/Buenos_Aires' }).format(new Date());
    const from = fake.requests.length;
    await app.inject({
      method: 'GET',
      url: `${s.base}/mercadopago/conciliacion?desde=${hoy}&hasta=${hoy}`,
      headers: owner.auth,
    });
    const search = fake.requests.slice(from).find((r) => r.path.startsWith('/v1/payments/search'))!;
    const q = Object.fromEntries(new URL(search.path, 'http://mp').searchParams);
    expect(searchQuery.safeParse(q).error).toBeUndefined();
    const answer = await fetch(`${fake.url}${search.path}`, { headers: { authorization: `Bearer ${s.token}` } });
    const results = ((await answer.json()) as { results: unknown[] }).results;
    expect(results.length).toBeGreaterThan(0);
    for (const p of results) expect(paymentResult.safeParse(p).error).toBeUndefined();
  });

  it('reads every documented order status into a state of ours', () => {
    const map = Object.fromEntries(
      STATUSES.map((st) => [st, estadoDe({ status: st } as Parameters<typeof estadoDe>[0])]),
    );
    expect(map).toEqual({
      created: 'pendiente',
      at_terminal: 'pendiente',
      processing: 'pendiente',
      action_required: 'pendiente',
      processed: 'aprobada',
      refunded: 'aprobada',
      canceled: 'cancelada',
      expired: 'expirada',
      failed: 'rechazada',
    });
  });
});

describe('the fake answers as MP’s reference says', () => {
  it('its orders fit the documented answer, in every state', async () => {
    const a = (await crearOrden(ctx, owner, s, { monto: 5 })).json();
    const b = (await crearOrden(ctx, owner, s, { monto: 6, tipo: 'point' })).json();
    const c = (await crearOrden(ctx, owner, s, { monto: 7 })).json();
    const d = (await crearOrden(ctx, owner, s, { monto: 8 })).json();
    fake.pagar(a.mp_orden_id);
    fake.rechazar(b.mp_orden_id);
    fake.expirar(c.mp_orden_id);
    await fake.idle();
    await app.inject({ method: 'POST', url: `${s.base}/mercadopago/ordenes/${d.id}/cancelar`, headers: owner.auth });
    for (const o of [a, b, c, d]) {
      const got = await fetch(`${fake.url}/v1/orders/${o.mp_orden_id}`, {
        headers: { authorization: `Bearer ${s.token}` },
      });
      expect(got.status).toBe(200);
      expect(orderAnswer.safeParse(await got.json()).error).toBeUndefined();
    }
    expect(fake.order(a.mp_orden_id)!.type_response).toEqual({ qr_data: expect.any(String) });
    expect(fake.order(b.mp_orden_id)!.type_response).toBeUndefined();
  });

  it('refuses what MP refuses: no token, no idempotency key, bad amounts, unknown fields, a reused key, a foreign terminal', async () => {
    const post = (body: unknown, headers: Record<string, string>) =>
      fetch(`${fake.url}/v1/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const ok = {
      type: 'qr',
      external_reference: 'ref-contrato',
      total_amount: '10.00',
      transactions: { payments: [{ amount: '10.00' }] },
      config: { qr: { external_pos_id: s.pos, mode: 'dynamic' } },
    };
    const auth = { authorization: `Bearer ${s.token}` };
    const code = async (r: Response) => [r.status, ((await r.json()) as { errors: { code: string }[] }).errors[0].code];
    expect(await code(await post(ok, { 'x-idempotency-key': randomUUID() }))).toEqual([401, 'unauthorized']);
    expect(await code(await post(ok, { ...auth, authorization: 'Bearer APP_USR-otra' }))).toEqual([
      401,
      'unauthorized',
    ]);
    expect(await code(await post(ok, auth))).toEqual([400, 'empty_required_header']);
    const key = () => ({ ...auth, 'x-idempotency-key': randomUUID() });
    for (const amount of ['10', '10.5', '10.001', '-1.00', '0.00']) {
      const bad = { ...ok, total_amount: amount, transactions: { payments: [{ amount }] } };
      expect((await post(bad, key())).status, amount).toBe(400);
    }
    const numeric = { ...ok, total_amount: 10, transactions: { payments: [{ amount: 10 }] } };
    expect((await post(numeric, key())).status).toBe(400);
    expect(await code(await post({ ...ok, notification_url: 'http://x' }, key()))).toEqual([
      400,
      'unsupported_properties',
    ]);
    expect((await post({ ...ok, external_reference: 'con espacios' }, key())).status).toBe(400);
    const k = key();
    expect((await post(ok, k)).status).toBe(201);
    expect((await post(ok, k)).status).toBe(201);
    expect(
      await code(await post({ ...ok, total_amount: '11.00', transactions: { payments: [{ amount: '11.00' }] } }, k)),
    ).toEqual([409, 'idempotency_key_already_used']);
    const foreign = {
      ...ok,
      type: 'point',
      total_amount: undefined,
      config: { point: { terminal_id: 'PAX_A910__AJENA' } },
    };
    expect(await code(await post(foreign, key()))).toEqual([403, 'forbidden_checking_terminal_owner']);
  });
});

describe('the webhooks’ signature', () => {
  it('is HMAC-SHA256 of id:<data.id in lowercase>;request-id:<x-request-id>;ts:<ts>; with the secret', () => {
    const secret = 'clave-secreta-del-panel';
    const ts = '1742505638683';
    const requestId = 'bb56a2f1-6aae-46ac-982e-9dcd3581d08e';
    const v1 = createHmac('sha256', secret)
      .update(`id:ord01jq4s4ky8hwq6na5pxb65b3d3;request-id:${requestId};ts:${ts};`)
      .digest('hex');
    expect(manifest('ORD01JQ4S4KY8HWQ6NA5PXB65B3D3', requestId, ts)).toBe(
      `id:ord01jq4s4ky8hwq6na5pxb65b3d3;request-id:${requestId};ts:${ts};`,
    );
    expect(signatureValid(secret, `ts=${ts},v1=${v1}`, 'ORD01JQ4S4KY8HWQ6NA5PXB65B3D3', requestId)).toBe(true);
    expect(signatureValid(secret, `ts=${ts}, v1=${v1}`, 'ORD01JQ4S4KY8HWQ6NA5PXB65B3D3', requestId)).toBe(true);
    expect(signatureValid('otra', `ts=${ts},v1=${v1}`, 'ORD01JQ4S4KY8HWQ6NA5PXB65B3D3', requestId)).toBe(false);
    expect(signatureValid(secret, `ts=${Number(ts) + 1},v1=${v1}`, 'ORD01JQ4S4KY8HWQ6NA5PXB65B3D3', requestId)).toBe(
      false,
    );
    expect(signatureValid(secret, `v1=${v1}`, 'ORD01JQ4S4KY8HWQ6NA5PXB65B3D3', requestId)).toBe(false);
    // A part MP does not send is left out of the manifest.
    expect(manifest('ORD01X', null, ts)).toBe(`id:ord01x;ts:${ts};`);
  });

  it('the fake signs its notifications that way, with the account’s secret', async () => {
    await ordenPagada(ctx, fake, owner, s, 12);
    const n = fake.notifications.at(-1)!;
    expect(n.headers['x-signature']).toMatch(/^ts=\d+,v1=[0-9a-f]{64}$/);
    const dataId = new URLSearchParams(n.path.slice(1)).get('data.id')!;
    expect(
      signatureValid('secreto-de-webhooks-de-prueba', n.headers['x-signature'], dataId, n.headers['x-request-id']),
    ).toBe(true);
    expect(n.body).toMatchObject({ type: 'order', action: 'order.processed', data: { id: dataId } });
  });
});
