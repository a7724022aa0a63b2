import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { readXlsx } from '../../test/xlsx.js';

const ctx = await createTestApp({ now: () => new Date('2026-03-15T15:00:00Z') });
const { app } = ctx;
const owner = await registerUser(app, 'Ana');
const biz = await createBusiness(app, owner, 'Ferretería Listas');
const other = await registerUser(app, 'Beto');
const otherBiz = await createBusiness(app, other, 'Kiosco Beto');
const base = `/api/v1/businesses/${biz}`;

const req = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object, u: TestUser = owner) =>
  app.inject({ method, url, headers: u.auth, ...(payload ? { payload } : {}) });

async function created<T = { id: string }>(url: string, body: object, u: TestUser = owner): Promise<T> {
  const res = await req('POST', url, body, u);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as T;
}

const martillo = await created(`${base}/products`, { nombre: 'Martillo', precio_venta: 1000, stock_actual: 100 });
const clavos = await created(`${base}/products`, { nombre: 'Clavos x kg', precio_venta: 333.33, stock_actual: 100 });
const flete = await created(`${base}/services`, { nombre: 'Flete', precio: 2000 });

/** A cashier: sells and sees products and customers, at list prices, without discounts. */
const cajero = await registerUser(app, 'Cajero');
await addMember(ctx, biz, owner, cajero, [
  'puede_ver_ventas',
  'puede_editar_ventas',
  'puede_ver_productos',
  'puede_ver_clientes',
]);
const sale = (u: TestUser, body: object) =>
  req('POST', '/api/v1/ventas/record-sale', { negocio_id: biz, metodo_pago: 'efectivo', ...body }, u);
const saleLines = async (id: string) =>
  ctx.sql<{ precio_unitario: string; precio_lista: string }>(
    'SELECT precio_unitario, precio_lista FROM sale_items WHERE venta_id = $1 ORDER BY precio_unitario',
    [id],
  );

let mayorista: { id: string };
let especial: { id: string };

