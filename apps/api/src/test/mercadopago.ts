import { randomUUID } from 'node:crypto';
import { afterAll } from 'vitest';
import { FakeMercadoPago } from '../modules/mercadopago/fake/fake-mp.js';
import { createTestApp, type TestContext } from './app.js';
import { createBusiness, registerUser, type TestUser } from './fixtures.js';

/*
 * A test app against the fake Mercado Pago on loopback (decision 0052): the fake's notifications
 * reach the app through inject (no port), no polling pass runs by itself (the tests run it), and
 * a pending order is due for polling at once.
 */

export const WEBHOOK_SECRET = 'secreto-de-webhooks-de-prueba';

export interface MpShop {
  id: string;
  base: string;
  token: string;
  caja: string;
  medioMp: string;
  efectivo: string;
  producto: string;
  pos: string;
  terminal: string;
}

export async function mpTestApp(): Promise<{ ctx: TestContext; fake: FakeMercadoPago; owner: TestUser }> {
  const fake = new FakeMercadoPago();
  await fake.listen(0);
  const ctx = await createTestApp({
    mercadopago: { apiUrl: fake.url, timeoutMs: 3_000, workerMs: 0, pendingAfterMs: 0 },
    logger: process.env.MP_LOG ? { level: 'error' } : false,
  });
  afterAll(() => fake.close());
  fake.deliver = async (n) => {
    await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/webhooks/mercadopago${n.path}`,
      headers: n.headers,
      payload: n.body,
    });
  };
  const owner = await registerUser(ctx.app, 'Duenia');
  return { ctx, fake, owner };
}

/** A business with its MP account at the fake, configured through the routes, and a product. */
export async function mpShop(
  ctx: TestContext,
  fake: FakeMercadoPago,
  owner: TestUser,
  nombre = 'Almacén MP',
  precio = 1500,
): Promise<MpShop> {
  const { app } = ctx;
  const id = await createBusiness(app, owner, nombre);
  const base = `/api/v1/businesses/${id}`;
  const token = `APP_USR-${randomUUID()}`;
  const pos = `POS${randomUUID().slice(0, 8).toUpperCase()}`;
  const terminal = `NEWLAND_N950__N950NCB${randomUUID().slice(0, 8).toUpperCase()}`;
  fake.cuenta(token, {
    webhook_url: 'http://mostrador',
    webhook_secret: WEBHOOK_SECRET,
    pos: [pos],
    terminales: [terminal],
  });
  const cajas = (await app.inject({ method: 'GET', url: `${base}/cajas`, headers: owner.auth })).json();
  const caja = cajas[0].id as string;
  const put = await app.inject({
    method: 'PUT',
    url: `${base}/mercadopago/config`,
    headers: owner.auth,
    payload: {
      access_token: token,
      webhook_secret: WEBHOOK_SECRET,
      cajas: [{ caja_id: caja, pos_id: pos, terminal_id: terminal }],
    },
  });
  if (put.statusCode !== 200) throw new Error(`config ${put.statusCode} ${put.body}`);
  const medios = (await app.inject({ method: 'GET', url: `${base}/medios-pago`, headers: owner.auth })).json() as {
    id: string;
    nombre: string;
  }[];
  const producto = (
    await app.inject({
      method: 'POST',
      url: `${base}/products`,
      headers: owner.auth,
      payload: { nombre: 'Yerba 1 kg', precio_venta: precio, stock_actual: 1000 },
    })
  ).json().id as string;
  return {
    id,
    base,
    token,
    caja,
    medioMp: put.json().medio_pago_id,
    efectivo: medios.find((m) => m.nombre === 'Efectivo')!.id,
    producto,
    pos,
    terminal,
  };
}

/** POST …/mercadopago/ordenes with a fresh Idempotency-Key (or the one given). */
export function crearOrden(
  ctx: TestContext,
  u: TestUser,
  s: MpShop,
  body: { monto: number | string; tipo?: 'qr' | 'point'; caja_id?: string },
  key: string | null = randomUUID(),
) {
  return ctx.app.inject({
    method: 'POST',
    url: `${s.base}/mercadopago/ordenes`,
    headers: { ...u.auth, ...(key ? { 'idempotency-key': key } : {}) },
    payload: { caja_id: s.caja, tipo: 'qr', ...body },
  });
}

/** An approved order for `monto`: created, paid by the customer, its notification delivered. */
export async function ordenPagada(
  ctx: TestContext,
  fake: FakeMercadoPago,
  u: TestUser,
  s: MpShop,
  monto: number,
  tipo: 'qr' | 'point' = 'qr',
) {
  const r = await crearOrden(ctx, u, s, { monto, tipo });
  if (r.statusCode !== 201) throw new Error(`orden ${r.statusCode} ${r.body}`);
  const o = r.json();
  fake.pagar(o.mp_orden_id);
  await fake.idle();
  return o as { id: string; mp_orden_id: string; monto: number };
}
