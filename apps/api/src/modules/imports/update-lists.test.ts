import ExcelJS from 'exceljs';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { multipartBody, xlsx } from './test-files.js';

/*
 * Distributors' lists (issue 17): a title block above the headers, the column names Argentine
 * files use, lists keyed by barcode that only update what they carry, and the refused rows
 * downloaded with their errors.
 */

const ctx = await createTestApp();
const { app } = ctx;

let owner: TestUser;
let other: TestUser;
let otherBiz: string;
let b: string;
let yerba: string;
let fideos: string;

const base = (biz: string) => `/api/v1/businesses/${biz}`;
function send(path: string, content: Buffer, u = owner, biz = b, filename = 'lista.xlsx') {
  const { payload, headers } = multipartBody([{ name: 'file', filename, content }]);
  return app.inject({ method: 'POST', url: `${base(biz)}${path}`, headers: { ...u.auth, ...headers }, payload });
}
const get = (path: string, u = owner, biz = b) =>
  app.inject({ method: 'GET', url: `${base(biz)}${path}`, headers: u.auth });
const post = (path: string, payload: object, u = owner, biz = b) =>
  app.inject({ method: 'POST', url: `${base(biz)}${path}`, headers: u.auth, payload });

const TITLE = [['Distribuidora Sur S.A.'], ['Lista de precios noviembre 2026 — precios sin IVA'], []];

/** The distributor's list: two title rows, then only the barcode and the cost. */
const costList = () =>
  xlsx([
    {
      name: 'Lista',
      rows: [...TITLE, ['EAN', 'Costo'], [7790001000017, '2.500,50'], ['7790001000024', null], ['7790001099999', 100]],
    },
  ]);

const productRows = () =>
  ctx.sql<Record<string, string | null>>(
    `SELECT nombre, codigo_barras, precio_compra, precio_venta, stock_actual FROM products
      WHERE business_id = $1 ORDER BY nombre`,
    [b],
  );

const NEW_ROW_ERRORS = 'Nombre: este campo es obligatorio. Precio de venta: este campo es obligatorio.';

beforeAll(async () => {
  owner = await registerUser(app, 'Carla');
  other = await registerUser(app, 'Dario');
  otherBiz = await createBusiness(app, other, 'Kiosco Dario');
});

