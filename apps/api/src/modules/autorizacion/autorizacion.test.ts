import { describe, expect, it } from 'vitest';
import { PIN_FAILURES } from '@mostrador/shared';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, PASSWORD, registerUser, uniqueEmail, type TestUser } from '../../test/fixtures.js';

const ctx = await createTestApp();
const { app } = ctx;

const post = (u: TestUser, url: string, payload: object, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url, headers: { ...u.auth, ...headers }, payload });
const get = (u: TestUser, url: string) => app.inject({ method: 'GET', url, headers: u.auth });
const setPin = (u: TestUser, pin: string, current_password = PASSWORD) =>
  app.inject({ method: 'PUT', url: '/api/v1/auth/pin', headers: u.auth, payload: { pin, current_password } });

/* A ferretería: the owner, an encargado who may change prices (not sell over the limit), a cashier
 * with a 5 % maximum, and a helper with a PIN but no right at all. */
const duenio = await registerUser(app, 'Dueño', uniqueEmail('duenio'));
const biz = await createBusiness(app, duenio, 'Ferretería PIN');
const base = `/api/v1/businesses/${biz}`;
const encargado = await registerUser(app, 'Encargado');
const cajera = await registerUser(app, 'Cajera');
const ayudante = await registerUser(app, 'Ayudante');
const sellFlags = ['puede_ver_ventas', 'puede_editar_ventas'] as const;
await addMember(ctx, biz, duenio, encargado, [...sellFlags], { cambiar_precios: true });
await addMember(ctx, biz, duenio, cajera, [...sellFlags], { descuento_maximo: 5 });
await addMember(ctx, biz, duenio, ayudante, [...sellFlags], { descuento_maximo: 0 });

/* Another business, whose owner has a PIN and every right there. */
const otro = await registerUser(app, 'Otro');
await createBusiness(app, otro, 'Kiosco Ajeno');

const PINS = { duenio: '4821', encargado: '73915', ayudante: '2580', otro: '9147' };
for (const [u, pin] of [
  [duenio, PINS.duenio],
  [encargado, PINS.encargado],
  [ayudante, PINS.ayudante],
  [otro, PINS.otro],
] as const) {
  const res = await setPin(u, pin);
  if (res.statusCode !== 200) throw new Error(`pin ${res.statusCode} ${res.body}`);
}

const tornillo = (
  await post(duenio, `${base}/products`, {
    nombre: 'Tornillo',
    precio_venta: 1000,
    precio_compra: 500,
    stock_actual: 500,
  })
).json();
const cliente = (
  await post(duenio, `${base}/clientes`, { nombre: 'Rosa', apellido: 'Fiado', limite_credito: 3000 })
).json();
const medios = (await get(duenio, `${base}/medios-pago`)).json() as { id: string; tipo: string }[];
const cc = medios.find((m) => m.tipo === 'cuenta_corriente')!.id;

const vender = (u: TestUser, body: object, headers: Record<string, string> = {}) =>
  post(u, '/api/v1/ventas/record-sale', { negocio_id: biz, ...body }, headers);
const tornillos = (cantidad: number, extra: object = {}) => [{ id: tornillo.id, tipo: 'producto', cantidad, ...extra }];
/** 10 % off: over the cashier's 5 %. */
const conDescuento = { metodo_pago: 'efectivo', descuento: 200, items: tornillos(2) };
/** A price below the list. */
const conPrecio = { metodo_pago: 'efectivo', items: tornillos(1, { precio: 800 }) };
/** 4 000 on account against a 3 000 limit. */
const fiado = { cliente_id: cliente.id, pagos: [{ medio_pago_id: cc, monto: 4000 }], items: tornillos(4) };

