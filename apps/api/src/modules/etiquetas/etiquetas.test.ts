import { describe, expect, it } from 'vitest';
import { ean13CheckDigit, isValidEan13, readScaleLabel, SCALE_PRESETS } from '@mostrador/shared';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser } from '../../test/fixtures.js';
import { leerPdf } from '../../test/pdf.js';
import { multipartBody } from '../imports/test-files.js';

/*
 * Issue 35: shelf labels with the price per unit of measure and the price without national taxes
 * (Res. SIC 4/2025), barcode labels whose bars decode (ZXing) to the product's code, internal
 * codes under GS1 prefix 04 for products without one, and "what changed" after a supplier list
 * or a bulk change, as A4 PDF sheets.
 */

const ctx = await createTestApp();
const { app } = ctx;
const owner = await registerUser(app, 'Etiquetas');
const biz = await createBusiness(app, owner, 'Almacén Etiquetas');
const base = `/api/v1/businesses/${biz}`;
const get = (url: string, u = owner) => app.inject({ method: 'GET', url: `${base}${url}`, headers: u.auth });
const post = (url: string, payload: object, u = owner) =>
  app.inject({ method: 'POST', url: `${base}${url}`, headers: u.auth, payload });

const ean = (first12: string) => first12 + ean13CheckDigit(first12);
const YERBA_EAN = ean('779123400001');
async function product(body: object) {
  const res = await post('/products', { stock_actual: 10, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; codigo_barras: string | null };
}
const almacen = (await post('/categories', { nombre: 'Almacén' })).json() as { id: string };
const yerba = await product({
  nombre: 'Yerba Mate Ñandutí 500 g',
  codigo: 'YER-500',
  codigo_barras: YERBA_EAN,
  precio_compra: 1000,
  precio_venta: 1600,
  contenido: 500,
  contenido_unidad: 'g',
  categoria_id: almacen.id,
});
const queso = await product({ nombre: 'Queso de máquina', codigo: 'QUE-1', precio_venta: 9000, unidad: 'kg' });
const aceite = await product({
  nombre: 'Aceite de girasol 1,5 l',
  codigo: 'ACE-15',
  codigo_barras: '012345678905', // a UPC-A
  precio_compra: 2000,
  precio_venta: 3000,
  contenido: '1,5',
  contenido_unidad: 'l',
  categoria_id: almacen.id,
  iva: '10.5',
});
const suelto = await product({ nombre: 'Clavos sueltos', codigo: 'CLA-1', precio_venta: 50 });

const pdfOf = async (query: string) => {
  const res = await get(`/etiquetas?${query}`);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  expect(res.headers['content-disposition']).toMatch(/^attachment; filename="etiquetas-/);
  return { ...(await leerPdf(res.rawPayload)), cantidad: Number(res.headers['x-total-count']) };
};

describe('etiquetas de góndola', () => {
  it('shows the final price, the price per unit of measure and the price without national taxes', async () => {
    const pdf = await pdfOf(`plantilla=gondola&productos=${yerba.id},${queso.id},${aceite.id},${suelto.id}`);
    expect(pdf.paginas).toHaveLength(1);
    expect(pdf.cantidad).toBe(4);
    const t = pdf.textos;
    expect(t).toContain('Yerba Mate Ñandutí 500 g');
    expect(t).toContain('$ 1.600,00');
    // 1.600 for 500 g: 3.200 per kg; 1.600 / 1,21 = 1.322,31.
    expect(t).toContain('Precio por kg: $ 3.200,00');
    expect(t).toContain('PRECIO SIN IMPUESTOS NACIONALES: $ 1.322,31');
    // 3.000 for 1,5 l: 2.000 per litre; 3.000 / 1,105 = 2.714,93.
    expect(t).toContain('Precio por litro: $ 2.000,00');
    expect(t).toContain('PRECIO SIN IMPUESTOS NACIONALES: $ 2.714,93');
    // Sold by the kilo: its price is already per kg.
    expect(t).toContain('Precio por kg: $ 9.000,00');
    // Clavos say no measure: no price per unit line of theirs (4 products, 3 lines).
    expect(t.filter((x) => x.startsWith('Precio por '))).toHaveLength(3);
  });

  it('fills A4 sheets of 24, with copies; by category; 404 when nothing matches, 422 on bad input', async () => {
    const copias = await pdfOf(`plantilla=gondola&productos=${yerba.id},${aceite.id}&copias=13`);
    expect(copias.cantidad).toBe(26);
    expect(copias.paginas.map((p) => p.textos.filter((x) => x.startsWith('$ ')).length)).toEqual([24, 2]);
    const cat = await pdfOf(`categoria_id=${almacen.id}`);
    expect(cat.textos.filter((x) => x.startsWith('$ '))).toEqual(['$ 3.000,00', '$ 1.600,00']);

    const none = await get('/etiquetas?productos=00000000-0000-4000-8000-000000000000');
    expect(none.statusCode).toBe(404);
    expect(none.json().detail).toBe('No hay productos para etiquetar con esa selección.');
    const bad = await get('/etiquetas?plantilla=sobre&productos=x&copias=99');
    expect(bad.statusCode).toBe(422);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(expect.arrayContaining(['copias', 'plantilla']));
    const nothing = await get('/etiquetas');
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json().errors[0].message).toBe('Elegí productos, una categoría o qué cambio de precios etiquetar.');
  });

  it("keeps another business's products out and needs productos/ver", async () => {
    const other = await createBusiness(app, owner, 'Otro almacén');
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/businesses/${other}/etiquetas?productos=${yerba.id}`,
      headers: owner.auth,
    });
    expect(res.statusCode).toBe(404);
    const cajero = await registerUser(app, 'CajeroEtiq');
    await addMember(ctx, biz, owner, cajero, ['puede_ver_ventas']);
    expect((await get(`/etiquetas?productos=${yerba.id}`, cajero)).statusCode).toBe(403);
    expect((await post('/etiquetas/codigos-internos', { producto_ids: [suelto.id] }, cajero)).statusCode).toBe(403);
  });
});

describe('etiquetas de código de barras', () => {
  it('draws bars that decode to the EAN, a UPC-A as its EAN-13, and says which products have none', async () => {
    const pdf = await pdfOf(`plantilla=codigo&productos=${yerba.id},${aceite.id},${suelto.id}`);
    expect(pdf.codigos.sort()).toEqual(['0012345678905', YERBA_EAN].sort());
    expect(pdf.textos).toContain('Sin código de barras');
  });

  it('gives products without a barcode an internal EAN-13 under GS1 prefix 04 that no scale label can be', async () => {
    const res = await post('/etiquetas/codigos-internos', { producto_ids: [suelto.id, queso.id, yerba.id] });
    expect(res.statusCode, res.body).toBe(200);
    const asignados = res.json().asignados as { producto_id: string; nombre: string; codigo_barras: string }[];
    // Yerba keeps its EAN; the other two, by name, get the next internal numbers.
    expect(asignados.map((a) => [a.nombre, a.codigo_barras])).toEqual([
      ['Clavos sueltos', ean('040000000001')],
      ['Queso de máquina', ean('040000000002')],
    ]);
    for (const a of asignados) {
      expect(isValidEan13(a.codigo_barras)).toBe(true);
      for (const p of SCALE_PRESETS) expect(readScaleLabel(a.codigo_barras, p.layout)).toBeNull();
    }
    const again = await post('/etiquetas/codigos-internos', { producto_ids: [suelto.id] });
    expect(again.json().asignados).toEqual([]);
    const pdf = await pdfOf(`plantilla=codigo&productos=${suelto.id},${queso.id}`);
    expect(pdf.codigos.sort()).toEqual([ean('040000000001'), ean('040000000002')]);
    // The counter finds the product by it.
    const found = await get(`/products?q=${ean('040000000001')}`);
    expect(found.json()).toEqual(expect.arrayContaining([expect.objectContaining({ id: suelto.id })]));

    const other = await createBusiness(app, owner, 'Ajeno códigos');
    const foreign = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${other}/etiquetas/codigos-internos`,
      headers: owner.auth,
      payload: { producto_ids: [aceite.id] },
    });
    expect(foreign.statusCode).toBe(404);
    const bad = await post('/etiquetas/codigos-internos', { producto_ids: [] });
    expect(bad.statusCode).toBe(422);
  });
});

