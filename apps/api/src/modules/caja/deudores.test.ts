import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser } from '../../test/fixtures.js';
import { readXlsx } from '../../test/xlsx.js';

const ctx = await createTestApp();
const { app } = ctx;
const owner = await registerUser(app, 'Deudas');
const biz = await createBusiness(app, owner, 'Almacen Deudas');
const base = `/api/v1/businesses/${biz}`;
const post = (url: string, payload: object) => app.inject({ method: 'POST', url, headers: owner.auth, payload });
const get = (url: string) => app.inject({ method: 'GET', url, headers: owner.auth });

const pan = (await post(`${base}/products`, { nombre: 'Pan', precio_venta: 1000, stock_actual: 1000 })).json();
const medios = (await get(`${base}/medios-pago`)).json() as { id: string; tipo: string }[];
const cc = medios.find((m) => m.tipo === 'cuenta_corriente')!.id;
const efectivo = medios.find((m) => m.tipo === 'efectivo')!.id;

/** A sale on account `dias` days ago (the sale is recorded now and dated back). */
async function fiado(cliente: string, pesos: number, dias: number) {
  const r = await post('/api/v1/ventas/record-sale', {
    negocio_id: biz,
    cliente_id: cliente,
    items: [{ id: pan.id, cantidad: pesos / 1000 }],
    pagos: [{ medio_pago_id: cc, monto: pesos }],
  });
  expect(r.statusCode).toBe(201);
  await ctx.sql(`UPDATE sales SET fecha = fecha - make_interval(days => $2) WHERE id = $1`, [r.json().id, dias]);
}

describe('cuentas corrientes: who owes, and since when', () => {
  it('ages each balance by its oldest unpaid sales, payments going to the oldest first', async () => {
    const ana = (await post(`${base}/clientes`, { nombre: 'Ana' })).json();
    const beto = (await post(`${base}/clientes`, { nombre: 'Beto', limite_credito: 50000 })).json();
    const nadie = (await post(`${base}/clientes`, { nombre: 'Ceci' })).json();
    await fiado(ana.id, 10000, 100);
    await fiado(ana.id, 5000, 70);
    await fiado(ana.id, 3000, 40);
    await fiado(ana.id, 2000, 5);
    // 12000 paid: the 100-day sale and 2000 of the 70-day one.
    expect(
      (await post(`${base}/clientes/${ana.id}/cobros`, { monto: 12000, medio_pago_id: efectivo })).statusCode,
    ).toBe(201);
    await fiado(beto.id, 30000, 10);
    await fiado(nadie.id, 1000, 200);
    expect(
      (await post(`${base}/clientes/${nadie.id}/cobros`, { monto: 1000, medio_pago_id: efectivo })).statusCode,
    ).toBe(201);

    const list = (await get(`${base}/cuentas-corrientes`)).json();
    expect(list).toEqual([
      expect.objectContaining({
        cliente_nombre: 'Beto',
        saldo: 30000,
        limite_credito: 50000,
        antiguedad: { d0_30: 30000, d31_60: 0, d61_90: 0, d90_mas: 0 },
      }),
      expect.objectContaining({
        cliente_nombre: 'Ana',
        saldo: 8000,
        antiguedad: { d0_30: 2000, d31_60: 3000, d61_90: 3000, d90_mas: 0 },
      }),
    ]);

    const xlsx = await get(`${base}/cuentas-corrientes/exportar`);
    expect(xlsx.statusCode).toBe(200);
    const rows = await readXlsx(xlsx.rawPayload);
    expect(rows[0]).toEqual([
      'Cliente',
      'Debe',
      'Límite de crédito',
      '0 a 30 días',
      '31 a 60 días',
      '61 a 90 días',
      'Más de 90 días',
    ]);
    expect(rows[2]).toEqual(['Ana', 8000, undefined, 2000, 3000, 3000, 0]);

    const estado = await readXlsx((await get(`${base}/clientes/${ana.id}/cuenta-corriente/exportar`)).rawPayload);
    expect(estado.map((r) => r[5]).slice(1)).toEqual([10000, 15000, 18000, 20000, 8000]);
  });

  it('is not for another business or without permission to see customers', async () => {
    const other = await registerUser(app, 'OtroDeudas');
    expect(
      (await app.inject({ method: 'GET', url: `${base}/cuentas-corrientes`, headers: other.auth })).statusCode,
    ).toBe(403);
  });
});
