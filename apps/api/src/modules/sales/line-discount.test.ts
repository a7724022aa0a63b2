import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';

/* Issue 15: a discount on one line of a sale, kept on the line and counted against the seller's maximum. */

const ctx = await createTestApp();
const { app } = ctx;
const owner = await registerUser(app, 'Duenia');
const biz = await createBusiness(app, owner, 'Bazar Descuentos');
const base = `/api/v1/businesses/${biz}`;
const post = (u: TestUser, url: string, payload: object) =>
  app.inject({ method: 'POST', url, headers: u.auth, payload });
const sale = (u: TestUser, body: object) =>
  post(u, '/api/v1/ventas/record-sale', { negocio_id: biz, metodo_pago: 'efectivo', ...body });
const countSales = async () =>
  (await ctx.sql<{ n: number }>('SELECT count(*)::int AS n FROM sales WHERE business_id = $1', [biz]))[0].n;

const termo = (
  await post(owner, `${base}/products`, { nombre: 'Termo 1 l', precio_venta: 18999.99, stock_actual: 20 })
).json();
const mate = (
  await post(owner, `${base}/products`, { nombre: 'Mate de calabaza', precio_venta: 7500, stock_actual: 20 })
).json();

describe('a discount on one line', () => {
  it('takes it off that line only, exact to the cent, and keeps it on the line, in the answer and in the audit log', async () => {
    const res = await sale(owner, {
      descuento: 100,
      items: [
        { id: termo.id, cantidad: 3, descuento: 5700 },
        { id: mate.id, cantidad: 1 },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    // 3 × 18.999,99 = 56.999,97 − 5.700 = 51.299,97; + 7.500 = 58.799,97; − 100 = 58.699,97.
    expect(res.json().total).toBe(58699.97);
    const detail = (
      await app.inject({ method: 'GET', url: `${base}/ventas/sales/${res.json().id}`, headers: owner.auth })
    ).json();
    expect(detail).toMatchObject({ subtotal: 58799.97, descuento: 100, total: 58699.97 });
    expect(detail.items[0]).toMatchObject({
      nombre: 'Termo 1 l',
      precio_unitario: 18999.99,
      descuento: 5700,
      subtotal: 51299.97,
    });
    expect(detail.items[1]).toMatchObject({ nombre: 'Mate de calabaza', descuento: 0, subtotal: 7500 });
    const [audit] = await ctx.sql<{ despues: { items: { descuento?: number }[] } }>(
      "SELECT despues FROM audit_log WHERE entidad = 'venta' AND entidad_id = $1",
      [res.json().id],
    );
    expect(audit.despues.items.map((i) => i.descuento)).toEqual([5700, undefined]);
    // The sales report counts the line at what it charged.
    const report = (await app.inject({ method: 'GET', url: `${base}/ventas/reporte`, headers: owner.auth })).json();
    expect(JSON.stringify(report)).toContain('58699.97');
  });

  it('refuses a line discount larger than the line (422 on that field), storing nothing', async () => {
    const before = await countSales();
    const res = await sale(owner, { items: [{ id: mate.id, cantidad: 2, descuento: 15000.01 }] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({
      field: 'items.0.descuento',
      message: 'El descuento de la línea no puede superar su importe.',
    });
    expect(await countSales()).toBe(before);
  });

  it("counts the lines' discounts with the sale's against a cashier's maximum", async () => {
    const cajero = await registerUser(app, 'Cajero');
    await addMember(ctx, biz, owner, cajero, ['puede_ver_ventas', 'puede_editar_ventas', 'puede_ver_productos']);
    await app.inject({
      method: 'PUT',
      url: `${base}/usuarios/${cajero.id}/permisos`,
      headers: owner.auth,
      payload: { descuento_maximo: 10 },
    });
    // 2 mates: 15.000; 10 % is 1.500 in all.
    const before = await countSales();
    const over = await sale(cajero, { descuento: 0.01, items: [{ id: mate.id, cantidad: 2, descuento: 1500 }] });
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({ code: 'DISCOUNT_OVER_MAX' });
    expect(await countSales()).toBe(before);
    const atMax = await sale(cajero, { descuento: 500, items: [{ id: mate.id, cantidad: 2, descuento: 1000 }] });
    expect(atMax.statusCode, atMax.body).toBe(201);
    expect(atMax.json().total).toBe(13500);
  });
});
