import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { readXlsx } from '../../test/xlsx.js';

/* The supplier's invoice of a purchase and the Libro IVA Compras (issue #17, decision 0021). */

const ctx = await createTestApp({ now: () => new Date('2026-03-15T15:00:00Z') });
const { app } = ctx;

let owner: TestUser;
let biz: string;
const api = (path: string) => `/api/v1/businesses/${biz}${path}`;
const post = (payload: object, u = owner) =>
  app.inject({ method: 'POST', url: api('/compras'), headers: u.auth, payload });
const put = (id: string, payload: object, u = owner) =>
  app.inject({ method: 'PUT', url: api(`/compras/${id}`), headers: u.auth, payload });
const get = (path: string, u = owner) => app.inject({ method: 'GET', url: api(path), headers: u.auth });

async function product(nombre: string, extra: object = {}) {
  const res = await app.inject({
    method: 'POST',
    url: api('/products'),
    headers: owner.auth,
    payload: { nombre, precio_venta: 5000, ...extra },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

async function supplier(nombre: string, cuit?: string) {
  const res = await app.inject({
    method: 'POST',
    url: api('/proveedores'),
    headers: owner.auth,
    payload: { nombre, ...(cuit ? { cuit } : {}) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

const count = async (table: string) => (await ctx.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;

/** A factura A: 21 % on 1000 + 10,5 % on 500, percepciones IVA 30 and IIBB 22,50, otros 7,50. */
const mixed = (numero = 101) => ({
  tipo: 'A',
  punto_venta: 2,
  numero,
  fecha: '2026-03-12',
  iva: [
    { alicuota: '21', neto: 1000, iva: 210 },
    { alicuota: '10.5', neto: '500.00', iva: '52.50' },
  ],
  no_gravado: 0,
  exento: 0,
  percepcion_iva: 30,
  percepcion_iibb: '22.50',
  otros_impuestos: '7.50',
  total: '1822.50',
});

let sur: { id: string };
let aceite: { id: string };
let harina: { id: string };

beforeAll(async () => {
  owner = await registerUser(app, 'Ana');
  biz = await createBusiness(app, owner, 'Almacén Ana');
  sur = await supplier('Distribuidora Sur', '30-71234567-1');
  aceite = await product('Aceite 1 l', { precio_compra: 900 });
  harina = await product('Harina 1 kg', { precio_compra: 400 });
});

describe('purchases: supplier invoice', () => {
  let compraId: string;

  it('taxes add up to the invoice total to the cent (21 % + 10,5 % with percepciones); the invoice total is what is paid', async () => {
    const res = await post({
      proveedor_id: sur.id,
      fecha: '2026-03-12',
      items: [
        { producto_id: aceite.id, cantidad: 1, precio_unitario: 1000 },
        { producto_id: harina.id, cantidad: 1, precio_unitario: 500 },
      ],
      factura: mixed(),
    });
    expect(res.statusCode, res.body).toBe(201);
    const c = res.json();
    compraId = c.id;
    expect(c.total).toBe(1822.5);
    expect(c.factura).toEqual({
      tipo: 'A',
      punto_venta: 2,
      numero: 101,
      comprobante: '0002-00000101',
      fecha: '2026-03-12',
      iva: [
        { alicuota: '21', neto: 1000, iva: 210 },
        { alicuota: '10.5', neto: 500, iva: 52.5 },
      ],
      no_gravado: 0,
      exento: 0,
      percepcion_iva: 30,
      percepcion_iibb: 22.5,
      otros_impuestos: 7.5,
      total: 1822.5,
    });
    const [m] = await ctx.sql<{ monto: string }>(`SELECT monto FROM finance_movements WHERE compra_id = $1`, [c.id]);
    expect(m.monto).toBe('1822.50');
    expect((await get(`/compras/${c.id}`)).json().factura.total).toBe(1822.5);
  });

  it('a total off by one cent answers 422 naming the difference, and nothing is saved', async () => {
    const before = [await count('purchases'), await count('purchase_invoices'), await count('finance_movements')];
    const res = await post({
      proveedor_id: sur.id,
      items: [{ producto_id: aceite.id, cantidad: 1, precio_unitario: 1000 }],
      factura: { ...mixed(102), total: '1822.51' },
    });
    expect(res.statusCode).toBe(422);
    const err = res.json();
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.errors).toContainEqual({
      field: 'factura.total',
      message: expect.stringContaining('la diferencia es de $ 0,01'),
    });
    expect([await count('purchases'), await count('purchase_invoices'), await count('finance_movements')]).toEqual(
      before,
    );
  });

  it('an IVA more than one cent from neto × rate answers 422', async () => {
    const f = mixed(103);
    const res = await post({
      proveedor_id: sur.id,
      items: [{ producto_id: aceite.id, cantidad: 1, precio_unitario: 1000 }],
      factura: { ...f, iva: [{ alicuota: '21', neto: 1000, iva: 210.02 }, f.iva[1]], total: '1822.52' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ field: 'factura.iva.0.iva' });
    expect(res.json().errors[0].message).toContain('debería ser $ 210,00');
  });

  it('the same supplier invoice on another purchase answers 409 DUPLICATE', async () => {
    const before = await count('purchases');
    const res = await post({
      proveedor_id: sur.id,
      items: [{ producto_id: aceite.id, cantidad: 1, precio_unitario: 1000 }],
      factura: { ...mixed(), tipo: 'a' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'DUPLICATE' });
    expect(await count('purchases')).toBe(before);
    // Another number, or another supplier, is fine.
    const otro = await supplier('Mayorista Norte');
    const ok = await post({
      proveedor_id: otro.id,
      items: [{ producto_id: aceite.id, cantidad: 1, precio_unitario: 1000 }],
      factura: mixed(),
    });
    expect(ok.statusCode, ok.body).toBe(201);
    // A PUT that keeps the purchase's own invoice is not a duplicate of itself.
    const same = await put(compraId, { observaciones: 'ok', factura: mixed() });
    expect(same.statusCode, same.body).toBe(200);
  });

  it('the net cost of a factura A reaches the product on reception (the IVA is credit, not cost)', async () => {
    const res = await put(compraId, { estado: 'recibida' });
    expect(res.statusCode, res.body).toBe(200);
    const p = (await get(`/products/${aceite.id}`)).json();
    expect(p.precio_compra).toBe(1000);
    expect((await get(`/products/${harina.id}`)).json().precio_compra).toBe(500);
  });

  it('a factura B keeps IVA inside: no IVA rows, lines at the final price', async () => {
    const bad = await post({
      proveedor_id: sur.id,
      items: [{ producto_id: aceite.id, cantidad: 1, precio_unitario: 1210 }],
      factura: { ...mixed(7), tipo: 'B' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0]).toMatchObject({ field: 'factura.iva' });
    const res = await post({
      proveedor_id: sur.id,
      items: [{ producto_id: aceite.id, cantidad: 1, precio_unitario: 1210 }],
      factura: { tipo: 'B', punto_venta: 5, numero: 8, fecha: '2026-03-20', no_gravado: 1210, total: 1210 },
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('an invoice added later by PUT rewrites what the purchase owes; null removes it', async () => {
    const c = (
      await post({ proveedor_id: sur.id, items: [{ producto_id: harina.id, cantidad: 2, precio_unitario: 100 }] })
    ).json();
    expect(c.total).toBe(200);
    expect(c.factura).toBeNull();
    const f = {
      tipo: 'A',
      punto_venta: 2,
      numero: 555,
      fecha: '2026-02-28',
      iva: [{ alicuota: '21', neto: 200, iva: 42 }],
      percepcion_iibb: 6,
      total: 248,
    };
    const withF = await put(c.id, { factura: f });
    expect(withF.statusCode, withF.body).toBe(200);
    expect(withF.json().total).toBe(248);
    const [m] = await ctx.sql<{ monto: string }>(`SELECT monto FROM finance_movements WHERE compra_id = $1`, [c.id]);
    expect(m.monto).toBe('248.00');
    const none = await put(c.id, { factura: null });
    expect(none.json()).toMatchObject({ total: 200, factura: null });
  });
});

describe('purchases: invoice once paid', () => {
  it('the invoice cannot change once the payable is paid (409), and stays as it was', async () => {
    const c = (
      await post({
        proveedor_id: sur.id,
        fecha: '2026-02-10',
        condicion_pago: 'cuenta_corriente',
        fecha_vencimiento: '2026-03-30',
        items: [{ producto_id: harina.id, cantidad: 1, precio_unitario: 100 }],
        factura: { tipo: 'C', punto_venta: 9, numero: 1, fecha: '2026-02-10', no_gravado: 100, total: 100 },
      })
    ).json();
    const paid = await app.inject({
      method: 'PUT',
      url: api(`/finanzas/cuentas/${c.cuenta_id}/marcar-pagado`),
      headers: owner.auth,
      payload: {},
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const res = await put(c.id, {
      factura: { tipo: 'C', punto_venta: 9, numero: 1, fecha: '2026-02-10', no_gravado: 120, total: 120 },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('ALREADY_PAID');
    expect((await get(`/compras/${c.id}`)).json()).toMatchObject({ total: 100, factura: { total: 100 } });
  });
});

describe('purchases: Libro IVA Compras', () => {
  it('one row per supplier invoice of the month and a totals row', async () => {
    const res = await get('/compras/libro-iva?mes=2026-03');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toContain('libro-iva-compras-2026-03.xlsx');
    const rows = await readXlsx(res.rawPayload);
    const header = rows[0] as string[];
    expect(header.slice(0, 5)).toEqual(['Fecha', 'Comprobante', 'Punto de venta - Número', 'Proveedor', 'CUIT']);
    const col = (name: string) => header.indexOf(name);
    // Two factura A 0002-00000101 (two suppliers), one factura B; the February one is not in March.
    expect(rows.length).toBe(1 + 3 + 1);
    const first = rows[1];
    // A date cell, not the text 12/03/2026.
    expect(first[col('Fecha')]).toEqual(new Date(Date.UTC(2026, 2, 12)));
    expect(first[col('Comprobante')]).toBe('Factura A');
    expect(first[col('Punto de venta - Número')]).toBe('0002-00000101');
    expect(first[col('Neto 21 %')]).toBe(1000);
    expect(first[col('IVA 21 %')]).toBe(210);
    expect(first[col('Neto 10,5 %')]).toBe(500);
    expect(first[col('IVA 10,5 %')]).toBe(52.5);
    expect(first[col('Percepción IVA')]).toBe(30);
    expect(first[col('Percepción IIBB')]).toBe(22.5);
    expect(first[col('Otros impuestos')]).toBe(7.5);
    expect(first[col('Total')]).toBe(1822.5);
    const cuits = rows.slice(1, 4).map((r) => r[col('CUIT')]);
    expect(cuits).toContain('30-71234567-1');
    const totals = rows[4];
    expect(totals[col('Fecha')]).toBe('Totales');
    expect(totals[col('Neto 21 %')]).toBe(2000);
    expect(totals[col('IVA 21 %')]).toBe(420);
    expect(totals[col('No gravado')]).toBe(1210);
    expect(totals[col('Total')]).toBe(1822.5 * 2 + 1210);
  });

  it('refuses a bad month, and a member without ver_costos', async () => {
    expect((await get('/compras/libro-iva?mes=2026-13')).statusCode).toBe(422);
    const cajero = await registerUser(app, 'Caro');
    await addMember(ctx, biz, owner, cajero, ['puede_ver_stock', 'puede_editar_stock']);
    const res = await get('/compras/libro-iva?mes=2026-03', cajero);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
  });
});

describe('purchases: invoice hidden without ver_costos', () => {
  let cajero: TestUser;
  let compraId: string;
  beforeAll(async () => {
    cajero = await registerUser(app, 'Ceci');
    await addMember(ctx, biz, owner, cajero, ['puede_ver_stock', 'puede_editar_stock']);
    const c = await post({
      proveedor_id: sur.id,
      items: [{ producto_id: aceite.id, cantidad: 1, precio_unitario: 1000 }],
      factura: mixed(900),
    });
    compraId = c.json().id;
  });

  it('a cashier sees no invoice and cannot erase it', async () => {
    const res = await get(`/compras/${compraId}`, cajero);
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty('factura');
    const upd = await put(compraId, { observaciones: 'x', factura: null }, cajero);
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json()).not.toHaveProperty('factura');
    expect((await get(`/compras/${compraId}`)).json().factura.numero).toBe(900);
  });
});
