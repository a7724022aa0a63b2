import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { readXlsx } from '../../test/xlsx.js';

/*
 * Libro IVA Digital, compras (issue 32 point 8, decision 0042): the REGINFO_CV_COMPRAS_CBTE and
 * _ALICUOTAS files of a month from the purchases' supplier invoices, read back field by field at
 * the positions of ARCA's record design, and their totals against the Libro IVA Compras .xlsx.
 */

const ctx = await createTestApp({ now: () => new Date('2026-03-20T15:00:00Z') });
const { app } = ctx;

let owner: TestUser;
let biz: string;
const api = (path: string, b = biz) => `/api/v1/businesses/${b}${path}`;
const get = (path: string, u = owner, b = biz) => app.inject({ method: 'GET', url: api(path, b), headers: u.auth });
const txt = (parte: 'comprobantes' | 'alicuotas', mes: string, u = owner, b = biz) =>
  get(`/compras/libro-iva-digital/${parte}?mes=${mes}`, u, b);

async function post(path: string, payload: object, b = biz) {
  const res = await app.inject({ method: 'POST', url: api(path, b), headers: owner.auth, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

/* ARCA's record designs, written here from the specification (1-based start, width). */
type Spec = [name: string, start: number, width: number][];
const COMPRAS_CBTE: Spec = [
  ['fecha', 1, 8],
  ['tipo', 9, 3],
  ['punto_venta', 12, 5],
  ['numero', 17, 20],
  ['despacho_importacion', 37, 16],
  ['doc_tipo', 53, 2],
  ['doc_nro', 55, 20],
  ['nombre', 75, 30],
  ['total', 105, 15],
  ['no_gravado', 120, 15],
  ['exento', 135, 15],
  ['percepcion_iva', 150, 15],
  ['percepcion_nacionales', 165, 15],
  ['percepcion_iibb', 180, 15],
  ['percepcion_municipales', 195, 15],
  ['impuestos_internos', 210, 15],
  ['moneda', 225, 3],
  ['tipo_cambio', 228, 10],
  ['cantidad_alicuotas', 238, 1],
  ['codigo_operacion', 239, 1],
  ['credito_fiscal', 240, 15],
  ['otros_tributos', 255, 15],
  ['cuit_corredor', 270, 11],
  ['nombre_corredor', 281, 30],
  ['iva_comision', 311, 15],
];
const COMPRAS_ALICUOTAS: Spec = [
  ['tipo', 1, 3],
  ['punto_venta', 4, 5],
  ['numero', 9, 20],
  ['doc_tipo', 29, 2],
  ['doc_nro', 31, 20],
  ['neto', 51, 15],
  ['alicuota', 66, 4],
  ['iva', 70, 15],
];

function records(body: Buffer, length: number): string[] {
  const text = body.toString('latin1');
  if (text === '') return [];
  expect(text.endsWith('\r\n')).toBe(true);
  const lines = text.slice(0, -2).split('\r\n');
  for (const l of lines) expect(l.length).toBe(length);
  return lines;
}

function parse(spec: Spec, line: string): Record<string, string> {
  let next = 1;
  const out: Record<string, string> = {};
  for (const [name, start, width] of spec) {
    expect(start, name).toBe(next);
    out[name] = line.slice(start - 1, start - 1 + width);
    next = start + width;
  }
  expect(next - 1).toBe(line.length);
  return out;
}

const amount = (pesos: number) => String(Math.round(pesos * 100)).padStart(15, '0');
const ZERO = '0'.repeat(15);
const num = (n: number, w: number) => String(n).padStart(w, '0');

let otherBiz: string;

beforeAll(async () => {
  owner = await registerUser(app, 'Compradora');
  biz = await createBusiness(app, owner, 'Ferretería Compras');
  const sur = await post('/proveedores', { nombre: 'Distribuidora Sur S.R.L.', cuit: '30-71234567-1' });
  const sinCuit = await post('/proveedores', { nombre: 'Feria de Pepe' });
  const p = await post('/products', { nombre: 'Clavos', precio_venta: 5000 });
  const items = [{ producto_id: p.id, cantidad: 1, precio_unitario: 1000 }];
  // A: 21 % + 10,5 % + 27 % with exento, no gravado, percepciones and other taxes.
  await post('/compras', {
    proveedor_id: sur.id,
    fecha: '2026-03-05',
    items,
    factura: {
      tipo: 'A',
      punto_venta: 2,
      numero: 101,
      fecha: '2026-03-05',
      iva: [
        { alicuota: '21', neto: 1000, iva: 210 },
        { alicuota: '10.5', neto: 500, iva: 52.5 },
        { alicuota: '27', neto: 100, iva: 27 },
      ],
      no_gravado: 15,
      exento: 40,
      percepcion_iva: 30,
      percepcion_iibb: 22.5,
      otros_impuestos: 7.5,
      total: 2004.5,
    },
  });
  // A only exento.
  await post('/compras', {
    proveedor_id: sur.id,
    fecha: '2026-03-06',
    items,
    factura: { tipo: 'A', punto_venta: 2, numero: 102, fecha: '2026-03-06', exento: 300, total: 300 },
  });
  // B (IVA inside) and a ticket from a supplier without CUIT.
  await post('/compras', {
    proveedor_id: sur.id,
    fecha: '2026-03-07',
    items,
    factura: { tipo: 'B', punto_venta: 5, numero: 8, fecha: '2026-03-07', no_gravado: 1210, total: 1210 },
  });
  await post('/compras', {
    proveedor_id: sinCuit.id,
    fecha: '2026-03-08',
    items,
    factura: { tipo: 'otro', punto_venta: 1, numero: 77, fecha: '2026-03-08', no_gravado: 99.99, total: 99.99 },
  });
  // February: not in March.
  await post('/compras', {
    proveedor_id: sur.id,
    fecha: '2026-02-20',
    items,
    factura: {
      tipo: 'A',
      punto_venta: 2,
      numero: 90,
      fecha: '2026-02-20',
      iva: [{ alicuota: '21', neto: 100, iva: 21 }],
      total: 121,
    },
  });
  // Another business's March invoice.
  otherBiz = await createBusiness(app, owner, 'Otro Negocio');
  const norte = await post('/proveedores', { nombre: 'Norte', cuit: '20-30000000-3' }, otherBiz);
  const q = await post('/products', { nombre: 'Tuercas', precio_venta: 10 }, otherBiz);
  await post(
    '/compras',
    {
      proveedor_id: norte.id,
      fecha: '2026-03-09',
      items: [{ producto_id: q.id, cantidad: 1, precio_unitario: 10 }],
      factura: {
        tipo: 'A',
        punto_venta: 9,
        numero: 999,
        fecha: '2026-03-09',
        iva: [{ alicuota: '21', neto: 10, iva: 2.1 }],
        total: 12.1,
      },
    },
    otherBiz,
  );
});

describe('Libro IVA Digital: compras', () => {
  it('REGINFO_CV_COMPRAS_CBTE: one 325-byte record per supplier invoice, every field at its position and width', async () => {
    const res = await txt('comprobantes', '2026-03');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['content-disposition']).toContain('REGINFO_CV_COMPRAS_CBTE_202603.txt');
    const recs = records(res.rawPayload, 325).map((l) => parse(COMPRAS_CBTE, l));
    expect(recs).toHaveLength(4);
    const fixed = {
      despacho_importacion: ' '.repeat(16),
      percepcion_nacionales: ZERO,
      percepcion_municipales: ZERO,
      impuestos_internos: ZERO,
      moneda: 'PES',
      tipo_cambio: '0001000000',
      cuit_corredor: '0'.repeat(11),
      nombre_corredor: ' '.repeat(30),
      iva_comision: ZERO,
    };
    const sur = { doc_tipo: '80', doc_nro: num(30712345671, 20), nombre: 'Distribuidora Sur S.R.L.'.padEnd(30) };
    expect(recs[0]).toEqual({
      ...fixed,
      ...sur,
      fecha: '20260305',
      tipo: '001',
      punto_venta: '00002',
      numero: num(101, 20),
      total: amount(2004.5),
      no_gravado: amount(15),
      exento: amount(40),
      percepcion_iva: amount(30),
      percepcion_iibb: amount(22.5),
      cantidad_alicuotas: '3',
      codigo_operacion: ' ',
      credito_fiscal: amount(210 + 52.5 + 27),
      otros_tributos: amount(7.5),
    });
    expect(recs[1]).toEqual({
      ...fixed,
      ...sur,
      fecha: '20260306',
      tipo: '001',
      punto_venta: '00002',
      numero: num(102, 20),
      total: amount(300),
      no_gravado: ZERO,
      exento: amount(300),
      percepcion_iva: ZERO,
      percepcion_iibb: ZERO,
      cantidad_alicuotas: '1',
      codigo_operacion: 'E',
      credito_fiscal: ZERO,
      otros_tributos: ZERO,
    });
    expect(recs[2]).toMatchObject({
      ...sur,
      tipo: '006',
      punto_venta: '00005',
      cantidad_alicuotas: '0',
      credito_fiscal: ZERO,
    });
    expect(recs[3]).toMatchObject({
      tipo: '099',
      doc_tipo: '99',
      doc_nro: '0'.repeat(20),
      nombre: 'Feria de Pepe'.padEnd(30),
      total: amount(99.99),
      cantidad_alicuotas: '0',
    });
  });

  it('REGINFO_CV_COMPRAS_ALICUOTAS: one 84-byte record per rate of a factura A; exento alone is one 0 % record', async () => {
    const res = await txt('alicuotas', '2026-03');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('REGINFO_CV_COMPRAS_ALICUOTAS_202603.txt');
    const recs = records(res.rawPayload, 84).map((l) => parse(COMPRAS_ALICUOTAS, l));
    const key = { tipo: '001', punto_venta: '00002', doc_tipo: '80', doc_nro: num(30712345671, 20) };
    expect(recs).toEqual([
      { ...key, numero: num(101, 20), neto: amount(1000), alicuota: '0005', iva: amount(210) },
      { ...key, numero: num(101, 20), neto: amount(500), alicuota: '0004', iva: amount(52.5) },
      { ...key, numero: num(101, 20), neto: amount(100), alicuota: '0006', iva: amount(27) },
      { ...key, numero: num(102, 20), neto: ZERO, alicuota: '0003', iva: ZERO },
    ]);
  });

  it('the files add up to the Libro IVA Compras .xlsx totals row', async () => {
    const rows = await readXlsx((await get('/compras/libro-iva?mes=2026-03')).rawPayload);
    const header = rows[0] as string[];
    const totals = rows[rows.length - 1];
    expect(totals[0]).toBe('Totales');
    const book = (name: string) => Math.round(((totals[header.indexOf(name)] as number | undefined) ?? 0) * 100);
    const cbte = records((await txt('comprobantes', '2026-03')).rawPayload, 325).map((l) => parse(COMPRAS_CBTE, l));
    const alic = records((await txt('alicuotas', '2026-03')).rawPayload, 84).map((l) => parse(COMPRAS_ALICUOTAS, l));
    const sum = (recs: Record<string, string>[], k: string) => recs.reduce((t, r) => t + Number(r[k]), 0);
    expect(sum(cbte, 'total')).toBe(book('Total'));
    expect(sum(cbte, 'exento')).toBe(book('Exento'));
    expect(sum(cbte, 'no_gravado')).toBe(book('No gravado'));
    expect(sum(cbte, 'percepcion_iva')).toBe(book('Percepción IVA'));
    expect(sum(cbte, 'percepcion_iibb')).toBe(book('Percepción IIBB'));
    expect(sum(cbte, 'otros_tributos')).toBe(book('Otros impuestos'));
    for (const [code, label] of [
      ['0005', '21 %'],
      ['0004', '10,5 %'],
      ['0006', '27 %'],
    ]) {
      const of = alic.filter((r) => r.alicuota === code);
      expect(sum(of, 'neto'), label).toBe(book(`Neto ${label}`));
      expect(sum(of, 'iva'), label).toBe(book(`IVA ${label}`));
    }
    expect(book('Total')).toBe(200450 + 30000 + 121000 + 9999);
  });

  it('a supplier’s nota de crédito or débito is no purchase: refused, and the files keep facturas A/B/C and tickets only (decision 0013)', async () => {
    const antes = (await txt('comprobantes', '2026-03')).rawPayload;
    const p = await post('/products', { nombre: 'Arandelas', precio_venta: 10 });
    for (const tipo of ['NC', 'nota_credito', 'ND', '3', '8']) {
      const res = await app.inject({
        method: 'POST',
        url: api('/compras'),
        headers: owner.auth,
        payload: {
          fecha: '2026-03-10',
          items: [{ producto_id: p.id, cantidad: 1, precio_unitario: 100 }],
          factura: { tipo, punto_venta: 2, numero: 500, fecha: '2026-03-10', no_gravado: 100, total: 100 },
        },
      });
      expect(res.statusCode, `${tipo}: ${res.body}`).toBe(422);
      expect(res.body).toContain('Tipo de comprobante no válido. Opciones: A, B, C, otro.');
    }
    // Nothing stored: the same file, every record 325 bytes, only codes 001, 006, 011 and 099.
    const despues = (await txt('comprobantes', '2026-03')).rawPayload;
    expect(despues.equals(antes)).toBe(true);
    const tipos = records(despues, 325).map((l) => parse(COMPRAS_CBTE, l).tipo);
    expect(tipos.every((t) => ['001', '006', '011', '099'].includes(t))).toBe(true);
  });

  it('only the business’s own invoices; an empty month is an empty file', async () => {
    const other = records((await txt('comprobantes', '2026-03', owner, otherBiz)).rawPayload, 325);
    expect(other).toHaveLength(1);
    expect(other[0].slice(8, 36)).toBe(`001${num(9, 5)}${num(999, 20)}`);
    const mine = (await txt('comprobantes', '2026-03')).rawPayload.toString('latin1');
    expect(mine).not.toContain(num(999, 20));
    for (const parte of ['comprobantes', 'alicuotas'] as const) {
      const res = await txt(parte, '2026-04');
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.length).toBe(0);
    }
  });

  it('refuses a bad month, a member without ver_costos, and a stranger', async () => {
    expect((await txt('comprobantes', '2026-13')).statusCode).toBe(422);
    const cajero = await registerUser(app, 'Caja');
    await addMember(ctx, biz, owner, cajero, ['puede_ver_stock', 'puede_editar_stock']);
    for (const parte of ['comprobantes', 'alicuotas'] as const) {
      const res = await txt(parte, '2026-03', cajero);
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toBe('Para exportar el Libro IVA Compras necesitás permiso para ver costos.');
    }
    const stranger = await registerUser(app, 'Extrana');
    expect((await txt('comprobantes', '2026-03', stranger)).statusCode).toBe(403);
  });
});