describe('etiquetas de lo que cambió', () => {
  it('labels the products a supplier list changed, and those of a bulk change since a moment', async () => {
    const csv = Buffer.from(`Código;Costo\nYER-500;1100\nACE-15;2000\n`, 'utf8');
    const { payload, headers } = multipartBody([
      { name: 'clave', value: 'codigo' },
      { name: 'margen', value: '50' },
      { name: 'file', filename: 'lista.csv', content: csv },
    ]);
    const applied = await app.inject({
      method: 'POST',
      url: `${base}/listas-proveedor/aplicar`,
      headers: { ...owner.auth, ...headers },
      payload,
    });
    expect(applied.statusCode, applied.body).toBe(200);
    const aplicada = applied.json().id as string;
    // Yerba: 1.100 + 50 % = 1.650; aceite's cost did not change, but its price follows the margin: 3.000.
    const pdf = await pdfOf(`plantilla=gondola&origen=lista_proveedor&referencia_id=${aplicada}`);
    const precios = pdf.textos.filter((x) => x.startsWith('$ '));
    expect(pdf.textos).toContain('Yerba Mate Ñandutí 500 g');
    expect(precios).toContain('$ 1.650,00');
    expect(pdf.textos).toContain('Precio por kg: $ 3.300,00');
    expect(pdf.textos).not.toContain('Clavos sueltos');

    const desde = new Date(Date.now() - 1000).toISOString();
    const bulk = await post('/products/actualizacion-masiva', { porcentaje: 10, categoria_id: almacen.id });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const masivo = await pdfOf(`origen=masivo&desde=${encodeURIComponent(desde)}`);
    expect(masivo.textos.filter((x) => x.startsWith('$ ')).sort()).toEqual(['$ 1.815,00', '$ 3.300,00']);
    const barras = await pdfOf(`plantilla=codigo&origen=masivo&desde=${encodeURIComponent(desde)}`);
    expect(barras.codigos.sort()).toEqual(['0012345678905', YERBA_EAN].sort());
  });

  it('a bulk change answers its id and labels exactly what it changed; a preview has none', async () => {
    const preview = await post('/products/actualizacion-masiva', {
      porcentaje: 5,
      categoria_id: almacen.id,
      dry_run: true,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().referencia_id).toBeUndefined();
    // Two changes in a row: the queso alone, then the almacén's; each one's labels are its own.
    const quesos = (await post('/categories', { nombre: 'Quesos' })).json() as { id: string };
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: `${base}/products/${queso.id}`,
          headers: owner.auth,
          payload: { categoria_id: quesos.id },
        })
      ).statusCode,
    ).toBe(200);
    const primero = await post('/products/actualizacion-masiva', { porcentaje: 10, categoria_id: quesos.id });
    expect(primero.statusCode, primero.body).toBe(200);
    const segundo = await post('/products/actualizacion-masiva', { porcentaje: 10, categoria_id: almacen.id });
    const [r1, r2] = [primero.json().referencia_id as string, segundo.json().referencia_id as string];
    expect(r1).toMatch(/^[0-9a-f-]{36}$/);
    expect(r2).not.toBe(r1);
    const delPrimero = await pdfOf(`origen=masivo&referencia_id=${r1}`);
    expect(delPrimero.cantidad).toBe(1);
    expect(delPrimero.textos).toContain('Queso de máquina');
    expect(delPrimero.textos).toContain('$ 9.900,00');
    const delSegundo = await pdfOf(`origen=masivo&referencia_id=${r2}`);
    expect(delSegundo.cantidad).toBe(2);
    expect(delSegundo.textos).not.toContain('Queso de máquina');
    // Another business's products are not labelled by this id.
    const other = await createBusiness(app, owner, 'Ajeno masivo');
    const ajeno = await app.inject({
      method: 'GET',
      url: `/api/v1/businesses/${other}/etiquetas?origen=masivo&referencia_id=${r1}`,
      headers: owner.auth,
    });
    expect(ajeno.statusCode).toBe(404);
  });

  it('labels what a cotización changed, by its id', async () => {
    const dia = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Argentina/Buenos_Aires' }).format(d);
    const hoy = dia(new Date());
    const antes = await post('/cotizaciones', { fecha: dia(new Date(Date.now() - 86_400_000)), valor: 1000 });
    expect(antes.statusCode, antes.body).toBe(201);
    const mecha = await product({
      nombre: 'Mecha importada 6 mm',
      codigo: 'MEC-6',
      moneda: 'USD',
      precio_usd: 2,
      precio_venta: 1,
    });
    const cot = await post('/cotizaciones', { fecha: hoy, valor: 1234 });
    expect(cot.statusCode, cot.body).toBe(201);
    const id = cot.json().cotizacion.id as string;
    const pdf = await pdfOf(`origen=cotizacion&referencia_id=${id}`);
    expect(pdf.textos).toContain('Mecha importada 6 mm');
    const actual = (await get(`/products/${mecha.id}`)).json().precio_venta as number;
    expect(actual).toBe(2468);
    expect(pdf.textos).toContain('$ 2.468,00');
    expect(pdf.textos).not.toContain('Yerba Mate Ñandutí 500 g');
  });
});

