import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser } from '../../test/fixtures.js';
import { registrarEnArca } from '../../test/arca.js';
import { FakeArca } from './fake/fake-arca.js';

/*
 * Crash safety of invoicing (decision 0013): the after-steps of a sale, a void and a return are
 * switched off (`skipAfterStep`), as when the process dies between the sale's commit and its
 * invoice; the reconcile sweep must create exactly what is missing.
 */

const fake = new FakeArca();
await fake.listen(0);
const ctx = await createTestApp({
  arca: { urls: fake.urls, timeoutMs: 700, waitMs: 3000, workerMs: 0, concurrency: 2 },
});
const { app } = ctx;
afterAll(() => fake.close());
const owner = await registerUser(app, 'Recupero');
const RI = '30-71234567-1';

type Method = 'GET' | 'POST' | 'PUT';

async function shop(nombre: string, punto_venta: number, extra: object = {}) {
  const id = await createBusiness(app, owner, nombre);
  const r = (method: Method, url: string, payload?: object, headers: object = {}) =>
    app.inject({
      method,
      url: `/api/v1/businesses/${id}${url}`,
      headers: { ...owner.auth, ...headers },
      ...(payload ? { payload } : {}),
    });
  const csr = await r('POST', '/facturacion/csr', { cuit: RI, razon_social: nombre });
  registrarEnArca(fake, { cuit: RI, punto_venta, ...extra });
  const put = await r('PUT', '/facturacion/config', {
    cuit: RI,
    razon_social: nombre,
    condicion_iva: 'responsable_inscripto',
    punto_venta,
    certificado_pem: fake.certificateFor(csr.json().csr_pem),
    facturar: 'elegir',
    ...extra,
  });
  expect(put.statusCode, put.body).toBe(200);
  fake.cuits.set(RI, { condicion: 'responsable_inscripto', puntos_venta: [{ nro: punto_venta }] });
  const p = (
    await r('POST', '/products', { nombre: 'Yerba', precio_venta: 1210, stock_actual: 1000, iva: '21' })
  ).json();
  const sell = async (body: object = {}, headers: object = {}) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/ventas/record-sale',
      headers: { ...owner.auth, ...headers },
      payload: { negocio_id: id, metodo_pago: 'efectivo', items: [{ id: p.id, cantidad: 1 }], ...body },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; comprobante?: { id: string; estado: string } | null };
  };
  const ofSale = async (ventaId: string) =>
    ctx.sql<{ id: string; tipo: string; estado: string; numero: number | null; devolucion_id: string | null }>(
      'SELECT id, tipo, estado, numero, devolucion_id FROM comprobantes WHERE business_id = $1 AND venta_id = $2 ORDER BY creado_en',
      [id, ventaId],
    );
  return { id, r, p, sell, ofSale };
}

/** One sweep and one pass, then waits for every attempt. */
const sweep = async () => {
  const created = await app.facturacion.sweep();
  await app.facturacion.idle();
  await app.facturacion.runPending({ all: true });
  await app.facturacion.idle();
  return created;
};

const crash = async <T>(fn: () => Promise<T>): Promise<T> => {
  app.facturacion.skipAfterStep = true;
  try {
    return await fn();
  } finally {
    app.facturacion.skipAfterStep = false;
  }
};

