import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { readXlsx } from '../../test/xlsx.js';
import { FakeArca } from './fake/fake-arca.js';

/*
 * Libro IVA Digital, ventas (issue 32 point 8, decision 0042): the REGINFO_CV_VENTAS_CBTE and
 * _ALICUOTAS files of a month, read back field by field at the positions of ARCA's record design,
 * and their totals against the .xlsx book's totals row.
 */

const fake = new FakeArca();
await fake.listen(0);
const ctx = await createTestApp({
  arca: { urls: fake.urls, timeoutMs: 2000, waitMs: 5000, workerMs: 0, concurrency: 2 },
});
const { app } = ctx;
afterAll(() => fake.close());
const owner = await registerUser(app, 'Contadora');

type Method = 'GET' | 'POST' | 'PUT';
const call = (u: TestUser, method: Method, url: string, payload?: object) =>
  app.inject({ method, url, headers: u.auth, ...(payload ? { payload } : {}) });

const RI = '30-71234567-1';
const MONO = '20-30000000-3';

/* ARCA's record designs, written here from the specification (1-based start, width). */
type Spec = [name: string, start: number, width: number][];
const VENTAS_CBTE: Spec = [
  ['fecha', 1, 8],
  ['tipo', 9, 3],
  ['punto_venta', 12, 5],
  ['numero', 17, 20],
  ['numero_hasta', 37, 20],
  ['doc_tipo', 57, 2],
  ['doc_nro', 59, 20],
  ['nombre', 79, 30],
  ['total', 109, 15],
  ['no_gravado', 124, 15],
  ['percepcion_no_categorizados', 139, 15],
  ['exento', 154, 15],
  ['percepcion_nacionales', 169, 15],
  ['percepcion_iibb', 184, 15],
  ['percepcion_municipales', 199, 15],
  ['impuestos_internos', 214, 15],
  ['moneda', 229, 3],
  ['tipo_cambio', 232, 10],
  ['cantidad_alicuotas', 242, 1],
  ['codigo_operacion', 243, 1],
  ['otros_tributos', 244, 15],
  ['vencimiento_pago', 259, 8],
];
const VENTAS_ALICUOTAS: Spec = [
  ['tipo', 1, 3],
  ['punto_venta', 4, 5],
  ['numero', 9, 20],
  ['neto', 29, 15],
  ['alicuota', 44, 4],
  ['iva', 48, 15],
];

/** The records of a file: CRLF after each one, ISO-8859-1, every record exactly `length` bytes. */
function records(body: Buffer, length: number): string[] {
  const text = body.toString('latin1');
  if (text === '') return [];
  expect(text.endsWith('\r\n')).toBe(true);
  const lines = text.slice(0, -2).split('\r\n');
  for (const l of lines) {
    expect(l).not.toMatch(/[\r\n]/);
    expect(l.length).toBe(length);
  }
  return lines;
}

/** A record as its fields, checking the spec covers every position once. */
function parse(spec: Spec, line: string): Record<string, string> {
  let next = 1;
  const out: Record<string, string> = {};
  for (const [name, start, width] of spec) {
    expect(start, name).toBe(next);
    out[name] = line.slice(start - 1, start - 1 + width);
    expect(out[name].length, name).toBe(width);
    next = start + width;
  }
  expect(next - 1).toBe(line.length);
  return out;
}

const cents = (n: number) => Math.round(n * 100);
const amount = (n: number) => String(cents(n)).padStart(15, '0');
const ZERO = '0'.repeat(15);
const esNC = (tipo: string) => ['003', '008', '013'].includes(tipo);

