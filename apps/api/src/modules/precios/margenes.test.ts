import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { multipartBody, xlsx } from '../imports/test-files.js';

/*
 * Stored margin rules (issue 17, decision 0024): product > category > supplier > the list's margin
 * > the product's current margin, and the supplier list's preview is what it applies.
 */
const ctx = await createTestApp({ now: () => new Date('2026-03-15T15:00:00Z') });
const { app } = ctx;
const owner = await registerUser(app, 'Dora');
const biz = await createBusiness(app, owner, 'Almacén Márgenes');
const base = `/api/v1/businesses/${biz}`;

async function req(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, u: TestUser = owner) {
  return app.inject({ method, url, headers: u.auth, payload });
}
async function created<T = { id: string }>(url: string, payload: object): Promise<T> {
  const res = await req('POST', url, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as T;
}
const price = async (id: string) => {
  const p = (await req('GET', `${base}/products/${id}`)).json();
  return [p.precio_compra, p.precio_venta];
};

const bebidas = await created(`${base}/categories`, { nombre: 'Bebidas' });
const almacen = await created(`${base}/categories`, { nombre: 'Almacén' });
const distri = await created(`${base}/proveedores`, { nombre: 'Distribuidora Norte' });
const otroProv = await created(`${base}/proveedores`, { nombre: 'Mayorista Sur' });
const product = (nombre: string, codigo: string, categoria_id: string | null) =>
  created(`${base}/products`, {
    nombre,
    codigo,
    categoria_id,
    precio_compra: 100,
    precio_venta: 150,
    stock_actual: 5,
  });
// Each one falls to a different level of the precedence.
const gaseosa = await product('Gaseosa', 'GAS', bebidas.id); // its own rule
const agua = await product('Agua', 'AGU', bebidas.id); // its category's rule
const yerba = await product('Yerba', 'YER', almacen.id); // the supplier's rule (Almacén has none)
const sinCat = await product('Fósforos', 'FOS', null);

const lista = await xlsx([
  {
    name: 'Precios',
    rows: [
      ['Distribuidora Norte - Lista'],
      [],
      ['Código', 'Artículo', 'Costo'],
      ['GAS', 'Gaseosa', 200],
      ['AGU', 'Agua', 200],
      ['YER', 'Yerba', 200],
      ['FOS', 'Fósforos', 200],
    ],
  },
]);
const send = (path: string, fields: Record<string, string>) => {
  const { payload, headers } = multipartBody([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    { name: 'file', filename: 'norte.xlsx', content: lista },
  ]);
  return app.inject({
    method: 'POST',
    url: `${base}/listas-proveedor/${path}`,
    headers: { ...owner.auth, ...headers },
    payload,
  });
};

const other = await registerUser(app, 'Otro');
const otherBiz = await createBusiness(app, other, 'Otro negocio');
const vendedor = await registerUser(app, 'Vendedor');
await addMember(ctx, biz, owner, vendedor, ['puede_ver_productos', 'puede_editar_productos']);
const encargado = await registerUser(app, 'Encargado');
await addMember(ctx, biz, owner, encargado, ['puede_ver_productos'], { ver_costos: true });

describe('margin rules', () => {
  it('sets one rule per product, category and supplier, replaces it, lists them by level and refuses bad input', async () => {
    const first = await req('PUT', `${base}/reglas-margen`, { producto_id: gaseosa.id, margen: 10 });
    expect(first.statusCode, first.body).toBe(200);
    const replaced = await req('PUT', `${base}/reglas-margen`, { producto_id: gaseosa.id, margen: '20.5' });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({ id: first.json().id, nivel: 'producto', nombre: 'Gaseosa', margen: 20.5 });
    expect((await req('PUT', `${base}/reglas-margen`, { categoria_id: bebidas.id, margen: 30 })).statusCode).toBe(200);
    expect((await req('PUT', `${base}/reglas-margen`, { proveedor_id: distri.id, margen: 40 })).statusCode).toBe(200);

    const list = await req('GET', `${base}/reglas-margen`);
    expect(
      list.json().map((r: { nivel: string; nombre: string; margen: number }) => [r.nivel, r.nombre, r.margen]),
    ).toEqual([
      ['producto', 'Gaseosa', 20.5],
      ['categoria', 'Bebidas', 30],
      ['proveedor', 'Distribuidora Norte', 40],
    ]);

    const two = await req('PUT', `${base}/reglas-margen`, {
      producto_id: agua.id,
      categoria_id: bebidas.id,
      margen: 5,
    });
    expect(two.statusCode).toBe(422);
    expect(two.json().errors[0].message).toBe('Elegí un producto, una categoría o un proveedor (uno solo).');
    const none = await req('PUT', `${base}/reglas-margen`, { margen: 5 });
    expect(none.statusCode).toBe(422);
    const range = await req('PUT', `${base}/reglas-margen`, { producto_id: agua.id, margen: -100 });
    expect(range.statusCode).toBe(422);
    const alien = await req('PUT', `${base}/reglas-margen`, { proveedor_id: crypto.randomUUID(), margen: 5 });
    expect(alien.statusCode).toBe(422);
    expect(alien.json().detail).toBe('Proveedor no encontrado.');
    expect((await req('GET', `${base}/reglas-margen`)).json()).toHaveLength(3);
  });

  it('previews and applies the most specific rule of each product, exactly as previewed', async () => {
    const fields = { clave: 'codigo', proveedor_id: distri.id, margen: '15' };
    const preview = await send('previsualizar', fields);
    expect(preview.statusCode, preview.body).toBe(200);
    const rows = preview
      .json()
      .cambios.map((c: { nombre: string; regla: string; precio_nuevo: number }) => [c.nombre, c.regla, c.precio_nuevo]);
    expect(rows).toEqual([
      ['Gaseosa', 'producto', 241], // 200 + 20.5 %
      ['Agua', 'categoria', 260], // 200 + 30 %
      ['Yerba', 'proveedor', 280], // 200 + 40 %
      ['Fósforos', 'proveedor', 280],
    ]);
    expect(await price(gaseosa.id)).toEqual([100, 150]);
    const applied = await send('aplicar', fields);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().cambios).toEqual(preview.json().cambios);
    expect(await price(gaseosa.id)).toEqual([200, 241]);
    expect(await price(agua.id)).toEqual([200, 260]);
    expect(await price(yerba.id)).toEqual([200, 280]);
    const undo = await req('POST', `${base}/listas-proveedor/${applied.json().id}/deshacer`);
    expect(undo.statusCode, undo.body).toBe(200);
    expect(await price(yerba.id)).toEqual([100, 150]);
  });

  it("without the supplier's rule: the list's margin, else each product keeps its own", async () => {
    const withMargin = await send('previsualizar', { clave: 'codigo', proveedor_id: otroProv.id, margen: '15' });
    expect(withMargin.statusCode, withMargin.body).toBe(200);
    const byName = (r: { cambios: { nombre: string; regla: string; precio_nuevo: number }[] }) =>
      Object.fromEntries(r.cambios.map((c) => [c.nombre, [c.regla, c.precio_nuevo]]));
    expect(byName(withMargin.json())).toEqual({
      Gaseosa: ['producto', 241],
      Agua: ['categoria', 260],
      Yerba: ['lista', 230],
      Fósforos: ['lista', 230],
    });
    const applied = await send('aplicar', { clave: 'codigo', proveedor_id: otroProv.id, margen: '15' });
    expect(applied.json().cambios).toEqual(withMargin.json().cambios);
    expect(await price(sinCat.id)).toEqual([200, 230]);
    expect((await req('POST', `${base}/listas-proveedor/${applied.json().id}/deshacer`)).statusCode).toBe(200);

    const keep = await send('aplicar', { clave: 'codigo' });
    expect(byName(keep.json())).toEqual({
      Gaseosa: ['producto', 241],
      Agua: ['categoria', 260],
      Yerba: ['actual', 300], // 150 × 200 / 100: its 50 % stays
      Fósforos: ['actual', 300],
    });
    expect(await price(yerba.id)).toEqual([200, 300]);
  });

  it('removes a rule; needs ver_costos and productos editar; is per business', async () => {
    const list = (await req('GET', `${base}/reglas-margen`)).json() as { id: string; nivel: string }[];
    const cat = list.find((r) => r.nivel === 'categoria')!;

    // Without ver_costos, margins are refused even with productos editar.
    const hidden = await req('GET', `${base}/reglas-margen`, undefined, vendedor);
    expect(hidden.statusCode).toBe(403);
    expect(hidden.json().detail).toBe('Para ver o cambiar márgenes necesitás permiso para ver costos.');
    expect((await req('PUT', `${base}/reglas-margen`, { producto_id: agua.id, margen: 1 }, vendedor)).statusCode).toBe(
      403,
    );
    // With ver_costos but only productos ver: reads, cannot change.
    expect((await req('GET', `${base}/reglas-margen`, undefined, encargado)).statusCode).toBe(200);
    expect((await req('DELETE', `${base}/reglas-margen/${cat.id}`, undefined, encargado)).statusCode).toBe(403);

    // Another business neither sees nor removes them, nor points a rule at this business's rows.
    expect((await req('GET', `/api/v1/businesses/${otherBiz}/reglas-margen`, undefined, other)).json()).toEqual([]);
    expect(
      (await req('DELETE', `/api/v1/businesses/${otherBiz}/reglas-margen/${cat.id}`, undefined, other)).statusCode,
    ).toBe(404);
    const cross = await req(
      'PUT',
      `/api/v1/businesses/${otherBiz}/reglas-margen`,
      { categoria_id: bebidas.id, margen: 5 },
      other,
    );
    expect(cross.statusCode).toBe(422);
    expect((await req('GET', `${base}/reglas-margen`, undefined, other)).statusCode).toBe(403);

    expect((await req('DELETE', `${base}/reglas-margen/${cat.id}`)).statusCode).toBe(204);
    expect((await req('DELETE', `${base}/reglas-margen/${cat.id}`)).statusCode).toBe(404);
    expect((await req('GET', `${base}/reglas-margen`)).json().map((r: { nivel: string }) => r.nivel)).toEqual([
      'producto',
      'proveedor',
    ]);
    const audits = await ctx.sql<{ accion: string }>(
      `SELECT accion FROM audit_log WHERE business_id = $1 AND entidad = 'regla_margen' ORDER BY fecha, accion`,
      [biz],
    );
    expect(audits.map((a) => a.accion)).toContain('eliminar');
  });
});