describe('price lists: create, change, delete', () => {
  it('creates a percentage list under Minorista and a fixed-price list, listed by name with their counts', async () => {
    mayorista = await created(`${base}/listas-precios`, {
      nombre: ' Mayorista ',
      tipo: 'porcentaje',
      porcentaje: -10,
      cantidad_minima: null,
    });
    expect(mayorista).toMatchObject({ nombre: 'Mayorista', porcentaje: -10, base_lista_id: null, activo: true });
    especial = await created(`${base}/listas-precios`, { nombre: 'Especial obra', tipo: 'fija' });
    const put = await req('PUT', `${base}/listas-precios/${especial.id}/precios`, {
      precios: [
        { producto_id: martillo.id, precio: 850, cantidad_minima: 6 },
        { producto_id: clavos.id, precio: '300.10' },
      ],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ actualizados: 2, eliminados: 0 });
    const list = (await req('GET', `${base}/listas-precios`)).json();
    expect(list.map((l: { nombre: string }) => l.nombre)).toEqual(['Especial obra', 'Mayorista']);
    expect(list[0]).toMatchObject({ tipo: 'fija', productos_con_precio: 2, clientes: 0, porcentaje: null });
    const fijos = (await req('GET', `${base}/listas-precios/${especial.id}/precios`)).json();
    expect(fijos).toEqual([
      { producto_id: clavos.id, producto_nombre: 'Clavos x kg', precio: 300.1, cantidad_minima: null },
      { producto_id: martillo.id, producto_nombre: 'Martillo', precio: 850, cantidad_minima: 6 },
    ]);
    const audit = await ctx.sql('SELECT accion FROM audit_log WHERE entidad = $1 AND entidad_id = $2', [
      'lista_precios',
      especial.id,
    ]);
    expect(audit).toEqual([{ accion: 'crear' }, { accion: 'actualizar' }]);
  });

  it('refuses what makes no sense: Minorista, a duplicate name, a missing percentage, a loop, prices in a % list', async () => {
    const minorista = await req('POST', `${base}/listas-precios`, {
      nombre: 'minorista',
      tipo: 'porcentaje',
      porcentaje: 5,
    });
    expect(minorista.statusCode).toBe(422);
    const dup = await req('POST', `${base}/listas-precios`, { nombre: 'MAYORISTA', tipo: 'porcentaje', porcentaje: 5 });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'DUPLICATE' });
    const noPct = await req('POST', `${base}/listas-precios`, { nombre: 'Otra', tipo: 'porcentaje' });
    expect(noPct.statusCode).toBe(422);
    expect(noPct.json().errors).toEqual([
      { field: 'porcentaje', message: 'Indicá el porcentaje sobre la lista base.' },
    ]);
    const tooLow = await req('POST', `${base}/listas-precios`, {
      nombre: 'Otra',
      tipo: 'porcentaje',
      porcentaje: -100,
    });
    expect(tooLow.statusCode).toBe(422);

    const gremio = await created(`${base}/listas-precios`, {
      nombre: 'Gremio',
      tipo: 'porcentaje',
      porcentaje: 5,
      base_lista_id: mayorista.id,
    });
    const loop = await req('PATCH', `${base}/listas-precios/${mayorista.id}`, { base_lista_id: gremio.id });
    expect(loop.statusCode).toBe(422);
    expect(loop.json().errors[0]).toMatchObject({ field: 'base_lista_id' });
    const inUse = await req('DELETE', `${base}/listas-precios/${mayorista.id}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json()).toMatchObject({ code: 'IN_USE' });
    const pctPrices = await req('PUT', `${base}/listas-precios/${gremio.id}/precios`, {
      precios: [{ producto_id: martillo.id, precio: 1 }],
    });
    expect(pctPrices.statusCode).toBe(422);
    const foreignProduct = await created(
      `/api/v1/businesses/${otherBiz}/products`,
      { nombre: 'X', precio_venta: 1 },
      other,
    );
    const foreign = await req('PUT', `${base}/listas-precios/${especial.id}/precios`, {
      precios: [{ producto_id: foreignProduct.id, precio: 1 }],
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors[0]).toMatchObject({ field: 'precios.0.producto_id' });

    const renamed = await req('PATCH', `${base}/listas-precios/${gremio.id}`, {
      nombre: 'Gremio plomeros',
      porcentaje: 2.5,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ nombre: 'Gremio plomeros', porcentaje: 2.5 });
    expect((await req('DELETE', `${base}/listas-precios/${gremio.id}`)).statusCode).toBe(204);
  });

  it('needs productos editar to change lists, and answers 404 for another business', async () => {
    const res = await req('POST', `${base}/listas-precios`, { nombre: 'Cajero', tipo: 'fija' }, cajero);
    expect(res.statusCode).toBe(403);
    expect((await req('GET', `${base}/listas-precios`, undefined, cajero)).statusCode).toBe(200);
    const foreign = await req(
      'PATCH',
      `/api/v1/businesses/${otherBiz}/listas-precios/${mayorista.id}`,
      { activo: false },
      other,
    );
    expect(foreign.statusCode).toBe(404);
    expect((await req('GET', `/api/v1/businesses/${otherBiz}/listas-precios`, undefined, other)).json()).toEqual([]);
  });
});

describe('each list price in the products list and the export', () => {
  it('lists every active list price of each product, with the minimum quantity it needs', async () => {
    const rows = (await req('GET', `${base}/products?q=martillo`)).json();
    expect(rows[0].precios_listas).toEqual([
      { lista_id: especial.id, nombre: 'Especial obra', precio: 850, cantidad_minima: 6 },
      { lista_id: mayorista.id, nombre: 'Mayorista', precio: 900, cantidad_minima: null },
    ]);
    const clavosRow = (await req('GET', `${base}/products?q=clavos`)).json()[0];
    // 333.33 × 0.9 = 299.997 → 300.00, half up to the cent.
    expect(clavosRow.precios_listas.find((l: { nombre: string }) => l.nombre === 'Mayorista').precio).toBe(300);
    // The plain list (no search word, one statement that says whether there are active lists) too.
    const all = (await req('GET', `${base}/products`)).json() as { id: string; precios_listas?: unknown }[];
    expect(all.find((p) => p.id === martillo.id)!.precios_listas).toEqual(rows[0].precios_listas);
    expect(all.every((p) => Array.isArray(p.precios_listas))).toBe(true);
    const xlsx = await req('GET', `${base}/products/exportar`);
    expect(xlsx.statusCode).toBe(200);
    const sheet = await readXlsx(xlsx.rawPayload);
    expect(sheet[0]).toEqual(expect.arrayContaining(['Lista Especial obra', 'Lista Mayorista']));
    const header = sheet[0] as string[];
    const martilloRow = sheet.find((r) => r[header.indexOf('Nombre')] === 'Martillo')!;
    expect(martilloRow[header.indexOf('Lista Mayorista')]).toBe(900);
    expect(martilloRow[header.indexOf('Lista Especial obra')]).toBe(850);
  });
});

describe('a business whose price lists are all inactive', () => {
  it('lists its products without precios_listas', async () => {
    const kiosco = `/api/v1/businesses/${await createBusiness(app, other, 'Kiosco Pausado')}`;
    await created(`${kiosco}/products`, { nombre: 'Alfajor', precio_venta: 800 }, other);
    const lista = await created(`${kiosco}/listas-precios`, { nombre: 'Pausada', tipo: 'fija' }, other);
    const withList = (await req('GET', `${kiosco}/products`, undefined, other)).json();
    expect(withList[0].precios_listas).toEqual([
      { lista_id: lista.id, nombre: 'Pausada', precio: 800, cantidad_minima: null },
    ]);
    const off = await req('PATCH', `${kiosco}/listas-precios/${lista.id}`, { activo: false }, other);
    expect(off.statusCode, off.body).toBe(200);
    const res = await req('GET', `${kiosco}/products`, undefined, other);
    expect(res.headers['x-total-count']).toBe('1');
    expect(res.json()).toEqual([expect.not.objectContaining({ precios_listas: expect.anything() })]);
    expect(Object.keys(res.json()[0])).not.toContain('precios_listas');
  });
});

describe('list prices at the counter: the server decides', () => {
  let cliente: { id: string; lista_precios_id: string | null };

  it('a customer keeps a default list (422 for another business’s list)', async () => {
    cliente = await created(`${base}/clientes`, { nombre: 'Constructora Sur', lista_precios_id: mayorista.id });
    expect(cliente.lista_precios_id).toBe(mayorista.id);
    const foreign = await req(
      'POST',
      `/api/v1/businesses/${otherBiz}/clientes`,
      { nombre: 'X', lista_precios_id: mayorista.id },
      other,
    );
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors[0]).toMatchObject({ field: 'lista_precios_id' });
    expect(
      (await req('GET', `${base}/listas-precios`)).json().find((l: { id: string }) => l.id === mayorista.id).clientes,
    ).toBe(1);
  });

  it('prices a cashier’s sale to that customer from its list, without a price from the client', async () => {
    const res = await sale(cajero, {
      cliente_id: cliente.id,
      items: [
        { id: martillo.id, tipo: 'producto', cantidad: 2 },
        { id: flete.id, tipo: 'servicio', cantidad: 1 },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().total).toBe(3800);
    expect(await saleLines(res.json().id)).toEqual([
      { precio_unitario: '900.00', precio_lista: '900.00' },
      { precio_unitario: '2000.00', precio_lista: '2000.00' },
    ]);
  });

  it('refuses the Minorista price sent by a cashier for a Mayorista customer, and a list switch without cambiar_precios', async () => {
    const price = await sale(cajero, {
      cliente_id: cliente.id,
      items: [{ id: martillo.id, tipo: 'producto', cantidad: 1, precio: 1000 }],
    });
    expect(price.statusCode).toBe(403);
    expect(price.json()).toMatchObject({ code: 'PRICE_CHANGE_FORBIDDEN' });
    const toMinorista = await sale(cajero, {
      cliente_id: cliente.id,
      lista_precios_id: null,
      items: [{ id: martillo.id, tipo: 'producto', cantidad: 1 }],
    });
    expect(toMinorista.statusCode).toBe(403);
    expect(toMinorista.json()).toMatchObject({
      code: 'PRICE_CHANGE_FORBIDDEN',
      detail: expect.stringContaining('lista'),
    });
    const walkIn = await sale(cajero, {
      lista_precios_id: mayorista.id,
      items: [{ id: martillo.id, tipo: 'producto', cantidad: 1 }],
    });
    expect(walkIn.statusCode).toBe(403);
    // Naming the customer's own list is no switch.
    const same = await sale(cajero, {
      cliente_id: cliente.id,
      lista_precios_id: mayorista.id,
      items: [{ id: martillo.id, tipo: 'producto', cantidad: 1 }],
    });
    expect(same.statusCode, same.body).toBe(201);
    expect(same.json().total).toBe(900);
  });

  it('lets an authorised member switch the list; a fixed price applies from its minimum quantity', async () => {
    const below = await sale(owner, {
      lista_precios_id: especial.id,
      items: [{ id: martillo.id, tipo: 'producto', cantidad: 5 }],
    });
    expect(below.statusCode, below.body).toBe(201);
    expect(below.json().total).toBe(5000);
    const from = await sale(owner, {
      cliente_id: cliente.id,
      lista_precios_id: especial.id,
      items: [
        { id: martillo.id, tipo: 'producto', cantidad: 6 },
        { id: clavos.id, tipo: 'producto', cantidad: 1.5 },
      ],
    });
    expect(from.statusCode, from.body).toBe(201);
    // 6 × 850 + round(1.5 × 300.10) = 5100 + 450.15
    expect(from.json().total).toBe(5550.15);
    const unknown = await sale(owner, {
      lista_precios_id: '00000000-0000-4000-8000-000000000000',
      items: [{ id: martillo.id, tipo: 'producto', cantidad: 1 }],
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors[0]).toMatchObject({ field: 'lista_precios_id' });
  });

  it('deleting a list sends its customers back to Minorista', async () => {
    const temp = await created(`${base}/listas-precios`, { nombre: 'Temporal', tipo: 'porcentaje', porcentaje: 20 });
    const c = await created<{ id: string }>(`${base}/clientes`, { nombre: 'Pasajero', lista_precios_id: temp.id });
    expect((await req('DELETE', `${base}/listas-precios/${temp.id}`)).statusCode).toBe(204);
    expect((await req('GET', `${base}/clientes/${c.id}`)).json().lista_precios_id).toBeNull();
    const res = await sale(cajero, { cliente_id: c.id, items: [{ id: martillo.id, tipo: 'producto', cantidad: 1 }] });
    expect(res.json().total).toBe(1000);
  });
});