beforeEach(async () => {
  b = await createBusiness(app, owner, 'Almacén Carla');
  const product = async (body: object) => {
    const res = await post('/products', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  yerba = await product({
    nombre: 'Yerba 1 kg',
    codigo: 'YER1',
    codigo_barras: '7790001000017',
    precio_venta: 4400,
    precio_compra: 2000,
    stock_actual: 12,
  });
  fideos = await product({ nombre: 'Fideos', codigo_barras: '7790001000024', precio_venta: 900, precio_compra: 500 });
});

describe('a list keyed by barcode below a title block', () => {
  it('stages it as updates, and confirming changes the cost only, audited, with no stock movement', async () => {
    const up = await send('/import/upload', await costList());
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toMatchObject({
      total: 3,
      validos: 2,
      con_errores: 1,
      nuevos: 0,
      actualizaciones: 2,
      columnas: [
        { columna: 'EAN', campo: 'codigo_barras' },
        { columna: 'Costo', campo: 'precio_compra' },
      ],
      columnas_originales: ['EAN', 'Costo'],
    });
    const staged = up.json().productos_temporales;
    expect(staged.map((r: Record<string, unknown>) => [r.fila, r.accion, r.producto_id, r.errores])).toEqual([
      [5, 'actualizar', yerba, []],
      [6, 'actualizar', fideos, []],
      [7, 'nuevo', null, ['Nombre: este campo es obligatorio.', 'Precio de venta: este campo es obligatorio.']],
    ]);

    const done = await post('/import/confirmar', {});
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ creados: 0, actualizados: 2, omitidos: 1 });
    expect(done.json().errores).toEqual([{ fila: 7, mensaje: NEW_ROW_ERRORS }]);
    expect(await productRows()).toEqual([
      {
        nombre: 'Fideos',
        codigo_barras: '7790001000024',
        precio_compra: '500.00',
        precio_venta: '900.00',
        stock_actual: '0.000',
      },
      {
        nombre: 'Yerba 1 kg',
        codigo_barras: '7790001000017',
        precio_compra: '2500.50',
        precio_venta: '4400.00',
        stock_actual: '12.000',
      },
    ]);
    const audits = await ctx.sql(
      `SELECT entidad_id, antes, despues FROM audit_log
        WHERE business_id = $1 AND entidad = 'producto' AND accion = 'importar'`,
      [b],
    );
    expect(audits).toEqual([{ entidad_id: yerba, antes: { precio_compra: 2000 }, despues: { precio_compra: 2500.5 } }]);
    const moves = await ctx.sql("SELECT id FROM stock_movements WHERE business_id = $1 AND origen = 'importacion'", [
      b,
    ]);
    expect(moves).toEqual([]);
  });

  it('takes the same list in the one-shot import, keeping its answer', async () => {
    const res = await send('/products/importar-excel', await costList());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      creados: 0,
      actualizados: 2,
      categorias_creadas: 0,
      errores: [{ fila: 7, mensaje: NEW_ROW_ERRORS }],
    });
    const rows = await productRows();
    expect(rows.map((p) => [p.nombre, p.precio_compra, p.precio_venta, p.stock_actual])).toEqual([
      ['Fideos', '500.00', '900.00', '0.000'],
      ['Yerba 1 kg', '2500.50', '4400.00', '12.000'],
    ]);
  });

  it('reads a CSV with a title line above the ; headers and decimal commas', async () => {
    const csv = 'Distribuidora Sur - lista de costos\n\nEAN;Costo;Precio\n7790001000024;1.234,50;1.999,90\n';
    const res = await send('/products/importar-excel', Buffer.from(csv), owner, b, 'costos.csv');
    expect(res.json()).toEqual({ creados: 0, actualizados: 1, categorias_creadas: 0, errores: [] });
    const rows = await productRows();
    expect(rows.find((p) => p.nombre === 'Fideos')).toMatchObject({
      precio_compra: '1234.50',
      precio_venta: '1999.90',
    });
  });

  it('turns a refused row into an update when its barcode is corrected in the review', async () => {
    const azucar = await post('/products', { nombre: 'Azúcar', codigo_barras: '7790001000031', precio_venta: 1 });
    const up = await send('/import/upload', await costList());
    const refused = up.json().productos_temporales.find((r: { fila: number }) => r.fila === 7);
    const edit = (payload: object) =>
      app.inject({
        method: 'PUT',
        url: `${base(b)}/import/productos-temporales/${refused.id}`,
        headers: owner.auth,
        payload,
      });
    const fixed = await edit({ codigo_barras: '7790001000031' });
    expect(fixed.json()).toMatchObject({ accion: 'actualizar', producto_id: azucar.json().id, errores: [] });
    expect((await edit({ codigo_barras: '7790001000024' })).json().errores).toEqual([
      'Código de barras repetido en el archivo (fila 6).',
    ]);
    const byCode = await edit({ codigo: 'YER1', codigo_barras: null });
    expect(byCode.json()).toMatchObject({ accion: 'actualizar', producto_id: yerba });
    expect(byCode.json().errores).toEqual(['El producto ya está en la fila 5 del archivo.']);
  });

  it('refuses two rows that name the same product, one by code and one by barcode', async () => {
    const book = await xlsx([
      {
        name: 'H',
        rows: [
          ['Código', 'EAN', 'Costo'],
          ['yer1', null, 10],
          [null, '7790001000017', 20],
        ],
      },
    ]);
    const res = await send('/products/importar-excel', book);
    expect(res.json()).toEqual({
      creados: 0,
      actualizados: 1,
      categorias_creadas: 0,
      errores: [{ fila: 3, mensaje: 'El producto ya está en la fila 2 del archivo.' }],
    });
    expect((await productRows()).find((p) => p.nombre === 'Yerba 1 kg')?.precio_compra).toBe('10.00');
  });

  it('still reports the missing columns when no row in the first ones reads as headers', async () => {
    const rows = [...TITLE, ['Artículo suelto'], ['Importe', 'Notas'], ['Yerba', 10]];
    const res = await send('/import/upload', await xlsx([{ name: 'H', rows }]));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'INVALID_FILE',
      detail: 'Faltan columnas obligatorias: Nombre, Precio de venta.',
      columnas_originales: ['Importe', 'Notas'],
    });
    const onlyBarcode = await send('/products/importar-excel', await xlsx([{ name: 'H', rows: [['EAN'], ['779']] }]));
    expect(onlyBarcode.statusCode).toBe(422);
    expect(onlyBarcode.json().detail).toBe('Faltan columnas obligatorias: Nombre, Precio de venta.');
    // A list with names creates products: it needs its price column (the wizard maps it by hand).
    const named = [...TITLE, ['Cód.', 'Artículo', 'Importe'], ['A1', 'Yerba', 10]];
    const noPrice = await send('/import/upload', await xlsx([{ name: 'H', rows: named }]));
    expect(noPrice.statusCode).toBe(422);
    expect(noPrice.json()).toMatchObject({
      detail: 'Faltan columnas obligatorias: Precio de venta.',
      columnas_originales: ['Cód.', 'Artículo', 'Importe'],
    });
  });
});