/** A business of `owner` set up against the fake ARCA, registered there with its punto de venta. */
async function shop(nombre: string, condicion_iva: 'responsable_inscripto' | 'monotributo', cuit: string, pv: number) {
  fake.cuits.set(cuit, {
    condicion: condicion_iva === 'monotributo' ? 'monotributo' : 'responsable_inscripto',
    puntos_venta: [{ nro: pv }],
  });
  const id = await createBusiness(app, owner, nombre);
  const base = `/api/v1/businesses/${id}`;
  const r = (method: Method, url: string, payload?: object, u = owner) => call(u, method, `${base}${url}`, payload);
  const csr = await r('POST', '/facturacion/csr', { cuit, razon_social: nombre });
  expect(csr.statusCode).toBe(200);
  const put = await r('PUT', '/facturacion/config', {
    cuit,
    razon_social: nombre,
    condicion_iva,
    punto_venta: pv,
    certificado_pem: fake.certificateFor(csr.json().csr_pem),
  });
  expect(put.statusCode, put.body).toBe(200);
  const product = async (nombre: string, precio_venta: number, iva = '21') =>
    (await r('POST', '/products', { nombre, precio_venta, stock_actual: 1000, iva })).json() as { id: string };
  const service = async (nombre: string, precio: number, iva: string) =>
    (await r('POST', '/services', { nombre, precio, iva })).json() as { id: string };
  const sell = async (body: object) => {
    const res = await call(owner, 'POST', '/api/v1/ventas/record-sale', {
      negocio_id: id,
      metodo_pago: 'efectivo',
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; comprobante?: { id: string } | null };
  };
  /** Sells and invoices; answers the authorised comprobante. */
  const invoice = async (body: object, receptor?: object) => {
    const sale = await sell(body);
    const res = await r('POST', '/facturacion/comprobantes', { venta_id: sale.id, ...(receptor ? { receptor } : {}) });
    expect([200, 201, 202], res.body).toContain(res.statusCode);
    await app.facturacion.idle();
    const c = (await r('GET', `/facturacion/comprobantes/${res.json().id}`)).json();
    expect(c.estado, JSON.stringify(c)).toBe('autorizado');
    return { sale, c };
  };
  const txt = (parte: 'comprobantes' | 'alicuotas', mes: string, u = owner) =>
    r('GET', `/facturacion/libro-iva-digital/${parte}?mes=${mes}`, undefined, u);
  return { id, r, product, service, sell, invoice, txt };
}

interface Comprobante {
  id: string;
  estado: string;
  tipo: string;
  codigo: number;
  punto_venta: number;
  numero: number;
  fecha: string;
  receptor: { nombre: string; doc_tipo: string; doc_nro: string | null };
  importes: { total: number; neto: number; iva: number; tributos: number; exento: number; no_gravado: number };
  alicuotas: { id: number; base_imponible: number; importe: number }[];
}

const s = await shop('Almacén Digital', 'responsable_inscripto', RI, 3);
const tornillos = await s.product('Tornillos', 121);
const libro = await s.product('Libro', 110.5, '10.5');
const gaseosa = await s.product('Gaseosa', 127, '27');
const leche = await s.product('Leche', 50, 'exento');
const flete = await s.service('Flete', 20, 'no_gravado');
const cliente = (
  await s.r('POST', '/clientes', {
    nombre: 'Distribuidora Ñandú Señor García Hermanos y Asociados',
    condicion_iva: 'responsable_inscripto',
    documento_tipo: 'CUIT',
    documento_numero: '30500010912',
  })
).json();

// A: 21 % and 10,5 % with exento and no gravado in one comprobante.
const facturaA = await s.invoice({
  cliente_id: cliente.id,
  items: [
    { id: tornillos.id, cantidad: 1 },
    { id: libro.id, cantidad: 1 },
    { id: leche.id, cantidad: 1 },
    { id: flete.id, tipo: 'servicio', cantidad: 1 },
  ],
});
// B to a consumidor final: 27 % and 21 %; then voided, which issues its nota de crédito.
const facturaB = await s.invoice({
  items: [
    { id: gaseosa.id, cantidad: 2 },
    { id: tornillos.id, cantidad: 1 },
  ],
});
// B only exento, B only no gravado.
const soloExento = await s.invoice({ items: [{ id: leche.id, cantidad: 2 }] });
const soloNoGravado = await s.invoice({ items: [{ id: flete.id, tipo: 'servicio', cantidad: 3 }] });
expect((await s.r('POST', `/ventas/${facturaB.sale.id}/anular`, {})).statusCode).toBe(200);
await app.facturacion.idle();
const ncs = (await s.r('GET', '/facturacion/comprobantes?tipo=nota_credito_b')).json();
expect(ncs.total).toBe(1);
const notaCredito: Comprobante = (await s.r('GET', `/facturacion/comprobantes/${ncs.comprobantes[0].id}`)).json();
expect(notaCredito.estado).toBe('autorizado');

// Another business (a monotributista, Factura C) in the same month: never in the first one's files.
const otro = await shop('Kiosco Vecino', 'monotributo', MONO, 4);
const alfajor = await otro.product('Alfajor', 500);
const facturaC = await otro.invoice({ items: [{ id: alfajor.id, cantidad: 3 }] });

const mes = (facturaA.c as Comprobante).fecha.slice(0, 7);
const all = [facturaA.c, facturaB.c, soloExento.c, soloNoGravado.c, notaCredito] as Comprobante[];

describe('Libro IVA Digital: ventas', () => {
  it('REGINFO_CV_VENTAS_CBTE: one 266-byte record per comprobante, every field at its position and width', async () => {
    const res = await s.txt('comprobantes', mes);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['content-disposition']).toContain(`REGINFO_CV_VENTAS_CBTE_${mes.replace('-', '')}.txt`);
    const lines = records(res.rawPayload, 266);
    expect(lines).toHaveLength(5);
    const byKey = new Map(lines.map((l) => [l.slice(8, 36), parse(VENTAS_CBTE, l)]));
    for (const c of all) {
      const key = `${String(c.codigo).padStart(3, '0')}${String(c.punto_venta).padStart(5, '0')}${String(c.numero).padStart(20, '0')}`;
      const rec = byKey.get(key);
      expect(rec, key).toBeDefined();
      const rates = c.alicuotas.filter((a) => a.base_imponible !== 0 || a.importe !== 0);
      expect(rec).toEqual({
        fecha: c.fecha.replace(/-/g, ''),
        tipo: String(c.codigo).padStart(3, '0'),
        punto_venta: '00003',
        numero: String(c.numero).padStart(20, '0'),
        numero_hasta: String(c.numero).padStart(20, '0'),
        doc_tipo: c.receptor.doc_tipo === 'CUIT' ? '80' : '99',
        doc_nro: c.receptor.doc_tipo === 'CUIT' ? '00000000030500010912' : '0'.repeat(20),
        nombre: c.receptor.doc_tipo === 'CUIT' ? 'Distribuidora Ñandú Señor Garc' : c.receptor.nombre.padEnd(30, ' '),
        total: amount(c.importes.total),
        no_gravado: amount(c.importes.no_gravado),
        percepcion_no_categorizados: ZERO,
        exento: amount(c.importes.exento),
        percepcion_nacionales: ZERO,
        percepcion_iibb: ZERO,
        percepcion_municipales: ZERO,
        impuestos_internos: ZERO,
        moneda: 'PES',
        tipo_cambio: '0001000000',
        cantidad_alicuotas: String(Math.max(rates.length, 1)),
        codigo_operacion: rates.length ? ' ' : c.importes.exento > 0 ? 'E' : 'N',
        otros_tributos: amount(c.importes.tributos),
        vencimiento_pago: '00000000',
      });
    }
    // Amounts are positive: a nota de crédito is told apart by its type (008), not by a sign.
    const nc = byKey.get(`008${'3'.padStart(5, '0')}${String(notaCredito.numero).padStart(20, '0')}`)!;
    expect(nc.total).toBe(amount(notaCredito.importes.total));
    expect(
      byKey.get(`001${'3'.padStart(5, '0')}${String(facturaA.c.numero).padStart(20, '0')}`)!.cantidad_alicuotas,
    ).toBe('2');
    // ISO-8859-1: the Ñ of the receptor is one byte (0xD1), so the record still measures 266 bytes.
    expect(res.rawPayload.includes(Buffer.from([0xd1]))).toBe(true);
    expect(res.rawPayload.length).toBe(5 * 268);
  });

  it('REGINFO_CV_VENTAS_ALICUOTAS: one 62-byte record per rate, the exempt and non-taxed with one 0 % record', async () => {
    const res = await s.txt('alicuotas', mes);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(`REGINFO_CV_VENTAS_ALICUOTAS_${mes.replace('-', '')}.txt`);
    const recs = records(res.rawPayload, 62).map((l) => parse(VENTAS_ALICUOTAS, l));
    const of = (c: Comprobante) =>
      recs.filter(
        (r) => r.tipo === String(c.codigo).padStart(3, '0') && r.numero === String(c.numero).padStart(20, '0'),
      );
    const a = facturaA.c as Comprobante;
    expect(a.alicuotas.map((x) => x.id).sort()).toEqual([4, 5]);
    expect(of(a)).toEqual(
      a.alicuotas.map((x) => ({
        tipo: '001',
        punto_venta: '00003',
        numero: String(a.numero).padStart(20, '0'),
        neto: amount(x.base_imponible),
        alicuota: String(x.id).padStart(4, '0'),
        iva: amount(x.importe),
      })),
    );
    const b = facturaB.c as Comprobante;
    expect(
      of(b)
        .map((r) => r.alicuota)
        .sort(),
    ).toEqual(['0005', '0006']);
    expect(
      of(notaCredito)
        .map((r) => [r.alicuota, r.neto, r.iva])
        .sort(),
    ).toEqual(
      of(b)
        .map((r) => [r.alicuota, r.neto, r.iva])
        .sort(),
    );
    for (const c of [soloExento.c, soloNoGravado.c] as Comprobante[]) {
      expect(of(c)).toEqual([
        {
          tipo: '006',
          punto_venta: '00003',
          numero: String(c.numero).padStart(20, '0'),
          neto: ZERO,
          alicuota: '0003',
          iva: ZERO,
        },
      ]);
    }
    expect(recs).toHaveLength(2 + 2 + 2 + 1 + 1);
  });

  it('the files add up to the .xlsx book, which gains the net per rate and a totals row', async () => {
    const book = await s.r('GET', `/facturacion/libro-iva?mes=${mes}`);
    expect(book.statusCode).toBe(200);
    const rows = await readXlsx(book.rawPayload);
    const header = rows[0] as string[];
    const col = (name: string) => {
      expect(header, name).toContain(name);
      return header.indexOf(name);
    };
    expect(rows).toHaveLength(1 + 5 + 1);
    const totals = rows[6];
    expect(totals[col('Fecha')]).toBe('Totales');
    const cbte = records((await s.txt('comprobantes', mes)).rawPayload, 266).map((l) => parse(VENTAS_CBTE, l));
    const alic = records((await s.txt('alicuotas', mes)).rawPayload, 62).map((l) => parse(VENTAS_ALICUOTAS, l));
    const signed = (tipo: string, v: string) => (esNC(tipo) ? -1 : 1) * Number(v);
    const sumCbte = (k: string) => cbte.reduce((t, r) => t + signed(r.tipo, r[k]), 0);
    const sumAlic = (code: string, k: 'neto' | 'iva') =>
      alic.filter((r) => r.alicuota === code).reduce((t, r) => t + signed(r.tipo, r[k]), 0);
    const book$ = (name: string) => cents((totals[col(name)] as number | undefined) ?? 0);
    expect(sumCbte('total')).toBe(book$('Total'));
    expect(sumCbte('exento')).toBe(book$('Exento'));
    expect(sumCbte('no_gravado')).toBe(book$('No gravado'));
    for (const [code, label] of [
      ['0005', '21 %'],
      ['0004', '10,5 %'],
      ['0006', '27 %'],
    ]) {
      expect(sumAlic(code, 'neto'), label).toBe(book$(`Neto ${label}`));
      expect(sumAlic(code, 'iva'), label).toBe(book$(`IVA ${label}`));
    }
    // The book's own totals: the net per rate adds to the net; the nota de crédito cancels its factura.
    const perRate = ['21 %', '10,5 %', '27 %', '5 %', '2,5 %', '0 %'].reduce((t, l) => t + book$(`Neto ${l}`), 0);
    expect(perRate).toBe(book$('Neto gravado'));
    const a = facturaA.c as Comprobante;
    const sumOf = (pick: (c: Comprobante) => number) =>
      [a, soloExento.c, soloNoGravado.c].reduce((t, c) => t + cents(pick(c as Comprobante)), 0);
    expect(book$('Total')).toBe(sumOf((c) => c.importes.total));
    expect(book$('Exento')).toBe(sumOf((c) => c.importes.exento));
    expect(book$('Neto 21 %')).toBe(cents(a.alicuotas.find((x) => x.id === 5)!.base_imponible));
    expect(book$('Neto 27 %')).toBe(0);
    // A row keeps its comprobante's amounts, per rate.
    const rowA = rows.find((r) => r[col('Comprobante')] === 'Factura A')!;
    expect(cents(rowA[col('Neto 10,5 %')] as number)).toBe(cents(a.alicuotas.find((x) => x.id === 4)!.base_imponible));
    const rowNC = rows.find((r) => r[col('Comprobante')] === 'Nota de crédito B')!;
    expect(cents(rowNC[col('Total')] as number)).toBe(-cents(notaCredito.importes.total));
  });

  it('a Factura C carries no alícuotas; another business’s comprobantes are never in the files', async () => {
    const c = facturaC.c as Comprobante;
    const cbte = records((await otro.txt('comprobantes', mes)).rawPayload, 266).map((l) => parse(VENTAS_CBTE, l));
    expect(cbte).toHaveLength(1);
    expect(cbte[0]).toMatchObject({
      tipo: '011',
      punto_venta: '00004',
      numero: String(c.numero).padStart(20, '0'),
      total: amount(c.importes.total),
      cantidad_alicuotas: '0',
    });
    expect((await otro.txt('alicuotas', mes)).rawPayload.length).toBe(0);
    const mine = records((await s.txt('comprobantes', mes)).rawPayload, 266);
    expect(mine.every((l) => l.slice(11, 16) === '00003')).toBe(true);
    expect(mine.some((l) => l.slice(8, 11) === '011')).toBe(false);
    // Another business's id in the path is refused, not answered with its files.
    const stranger = await registerUser(app, 'Ajeno');
    expect((await otro.txt('comprobantes', mes, stranger)).statusCode).toBe(403);
  });

  it('an empty month answers 200 with an empty file; a bad month 422', async () => {
    for (const parte of ['comprobantes', 'alicuotas'] as const) {
      const res = await s.txt(parte, '2001-01');
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.length).toBe(0);
    }
    const bad = await s.txt('comprobantes', '2026-13');
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Mes no válido');
  });

  it('needs the POS permission to see sales', async () => {
    const stock = await registerUser(app, 'Deposito');
    await addMember(ctx, s.id, owner, stock, ['puede_ver_stock']);
    for (const parte of ['comprobantes', 'alicuotas'] as const) {
      const res = await s.txt(parte, mes, stock);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
    }
    const vendedor = await registerUser(app, 'Vendedor');
    await addMember(ctx, s.id, owner, vendedor, ['puede_ver_ventas']);
    expect((await s.txt('comprobantes', mes, vendedor)).statusCode).toBe(200);
  });
});
