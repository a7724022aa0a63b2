import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { multipartBody, xlsx } from '../imports/test-files.js';

/*
 * Supplier codes (issue 17, decision 0024): edited per product, learnt from a supplier's list keyed
 * by "Código del proveedor", and the list's header row and columns chosen by the user.
 */
const ctx = await createTestApp({ now: () => new Date('2026-03-15T15:00:00Z') });
const { app } = ctx;
const owner = await registerUser(app, 'Eva');
const biz = await createBusiness(app, owner, 'Ferretería Códigos');
const base = `/api/v1/businesses/${biz}`;

async function req(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, u: TestUser = owner) {
  return app.inject({ method, url, headers: u.auth, payload });
}
async function created(url: string, payload: object, u: TestUser = owner) {
  const res = await req('POST', url, payload, u);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}
const price = async (id: string) => {
  const p = (await req('GET', `${base}/products/${id}`)).json();
  return [p.precio_compra, p.precio_venta];
};
const send = (path: string, content: Buffer, fields: Record<string, string>, u: TestUser = owner) => {
  const { payload, headers } = multipartBody([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    { name: 'file', filename: 'lista.xlsx', content },
  ]);
  return app.inject({
    method: 'POST',
    url: `${base}/listas-proveedor/${path}`,
    headers: { ...u.auth, ...headers },
    payload,
  });
};
const codigosUrl = (id: string) => `${base}/products/${id}/codigos-proveedor`;

const norte = await created(`${base}/proveedores`, { nombre: 'Distribuidora Norte' });
const sur = await created(`${base}/proveedores`, { nombre: 'Bulonera Sur' });
const product = (nombre: string, codigo_barras: string) =>
  created(`${base}/products`, { nombre, codigo_barras, precio_compra: 100, precio_venta: 150, stock_actual: 3 });
const taladro = await product('Taladro', '7791111111116');
const mecha = await product('Mecha 8 mm', '7791111111123');
const broca = await product('Broca', '7791111111130');

const other = await registerUser(app, 'Otra');
const otherBiz = await createBusiness(app, other, 'Otro negocio');
const otherProv = await created(`/api/v1/businesses/${otherBiz}/proveedores`, { nombre: 'Ajeno' }, other);
const cajero = await registerUser(app, 'Cajero');
await addMember(ctx, biz, owner, cajero, ['puede_ver_productos']);

