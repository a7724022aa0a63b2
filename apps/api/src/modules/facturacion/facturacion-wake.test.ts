import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { registrarEnArca } from '../../test/arca.js';
import { createBusiness, registerUser } from '../../test/fixtures.js';
import { FakeArca } from './fake/fake-arca.js';

/*
 * Invoices waiting for ARCA go out within a minute of it answering again (issue 33): after a long
 * outage their next attempt is minutes away (the backoff), so the background pass asks WSFE
 * (FEDummy, at most once a minute) and, when it answers, makes them due at once.
 */

const fake = new FakeArca();
await fake.listen(0);
const reloj = { offset: 0 };
const ctx = await createTestApp({
  now: () => new Date(Date.now() + reloj.offset),
  arca: { urls: fake.urls, timeoutMs: 700, waitMs: 2000, workerMs: 0, concurrency: 2 },
});
const { app } = ctx;
afterAll(async () => {
  fake.setFaults({ down: false });
  await fake.close();
});
const owner = await registerUser(app, 'Despierta');
const CUIT = '20-12345678-6';

async function shop(nombre: string, punto_venta: number) {
  const id = await createBusiness(app, owner, nombre);
  const r = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    app.inject({ method, url: `/api/v1/businesses/${id}${url}`, headers: owner.auth, ...(payload ? { payload } : {}) });
  const csr = await r('POST', '/facturacion/csr', { cuit: CUIT, razon_social: nombre });
  registrarEnArca(fake, { cuit: CUIT, punto_venta, condicion_iva: 'monotributo' });
  const put = await r('PUT', '/facturacion/config', {
    cuit: CUIT,
    razon_social: nombre,
    condicion_iva: 'monotributo',
    punto_venta,
    certificado_pem: fake.certificateFor(csr.json().csr_pem),
    facturar: 'siempre',
  });
  expect(put.statusCode, put.body).toBe(200);
  // A ticket first, so the outage hits WSFE.
  expect((await r('POST', '/facturacion/probar')).statusCode).toBe(200);
  const p = (await r('POST', '/products', { nombre: 'Hielo', precio_venta: 300, stock_actual: 100 })).json();
  const sell = async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/ventas/record-sale',
      headers: owner.auth,
      payload: { negocio_id: id, metodo_pago: 'efectivo', items: [{ id: p.id, cantidad: 1 }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    await app.facturacion.idle();
    return res.json().comprobante.id as string;
  };
  const estado = async (cid: string) =>
    (
      await ctx.sql<{ estado: string; proximo_intento: Date | null; numero: number | null }>(
        'SELECT estado, proximo_intento, numero FROM comprobantes WHERE business_id = $1 AND id = $2',
        [id, cid],
      )
    )[0];
  return { sell, estado };
}

const pass = async () => {
  await app.facturacion.runPending({ all: true });
  await app.facturacion.idle();
};

describe('invoices waiting for ARCA', () => {
  it('go out within a minute of ARCA answering again, whatever their backoff', async () => {
    const s = await shop('Heladería Vuelve', 4);
    fake.setFaults({ down: true });
    const cid = await s.sell();
    // A long outage: several failed attempts push the next one minutes away.
    for (let i = 0; i < 4; i++) await pass();
    const waiting = await s.estado(cid);
    expect(waiting.estado).toBe('pendiente');
    const wait = waiting.proximo_intento!.getTime() - app.services.now().getTime();
    expect(wait).toBeGreaterThan(60_000);

    // Still down: asking changes nothing, and the next question waits a minute.
    expect(await app.facturacion.wake()).toBe(0);
    expect((await s.estado(cid)).proximo_intento).toEqual(waiting.proximo_intento);

    fake.setFaults({ down: false });
    // ARCA is back, but within the minute since the last question nobody asks again.
    expect(await app.facturacion.wake()).toBe(0);
    expect(await app.facturacion.runPending()).toBe(0);
    // A minute later the pass asks, ARCA answers, and the invoice is due at once.
    reloj.offset += 61_000;
    expect(await app.facturacion.wake()).toBe(1);
    expect(await app.facturacion.runPending()).toBe(1);
    await app.facturacion.idle();
    expect(await s.estado(cid)).toMatchObject({ estado: 'autorizado', numero: 1, proximo_intento: null });
    // Nothing left waiting: the next pass has nothing to wake.
    reloj.offset += 61_000;
    expect(await app.facturacion.wake()).toBe(0);
  });
});