const countSales = async () =>
  (await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM sales WHERE business_id = $1', [biz]))[0].n;
const intentos = async () =>
  (await get(duenio, `${base}/auditoria?accion=intento_rechazado`)).json() as {
    usuario: { id: string } | null;
    despues: Record<string, unknown>;
    nombres: Record<string, string>;
  }[];
const saleOf = async (id: string) =>
  (
    await ctx.sql<{ autorizado_por: string | null }>(
      'SELECT autorizado_por FROM sales WHERE business_id = $1 AND id = $2',
      [biz, id],
    )
  )[0];
const saleAudit = async (id: string) =>
  (
    await ctx.sql<{ despues: Record<string, unknown> }>(
      `SELECT despues FROM audit_log WHERE business_id = $1 AND entidad = 'venta' AND accion = 'crear' AND entidad_id = $2`,
      [biz, id],
    )
  )[0].despues;

describe('the PIN in the profile', () => {
  it('is set with the account password, stored hashed with argon2, and can be removed', async () => {
    const u = await registerUser(app, 'Nueva');
    expect((await get(u, '/api/v1/auth/pin')).json()).toEqual({ tiene_pin: false });

    const wrongPassword = await setPin(u, '6082', 'otra-clave-999');
    expect(wrongPassword.statusCode).toBe(422);
    expect(wrongPassword.json().errors).toEqual([
      { field: 'current_password', message: 'La contraseña actual es incorrecta.' },
    ]);
    for (const pin of ['123', '1234567', '12a4', '']) {
      const res = await setPin(u, pin);
      expect(res.statusCode, pin).toBe(422);
      expect(res.json().errors[0]).toEqual({ field: 'pin', message: 'El PIN tiene que tener de 4 a 6 números.' });
    }
    for (const pin of ['0000', '1234', '987654']) {
      const res = await setPin(u, pin);
      expect(res.statusCode, pin).toBe(422);
      expect(res.json().errors[0].message).toContain('muy fácil de adivinar');
    }
    expect((await get(u, '/api/v1/auth/pin')).json()).toEqual({ tiene_pin: false });

    const ok = await setPin(u, '6082');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ tiene_pin: true, message: expect.stringContaining('PIN guardado') });
    expect((await get(u, '/api/v1/auth/pin')).json()).toEqual({ tiene_pin: true });
    const [row] = await ctx.sql<{ pin_hash: string }>('SELECT pin_hash FROM users WHERE id = $1', [u.id]);
    expect(row.pin_hash).toMatch(/^\$argon2id\$/);
    expect(row.pin_hash).not.toContain('6082');

    const del = await app.inject({ method: 'DELETE', url: '/api/v1/auth/pin', headers: u.auth });
    expect(del.statusCode).toBe(204);
    expect((await get(u, '/api/v1/auth/pin')).json()).toEqual({ tiene_pin: false });
    expect((await app.inject({ method: 'GET', url: '/api/v1/auth/pin' })).statusCode).toBe(401);
  });
});

describe('who may authorize at the counter', () => {
  it('lists the members with a PIN who hold some right, without the one asking', async () => {
    const res = await get(cajera, `${base}/autorizadores`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        usuario_id: duenio.id,
        nombre: 'Dueño Prueba',
        acceso_total: true,
        cambiar_precios: true,
        exceder_credito: true,
        descuento_maximo: null,
      },
      {
        usuario_id: encargado.id,
        nombre: 'Encargado Prueba',
        acceso_total: false,
        cambiar_precios: true,
        exceder_credito: false,
        descuento_maximo: null,
      },
    ]);
    // The owner asking is not listed; the cashier has no PIN; the helper has no right.
    const own = (await get(duenio, `${base}/autorizadores`)).json() as { usuario_id: string }[];
    expect(own.map((a) => a.usuario_id)).toEqual([encargado.id]);
    // Outsiders cannot see who authorizes.
    expect((await get(otro, `${base}/autorizadores`)).statusCode).toBe(403);
  });
});