describe('contenido neto del producto', () => {
  it('takes the content and its unit together, and refuses one without the other', async () => {
    const bad = await post('/products', { nombre: 'Sin unidad', precio_venta: 10, contenido: 500 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0]).toEqual({
      field: 'contenido_unidad',
      message: 'Indicá el contenido neto y su unidad juntos (por ejemplo 500 g), o ninguno de los dos.',
    });
    const badUnit = await post('/products', {
      nombre: 'Mala unidad',
      precio_venta: 10,
      contenido: 5,
      contenido_unidad: 'oz',
    });
    expect(badUnit.statusCode).toBe(422);
    const badNumber = await post('/products', {
      nombre: 'Malo',
      precio_venta: 10,
      contenido: -1,
      contenido_unidad: 'g',
    });
    expect(badNumber.statusCode).toBe(422);
    const got = (await get(`/products/${yerba.id}`)).json();
    expect(got).toMatchObject({ contenido: 500, contenido_unidad: 'g' });
    const cleared = await app.inject({
      method: 'PUT',
      url: `${base}/products/${yerba.id}`,
      headers: owner.auth,
      payload: { contenido: null },
    });
    expect(cleared.statusCode).toBe(422);
    const both = await app.inject({
      method: 'PUT',
      url: `${base}/products/${yerba.id}`,
      headers: owner.auth,
      payload: { contenido: 1, contenido_unidad: 'kg' },
    });
    expect(both.json()).toMatchObject({ contenido: 1, contenido_unidad: 'kg' });
  });
});
