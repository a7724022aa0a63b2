import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { multipartBody, xlsx } from '../imports/test-files.js';

const ctx = await createTestApp({ now: () => new Date('2026-03-15T15:00:00Z') });
const { app } = ctx;
const owner = await registerUser(app, 'Ana');
const biz = await createBusiness(app, owner, 'Ferretería Proveedores');
const base = `/api/v1/businesses/${biz}`;

async function product(body: object) {
  const res = await app.inject({
    method: 'POST',
    url: `${base}/products`,
    headers: owner.auth,
    payload: { stock_actual: 10, ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

const send = (path: string, content: Buffer, filename: string, fields: Record<string, string>, u: TestUser = owner) => {
  const { payload, headers } = multipartBody([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    { name: 'file', filename, content },
  ]);
  return app.inject({
    method: 'POST',
    url: `${base}/listas-proveedor/${path}`,
    headers: { ...u.auth, ...headers },
    payload,
  });
};
const price = async (id: string) => {
  const p = (await app.inject({ method: 'GET', url: `${base}/products/${id}`, headers: owner.auth })).json();
  return [p.precio_compra, p.precio_venta];
};

const tornillo = await product({
  nombre: 'Tornillo 6 mm',
  codigo: 'TOR-6',
  codigo_barras: '7790000000011',
  precio_compra: 100,
  precio_venta: 150,
});
const tuerca = await product({
  nombre: 'Tuerca 6 mm',
  codigo: 'TUE-6',
  codigo_barras: '7790000000028',
  precio_compra: 40,
  precio_venta: 70,
});
const arandela = await product({
  nombre: 'Arandela',
  codigo: 'ARA-1',
  codigo_barras: '7790000000035',
  precio_venta: 20,
});

/** A distributor's list: a title block above the header row, keyed by EAN, cost only. */
const distribuidora = await xlsx([
  {
    name: 'Lista',
    rows: [
      ['Distribuidora del Sur S.A. — Lista de precios'],
      ['Vigencia: marzo 2026'],
      [],
      ['EAN', 'Descripción', 'Costo'],
      ['7790000000011', 'TORNILLO 6MM', '$ 120,00'],
      ['7790000000028', 'TUERCA 6MM', 45.5],
      ['7790000000035', 'ARANDELA', 10],
      ['7799999999999', 'NO ESTÁ', 5],
    ],
  },
]);

describe('supplier price lists', () => {
  it('previews a cost-only list keyed by barcode under a title row: costs change, prices keep each margin', async () => {
    const res = await send('previsualizar', distribuidora, 'distribuidora.xlsx', { clave: 'codigo_barras' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      aplicada: false,
      filas: 4,
      productos_afectados: 3,
      sin_coincidencia: [8],
      sin_coincidencia_total: 1,
    });
    expect(res.json().cambios).toEqual([
      // 150 × 120 / 100 = 180: the 50 % margin stays
      {
        producto_id: tornillo.id,
        nombre: 'Tornillo 6 mm',
        fila: 5,
        costo_anterior: 100,
        costo_nuevo: 120,
        precio_anterior: 150,
        precio_nuevo: 180,
        margen: 50,
        regla: 'actual',
        baja: false,
        precio_calculado: 180,
      },
      // 70 × 45.5 / 40 = 79.625 → 79.63
      {
        producto_id: tuerca.id,
        nombre: 'Tuerca 6 mm',
        fila: 6,
        costo_anterior: 40,
        costo_nuevo: 45.5,
        precio_anterior: 70,
        precio_nuevo: 79.63,
        margen: 75.01,
        regla: 'actual',
        baja: false,
        precio_calculado: 79.63,
      },
      // Without a cost before, the price stays.
      {
        producto_id: arandela.id,
        nombre: 'Arandela',
        fila: 7,
        costo_anterior: null,
        costo_nuevo: 10,
        precio_anterior: 20,
        precio_nuevo: 20,
        margen: 100,
        regla: 'actual',
        baja: false,
        precio_calculado: 20,
      },
    ]);
    expect(await price(tornillo.id)).toEqual([100, 150]);
  });

  it('applies with a margin rule and exclusions exactly as previewed, in one transaction with its history, and undoes it', async () => {
    const fields = { clave: 'codigo_barras', margen: '40', excluir: JSON.stringify([arandela.id]) };
    const preview = await send('previsualizar', distribuidora, 'distribuidora.xlsx', fields);
    expect(preview.json()).toMatchObject({ productos_afectados: 2, excluidos: 1 });
    const applied = await send('aplicar', distribuidora, 'distribuidora.xlsx', fields);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().aplicada).toBe(true);
    expect(applied.json().cambios).toEqual(preview.json().cambios);
    // 120 × 1.40 = 168; 45.50 × 1.40 = 63.70
    expect(await price(tornillo.id)).toEqual([120, 168]);
    expect(await price(tuerca.id)).toEqual([45.5, 63.7]);
    expect(await price(arandela.id)).toEqual([null, 20]);
    const hist = (
      await app.inject({ method: 'GET', url: `${base}/products/${tornillo.id}/precios/historial`, headers: owner.auth })
    ).json();
    expect(hist[0]).toMatchObject({ origen: 'lista_proveedor', referencia_id: applied.json().id, precio_nuevo: 168 });
    const list = (await app.inject({ method: 'GET', url: `${base}/listas-proveedor`, headers: owner.auth })).json();
    expect(list[0]).toMatchObject({
      archivo: 'distribuidora.xlsx',
      clave: 'codigo_barras',
      margen: 40,
      productos: 2,
      deshecha_en: null,
    });

    const undo = await app.inject({
      method: 'POST',
      url: `${base}/listas-proveedor/${applied.json().id}/deshacer`,
      headers: owner.auth,
    });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(await price(tornillo.id)).toEqual([100, 150]);
    expect(await price(tuerca.id)).toEqual([40, 70]);
    const again = await app.inject({
      method: 'POST',
      url: `${base}/listas-proveedor/${applied.json().id}/deshacer`,
      headers: owner.auth,
    });
    expect(again.statusCode).toBe(409);
  });

  it('cannot be undone once a sale used the new prices', async () => {
    const applied = await send('aplicar', distribuidora, 'distribuidora.xlsx', { clave: 'codigo_barras' });
    expect(applied.statusCode).toBe(200);
    const sale = await app.inject({
      method: 'POST',
      url: '/api/v1/ventas/record-sale',
      headers: owner.auth,
      payload: {
        negocio_id: biz,
        metodo_pago: 'efectivo',
        items: [{ id: tornillo.id, tipo: 'producto', cantidad: 1 }],
      },
    });
    expect(sale.statusCode, sale.body).toBe(201);
    expect(sale.json().total).toBe(180);
    const undo = await app.inject({
      method: 'POST',
      url: `${base}/listas-proveedor/${applied.json().id}/deshacer`,
      headers: owner.auth,
    });
    expect(undo.statusCode).toBe(409);
    expect(undo.json()).toMatchObject({ code: 'IN_USE' });
  });

  it('matches by the internal code (any case) and a price column sets the price; a missing key column is refused', async () => {
    const csv = Buffer.from('Código;Precio de venta\ntue-6;99,90\nZZZ;1\n', 'utf8');
    const res = await send('previsualizar', csv, 'precios.csv', { clave: 'codigo' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ productos_afectados: 1, sin_coincidencia: [3] });
    expect(res.json().cambios[0]).toMatchObject({ producto_id: tuerca.id, precio_nuevo: 99.9, costo_nuevo: 45.5 });
    const noKey = await send('previsualizar', csv, 'precios.csv', { clave: 'codigo_barras' });
    expect(noKey.statusCode).toBe(422);
    expect(noKey.json().detail).toContain('Código de barras');
    const badKey = await send('previsualizar', csv, 'precios.csv', { clave: 'sku' });
    expect(badKey.statusCode).toBe(422);
  });

  it('leaves the margin (and every cost) out for a member without ver_costos, and shows it once granted', async () => {
    const applied = await send('aplicar', distribuidora, 'distribuidora.xlsx', {
      clave: 'codigo_barras',
      margen: '25',
    });
    expect(applied.statusCode, applied.body).toBe(200);
    const repositor = await registerUser(app, 'Repositor');
    await addMember(ctx, biz, owner, repositor, ['puede_ver_productos', 'puede_editar_productos']);
    const list = (u: TestUser) => app.inject({ method: 'GET', url: `${base}/listas-proveedor`, headers: u.auth });

    const mine = (await list(owner)).json() as Record<string, unknown>[];
    // The file's clock stands still: lists applied by earlier tests carry the same fecha.
    expect(mine.find((l) => l.id === applied.json().id)).toMatchObject({ margen: 25 });
    const theirs = await list(repositor);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.body).not.toContain('margen');
    expect(theirs.json()).toEqual(mine.map(({ margen: _m, ...rest }) => rest));

    // The preview of a list says nothing of costs or margins to them either.
    const csv = Buffer.from('Código;Costo\ntor-6;130\n', 'utf8');
    const ownPreview = await send('previsualizar', csv, 'costos.csv', { clave: 'codigo' });
    expect(ownPreview.json().cambios[0]).toMatchObject({ producto_id: tornillo.id, costo_nuevo: 130 });
    expect(ownPreview.json().cambios[0].margen).toEqual(expect.any(Number));
    const preview = await send('previsualizar', csv, 'costos.csv', { clave: 'codigo' }, repositor);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().cambios[0]).toMatchObject({ producto_id: tornillo.id });
    expect(preview.body).not.toMatch(/margen|costo_/);

    const grant = await app.inject({
      method: 'PUT',
      url: `${base}/usuarios/${repositor.id}/permisos`,
      headers: owner.auth,
      payload: { ver_costos: true },
    });
    expect(grant.statusCode).toBe(200);
    expect((await list(repositor)).json()).toEqual(mine);
  });
});