describe('the column names Argentine files use', () => {
  const book = () =>
    xlsx([
      {
        name: 'Lista',
        rows: [
          ['Lista mayorista'],
          ['Código de barras (EAN-13)', 'Descripción', 'Rubro', 'P. Venta', 'Proveedor'],
          ['7791234567890', 'Galletitas de agua', 'Almacén', '1.500', 'Sur'],
          ['7791234567891', 'Sin precio', 'Almacén', null, 'Sur'],
          ['7790001000024', 'Fideos tirabuzón', null, 950, 'Sur'],
        ],
      },
    ]);

  it('reads "Descripción" as the name, the barcode and "Rubro", and refuses a new row without price', async () => {
    const up = await send('/import/upload', await book());
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toMatchObject({
      columnas: [
        { columna: 'Código de barras (EAN-13)', campo: 'codigo_barras' },
        { columna: 'Descripción', campo: 'nombre' },
        { columna: 'Rubro', campo: 'categoria_nombre' },
        { columna: 'P. Venta', campo: 'precio_venta' },
      ],
      columnas_ignoradas: ['Proveedor'],
      nuevos: 1,
      actualizaciones: 1,
      con_errores: 1,
      categorias_nuevas: ['Almacén'],
    });
    const done = await post('/import/confirmar', {});
    expect(done.json()).toMatchObject({
      creados: 1,
      actualizados: 1,
      categorias_creadas: 1,
      errores: [{ fila: 4, mensaje: 'Precio de venta: este campo es obligatorio.' }],
    });
    const rows = await ctx.sql<Record<string, string | null>>(
      `SELECT p.nombre, p.codigo_barras, p.precio_venta, c.nombre AS categoria FROM products p
         LEFT JOIN product_categories c ON c.id = p.categoria_id WHERE p.business_id = $1 ORDER BY p.nombre`,
      [b],
    );
    expect(rows).toEqual([
      { nombre: 'Fideos tirabuzón', codigo_barras: '7790001000024', precio_venta: '950.00', categoria: null },
      { nombre: 'Galletitas de agua', codigo_barras: '7791234567890', precio_venta: '1500.00', categoria: 'Almacén' },
      { nombre: 'Yerba 1 kg', codigo_barras: '7790001000017', precio_venta: '4400.00', categoria: null },
    ]);
  });

  it('keeps "Descripción" as the description when the file has a name column', async () => {
    const rows = [
      ['Nombre', 'Descripción', 'Precio'],
      ['Yerba', 'Suave', 10],
    ];
    const up = await send('/import/upload', await xlsx([{ name: 'H', rows }]));
    expect(up.json().columnas).toEqual([
      { columna: 'Nombre', campo: 'nombre' },
      { columna: 'Descripción', campo: 'descripcion' },
      { columna: 'Precio', campo: 'precio_venta' },
    ]);
  });
});

describe('the refused rows as a spreadsheet', () => {
  it('downloads the staged rows with errors, their columns and their messages', async () => {
    const book = await xlsx([
      {
        name: 'Lista',
        rows: [
          ...TITLE,
          ['EAN', 'Descripción', 'Costo', 'Precio', 'Notas'],
          ['7790001000017', 'Yerba', 10, 4500, 'ok'],
          ['7799999000001', 'Nueva sin precio', 10, null, 'revisar'],
          ['7799999000002', 'Precio malo', 10, 'caro', null],
        ],
      },
    ]);
    expect((await send('/import/upload', book)).statusCode).toBe(200);
    const res = await get('/import/errores');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toBe('attachment; filename="filas-con-errores.xlsx"');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    const values: unknown[][] = [];
    ws.eachRow((row) => values.push((row.values as unknown[]).slice(1)));
    expect(values).toEqual([
      ['EAN', 'Descripción', 'Costo', 'Precio', 'Notas', 'Errores'],
      ['7799999000001', 'Nueva sin precio', 10, undefined, 'revisar', 'Precio de venta: este campo es obligatorio.'],
      ['7799999000002', 'Precio malo', 10, 'caro', undefined, 'Precio de venta: debe ser un número.'],
    ]);
  });

  it('is only the uploader business’s: another business has none (404), a stranger is refused', async () => {
    expect((await send('/import/upload', await costList())).statusCode).toBe(200);
    const mine = await get('/import/errores', other, otherBiz);
    expect(mine.statusCode).toBe(404);
    expect(mine.json().detail).toBe('No hay una importación en curso.');
    expect((await get('/import/errores', other, b)).statusCode).toBe(403);
    await post('/import/confirmar', {});
    expect((await get('/import/errores')).statusCode).toBe(404);
  });
});
