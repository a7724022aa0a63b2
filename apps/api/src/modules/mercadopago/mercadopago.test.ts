import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addMember, createBusiness, registerUser } from '../../test/fixtures.js';
import { crearOrden, mpShop, mpTestApp, WEBHOOK_SECRET } from '../../test/mercadopago.js';

/*
 * Mercado Pago's configuration and orders through the routes, against the fake MP (decision
 * 0052): the write-only token, the cajas of the business only, the medio, "Probar conexión",
 * orders with their Idempotency-Key, tenancy, permissions, MP down or refusing, and cancelling.
 */
const { ctx, fake, owner } = await mpTestApp();
const { app } = ctx;
const s = await mpShop(ctx, fake, owner);
const other = await mpShop(ctx, fake, owner, 'Otro negocio');

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, u = owner) =>
  app.inject({ method, url, headers: u.auth, ...(payload ? { payload } : {}) });

describe('the configuration', () => {
  it('starts unconfigured; the token is required the first time and the cajas must be the business’s', async () => {
    const id = await createBusiness(app, owner, 'Sin MP');
    const base = `/api/v1/businesses/${id}`;
    const empty = await call('GET', `${base}/mercadopago/config`);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({
      configurado: false,
      tiene_access_token: false,
      tiene_webhook_secret: false,
      medio_pago_id: null,
      cajas: [],
      webhook_url: 'http://localhost:3000/api/v1/webhooks/mercadopago',
      actualizado_en: null,
    });
    const sinToken = await call('PUT', `${base}/mercadopago/config`, { cajas: [] });
    expect(sinToken.statusCode).toBe(422);
    expect(sinToken.json().errors).toEqual([
      { field: 'access_token', message: 'Ingresá el access token de tu cuenta de Mercado Pago.' },
    ]);
    const ajena = await call('PUT', `${base}/mercadopago/config`, {
      access_token: 'APP_USR-0123456789',
      cajas: [{ caja_id: s.caja, pos_id: 'X1' }],
    });
    expect(ajena.statusCode).toBe(422);
    expect(ajena.json().errors).toEqual([{ field: 'cajas.0.caja_id', message: 'Caja no encontrada en este negocio.' }]);
    const malToken = await call('PUT', `${base}/mercadopago/config`, {
      access_token: 'con espacios y todo',
      cajas: [],
    });
    expect(malToken.statusCode).toBe(422);
    expect((await call('GET', `${base}/mercadopago/config`)).json().configurado).toBe(false);
    expect(await ctx.sql('SELECT 1 FROM mercadopago_config WHERE business_id = $1', [id])).toEqual([]);
    // Another business's config untouched.
    expect((await call('GET', `${s.base}/mercadopago/config`)).json().cajas).toHaveLength(1);
  });

  it('keeps the token and secret encrypted, never answered nor in the change log; GET says they are set', async () => {
    const got = await call('GET', `${s.base}/mercadopago/config`);
    expect(got.json()).toMatchObject({
      configurado: true,
      tiene_access_token: true,
      tiene_webhook_secret: true,
      medio_pago_id: s.medioMp,
      cajas: [{ caja_id: s.caja, caja_nombre: 'Caja 1', pos_id: s.pos, terminal_id: s.terminal }],
    });
    expect(got.body).not.toContain(s.token);
    const [row] = await ctx.sql<{ token_cifrado: string; webhook_secret_cifrado: string }>(
      'SELECT token_cifrado, webhook_secret_cifrado FROM mercadopago_config WHERE business_id = $1',
      [s.id],
    );
    expect(row.token_cifrado).toMatch(/^v1:/);
    expect(row.token_cifrado).not.toContain(s.token);
    expect(row.webhook_secret_cifrado).not.toContain(WEBHOOK_SECRET);
    const log = await ctx.sql<{ text: string }>(
      `SELECT coalesce(antes::text, '') || despues::text AS text FROM audit_log WHERE business_id = $1 AND entidad = 'mercadopago_config'`,
      [s.id],
    );
    expect(log).toHaveLength(1);
    expect(log[0].text).not.toContain(s.token);
    expect(log[0].text).not.toContain(WEBHOOK_SECRET);
    expect(log[0].text).toContain('"access_token_cambiado": true');

    // A PUT without the token keeps it; the cajas list replaces the old one.
    const again = await call('PUT', `${s.base}/mercadopago/config`, {
      cajas: [{ caja_id: s.caja, pos_id: s.pos, terminal_id: s.terminal }],
    });
    expect(again.statusCode).toBe(200);
    const [after] = await ctx.sql<{ token_cifrado: string }>(
      'SELECT token_cifrado FROM mercadopago_config WHERE business_id = $1',
      [s.id],
    );
    expect(after.token_cifrado).toBe(row.token_cifrado);
  });

  it('records MP money with the medio "Mercado Pago" (tipo qr): the one every business has, or a new one', async () => {
    const medios = (await call('GET', `${s.base}/medios-pago`)).json() as {
      id: string;
      nombre: string;
      tipo: string;
    }[];
    expect(medios.filter((m) => m.nombre === 'Mercado Pago')).toEqual([
      expect.objectContaining({ id: s.medioMp, tipo: 'qr', activo: true }),
    ]);
    // A business that deleted it gets it back, active, when it configures MP.
    const id = await createBusiness(app, owner, 'Borró el medio');
    const base = `/api/v1/businesses/${id}`;
    const list = (await call('GET', `${base}/medios-pago`)).json() as { id: string; nombre: string }[];
    const mp = list.find((m) => m.nombre === 'Mercado Pago')!;
    expect(
      (await app.inject({ method: 'DELETE', url: `${base}/medios-pago/${mp.id}`, headers: owner.auth })).json(),
    ).toMatchObject({ desactivado: false });
    const put = await call('PUT', `${base}/mercadopago/config`, { access_token: `APP_USR-${randomUUID()}` });
    expect(put.statusCode).toBe(200);
    const again = (await call('GET', `${base}/medios-pago`)).json() as {
      id: string;
      nombre: string;
      tipo: string;
      activo: boolean;
    }[];
    expect(again.filter((m) => m.nombre === 'Mercado Pago')).toEqual([
      expect.objectContaining({ id: put.json().medio_pago_id, tipo: 'qr', activo: true }),
    ]);
    // Configured, the medio cannot be deleted: it is deactivated instead (and PUT config turns it on again).
    const del = await app.inject({
      method: 'DELETE',
      url: `${base}/medios-pago/${put.json().medio_pago_id}`,
      headers: owner.auth,
    });
    expect(del.json()).toMatchObject({ desactivado: true });
  });

  it('"Probar conexión" answers the account, its points of sale and terminals; a bad token says so', async () => {
    const ok = await call('POST', `${s.base}/mercadopago/config/probar`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      ok: true,
      cuenta: { nombre: expect.stringMatching(/^COMERCIO/) },
      cajas_mp: [{ external_id: s.pos, nombre: 'Caja 1' }],
      terminales: [{ id: s.terminal, modo: 'PDV' }],
    });
    const id = await createBusiness(app, owner, 'Token viejo');
    const base = `/api/v1/businesses/${id}`;
    await call('PUT', `${base}/mercadopago/config`, { access_token: 'APP_USR-que-mp-no-conoce' });
    const bad = await call('POST', `${base}/mercadopago/config/probar`);
    expect(bad.json()).toEqual({
      ok: false,
      mensaje: 'Mercado Pago rechazó el access token: revisalo en Configuración → Mercado Pago.',
      cuenta: null,
      cajas_mp: [],
      terminales: [],
    });
    const sinConfig = await call(
      'POST',
      `/api/v1/businesses/${await createBusiness(app, owner, 'Nada')}/mercadopago/config/probar`,
    );
    expect(sinConfig.statusCode).toBe(409);
  });

  it('is the admins’: an employee, even one who sells, gets 403', async () => {
    const cajero = await registerUser(app, 'Cajero');
    await addMember(ctx, s.id, owner, cajero, ['puede_ver_ventas', 'puede_editar_ventas']);
    for (const [method, url] of [
      ['GET', `${s.base}/mercadopago/config`],
      ['PUT', `${s.base}/mercadopago/config`],
      ['POST', `${s.base}/mercadopago/config/probar`],
    ] as const) {
      const r = await call(method, url, method === 'PUT' ? { cajas: [] } : undefined, cajero);
      expect(`${method} ${url} ${r.statusCode}`).toBe(`${method} ${url} 403`);
    }
    expect((await call('GET', `${s.base}/mercadopago/config`)).json().cajas).toHaveLength(1);
  });

  it('a cashier reads from the cajas whether each one charges by MP QR or Point, without any secret', async () => {
    const id = await createBusiness(app, owner, 'MP por caja');
    const base = `/api/v1/businesses/${id}`;
    const cajera = await registerUser(app, 'Cajera');
    await addMember(ctx, id, owner, cajera, ['puede_ver_ventas', 'puede_editar_ventas']);
    const cajas = async (u = cajera) => {
      const r = await call('GET', `${base}/cajas`, undefined, u);
      expect(r.statusCode).toBe(200);
      return r.json() as { id: string; nombre: string; mercadopago: unknown }[];
    };
    // Not configured: null on every caja.
    const [uno] = await cajas();
    expect(uno!.mercadopago).toBeNull();
    const dos = await call('POST', `${base}/cajas`, { nombre: 'Caja 2' });
    expect(dos.statusCode).toBe(201);
    expect(dos.json().mercadopago).toBeNull();
    const caja2 = dos.json().id as string;

    const token = `APP_USR-${randomUUID()}`;
    fake.cuenta(token, { webhook_url: 'http://mostrador', webhook_secret: WEBHOOK_SECRET, pos: ['PX1'], terminales: [] });
    const put = await call('PUT', `${base}/mercadopago/config`, {
      access_token: token,
      webhook_secret: WEBHOOK_SECRET,
      cajas: [{ caja_id: uno!.id, pos_id: 'PX1' }],
    });
    expect(put.statusCode).toBe(200);
    const medio = put.json().medio_pago_id as string;
    const leidas = await cajas();
    expect(leidas.find((c) => c.id === uno!.id)!.mercadopago).toEqual({ medio_pago_id: medio, qr: true, point: false });
    // Configured for the business, nothing assigned to this caja: neither button.
    expect(leidas.find((c) => c.id === caja2)!.mercadopago).toEqual({ medio_pago_id: medio, qr: false, point: false });
    const texto = JSON.stringify(leidas);
    expect(texto).not.toContain(token);
    expect(texto).not.toContain(WEBHOOK_SECRET);
    expect(texto).not.toContain('PX1');

    // A terminal assigned later shows as Point; the caja's own PATCH answers the same field.
    const put2 = await call('PUT', `${base}/mercadopago/config`, {
      cajas: [
        { caja_id: uno!.id, pos_id: 'PX1' },
        { caja_id: caja2, terminal_id: 'NEWLAND_N950__X' },
      ],
    });
    expect(put2.statusCode).toBe(200);
    const patch = await app.inject({
      method: 'PATCH',
      url: `${base}/cajas/${caja2}`,
      headers: owner.auth,
      payload: { nombre: 'Caja del fondo' },
    });
    expect(patch.statusCode).toBe(200);
    expect(patch.json().mercadopago).toEqual({ medio_pago_id: medio, qr: false, point: true });

    // Another business's cajas say nothing of this one's MP.
    const otro = await createBusiness(app, owner, 'Sin MP todavía');
    const ajenas = (await call('GET', `/api/v1/businesses/${otro}/cajas`)).json() as { mercadopago: unknown }[];
    expect(ajenas.map((c) => c.mercadopago)).toEqual([null]);
    // Whoever cannot see sales cannot read the cajas either.
    const otra = await registerUser(app, 'Reponedora');
    await addMember(ctx, id, owner, otra, ['puede_ver_productos']);
    expect((await call('GET', `${base}/cajas`, undefined, otra)).statusCode).toBe(403);
  });
});

