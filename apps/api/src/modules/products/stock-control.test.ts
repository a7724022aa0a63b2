import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';

/* Issue 15, "Stock at the counter": selling without stock (a setting) and products that do not track stock. */

const ctx = await createTestApp();
const { app } = ctx;
const owner = await registerUser(app, 'Duenio');
const biz = await createBusiness(app, owner, 'Almacén del Stock');
const base = `/api/v1/businesses/${biz}`;

const post = (url: string, payload: object, u: TestUser = owner) =>
  app.inject({ method: 'POST', url, headers: u.auth, payload });
const get = (url: string) => app.inject({ method: 'GET', url, headers: owner.auth });
const sell = (id: string, cantidad: number) =>
  post('/api/v1/ventas/record-sale', {
    negocio_id: biz,
    metodo_pago: 'efectivo',
    items: [{ id, tipo: 'producto', cantidad }],
  });
const stockOf = async (id: string) => (await get(`${base}/products/${id}`)).json();
const movements = async (id: string) =>
  (await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM stock_movements WHERE producto_id = $1', [id]))[0].n;
const salesCount = async () =>
  (await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM sales WHERE business_id = $1', [biz]))[0].n;

async function setVenderSinStock(on: boolean) {
  const s = (await get(`${base}/tenant-settings`)).json();
  const res = await app.inject({
    method: 'PUT',
    url: `${base}/tenant-settings/${s.id}`,
    headers: owner.auth,
    payload: { vender_sin_stock: on },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().vender_sin_stock).toBe(on);
}

const yerba = (await post(`${base}/products`, { nombre: 'Yerba 1 kg', precio_venta: 4200, stock_actual: 3 })).json();

describe('selling without stock', () => {
  it('is off by default: a short stock is refused (409) and nothing is stored', async () => {
    expect((await get(`${base}/tenant-settings`)).json().vender_sin_stock).toBe(false);
    const before = await salesCount();
    const res = await sell(yerba.id, 5);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'INSUFFICIENT_STOCK' });
    expect(await salesCount()).toBe(before);
    expect((await stockOf(yerba.id)).stock_actual).toBe(3);
  });

  it('when allowed, sells, leaves the stock negative, flags it and says so in the notifications', async () => {
    await setVenderSinStock(true);
    const res = await sell(yerba.id, 5);
    expect(res.statusCode, res.body).toBe(201);
    const p = await stockOf(yerba.id);
    expect(p).toMatchObject({ stock_actual: -2, stock_bajo: true, controla_stock: true });
    const low = (await get(`${base}/products?stock_bajo=true`)).json();
    expect(low.map((x: { id: string }) => x.id)).toContain(yerba.id);
    const notes = (await get(`${base}/notificaciones`)).json();
    const note = notes.find((n: { id: string }) => n.id === `stock_bajo:${yerba.id}`);
    expect(note).toMatchObject({ titulo: 'Stock negativo: Yerba 1 kg', severidad: 'critica' });
    expect(note.mensaje).toContain('-2');

    // An adjustment up always goes through, even if the stock stays below 0; one further down does not.
    const up = await post(`${base}/products/${yerba.id}/ajuste-stock`, { cantidad: 1, motivo: 'Apareció uno' });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toMatchObject({ stock_anterior: -2, stock_actual: -1 });
    const down = await post(`${base}/products/${yerba.id}/ajuste-stock`, { cantidad: -1, motivo: 'Rotura' });
    expect(down.statusCode).toBe(409);
    expect((await stockOf(yerba.id)).stock_actual).toBe(-1);

    // A void gives back exactly what the sale took.
    const anular = await post(`${base}/ventas/${res.json().id}/anular`, { motivo: 'Error' });
    expect(anular.statusCode, anular.body).toBe(200);
    expect((await stockOf(yerba.id)).stock_actual).toBe(4);
  });

  it('refuses again once the setting is off, and only an administrator changes it', async () => {
    await setVenderSinStock(false);
    expect((await sell(yerba.id, 5)).statusCode).toBe(409);
    const cajero = await registerUser(app, 'Cajero');
    const s = (await get(`${base}/tenant-settings`)).json();
    const res = await app.inject({
      method: 'PUT',
      url: `${base}/tenant-settings/${s.id}`,
      headers: cajero.auth,
      payload: { vender_sin_stock: true },
    });
    expect([403, 404]).toContain(res.statusCode);
    expect((await get(`${base}/tenant-settings`)).json().vender_sin_stock).toBe(false);
  });
});

describe('a product that does not track stock', () => {
  it('is created without stock, sells any quantity, and its sales and voids move nothing', async () => {
    const created = await post(`${base}/products`, {
      nombre: 'Bolsa de hielo',
      precio_venta: 1500,
      stock_actual: 10,
      controla_stock: false,
    });
    expect(created.statusCode, created.body).toBe(201);
    const hielo = created.json();
    expect(hielo).toMatchObject({ controla_stock: false, stock_actual: 0, stock_bajo: false });
    expect(await movements(hielo.id)).toBe(0);

    const sale = await sell(hielo.id, 7);
    expect(sale.statusCode, sale.body).toBe(201);
    expect((await stockOf(hielo.id)).stock_actual).toBe(0);
    expect(await movements(hielo.id)).toBe(0);
    expect((await post(`${base}/ventas/${sale.json().id}/anular`, {})).statusCode).toBe(200);
    expect((await stockOf(hielo.id)).stock_actual).toBe(0);

    // A return of a sale of it gives nothing back to the stock either.
    const again = await sell(hielo.id, 2);
    const detail = (await get(`${base}/ventas/sales/${again.json().id}`)).json();
    const medios = (await get(`${base}/medios-pago`)).json() as { id: string; tipo: string }[];
    const devolucion = await post(`${base}/ventas/${again.json().id}/devoluciones`, {
      items: [{ item_id: detail.items[0].id, cantidad: 1 }],
      medio_pago_id: medios.find((m) => m.tipo === 'efectivo')!.id,
    });
    expect(devolucion.statusCode, devolucion.body).toBe(201);
    expect((await stockOf(hielo.id)).stock_actual).toBe(0);
    expect(await movements(hielo.id)).toBe(0);

    const adj = await post(`${base}/products/${hielo.id}/ajuste-stock`, { cantidad: 5, motivo: 'Recuento' });
    expect(adj.statusCode).toBe(409);
    expect(adj.json()).toMatchObject({ code: 'UNTRACKED_STOCK' });
    expect(adj.json().detail).toContain('no controla stock');
    expect(await movements(hielo.id)).toBe(0);
  });

  it('can start tracking again, from its current stock, and then a short stock is refused', async () => {
    const p = (
      await post(`${base}/products`, { nombre: 'Carbón 4 kg', precio_venta: 5200, controla_stock: false })
    ).json();
    const put = await app.inject({
      method: 'PUT',
      url: `${base}/products/${p.id}`,
      headers: owner.auth,
      payload: { controla_stock: true },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ controla_stock: true, stock_actual: 0 });
    expect((await sell(p.id, 1)).statusCode).toBe(409);
    const audit = await ctx.sql<{ despues: { controla_stock: boolean } }>(
      "SELECT despues FROM audit_log WHERE entidad = 'producto' AND entidad_id = $1 AND accion = 'actualizar'",
      [p.id],
    );
    expect(audit.map((a) => a.despues.controla_stock)).toEqual([true]);
  });
});