describe("a product's supplier codes", () => {
  it('replaces the list, refusing repeated codes, a code of another product and a foreign supplier', async () => {
    const set = await req('PUT', codigosUrl(taladro.id), {
      codigos: [
        { proveedor_id: norte.id, codigo: ' N-100 ' },
        { proveedor_id: sur.id, codigo: 'S-9' },
      ],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual([
      { proveedor_id: sur.id, proveedor_nombre: 'Bulonera Sur', codigo: 'S-9' },
      { proveedor_id: norte.id, proveedor_nombre: 'Distribuidora Norte', codigo: 'N-100' },
    ]);
    expect((await req('GET', codigosUrl(taladro.id))).json()).toEqual(set.json());

    const repeated = await req('PUT', codigosUrl(mecha.id), {
      codigos: [
        { proveedor_id: norte.id, codigo: 'N-7' },
        { proveedor_id: norte.id, codigo: 'N-7' },
      ],
    });
    expect(repeated.statusCode).toBe(422);
    expect(repeated.json().detail).toBe('El código N-7 está repetido para el mismo proveedor.');
    const taken = await req('PUT', codigosUrl(mecha.id), { codigos: [{ proveedor_id: norte.id, codigo: 'N-100' }] });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().detail).toBe('El código N-100 de este proveedor ya es de otro producto: Taladro.');
    const foreign = await req('PUT', codigosUrl(mecha.id), { codigos: [{ proveedor_id: otherProv.id, codigo: 'X' }] });
    expect(foreign.statusCode).toBe(422);
    const empty = await req('PUT', codigosUrl(mecha.id), { codigos: [{ proveedor_id: norte.id, codigo: '  ' }] });
    expect(empty.statusCode).toBe(422);
    // Nothing was saved by the refused requests; the same code at another supplier is fine.
    expect((await req('GET', codigosUrl(mecha.id))).json()).toEqual([]);
    const ok = await req('PUT', codigosUrl(mecha.id), { codigos: [{ proveedor_id: sur.id, codigo: 'N-100' }] });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('needs productos editar to change them, and is per business', async () => {
    expect((await req('GET', codigosUrl(taladro.id), undefined, cajero)).statusCode).toBe(200);
    const denied = await req('PUT', codigosUrl(taladro.id), { codigos: [] }, cajero);
    expect(denied.statusCode).toBe(403);
    const foreignUrl = `/api/v1/businesses/${otherBiz}/products/${taladro.id}/codigos-proveedor`;
    expect((await req('GET', foreignUrl, undefined, other)).statusCode).toBe(404);
    expect((await req('PUT', foreignUrl, { codigos: [] }, other)).statusCode).toBe(404);
    expect((await req('GET', codigosUrl(taladro.id), undefined, other)).statusCode).toBe(403);
    expect((await req('GET', codigosUrl(taladro.id))).json()).toHaveLength(2);
  });
});

/** Distribuidora Norte's list: a title block, its own codes under "Código", an EAN and the cost. */
const listaNorte = await xlsx([
  {
    name: 'Lista',
    rows: [
      ['DISTRIBUIDORA NORTE S.R.L.'],
      ['Lista de precios — marzo 2026'],
      [],
      ['Código', 'EAN', 'Descripción', 'Costo'],
      ['N-100', '', 'TALADRO 600W', '120,00'],
      ['N-200', '7791111111123', 'MECHA 8MM', 110],
      ['N-300', '', 'NO LO TENEMOS', 5],
    ],
  },
]);

describe("a supplier's list keyed by the supplier's code", () => {
  it('needs the supplier, and one of this business', async () => {
    const none = await send('previsualizar', listaNorte, { clave: 'codigo_proveedor' });
    expect(none.statusCode).toBe(422);
    expect(none.json().detail).toBe('Para buscar por el código del proveedor, elegí el proveedor.');
    const foreign = await send('previsualizar', listaNorte, { clave: 'codigo_proveedor', proveedor_id: otherProv.id });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().detail).toBe('Proveedor no encontrado.');
    const denied = await send(
      'previsualizar',
      listaNorte,
      { clave: 'codigo_proveedor', proveedor_id: norte.id },
      cajero,
    );
    expect(denied.statusCode).toBe(403);
  });

  it('matches by the known code, learns a new one from the barcode, and a later cost-only list finds it', async () => {
    const fields = { clave: 'codigo_proveedor', proveedor_id: norte.id };
    const preview = await send('previsualizar', listaNorte, fields);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({
      filas: 3,
      productos_afectados: 2,
      sin_coincidencia: [7],
      codigos_aprendidos: 1,
      fila_encabezado: 4,
    });
    expect(preview.json().columnas_archivo).toEqual([
      { columna: 'Código', campo: 'codigo', muestras: ['N-100', 'N-200', 'N-300'] },
      { columna: 'EAN', campo: 'codigo_barras', muestras: ['7791111111123'] },
      { columna: 'Descripción', campo: 'nombre', muestras: ['TALADRO 600W', 'MECHA 8MM', 'NO LO TENEMOS'] },
      { columna: 'Costo', campo: 'precio_compra', muestras: ['120,00', '110', '5'] },
    ]);
    expect(preview.json().cambios).toMatchObject([
      { producto_id: taladro.id, fila: 5, costo_nuevo: 120, precio_nuevo: 180, regla: 'actual' },
      { producto_id: mecha.id, fila: 6, costo_nuevo: 110, precio_nuevo: 165, regla: 'actual' },
    ]);
    // The preview learns nothing.
    expect((await req('GET', codigosUrl(mecha.id))).json()).toHaveLength(1);

    const applied = await send('aplicar', listaNorte, fields);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().cambios).toEqual(preview.json().cambios);
    expect(await price(mecha.id)).toEqual([110, 165]);
    expect((await req('GET', codigosUrl(mecha.id))).json()).toContainEqual({
      proveedor_id: norte.id,
      proveedor_nombre: 'Distribuidora Norte',
      codigo: 'N-200',
    });
    const listed = (await req('GET', `${base}/listas-proveedor`)).json();
    expect(listed[0]).toMatchObject({ clave: 'codigo_proveedor', proveedor_id: norte.id, productos: 2 });

    // Next month: only codes and costs, under a title; the learnt code finds the mecha.
    const costOnly = await xlsx([
      { name: 'Abril', rows: [['Lista abril'], ['Código', 'Costo'], ['N-200', 121], ['N-100', 130]] },
    ]);
    const next = await send('aplicar', costOnly, fields);
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json()).toMatchObject({ productos_afectados: 2, codigos_aprendidos: 0, sin_coincidencia: [] });
    expect(await price(mecha.id)).toEqual([121, 181.5]);
    expect(await price(taladro.id)).toEqual([130, 195]);
    // Codes are per supplier: at Bulonera Sur, N-100 is the mecha and N-200 is nothing.
    const wrongSupplier = await send('previsualizar', costOnly, { clave: 'codigo_proveedor', proveedor_id: sur.id });
    expect(wrongSupplier.json()).toMatchObject({ productos_afectados: 1, sin_coincidencia: [3] });
    expect(wrongSupplier.json().cambios[0]).toMatchObject({ producto_id: mecha.id, costo_nuevo: 130 });
    expect(await price(broca.id)).toEqual([100, 150]);
  });

  it('reads the header row and the columns the user chose, with sample values for the column step', async () => {
    const raro = await xlsx([
      {
        name: 'Hoja1',
        rows: [['Listado'], ['Cod. Art', 'Detalle', 'Neto s/IVA'], ['N-100', 'Taladro', 140], ['N-200', 'Mecha', 125]],
      },
    ]);
    const auto = await send('previsualizar', raro, { clave: 'codigo_proveedor', proveedor_id: norte.id });
    expect(auto.statusCode).toBe(422);
    // No header row recognised: the row with the most titles is offered for mapping by hand.
    expect(auto.json().columnas_originales).toEqual(['Cod. Art', 'Detalle', 'Neto s/IVA']);

    const wrongRow = await send('previsualizar', raro, {
      clave: 'codigo_proveedor',
      proveedor_id: norte.id,
      fila_encabezado: '1',
    });
    expect(wrongRow.statusCode).toBe(422);
    expect(wrongRow.json().columnas_archivo).toEqual([
      { columna: 'Listado', campo: null, muestras: ['Cod. Art', 'N-100', 'N-200'] },
    ]);

    const badRow = await send('previsualizar', raro, { clave: 'codigo', fila_encabezado: 'dos' });
    expect(badRow.statusCode).toBe(422);
    expect(badRow.json().detail).toBe('La fila de títulos debe ser un número de fila del archivo (1 o más).');
    const emptyRow = await send('previsualizar', raro, { clave: 'codigo', fila_encabezado: '9' });
    expect(emptyRow.statusCode).toBe(422);
    expect(emptyRow.json().detail).toContain('La fila 9 está vacía');

    const chosen = await send('previsualizar', raro, {
      clave: 'codigo_proveedor',
      proveedor_id: norte.id,
      fila_encabezado: '2',
      mapeo: JSON.stringify({ 'Cod. Art': 'codigo', Detalle: null, 'Neto s/IVA': 'precio_compra' }),
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toMatchObject({ fila_encabezado: 2, productos_afectados: 2 });
    expect(chosen.json().columnas_archivo).toEqual([
      { columna: 'Cod. Art', campo: 'codigo', muestras: ['N-100', 'N-200'] },
      { columna: 'Detalle', campo: null, muestras: ['Taladro', 'Mecha'] },
      { columna: 'Neto s/IVA', campo: 'precio_compra', muestras: ['140', '125'] },
    ]);
    expect(chosen.json().cambios.map((c: { costo_nuevo: number }) => c.costo_nuevo)).toEqual([140, 125]);
  });
});