describe('facturación: crash between the commit and the after-step', () => {
  it('a sale whose after-step never ran is invoiced by the sweep with the next number, once', async () => {
    const s = await shop('Recupero Venta', 31);
    const first = await s.sell({ facturar: true });
    await app.facturacion.idle();
    const sale = await crash(() => s.sell({ facturar: true }));
    expect(sale.comprobante ?? null).toBeNull();
    expect(await s.ofSale(sale.id)).toHaveLength(0);
    const [mark] = await ctx.sql<{ facturar: boolean; conciliar: boolean }>(
      'SELECT facturar, conciliar FROM sales WHERE business_id = $1 AND id = $2',
      [s.id, sale.id],
    );
    expect(mark).toEqual({ facturar: true, conciliar: true });

    expect(await sweep()).toBe(1);
    const rows = await s.ofSale(sale.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tipo: 'factura_b', estado: 'autorizado', numero: 2 });
    expect((await s.ofSale(first.id))[0]).toMatchObject({ numero: 1 });
    expect(fake.approved(RI, 31, 6)).toHaveLength(2);
    // The mark is cleared; a second sweep creates nothing.
    expect(await sweep()).toBe(0);
    expect(await s.ofSale(sale.id)).toHaveLength(1);
    const [after] = await ctx.sql<{ conciliar: boolean }>(
      'SELECT conciliar FROM sales WHERE business_id = $1 AND id = $2',
      [s.id, sale.id],
    );
    expect(after.conciliar).toBe(false);
    // The sale whose after-step ran had its mark cleared too, with nothing created for it.
    const marks = await ctx.sql('SELECT 1 FROM sales WHERE business_id = $1 AND conciliar', [s.id]);
    expect(marks).toHaveLength(0);
    expect(await s.ofSale(first.id)).toHaveLength(1);
  });

  it('a replay with the same Idempotency-Key answers the invoice and never creates a second one', async () => {
    const s = await shop('Recupero Replay', 32);
    const key = { 'idempotency-key': 'replay-facturar-1' };
    const sale = await crash(() => s.sell({ facturar: true }, key));
    expect(await s.ofSale(sale.id)).toHaveLength(0);
    // The replay issues what the crash left undone.
    const again = await s.sell({ facturar: true }, key);
    expect(again.id).toBe(sale.id);
    expect(again.comprobante).toMatchObject({ estado: 'pendiente' });
    const third = await s.sell({ facturar: true }, key);
    expect(third.comprobante?.id).toBe(again.comprobante?.id);
    await sweep();
    const rows = await s.ofSale(sale.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ estado: 'autorizado', numero: 1 });
    expect(fake.approved(RI, 32, 6)).toHaveLength(1);
  });

  it('the after-step and the sweep racing create exactly one invoice', async () => {
    const s = await shop('Recupero Carrera', 33);
    for (let i = 0; i < 5; i++) {
      const sale = await crash(() => s.sell({ facturar: true }));
      const { invoiceSale } = await import('./sale-hooks.js');
      await Promise.all([
        app.facturacion.sweep(),
        invoiceSale(
          app,
          { businessId: s.id, userId: owner.id, timezone: 'America/Argentina/Buenos_Aires', ventaId: sale.id },
          {
            facturar: true,
          },
        ),
        app.facturacion.sweep(),
      ]);
      await app.facturacion.idle();
      expect(await s.ofSale(sale.id)).toHaveLength(1);
    }
    await sweep();
    const rows = await ctx.sql<{ numero: number; estado: string }>(
      'SELECT numero, estado FROM comprobantes WHERE business_id = $1 ORDER BY numero',
      [s.id],
    );
    expect(rows.map((r) => r.numero)).toEqual([1, 2, 3, 4, 5]);
    expect(rows.every((r) => r.estado === 'autorizado')).toBe(true);
    expect(fake.approved(RI, 33, 6)).toHaveLength(5);
  });

  it('a void whose after-step never ran gets its nota de crédito from the sweep', async () => {
    const s = await shop('Recupero Anulacion', 34);
    const sale = await s.sell({ facturar: true });
    await sweep();
    const voided = await crash(() => s.r('POST', `/ventas/${sale.id}/anular`, {}));
    expect(voided.statusCode).toBe(200);
    expect(await s.ofSale(sale.id)).toHaveLength(1);
    expect(await sweep()).toBe(1);
    const rows = await s.ofSale(sale.id);
    expect(rows.map((r) => [r.tipo, r.estado, r.numero])).toEqual([
      ['factura_b', 'autorizado', 1],
      ['nota_credito_b', 'autorizado', 1],
    ]);
    expect(await sweep()).toBe(0);
    expect(fake.approved(RI, 34, 8)).toHaveLength(1);
  });

  it('a sale voided before its invoice was ever created gets neither', async () => {
    const s = await shop('Recupero Doble', 35);
    const sale = await crash(() => s.sell({ facturar: true }));
    const voided = await crash(() => s.r('POST', `/ventas/${sale.id}/anular`, {}));
    expect(voided.statusCode).toBe(200);
    // A sale voided before any invoice existed needs none (nothing was issued to cancel).
    expect(await sweep()).toBe(0);
    expect(await s.ofSale(sale.id)).toHaveLength(0);
  });

  it('a return whose after-step never ran gets its nota de crédito from the sweep', async () => {
    const s = await shop('Recupero Devolucion', 36);
    const sale = await s.sell({ facturar: true, items: [{ id: s.p.id, cantidad: 3 }] });
    await sweep();
    const detalle = (await s.r('GET', `/ventas/sales/${sale.id}`)).json();
    const medios = (await s.r('GET', '/medios-pago')).json() as { id: string; tipo: string }[];
    const dev = await crash(() =>
      s.r('POST', `/ventas/${sale.id}/devoluciones`, {
        items: [{ item_id: detalle.items[0].id, cantidad: 1 }],
        medio_pago_id: medios.find((m) => m.tipo === 'efectivo')!.id,
      }),
    );
    expect(dev.statusCode).toBe(201);
    expect(await s.ofSale(sale.id)).toHaveLength(1);
    expect(await sweep()).toBe(1);
    const rows = await s.ofSale(sale.id);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({
      tipo: 'nota_credito_b',
      estado: 'autorizado',
      numero: 1,
      devolucion_id: dev.json().id,
    });
    const [nc] = await ctx.sql<{ total: string }>('SELECT total FROM comprobantes WHERE business_id = $1 AND id = $2', [
      s.id,
      rows[1].id,
    ]);
    expect(Number(nc.total)).toBe(1210);
    expect(await sweep()).toBe(0);
    expect(fake.approved(RI, 36, 8)).toHaveLength(1);
  });

  it('with config "siempre" a sale without facturar is invoiced by the sweep; with "elegir" never', async () => {
    const siempre = await shop('Recupero Siempre', 37, { facturar: 'siempre' });
    const a = await crash(() => siempre.sell());
    expect(await sweep()).toBe(1);
    expect(await siempre.ofSale(a.id)).toHaveLength(1);

    const elegir = await shop('Recupero Elegir', 38);
    const b = await crash(() => elegir.sell());
    const c = await elegir.sell({ facturar: false });
    await sweep();
    expect(await elegir.ofSale(b.id)).toHaveLength(0);
    expect(await elegir.ofSale(c.id)).toHaveLength(0);
    const marks = await ctx.sql<{ facturar: boolean }>('SELECT facturar FROM sales WHERE business_id = $1', [
      elegir.id,
    ]);
    expect(marks.every((m) => !m.facturar)).toBe(true);
  });

  it('records the IVA rate of each line when sold, so a later invoice uses it', async () => {
    const s = await shop('Recupero Iva', 39);
    const sale = await crash(() => s.sell({ facturar: true }));
    const [line] = await ctx.sql<{ iva: string }>(
      'SELECT iva FROM sale_items WHERE business_id = $1 AND venta_id = $2',
      [s.id, sale.id],
    );
    expect(line.iva).toBe('21');
    // The rate changes before the sweep: the invoice keeps the rate in force at the sale.
    await ctx.sql(`UPDATE products SET iva = '10.5' WHERE business_id = $1`, [s.id]);
    await sweep();
    const [f] = await ctx.sql<{ iva: string; neto: string }>(
      'SELECT iva, neto FROM comprobantes WHERE business_id = $1 AND venta_id = $2',
      [s.id, sale.id],
    );
    expect({ iva: Number(f.iva), neto: Number(f.neto) }).toEqual({ iva: 210, neto: 1000 });
  });
});
