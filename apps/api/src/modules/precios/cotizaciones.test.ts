import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';

const ctx = await createTestApp({ now: () => new Date('2026-03-15T15:00:00Z') });
const { app } = ctx;
const owner = await registerUser(app, 'Ana');
const biz = await createBusiness(app, owner, 'Importadora Ana');
const base = `/api/v1/businesses/${biz}`;

const req = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, u: TestUser = owner) =>
  app.inject({ method, url, headers: u.auth, ...(payload ? { payload } : {}) });

describe('prices in dollars and the cotización', () => {
  let taladro: { id: string };
  let mecha: { id: string };

  it('refuses a USD price without a cotización, then prices it from the one in force, rounded by the rule', async () => {
    const none = await req('POST', `${base}/products`, {
      nombre: 'Taladro',
      precio_venta: 1,
      moneda: 'USD',
      precio_usd: 85.5,
    });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors[0]).toMatchObject({ field: 'moneda' });

    const first = await req('POST', `${base}/cotizaciones`, { fecha: '2026-03-10', valor: '1050.25' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ preview: false, anterior: null, productos_afectados: 0 });
    expect((await req('POST', `${base}/tenant-settings`, { redondeo_precios: 10 })).statusCode).toBeLessThan(300);

    const res = await req('POST', `${base}/products`, {
      stock_actual: 5,
      nombre: 'Taladro',
      precio_venta: 1,
      moneda: 'USD',
      precio_usd: 85.5,
    });
    expect(res.statusCode, res.body).toBe(201);
    taladro = res.json();
    // 85.50 × 1050.25 = 89 796.375 → $ 89 800 (to $ 10)
    expect(res.json()).toMatchObject({ moneda: 'USD', precio_usd: 85.5, precio_venta: 89800 });
    const m = await req('POST', `${base}/products`, {
      nombre: 'Mecha 6 mm',
      precio_venta: 1,
      moneda: 'USD',
      precio_usd: 2,
    });
    mecha = m.json();
    expect(m.json().precio_venta).toBe(2100);
    await req('POST', `${base}/products`, { nombre: 'Yerba', precio_venta: 4000 });
  });

  it('previews a new cotización (how many prices change and by how much) without writing, then applies it with history', async () => {
    const preview = await req('POST', `${base}/cotizaciones?preview=1`, { fecha: '2026-03-15', valor: 1100 });
    expect(preview.statusCode, preview.body).toBe(200);
    // 85.50 × 1100 = 94 050; 2 × 1100 = 2 200
    expect(preview.json()).toMatchObject({
      preview: true,
      cotizacion: null,
      anterior: 1050.25,
      productos_afectados: 2,
      diferencia_total: 4350,
      cambios: [
        { nombre: 'Mecha 6 mm', precio_usd: 2, precio_anterior: 2100, precio_nuevo: 2200 },
        { nombre: 'Taladro', precio_usd: 85.5, precio_anterior: 89800, precio_nuevo: 94050 },
      ],
    });
    expect((await req('GET', `${base}/products/${taladro.id}`)).json().precio_venta).toBe(89800);
    expect((await req('GET', `${base}/cotizaciones`)).json()).toHaveLength(1);

    const applied = await req('POST', `${base}/cotizaciones`, { fecha: '2026-03-15', valor: 1100 });
    expect(applied.statusCode).toBe(201);
    expect(applied.json()).toMatchObject({ productos_afectados: 2, diferencia_total: 4350 });
    expect(applied.json().cotizacion).toMatchObject({ fecha: '2026-03-15', valor: 1100, productos_actualizados: 2 });
    expect((await req('GET', `${base}/products/${taladro.id}`)).json().precio_venta).toBe(94050);
    const [h] = (await req('GET', `${base}/products/${taladro.id}/precios/historial`)).json();
    expect(h).toMatchObject({
      origen: 'cotizacion',
      precio_anterior: 89800,
      precio_nuevo: 94050,
      referencia_id: applied.json().cotizacion.id,
    });
    const list = (await req('GET', `${base}/cotizaciones`)).json();
    expect(list.map((c: { valor: number }) => c.valor)).toEqual([1100, 1050.25]);
  });

  it('sells at the ARS price in force; an older or future cotización does not change prices', async () => {
    const sale = await req('POST', '/api/v1/ventas/record-sale', {
      negocio_id: biz,
      metodo_pago: 'efectivo',
      items: [{ id: taladro.id, tipo: 'producto', cantidad: 1 }],
    });
    expect(sale.statusCode, sale.body).toBe(201);
    expect(sale.json().total).toBe(94050);
    const older = await req('POST', `${base}/cotizaciones`, { fecha: '2026-03-01', valor: 900 });
    expect(older.json()).toMatchObject({ productos_afectados: 0 });
    expect((await req('GET', `${base}/products/${taladro.id}`)).json().precio_venta).toBe(94050);
    const future = await req('POST', `${base}/cotizaciones`, { fecha: '2026-03-16', valor: 900 });
    expect(future.statusCode).toBe(422);
    expect((await req('POST', `${base}/cotizaciones`, { fecha: '2026-03-15', valor: 0 })).statusCode).toBe(422);
  });

  it('editing the USD price recomputes the pesos; back to ARS keeps the given price; a bulk update leaves USD prices alone', async () => {
    const usd = await req('PUT', `${base}/products/${mecha.id}`, { precio_usd: 3, precio_venta: 1 });
    expect(usd.json()).toMatchObject({ precio_usd: 3, precio_venta: 3300 });
    const bulk = await req('POST', `${base}/products/actualizacion-masiva`, { porcentaje: 10 });
    expect(bulk.json().productos_afectados).toBe(1);
    expect((await req('GET', `${base}/products/${mecha.id}`)).json().precio_venta).toBe(3300);
    const ars = await req('PUT', `${base}/products/${mecha.id}`, { moneda: 'ARS', precio_venta: 3500 });
    expect(ars.json()).toMatchObject({ moneda: 'ARS', precio_usd: null, precio_venta: 3500 });
  });

  it('needs productos editar to enter a cotización', async () => {
    const viewer = await registerUser(app, 'Vera');
    await addMember(ctx, biz, owner, viewer, ['puede_ver_productos']);
    expect((await req('POST', `${base}/cotizaciones`, { fecha: '2026-03-15', valor: 1 }, viewer)).statusCode).toBe(403);
    expect((await req('GET', `${base}/cotizaciones`, undefined, viewer)).statusCode).toBe(200);
  });
});
