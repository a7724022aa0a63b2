import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { applyStockChange } from '../posting/stock.js';
import { enNegocio } from '../../db/tenant.js';

const ctx = await createTestApp({ now: () => new Date('2026-03-15T15:00:00Z') });
const { app } = ctx;

let owner: TestUser;
let biz: string;
let otherOwner: TestUser;
let otherBiz: string;

const url = (path = '', b = biz) => `/api/v1/businesses/${b}/products${path}`;
const get = (path = '', u = owner, b = biz) => app.inject({ method: 'GET', url: url(path, b), headers: u.auth });
const post = (path: string, payload: unknown, u = owner, b = biz) =>
  app.inject({ method: 'POST', url: url(path, b), headers: u.auth, payload: payload as object });
const put = (id: string, payload: unknown, u = owner, b = biz) =>
  app.inject({ method: 'PUT', url: url(`/${id}`, b), headers: u.auth, payload: payload as object });
const del = (id: string, u = owner, b = biz) =>
  app.inject({ method: 'DELETE', url: url(`/${id}`, b), headers: u.auth });

interface P {
  id: string;
  nombre: string;
  codigo: string | null;
  precio_venta: number;
  precio_compra: number | null;
  stock_actual: number;
  stock_bajo: boolean;
}

async function product(payload: object, b = biz, u = owner): Promise<P> {
  const res = await post('', { precio_venta: 100, ...payload }, u, b);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function category(nombre: string, b = biz, u = owner) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/businesses/${b}/categories`,
    headers: u.auth,
    payload: { nombre },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

const names = (res: { json(): unknown }) => (res.json() as { nombre: string }[]).map((p) => p.nombre);

beforeAll(async () => {
  owner = await registerUser(app, 'Ana');
  biz = await createBusiness(app, owner, 'Almacén Ana');
  otherOwner = await registerUser(app, 'Beto');
  otherBiz = await createBusiness(app, otherOwner, 'Kiosco Beto');
});

describe('products: create and validate', () => {
  it('creates a product with every field and records the initial stock as a movement', async () => {
    const cat = await category('Almacén');
    const res = await post('', {
      nombre: ' Yerba mate 1 kg ',
      descripcion: 'Suave',
      codigo: 'YER001',
      codigo_barras: '7790001000012',
      precio_compra: '2800.50',
      precio_venta: 4000,
      stock_actual: 35,
      stock_minimo: '10',
      unidad: 'unidad',
      categoria_id: cat.id,
      activo: true,
      business_id: otherBiz,
      stock_bajo: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const p = res.json();
    expect(p).toMatchObject({
      nombre: 'Yerba mate 1 kg',
      descripcion: 'Suave',
      codigo: 'YER001',
      codigo_barras: '7790001000012',
      precio_compra: 2800.5,
      precio_venta: 4000,
      stock_actual: 35,
      stock_minimo: 10,
      unidad: 'unidad',
      categoria_id: cat.id,
      categoria_nombre: 'Almacén',
      activo: true,
      stock_bajo: false,
    });
    expect(Object.keys(p).sort()).toEqual(
      [
        'id',
        'nombre',
        'descripcion',
        'codigo',
        'codigo_barras',
        'precio_compra',
        'precio_venta',
        'stock_actual',
        'stock_minimo',
        'controla_stock',
        'unidad',
        'categoria_id',
        'categoria_nombre',
        'activo',
        'stock_bajo',
        'iva',
        'creado_en',
        'actualizado_en',
        'moneda',
        'precio_usd',
        'contenido',
        'contenido_unidad',
      ].sort(),
    );
    const movs = await get(`/${p.id}/movimientos-stock`);
    expect(movs.headers['x-total-count']).toBe('1');
    expect(movs.json()).toEqual([
      {
        id: expect.any(String),
        fecha: expect.any(String),
        cantidad: 35,
        stock_resultante: 35,
        origen: 'inicial',
        referencia_id: null,
        motivo: 'Stock inicial',
        usuario: { id: owner.id, nombre: 'Ana Prueba' },
      },
    ]);
    const audit = await ctx.sql('SELECT entidad, accion FROM audit_log WHERE entidad_id = $1', [p.id]);
    expect(audit).toEqual([{ entidad: 'producto', accion: 'crear' }]);
  });

  it('applies the defaults and turns an empty code into null', async () => {
    const p = await product({ nombre: 'Chicle', codigo: '', codigo_barras: '  ', precio_venta: '150' });
    expect(p).toMatchObject({
      codigo: null,
      codigo_barras: null,
      precio_compra: null,
      stock_actual: 0,
      stock_minimo: 0,
      unidad: 'unidad',
      categoria_id: null,
      categoria_nombre: null,
      activo: true,
      stock_bajo: false,
    });
    expect((await get(`/${p.id}/movimientos-stock`)).json()).toEqual([]);
    // Two products without code coexist.
    await product({ nombre: 'Caramelo', codigo: '' });
  });

  it('keeps quantities exact to three decimals (goods by the kilo)', async () => {
    const p = await product({ nombre: 'Queso por kg', unidad: 'kg', stock_actual: '12.345', stock_minimo: 0.5 });
    expect(p).toMatchObject({ stock_actual: 12.345, unidad: 'kg' });
    expect((await ctx.sql('SELECT stock_actual FROM products WHERE id = $1', [p.id]))[0].stock_actual).toBe('12.345');
  });

  it.each([
    [{ precio_venta: 1 }, 'nombre', 'Este campo es obligatorio.'],
    [{ nombre: 'x'.repeat(151), precio_venta: 1 }, 'nombre', 'Debe tener como máximo 150 caracteres.'],
    [
      { nombre: 'A', precio_venta: 1, descripcion: 'x'.repeat(1001) },
      'descripcion',
      'Debe tener como máximo 1000 caracteres.',
    ],
    [{ nombre: 'A', precio_venta: 1, codigo: 'x'.repeat(51) }, 'codigo', 'Debe tener como máximo 50 caracteres.'],
    [
      { nombre: 'A', precio_venta: 1, codigo_barras: '1'.repeat(51) },
      'codigo_barras',
      'Debe tener como máximo 50 caracteres.',
    ],
    [{ nombre: 'A' }, 'precio_venta', 'Este campo es obligatorio.'],
    [{ nombre: 'A', precio_venta: null }, 'precio_venta', 'Este campo es obligatorio.'],
    [{ nombre: 'A', precio_venta: 'caro' }, 'precio_venta', 'Debe ser un número.'],
    [{ nombre: 'A', precio_venta: 1.234 }, 'precio_venta', 'Admite como máximo 2 decimales.'],
    [{ nombre: 'A', precio_venta: -1 }, 'precio_venta', 'Debe ser mayor o igual a 0.'],
    [{ nombre: 'A', precio_venta: '1000000000000' }, 'precio_venta', 'Debe ser menor o igual a 999999999999.99.'],
    [{ nombre: 'A', precio_venta: 1, precio_compra: -5 }, 'precio_compra', 'Debe ser mayor o igual a 0.'],
    [{ nombre: 'A', precio_venta: 1, stock_actual: -1 }, 'stock_actual', 'Debe ser mayor o igual a 0.'],
    [{ nombre: 'A', precio_venta: 1, stock_actual: 1.2345 }, 'stock_actual', 'Admite como máximo 3 decimales.'],
    [{ nombre: 'A', precio_venta: 1, stock_minimo: 'x' }, 'stock_minimo', 'Debe ser un número.'],
    [{ nombre: 'A', precio_venta: 1, unidad: 'x'.repeat(21) }, 'unidad', 'Debe tener como máximo 20 caracteres.'],
    [{ nombre: 'A', precio_venta: 1, categoria_id: 'no-uuid' }, 'categoria_id', 'Identificador no válido.'],
    [{ nombre: 'A', precio_venta: 1, activo: 'sí' }, 'activo', 'Debe ser verdadero o falso.'],
  ])('refuses %j with 422 on %s and stores nothing', async (payload, field, message) => {
    const before = await ctx.sql('SELECT id FROM products');
    const res = await post('', payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toContainEqual({ field, message });
    expect(await ctx.sql('SELECT id FROM products')).toHaveLength(before.length);
  });

  it('refuses a category of another business or a missing one (422), storing nothing', async () => {
    const foreign = await category('Ajena', otherBiz, otherOwner);
    for (const id of [foreign.id, randomUUID()]) {
      const res = await post('', { nombre: 'Con categoría ajena', precio_venta: 1, categoria_id: id });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual([
        { field: 'categoria_id', message: 'Categoría no encontrada en este negocio.' },
      ]);
    }
    expect(await ctx.sql("SELECT id FROM products WHERE nombre = 'Con categoría ajena'")).toEqual([]);
  });

  it('refuses a repeated code (any case) or barcode with 409; another business may repeat them', async () => {
    await product({ nombre: 'Fernet', codigo: 'FER750', codigo_barras: '7790290000011' });
    const code = await post('', { nombre: 'Otro', precio_venta: 1, codigo: 'fer750' });
    expect(code.statusCode).toBe(409);
    expect(code.json()).toEqual({ detail: 'Ya existe un producto con el código fer750.', code: 'DUPLICATE' });
    const bar = await post('', { nombre: 'Otro', precio_venta: 1, codigo_barras: '7790290000011' });
    expect(bar.statusCode).toBe(409);
    expect(bar.json()).toEqual({
      detail: 'Ya existe un producto con el código de barras 7790290000011.',
      code: 'DUPLICATE',
    });
    await product({ nombre: 'Fernet', codigo: 'FER750', codigo_barras: '7790290000011' }, otherBiz, otherOwner);
  });
});

describe('products: list', () => {
  let b: string;
  let bebidas: string;
  beforeAll(async () => {
    b = await createBusiness(app, owner, 'Lista');
    bebidas = (await category('Bebidas', b)).id;
    const almacen = (await category('Almacén', b)).id;
    const rows = [
      {
        nombre: 'Agua mineral 2 l',
        codigo: 'AGU2',
        categoria_id: bebidas,
        precio_venta: 900,
        stock_actual: 3,
        stock_minimo: 5,
      },
      { nombre: 'Ñoquis frescos', codigo: 'NOQ', precio_venta: 2500, stock_actual: 10 },
      {
        nombre: 'Café molido',
        codigo: 'CAF250',
        codigo_barras: '7790000111222',
        categoria_id: almacen,
        precio_venta: 5000,
      },
      { nombre: 'Azúcar 1 kg', codigo: 'AZU1', categoria_id: almacen, precio_venta: 1200, stock_minimo: 2 },
      {
        nombre: 'Zumo de naranja',
        codigo: 'ZUM',
        categoria_id: bebidas,
        precio_venta: 1800,
        activo: false,
        stock_minimo: 9,
      },
      { nombre: 'árbol de navidad', codigo: 'ARB', precio_venta: 30000, stock_actual: 1 },
    ];
    for (const r of rows) await product(r, b);
    await product({ nombre: 'Agua ajena', codigo: 'AGU2' }, otherBiz, otherOwner);
  });

  it('sorts by name the Spanish way and counts in X-Total-Count', async () => {
    const res = await get('', owner, b);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('6');
    expect(names(res)).toEqual([
      'Agua mineral 2 l',
      'árbol de navidad',
      'Azúcar 1 kg',
      'Café molido',
      'Ñoquis frescos',
      'Zumo de naranja',
    ]);
  });

  it('searches name, code and barcode ignoring case and accents, every word, with the alias search', async () => {
    const q = async (s: string, param = 'q') => names(await get(`?${param}=${encodeURIComponent(s)}`, owner, b));
    expect(await q('cafe')).toEqual(['Café molido']);
    expect(await q('ARBOL')).toEqual(['árbol de navidad']);
    expect(await q('noquis')).toEqual(['Ñoquis frescos']);
    expect(await q('caf250')).toEqual(['Café molido']);
    expect(await q('111222')).toEqual(['Café molido']);
    expect(await q('agua 2')).toEqual(['Agua mineral 2 l']);
    expect(await q('a', 'search')).toHaveLength(5);
    expect(await q('%')).toEqual([]);
    expect(await q('ajena')).toEqual([]);
  });

  it('filters by category (alias category_id, or ninguna), activo and stock_bajo', async () => {
    expect(names(await get(`?categoria_id=${bebidas}`, owner, b))).toEqual(['Agua mineral 2 l', 'Zumo de naranja']);
    expect(names(await get(`?category_id=${bebidas}&activo=true`, owner, b))).toEqual(['Agua mineral 2 l']);
    expect(names(await get('?categoria_id=ninguna', owner, b))).toEqual(['árbol de navidad', 'Ñoquis frescos']);
    expect(names(await get('?activo=0', owner, b))).toEqual(['Zumo de naranja']);
    // Low: active, with a minimum, at or below it (the inactive Zumo is not low).
    const low = await get('?stock_bajo=true', owner, b);
    expect(names(low)).toEqual(['Agua mineral 2 l', 'Azúcar 1 kg']);
    expect(low.json().every((p: P) => p.stock_bajo)).toBe(true);
    expect(await get('?stock_bajo=false', owner, b).then((r) => r.headers['x-total-count'])).toBe('4');
  });

  it('sorts by other columns and pages', async () => {
    expect(names(await get('?orden=precio_venta&direccion=desc&limit=2', owner, b))).toEqual([
      'árbol de navidad',
      'Café molido',
    ]);
    expect(names(await get('?orden=stock_actual', owner, b)).slice(-1)).toEqual(['Ñoquis frescos']);
    const page = await get('?limit=2&offset=2', owner, b);
    expect(page.headers['x-total-count']).toBe('6');
    expect(names(page)).toEqual(['Azúcar 1 kg', 'Café molido']);
    expect(names(await get('?direccion=desc&limit=1', owner, b))).toEqual(['Zumo de naranja']);
    // A page past the end is empty and still counts everything; nothing matching counts 0.
    const past = await get('?offset=6', owner, b);
    expect(past.statusCode).toBe(200);
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('6');
    const none = await get(`?categoria_id=ninguna&activo=false`, owner, b);
    expect(none.json()).toEqual([]);
    expect(none.headers['x-total-count']).toBe('0');
  });

  it('answers a product the same in the list, a word search and its detail', async () => {
    // The list without search words runs one raw statement, the search the query builder (issue 20).
    const listed = (await get('', owner, b)).json() as P[];
    const cafe = listed.find((p) => p.nombre === 'Café molido')!;
    expect((await get('?q=molido', owner, b)).json()).toEqual([cafe]);
    expect((await get(`/${cafe.id}`, owner, b)).json()).toMatchObject(cafe);
    expect(cafe).toMatchObject({ codigo: 'CAF250', codigo_barras: '7790000111222', categoria_nombre: 'Almacén' });
    expect(Object.keys(cafe)).not.toContain('precios_listas');
  });

  it('refuses malformed query parameters with 422 and lowers a large limit', async () => {
    for (const bad of ['?limit=0', '?limit=-1', '?offset=x', '?categoria_id=abc', '?activo=tal', '?orden=color']) {
      expect((await get(bad, owner, b)).statusCode, bad).toBe(422);
    }
    expect((await get('?limit=999999', owner, b)).statusCode).toBe(200);
  });
});

describe('products: get, update, delete', () => {
  it('gets a product; missing, malformed and foreign ids are 404', async () => {
    const p = await product({ nombre: 'Visible' });
    expect((await get(`/${p.id}`)).json()).toMatchObject({ id: p.id, nombre: 'Visible' });
    const foreign = await product({ nombre: 'Ajeno' }, otherBiz, otherOwner);
    for (const id of [randomUUID(), 'abc', foreign.id]) {
      const res = await get(`/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Producto no encontrado.', code: 'NOT_FOUND' });
      expect((await put(id, { nombre: 'X' })).statusCode).toBe(404);
      expect((await del(id)).statusCode).toBe(404);
      expect((await post(`/${id}/ajuste-stock`, { cantidad: 1, motivo: 'x' })).statusCode).toBe(404);
      expect((await get(`/${id}/movimientos-stock`)).statusCode).toBe(404);
    }
    const [row] = await ctx.sql('SELECT nombre, stock_actual FROM products WHERE id = $1', [foreign.id]);
    expect(row).toEqual({ nombre: 'Ajeno', stock_actual: '0.000' });
  });

  it('updates the given fields, ignores an unchanged stock, refuses a changed one, and audits price changes', async () => {
    const cat = await category('Limpieza');
    const p = await product({
      nombre: 'Lavandina',
      codigo: 'LAV',
      precio_venta: 1000,
      precio_compra: 600,
      stock_actual: 5,
    });
    // The existing client sends the whole form, stock included.
    const res = await put(p.id, {
      nombre: 'Lavandina 1 l',
      codigo: 'LAV',
      precio_venta: '1100',
      precio_compra: 600,
      stock_actual: 5,
      categoria_id: cat.id,
      business_id: otherBiz,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      nombre: 'Lavandina 1 l',
      precio_venta: 1100,
      stock_actual: 5,
      categoria_nombre: 'Limpieza',
    });
    const stock = await put(p.id, { stock_actual: 7 });
    expect(stock.statusCode).toBe(422);
    expect(stock.json().errors).toEqual([
      { field: 'stock_actual', message: 'El stock no se edita directamente: registrá un ajuste de stock.' },
    ]);
    expect((await put(p.id, { precio_compra: null, codigo: '' })).json()).toMatchObject({
      precio_compra: null,
      codigo: null,
    });
    expect((await put(p.id, {})).json().detail).toBe('No hay datos para actualizar.');
    for (const bad of [
      { nombre: null },
      { precio_venta: null },
      { precio_venta: -1 },
      { categoria_id: randomUUID() },
    ]) {
      expect((await put(p.id, bad)).statusCode, JSON.stringify(bad)).toBe(422);
    }
    const audit = await ctx.sql<{ accion: string; antes: Record<string, unknown>; despues: Record<string, unknown> }>(
      "SELECT accion, antes, despues FROM audit_log WHERE entidad = 'producto' AND entidad_id = $1 ORDER BY fecha",
      [p.id],
    );
    expect(audit.map((a) => a.accion)).toEqual(['crear', 'actualizar', 'actualizar']);
    expect(audit[1].antes).toEqual({ nombre: 'Lavandina', precio_venta: 1000, categoria_id: null });
    expect(audit[1].despues).toEqual({ nombre: 'Lavandina 1 l', precio_venta: 1100, categoria_id: cat.id });
    expect((await get(`/${p.id}`)).json().stock_actual).toBe(5);
  });

  it('refuses changing the code onto another product (409)', async () => {
    await product({ nombre: 'Uno', codigo: 'UNO' });
    const dos = await product({ nombre: 'Dos', codigo: 'DOS' });
    const res = await put(dos.id, { codigo: 'uno' });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe('Ya existe un producto con el código uno.');
  });

  it('deletes a product without sales or purchases, with its own stock history (204)', async () => {
    const p = await product({ nombre: 'Efímero', stock_actual: 3 });
    await post(`/${p.id}/ajuste-stock`, { cantidad: -1, motivo: 'Rotura' });
    expect((await del(p.id)).statusCode).toBe(204);
    expect((await get(`/${p.id}`)).statusCode).toBe(404);
    expect(await ctx.sql('SELECT id FROM stock_movements WHERE producto_id = $1', [p.id])).toEqual([]);
    const audit = await ctx.sql(
      "SELECT accion FROM audit_log WHERE entidad = 'producto' AND entidad_id = $1 ORDER BY fecha",
      [p.id],
    );
    expect(audit.map((a) => a.accion)).toEqual(['crear', 'eliminar']);
  });

  it('refuses deleting a product with sales or purchases (409 IN_USE)', async () => {
    const sold = await product({ nombre: 'Vendido', stock_actual: 5 });
    await enNegocio(biz, () =>
      applyStockChange(ctx.database.db, {
        businessId: biz,
        productId: sold.id,
        cantidad: -1000,
        origen: 'venta',
        motivo: 'Venta #1',
        referenciaId: randomUUID(),
        userId: owner.id,
      }),
    );
    const res = await del(sold.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: 'El producto tiene ventas o compras registradas; desactivalo en lugar de eliminarlo.',
      code: 'IN_USE',
    });
    // Any restricting reference (the sale lines of the next module) answers the same.
    const listed = await product({ nombre: 'En una línea' });
    await ctx.sql(`CREATE TABLE test_sale_lines (business_id uuid, producto_id uuid,
      FOREIGN KEY (business_id, producto_id) REFERENCES products (business_id, id))`);
    await ctx.sql('INSERT INTO test_sale_lines VALUES ($1, $2)', [biz, listed.id]);
    expect((await del(listed.id)).json().code).toBe('IN_USE');
    await ctx.sql('DROP TABLE test_sale_lines');
  });
});