describe('record-sale with autorizacion', () => {
  it('sells a discount over the maximum with the owner PIN, recording who authorized in the sale and its log', async () => {
    const refused = await vender(cajera, conDescuento);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('DISCOUNT_OVER_MAX');

    const res = await vender(cajera, { ...conDescuento, autorizacion: { usuario_id: duenio.id, pin: PINS.duenio } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().total).toBe(1800);
    expect(await saleOf(res.json().id)).toEqual({ autorizado_por: duenio.id });
    expect(await saleAudit(res.json().id)).toMatchObject({
      autorizado_por_id: duenio.id,
      autorizado: ['Descuento mayor al máximo permitido'],
      descuento: 200,
    });
    const detail = (await get(duenio, `${base}/ventas/sales/${res.json().id}`)).json();
    expect(detail).toMatchObject({
      vendedor: { id: cajera.id, nombre: 'Cajera Prueba' },
      autorizado_por: { id: duenio.id, nombre: 'Dueño Prueba' },
    });
    const log = (await get(duenio, `${base}/auditoria?entidad=venta&accion=crear`)).json() as {
      entidad_id: string;
      nombres: Record<string, string>;
    }[];
    expect(log.find((r) => r.entidad_id === res.json().id)!.nombres[duenio.id]).toBe('Dueño Prueba');
  });

  it('sells a changed price with the PIN of the encargado who may change prices', async () => {
    const refused = await vender(cajera, conPrecio);
    expect(refused.json().code).toBe('PRICE_CHANGE_FORBIDDEN');
    const res = await vender(cajera, { ...conPrecio, autorizacion: { usuario_id: encargado.id, pin: PINS.encargado } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().total).toBe(800);
    expect(await saleOf(res.json().id)).toEqual({ autorizado_por: encargado.id });
    expect((await saleAudit(res.json().id)).autorizado).toEqual(['Cambio de precio sin permiso']);
  });

  it('sells over the credit limit with the owner PIN, not with the encargado who may not exceed it', async () => {
    const before = await countSales();
    const intentosAntes = (await intentos()).length;
    const refused = await vender(cajera, fiado);
    expect(refused.json().code).toBe('CREDIT_LIMIT');
    const sinPermiso = await vender(cajera, {
      ...fiado,
      autorizacion: { usuario_id: encargado.id, pin: PINS.encargado },
    });
    expect(sinPermiso.statusCode).toBe(403);
    expect(sinPermiso.json()).toMatchObject({
      code: 'AUTHORIZATION_REFUSED',
      detail: 'Encargado Prueba no tiene el permiso para autorizar esto: elegí a otra persona.',
      motivo: 'CREDIT_LIMIT',
    });
    expect(await countSales()).toBe(before);
    const log = await intentos();
    expect(log.length).toBe(intentosAntes + 2);
    expect(log[0]).toMatchObject({
      usuario: { id: cajera.id },
      despues: {
        motivo: 'Venta sobre el límite de crédito',
        cliente_id: cliente.id,
        autorizador_id: encargado.id,
        autorizacion: 'Autorización de alguien sin el permiso',
      },
    });
    expect(log[0].nombres[encargado.id]).toBe('Encargado Prueba');

    const res = await vender(cajera, { ...fiado, autorizacion: { usuario_id: duenio.id, pin: PINS.duenio } });
    expect(res.statusCode, res.body).toBe(201);
    expect(await saleOf(res.json().id)).toEqual({ autorizado_por: duenio.id });
    expect((await saleAudit(res.json().id)).autorizado).toEqual(['Venta sobre el límite de crédito']);
  });

  it('refuses a wrong PIN (403, nothing stored) and logs who tried with whose PIN', async () => {
    const before = await countSales();
    const res = await vender(cajera, { ...conDescuento, autorizacion: { usuario_id: encargado.id, pin: '11112' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'WRONG_PIN', detail: 'El PIN no es correcto.' });
    expect(await countSales()).toBe(before);
    const [last] = await intentos();
    expect(last).toMatchObject({
      usuario: { id: cajera.id },
      despues: { motivo: 'PIN de autorización incorrecto', autorizador_id: encargado.id },
    });
    // The encargado's right PIN still works afterwards (one failure is under the limit).
    const ok = await vender(cajera, {
      ...conDescuento,
      autorizacion: { usuario_id: encargado.id, pin: PINS.encargado },
    });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('refuses a member without the right and a member of another business, even with their right PIN', async () => {
    const before = await countSales();
    const sinDerecho = await vender(cajera, {
      ...conDescuento,
      autorizacion: { usuario_id: ayudante.id, pin: PINS.ayudante },
    });
    expect(sinDerecho.statusCode).toBe(403);
    expect(sinDerecho.json()).toMatchObject({ code: 'AUTHORIZATION_REFUSED', motivo: 'DISCOUNT_OVER_MAX' });
    expect(sinDerecho.json().detail).toContain('Ayudante Prueba no tiene el permiso');

    const ajeno = await vender(cajera, { ...conDescuento, autorizacion: { usuario_id: otro.id, pin: PINS.otro } });
    expect(ajeno.statusCode).toBe(403);
    expect(ajeno.json()).toMatchObject({
      code: 'AUTHORIZATION_REFUSED',
      detail: 'Esa persona no puede autorizar en este negocio: elegí a alguien de la lista.',
    });
    expect(await countSales()).toBe(before);
    const [last] = await intentos();
    expect(last).toMatchObject({
      usuario: { id: cajera.id },
      despues: { motivo: 'Autorización de alguien que no es del negocio o no tiene PIN', autorizador_id: otro.id },
    });
    // The other business's owner is no member here: the log does not name them.
    expect(last.nombres[otro.id]).toBeUndefined();
  });

  it('records no authorizer when the seller needed none, and keeps the Idempotency-Key of the same cart', async () => {
    const pin = { autorizacion: { usuario_id: duenio.id, pin: PINS.duenio } };
    const own = await vender(cajera, { metodo_pago: 'efectivo', items: tornillos(1), ...pin });
    expect(own.statusCode, own.body).toBe(201);
    expect(await saleOf(own.json().id)).toEqual({ autorizado_por: null });
    expect(await saleAudit(own.json().id)).not.toHaveProperty('autorizado_por_id');

    // Refused without the PIN (nothing kept under the key), then sent again with it: one sale,
    // and its replay (with or without the PIN) answers the same sale.
    const key = { 'Idempotency-Key': 'carrito-autorizado-1' };
    expect((await vender(cajera, conDescuento, key)).statusCode).toBe(403);
    const first = await vender(cajera, { ...conDescuento, ...pin }, key);
    expect(first.statusCode, first.body).toBe(201);
    const again = await vender(cajera, { ...conDescuento, ...pin }, key);
    expect(again.json()).toEqual(first.json());
    expect((await vender(cajera, conDescuento, key)).json()).toEqual(first.json());
    const [k] = await ctx.sql<{ hash: string; respuesta: unknown }>(
      `SELECT hash, respuesta::text FROM sale_idempotency_keys WHERE business_id = $1 AND clave = 'carrito-autorizado-1'`,
      [biz],
    );
    expect(JSON.stringify(k)).not.toContain(PINS.duenio);
  });

  it('answers 422 to a malformed autorizacion before anything else', async () => {
    for (const autorizacion of [
      { usuario_id: 'x', pin: '4821' },
      { usuario_id: duenio.id, pin: '48' },
      { pin: '4821' },
    ]) {
      const res = await vender(cajera, { ...conDescuento, autorizacion });
      expect(res.statusCode, JSON.stringify(autorizacion)).toBe(422);
    }
  });
});

describe('wrong PINs are limited per member', () => {
  it(`answers 429 after ${PIN_FAILURES} wrong PINs in the window, even to the right one, and logs it`, async () => {
    // A member of its own, so the other tests' PINs stay unlimited.
    const jefa = await registerUser(app, 'Jefa');
    await addMember(ctx, biz, duenio, jefa, [...sellFlags], { exceder_credito: true, cambiar_precios: true });
    expect((await setPin(jefa, '5173')).statusCode).toBe(200);
    const conPin = (pin: string) => vender(cajera, { ...conDescuento, autorizacion: { usuario_id: jefa.id, pin } });

    for (let i = 0; i < PIN_FAILURES - 1; i++) expect((await conPin('0001')).statusCode).toBe(403);
    // A right PIN is not counted: one more wrong one still gets its 403.
    expect((await conPin('5173')).statusCode).toBe(201);
    expect((await conPin('0001')).json().code).toBe('WRONG_PIN');

    const before = await countSales();
    const limited = await conPin('5173');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(limited.json().detail).toMatch(/^Demasiados intentos\. Intentá de nuevo en \d+ minutos?\.$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await countSales()).toBe(before);
    const [last] = await intentos();
    expect(last).toMatchObject({
      usuario: { id: cajera.id },
      despues: { motivo: 'Demasiados intentos de PIN', autorizador_id: jefa.id },
    });

    // Another member's PIN is counted apart.
    const otroPin = await vender(cajera, {
      ...conDescuento,
      autorizacion: { usuario_id: duenio.id, pin: PINS.duenio },
    });
    expect(otroPin.statusCode).toBe(201);
  });
});