describe('orders', () => {
  it('a QR order: MP gets one create with its X-Idempotency-Key; the answer has the dynamic QR', async () => {
    const before = fake.requests.length;
    const r = await crearOrden(ctx, owner, s, { monto: '1500.50' });
    expect(r.statusCode).toBe(201);
    const o = r.json();
    expect(o).toMatchObject({
      caja_id: s.caja,
      tipo: 'qr',
      estado: 'pendiente',
      monto: 1500.5,
      qr_data: expect.stringMatching(/^000201/),
      referencia: expect.stringMatching(/^MOS-[0-9a-f]{32}$/),
      mp_orden_id: expect.stringMatching(/^ORD01/),
      venta_id: null,
      reembolsado: 0,
      reembolsos: [],
      aprobada_tarde: false,
    });
    const sent = fake.requests.slice(before).filter((x) => x.path === '/v1/orders');
    expect(sent).toHaveLength(1);
    expect(sent[0].headers['x-idempotency-key']).toMatch(/^[0-9a-f]{64}$/);
    expect(sent[0].headers.authorization).toBe(`Bearer ${s.token}`);
    expect(sent[0].body).toMatchObject({
      type: 'qr',
      external_reference: o.referencia,
      total_amount: '1500.50',
      transactions: { payments: [{ amount: '1500.50' }] },
      config: { qr: { external_pos_id: s.pos, mode: 'dynamic' } },
    });
    expect(fake.order(o.mp_orden_id)).toMatchObject({ status: 'created', total_amount: '1500.50' });
    const got = await call('GET', `${s.base}/mercadopago/ordenes/${o.id}`);
    expect(got.json()).toEqual(o);
  });

  it('a Point order goes to the caja’s terminal, without QR', async () => {
    const r = await crearOrden(ctx, owner, s, { monto: 300, tipo: 'point' });
    expect(r.statusCode).toBe(201);
    expect(r.json()).toMatchObject({ tipo: 'point', qr_data: null, estado: 'pendiente' });
    expect(fake.order(r.json().mp_orden_id)!.config).toEqual({ point: { terminal_id: s.terminal } });
  });

  it('the same Idempotency-Key answers the same order (MP asked once); another body with it is refused; none is 422', async () => {
    const key = randomUUID();
    const orders = fake.orders.size;
    const a = await crearOrden(ctx, owner, s, { monto: 99 }, key);
    const b = await crearOrden(ctx, owner, s, { monto: 99 }, key);
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.json().id).toBe(a.json().id);
    expect(fake.orders.size).toBe(orders + 1);
    const otro = await crearOrden(ctx, owner, s, { monto: 98 }, key);
    expect(otro.statusCode).toBe(422);
    const sinClave = await crearOrden(ctx, owner, s, { monto: 99 }, null);
    expect(sinClave.statusCode).toBe(422);
    expect(sinClave.json().errors[0].field).toBe('Idempotency-Key');
    expect(fake.orders.size).toBe(orders + 1);
  });

  it('a retry after MP’s answer was lost gets the order MP made, not a second one', async () => {
    const key = randomUUID();
    // MP creates the order but the answer never arrives (our deadline passes first).
    fake.setSwitches({ lento_ms: 4_000 });
    const lost = await crearOrden(ctx, owner, s, { monto: 77 }, key);
    fake.setSwitches({ lento_ms: 0 });
    expect(lost.statusCode).toBe(503);
    expect(lost.json().detail).toBe('No pudimos comunicarnos con Mercado Pago. Probá de nuevo o cobrá con otro medio.');
    const made = [...fake.orders.values()].filter((o) => o.order.total_amount === '77.00');
    expect(made).toHaveLength(1);
    const retry = await crearOrden(ctx, owner, s, { monto: 77 }, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.json().mp_orden_id).toBe(made[0].order.id);
    expect([...fake.orders.values()].filter((o) => o.order.total_amount === '77.00')).toHaveLength(1);
  });

  it('MP down: 503, nothing recorded; a token MP rejects: 409 saying so', async () => {
    const rows = async () => (await ctx.sql('SELECT 1 FROM mercadopago_ordenes WHERE business_id = $1', [s.id])).length;
    const before = await rows();
    fake.setSwitches({ caido: true });
    const down = await crearOrden(ctx, owner, s, { monto: 10 });
    fake.setSwitches({ caido: false });
    expect(down.statusCode).toBe(503);
    expect(await rows()).toBe(before);
    const id = await createBusiness(app, owner, 'Token revocado');
    const base = `/api/v1/businesses/${id}`;
    const cajas = (await call('GET', `${base}/cajas`)).json();
    await call('PUT', `${base}/mercadopago/config`, {
      access_token: 'APP_USR-revocado',
      cajas: [{ caja_id: cajas[0].id, pos_id: 'P1' }],
    });
    const rejected = await crearOrden(ctx, owner, { ...s, base, caja: cajas[0].id }, { monto: 10 });
    expect(rejected.statusCode).toBe(409);
    expect(rejected.json().detail).toBe(
      'Mercado Pago rechazó el access token: revisalo en Configuración → Mercado Pago.',
    );
  });

  it('checks the caja: another business’s is 422, one without terminal cannot take Point', async () => {
    const ajena = await crearOrden(ctx, owner, s, { monto: 10, caja_id: other.caja });
    expect(ajena.statusCode).toBe(422);
    expect(ajena.json().errors).toEqual([{ field: 'caja_id', message: 'Caja no encontrada en este negocio.' }]);
    const caja2 = (await call('POST', `${s.base}/cajas`, { nombre: 'Caja 2' })).json();
    await call('PUT', `${s.base}/mercadopago/config`, {
      cajas: [
        { caja_id: s.caja, pos_id: s.pos, terminal_id: s.terminal },
        { caja_id: caja2.id, pos_id: s.pos },
      ],
    });
    const point = await crearOrden(ctx, owner, s, { monto: 10, caja_id: caja2.id, tipo: 'point' });
    expect(point.statusCode).toBe(422);
    expect(point.json().detail).toBe(
      'La caja «Caja 2» no tiene una terminal Point asignada: asignala en la configuración.',
    );
    const bad = await crearOrden(ctx, owner, s, { monto: '10.555', tipo: 'qr' });
    expect(bad.statusCode).toBe(422);
  });

  it('another business’s order is 404 to read or cancel, and stays as it was', async () => {
    const mine = (await crearOrden(ctx, owner, other, { monto: 50 })).json();
    expect((await call('GET', `${s.base}/mercadopago/ordenes/${mine.id}`)).statusCode).toBe(404);
    expect((await call('POST', `${s.base}/mercadopago/ordenes/${mine.id}/cancelar`)).statusCode).toBe(404);
    expect((await call('GET', `${s.base}/mercadopago/ordenes/${randomUUID()}`)).statusCode).toBe(404);
    expect((await call('GET', `${s.base}/mercadopago/ordenes/no-es-un-id`)).statusCode).toBe(404);
    expect(fake.order(mine.mp_orden_id)!.status).toBe('created');
    expect((await call('GET', `${other.base}/mercadopago/ordenes/${mine.id}`)).json().estado).toBe('pendiente');
  });

  it('orders are the counter’s: whoever sells creates and cancels them; without ventas, 403', async () => {
    const vendedor = await registerUser(app, 'Vendedor');
    await addMember(ctx, s.id, owner, vendedor, ['puede_ver_ventas', 'puede_editar_ventas']);
    const o = await crearOrden(ctx, vendedor, s, { monto: 20 });
    expect(o.statusCode).toBe(201);
    const mirón = await registerUser(app, 'Miron');
    await addMember(ctx, s.id, owner, mirón, ['puede_ver_productos']);
    expect((await crearOrden(ctx, mirón, s, { monto: 20 })).statusCode).toBe(403);
    expect((await call('GET', `${s.base}/mercadopago/ordenes/${o.json().id}`, undefined, mirón)).statusCode).toBe(403);
    expect(
      (await call('POST', `${s.base}/mercadopago/ordenes/${o.json().id}/cancelar`, undefined, mirón)).statusCode,
    ).toBe(403);
    const c = await call('POST', `${s.base}/mercadopago/ordenes/${o.json().id}/cancelar`, undefined, vendedor);
    expect(c.statusCode).toBe(200);
  });
});