describe('stock adjustments and history', () => {
  it('adds and removes stock with a reason, answering the before and after, and audits it', async () => {
    const p = await product({ nombre: 'Aceite', stock_actual: 35 });
    const res = await post(`/${p.id}/ajuste-stock`, { cantidad: -5, motivo: ' Rotura ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      producto_id: p.id,
      stock_anterior: 35,
      stock_actual: 30,
      movimiento: {
        id: expect.any(String),
        cantidad: -5,
        motivo: 'Rotura',
        fecha: expect.any(String),
        usuario: { id: owner.id, nombre: 'Ana Prueba' },
      },
    });
    const more = await post(`/${p.id}/ajuste-stock`, { cantidad: '2.5', motivo: 'Recuento' });
    expect(more.json()).toMatchObject({ stock_anterior: 30, stock_actual: 32.5 });
    expect((await get(`/${p.id}`)).json().stock_actual).toBe(32.5);
    const hist = await get(`/${p.id}/movimientos-stock`);
    expect(hist.headers['x-total-count']).toBe('3');
    expect(
      hist
        .json()
        .map((m: { origen: string; cantidad: number; stock_resultante: number }) => [
          m.origen,
          m.cantidad,
          m.stock_resultante,
        ]),
    ).toEqual([
      ['ajuste', 2.5, 32.5],
      ['ajuste', -5, 30],
      ['inicial', 35, 35],
    ]);
    const page = await get(`/${p.id}/movimientos-stock?limit=1&offset=1`);
    expect(page.json().map((m: { cantidad: number }) => m.cantidad)).toEqual([-5]);
    const audit = await ctx.sql(
      "SELECT accion, antes, despues FROM audit_log WHERE entidad = 'stock' AND entidad_id = $1 ORDER BY fecha, (despues->>'cantidad')::numeric",
      [p.id],
    );
    expect(audit).toContainEqual({
      accion: 'ajustar',
      antes: { stock_actual: 35 },
      despues: { stock_actual: 30, cantidad: -5, origen: 'ajuste', motivo: 'Rotura' },
    });
    expect(audit).toHaveLength(2);
  });

  it('refuses an adjustment that would leave the stock negative (409), changing nothing', async () => {
    const p = await product({ nombre: 'Harina', stock_actual: 2 });
    const res = await post(`/${p.id}/ajuste-stock`, { cantidad: -3, motivo: 'Error' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: 'El ajuste dejaría el stock de Harina en negativo.',
      code: 'INSUFFICIENT_STOCK',
    });
    expect((await get(`/${p.id}`)).json().stock_actual).toBe(2);
    expect((await get(`/${p.id}/movimientos-stock`)).json()).toHaveLength(1);
    expect((await post(`/${p.id}/ajuste-stock`, { cantidad: -2, motivo: 'Todo' })).json().stock_actual).toBe(0);
  });

  it.each([
    [{ motivo: 'x' }, 'cantidad', 'Este campo es obligatorio.'],
    [{ cantidad: 0, motivo: 'x' }, 'cantidad', 'La cantidad debe ser distinta de 0.'],
    [{ cantidad: '1.2345', motivo: 'x' }, 'cantidad', 'Admite como máximo 3 decimales.'],
    [{ cantidad: 'mucho', motivo: 'x' }, 'cantidad', 'Debe ser un número.'],
    [{ cantidad: 1 }, 'motivo', 'Este campo es obligatorio.'],
    [{ cantidad: 1, motivo: '  ' }, 'motivo', 'Este campo es obligatorio.'],
    [{ cantidad: 1, motivo: 'x'.repeat(201) }, 'motivo', 'Debe tener como máximo 200 caracteres.'],
  ])('refuses the adjustment %j with 422 on %s', async (payload, field, message) => {
    const p = await product({ nombre: 'Validado', stock_actual: 1 });
    const res = await post(`/${p.id}/ajuste-stock`, payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toContainEqual({ field, message });
    expect((await get(`/${p.id}`)).json().stock_actual).toBe(1);
  });

  it('never oversells under concurrency: 20 parallel removals of 1 from a stock of 10', async () => {
    const p = await product({ nombre: 'Disputado', stock_actual: 10 });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => post(`/${p.id}/ajuste-stock`, { cantidad: -1, motivo: 'Carrera' })),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(10);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(10);
    expect((await get(`/${p.id}`)).json().stock_actual).toBe(0);
    const movs = await ctx.sql<{ stock_resultante: string }>(
      "SELECT stock_resultante FROM stock_movements WHERE producto_id = $1 AND origen = 'ajuste' ORDER BY stock_resultante",
      [p.id],
    );
    expect(movs.map((m) => Number(m.stock_resultante))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('applyStockChange takes the caller message and not-found error (for sales and purchases)', async () => {
    const p = await product({ nombre: 'Vino', stock_actual: 1 });
    const db = ctx.database.db;
    await expect(
      enNegocio(biz, () =>
        applyStockChange(db, {
          businessId: biz,
          productId: p.id,
          cantidad: -2000,
          origen: 'venta',
          motivo: 'Venta #9',
          userId: owner.id,
          audit: false,
          insufficientMessage: ({ nombre, disponible }) =>
            `Stock insuficiente para ${nombre}. Disponible: ${disponible}.`,
        }),
      ),
    ).rejects.toMatchObject({
      status: 409,
      code: 'INSUFFICIENT_STOCK',
      detail: 'Stock insuficiente para Vino. Disponible: 1.',
    });
    await expect(
      enNegocio(biz, () =>
        applyStockChange(db, {
          businessId: otherBiz,
          productId: p.id,
          cantidad: 1000,
          origen: 'compra',
          motivo: 'Compra',
          userId: owner.id,
        }),
      ),
    ).rejects.toMatchObject({ status: 404 });
    const r = await enNegocio(biz, () =>
      applyStockChange(db, {
        businessId: biz,
        productId: p.id,
        cantidad: 3000,
        origen: 'compra',
        motivo: 'Compra',
        userId: null,
        audit: false,
      }),
    );
    expect(r).toMatchObject({ nombre: 'Vino', stockAnterior: 1000, stockActual: 4000 });
    const hist = (await get(`/${p.id}/movimientos-stock`)).json();
    expect(hist[0]).toMatchObject({ origen: 'compra', cantidad: 3, stock_resultante: 4, usuario: null });
  });
});

describe('bulk price update', () => {
  let b: string;
  let cat: string;
  let ids: Record<string, string>;
  beforeAll(async () => {
    b = await createBusiness(app, owner, 'Precios');
    cat = (await category('Bebidas', b)).id;
    ids = {};
    for (const r of [
      { nombre: 'Agua', precio_venta: 1000, precio_compra: 600, categoria_id: cat },
      { nombre: 'Soda', precio_venta: 455, categoria_id: cat },
      { nombre: 'Pan', precio_venta: 1234.56, precio_compra: 700 },
      { nombre: 'Inactivo', precio_venta: 2000, activo: false },
    ]) {
      ids[r.nombre] = (await product(r, b)).id;
    }
    await product({ nombre: 'Ajeno de precios', precio_venta: 1000 }, otherBiz, otherOwner);
  });

  const bulk = (payload: object) => post('/actualizacion-masiva', payload, owner, b);
  const prices = async () =>
    Object.fromEntries(
      (await get('?limit=100', owner, b)).json().map((p: P) => [p.nombre, [p.precio_venta, p.precio_compra]]),
    );

  it('previews a 10% rise without writing anything', async () => {
    const before = await prices();
    const res = await bulk({ porcentaje: 10, dry_run: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      dry_run: true,
      productos_afectados: 3,
      cambios: [
        { id: ids.Agua, nombre: 'Agua', precio_anterior: 1000, precio_nuevo: 1100 },
        { id: ids.Pan, nombre: 'Pan', precio_anterior: 1234.56, precio_nuevo: 1358.02 },
        { id: ids.Soda, nombre: 'Soda', precio_anterior: 455, precio_nuevo: 500.5 },
      ],
    });
    expect(await prices()).toEqual(before);
    expect(await ctx.sql("SELECT id FROM audit_log WHERE business_id = $1 AND accion = 'actualizar'", [b])).toEqual([]);
  });

  it('applies a rise by category with rounding in one transaction and one audit row per product', async () => {
    const res = await bulk({ porcentaje: '10', categoria_id: cat, redondeo: 'decena' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ dry_run: false, productos_afectados: 2 });
    expect(await prices()).toMatchObject({
      Agua: [1100, 600],
      Soda: [500, null],
      Pan: [1234.56, 700],
      Inactivo: [2000, null],
    });
    const audit = await ctx.sql(
      "SELECT entidad_id, antes, despues FROM audit_log WHERE business_id = $1 AND accion = 'actualizar' ORDER BY despues->>'precio_venta'",
      [b],
    );
    expect(audit).toEqual([
      { entidad_id: ids.Agua, antes: { precio_venta: 1000 }, despues: { precio_venta: 1100 } },
      { entidad_id: ids.Soda, antes: { precio_venta: 455 }, despues: { precio_venta: 500 } },
    ]);
    expect((await get('?q=ajeno de precios', otherOwner, otherBiz)).json()[0].precio_venta).toBe(1000);
  });

  it('updates precio_compra skipping products without one, includes inactive ones on request, and lowers prices', async () => {
    const res = await bulk({ porcentaje: -12.5, campo: 'precio_compra', redondeo: 'entero' });
    expect(res.json().cambios.map((c: { nombre: string; precio_nuevo: number }) => [c.nombre, c.precio_nuevo])).toEqual(
      [
        ['Agua', 525],
        ['Pan', 613],
      ],
    );
    const all = await bulk({ porcentaje: 100, incluir_inactivos: true, redondeo: 'centena', dry_run: true });
    expect(all.json().productos_afectados).toBe(4);
    expect(all.json().cambios.find((c: { nombre: string }) => c.nombre === 'Inactivo').precio_nuevo).toBe(4000);
  });

  it.each([
    [{}, 'porcentaje', 'Este campo es obligatorio.'],
    [{ porcentaje: 0 }, 'porcentaje', 'El porcentaje debe estar entre -90 y 1000 y ser distinto de 0.'],
    [{ porcentaje: -90.01 }, 'porcentaje', 'El porcentaje debe estar entre -90 y 1000 y ser distinto de 0.'],
    [{ porcentaje: 1000.5 }, 'porcentaje', 'El porcentaje debe estar entre -90 y 1000 y ser distinto de 0.'],
    [{ porcentaje: 1.234 }, 'porcentaje', 'El porcentaje debe estar entre -90 y 1000 y ser distinto de 0.'],
    [{ porcentaje: 5, campo: 'stock' }, 'campo', 'Valor no válido. Opciones: precio_venta, precio_compra.'],
    [{ porcentaje: 5, redondeo: 'mil' }, 'redondeo', 'Valor no válido. Opciones: ninguno, entero, decena, centena.'],
    [{ porcentaje: 5, categoria_id: 'x' }, 'categoria_id', 'Identificador no válido.'],
  ])('refuses %j with 422 on %s', async (payload, field, message) => {
    const res = await bulk(payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toContainEqual({ field, message });
  });

  it("refuses another business's category (422)", async () => {
    const foreign = await category('Ajena de precios', otherBiz, otherOwner);
    const res = await bulk({ porcentaje: 5, categoria_id: foreign.id });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toBe('Categoría no encontrada en este negocio.');
  });

  it('lists at most 500 changes but counts them all', async () => {
    const many = await createBusiness(app, owner, 'Muchos precios');
    await ctx.sql(
      `INSERT INTO products (business_id, nombre, precio_venta) SELECT $1, 'P' || lpad(g::text, 4, '0'), 100 FROM generate_series(1, 620) g`,
      [many],
    );
    const res = await post('/actualizacion-masiva', { porcentaje: 3 }, owner, many);
    expect(res.json().productos_afectados).toBe(620);
    expect(res.json().cambios).toHaveLength(500);
    expect(
      await ctx.sql('SELECT count(*)::int AS n FROM products WHERE business_id = $1 AND precio_venta = 103', [many]),
    ).toEqual([{ n: 620 }]);
  });
});

describe('product export', () => {
  it('exports the filtered products as .xlsx with numeric prices and neutralised text', async () => {
    const b = await createBusiness(app, owner, 'Exportar');
    const cat = await category('Bebidas', b);
    await product(
      { nombre: 'Agua', codigo: 'AGU', precio_venta: 900.5, precio_compra: 500, stock_actual: 3, categoria_id: cat.id },
      b,
    );
    await product({ nombre: '=1+1', codigo: '-X', precio_venta: 10, activo: false }, b);
    await product({ nombre: 'Agua ajena', precio_venta: 1 }, otherBiz, otherOwner);
    const res = await get('/exportar', owner, b);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="productos-2026-03-15.xlsx"');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws.name).toBe('Productos');
    const rows: unknown[][] = [];
    ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    expect(rows).toEqual([
      [
        'Código',
        'Nombre',
        'Descripción',
        'Código de barras',
        'Categoría',
        'Precio de compra',
        'Precio de venta',
        'Stock',
        'Stock mínimo',
        'Unidad',
        'Activo',
      ],
      ["'-X", "'=1+1", undefined, undefined, undefined, undefined, 10, 0, 0, 'unidad', 'No'],
      ['AGU', 'Agua', undefined, undefined, 'Bebidas', 500, 900.5, 3, 0, 'unidad', 'Sí'],
    ]);
    const filtered = await get('/exportar?activo=true', owner, b);
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(filtered.rawPayload as unknown as ArrayBuffer);
    expect(wb2.worksheets[0].rowCount).toBe(2);
  });
});

describe('products: permissions', () => {
  it('checks the productos flags per action', async () => {
    const p = await product({ nombre: 'Protegido', stock_actual: 5 });
    const viewer = await registerUser(app, 'Vera');
    await addMember(ctx, biz, owner, viewer, ['puede_ver_productos']);
    expect((await get('', viewer)).statusCode).toBe(200);
    expect((await get(`/${p.id}/movimientos-stock`, viewer)).statusCode).toBe(200);
    expect((await get('/exportar', viewer)).statusCode).toBe(200);
    for (const res of [
      await post('', { nombre: 'No', precio_venta: 1 }, viewer),
      await put(p.id, { nombre: 'No' }, viewer),
      await post(`/${p.id}/ajuste-stock`, { cantidad: 1, motivo: 'x' }, viewer),
      await post('/actualizacion-masiva', { porcentaje: 10 }, viewer),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN', modulo: 'productos', accion: 'editar' });
    }
    expect((await del(p.id, viewer)).json()).toMatchObject({ code: 'FORBIDDEN', accion: 'eliminar' });
    const editor = await registerUser(app, 'Edu');
    await addMember(ctx, biz, owner, editor, ['puede_editar_productos']);
    expect((await post(`/${p.id}/ajuste-stock`, { cantidad: 1, motivo: 'x' }, editor)).statusCode).toBe(200);
    expect((await get('', editor)).statusCode).toBe(403);
    expect((await del(p.id, editor)).statusCode).toBe(403);
    expect((await get(`/${p.id}`)).json().stock_actual).toBe(6);
  });

  it('refuses the list at once to whom may not see it, though its page went out with the session check', async () => {
    // The list's statement is sent with the session lookup (issue 20): every refusal still holds.
    await product({ nombre: 'Con costo', precio_compra: 40, precio_venta: 100 });
    const stranger = await registerUser(app, 'Ernesto');
    expect(await get('', stranger).then((r) => [r.statusCode, r.json().code])).toEqual([403, 'NOT_MEMBER']);
    const pending = await registerUser(app, 'Pendiente');
    await ctx.sql(
      `INSERT INTO business_members (business_id, user_id, rol, estado, acceso_total, permisos)
       VALUES ($1, $2, 'empleado', 'pendiente', false, '{}')`,
      [biz, pending.id],
    );
    expect(await get('', pending).then((r) => [r.statusCode, r.json().code])).toEqual([403, 'MEMBERSHIP_PENDING']);
    const viewer = await registerUser(app, 'Valen');
    await addMember(ctx, biz, owner, viewer, ['puede_ver_productos']);
    const seen = await get('?limit=1000', viewer);
    expect(seen.statusCode).toBe(200);
    expect(seen.headers['x-total-count']).toBe((await get('', owner)).headers['x-total-count']);
    // Without ver_costos, no purchase price; the owner sees it.
    expect(seen.json().find((x: P) => x.nombre === 'Con costo')).not.toHaveProperty('precio_compra');
    expect((await get('?limit=1000')).json().find((x: P) => x.nombre === 'Con costo').precio_compra).toBe(40);
    // A revoked permission and a logout are refused on the next request.
    const revoke = await app.inject({
      method: 'PUT',
      url: `/api/v1/businesses/${biz}/usuarios/${viewer.id}/permisos`,
      headers: owner.auth,
      payload: { puede_ver_productos: false },
    });
    expect(revoke.statusCode, revoke.body).toBe(200);
    expect((await get('', viewer)).statusCode).toBe(403);
    const out = await app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: viewer.auth });
    expect(out.statusCode).toBeLessThan(300);
    expect((await get('', viewer)).statusCode).toBe(401);
    // Input the route refuses is refused as before, after the checks.
    expect((await get('?limit=0')).statusCode).toBe(422);
    expect((await get(`?categoria_id=${randomUUID()}`)).json().errors[0].field).toBe('categoria_id');
  });
});