describe('cancelling', () => {
  it('a pending order is cancelled at MP; again is the same answer', async () => {
    const o = (await crearOrden(ctx, owner, s, { monto: 45 })).json();
    const c = await call('POST', `${s.base}/mercadopago/ordenes/${o.id}/cancelar`);
    expect(c.statusCode).toBe(200);
    expect(c.json()).toMatchObject({ id: o.id, estado: 'cancelada' });
    expect(fake.order(o.mp_orden_id)!.status).toBe('canceled');
    const again = await call('POST', `${s.base}/mercadopago/ordenes/${o.id}/cancelar`);
    expect(again.statusCode).toBe(200);
    expect(again.json().estado).toBe('cancelada');
  });

  it('an order the customer paid meanwhile is not cancelled: 409, and it reads as paid', async () => {
    fake.setSwitches({ perder_notificaciones: true });
    const o = (await crearOrden(ctx, owner, s, { monto: 46 })).json();
    fake.pagar(o.mp_orden_id);
    fake.setSwitches({ perder_notificaciones: false });
    const c = await call('POST', `${s.base}/mercadopago/ordenes/${o.id}/cancelar`);
    expect(c.statusCode).toBe(409);
    expect(c.json().detail).toBe('La orden ya fue pagada: registrá la venta con ella.');
    expect((await call('GET', `${s.base}/mercadopago/ordenes/${o.id}`)).json().estado).toBe('aprobada');
    expect(fake.order(o.mp_orden_id)!.status).toBe('processed');
  });

  it('a rejected or expired order cannot be cancelled (409)', async () => {
    const o = (await crearOrden(ctx, owner, s, { monto: 47, tipo: 'point' })).json();
    fake.rechazar(o.mp_orden_id);
    await fake.idle();
    const c = await call('POST', `${s.base}/mercadopago/ordenes/${o.id}/cancelar`);
    expect(c.statusCode).toBe(409);
    expect(c.json().detail).toBe('La orden ya está rechazada: no se puede cancelar.');
  });
});
