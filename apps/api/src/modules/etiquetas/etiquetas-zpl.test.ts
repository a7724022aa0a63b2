import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { ean13CheckDigit } from '@mostrador/shared';
import { createTestApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { decodificarZpl, ZplInvalido } from '../impresion/fake/decodificar-zpl.js';
import { iniciarImpresoraFalsa } from '../impresion/fake/impresora-falsa.js';
import { campoZpl, formatoZpl } from './zpl.js';

/*
 * Issue 35, decision 0054: a caja's label printer (ZPL II on the network, raw port 9100), set by
 * admins; the labels of the PDF sent to it as ZPL, read back strictly by the fake printer (which
 * refuses malformed ZPL); what a failing printer answers; tenancy and permissions.
 */

const ctx = await createTestApp({ impresoras: { conectarMs: 1000, respuestaMs: 400 } });
const { app } = ctx;
const impresora = await iniciarImpresoraFalsa();
afterAll(() => impresora.cerrar());

const owner = await registerUser(app, 'Etiqueta');
const biz = await createBusiness(app, owner, 'Almacén Zebra');
const base = `/api/v1/businesses/${biz}`;
type Method = 'GET' | 'POST' | 'PATCH';
const req = (u: TestUser, method: Method, url: string, payload?: object, b = base) =>
  app.inject({ method, url: `${b}${url}`, headers: u.auth, ...(payload ? { payload } : {}) });
async function product(body: object) {
  const res = await req(owner, 'POST', '/products', { stock_actual: 10, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}
const ean = (first12: string) => first12 + ean13CheckDigit(first12);
const YERBA_EAN = ean('779123400001');
const yerba = await product({
  nombre: 'Yerba Mate Ñandutí 500 g',
  codigo: 'YER-500',
  codigo_barras: YERBA_EAN,
  precio_venta: 1600,
  contenido: 500,
  contenido_unidad: 'g',
});
const aceite = await product({ nombre: 'Aceite 1,5 l', codigo_barras: '012345678905', precio_venta: 3000 });
const clavos = await product({ nombre: 'Clavos sueltos', codigo: 'CLA-1', precio_venta: 50 });
// A name that tries to end the format and send a command of its own.
const trampa = await product({ nombre: 'Queso ^XZ^XA~JR_raro', codigo: 'QUE^1', precio_venta: 9000 });
const todos = [yerba.id, aceite.id, clavos.id, trampa.id];

const caja = ((await req(owner, 'GET', '/cajas')).json() as { id: string }[])[0].id;
const zebra = { lenguaje: 'zpl', host: '127.0.0.1', puerto: impresora.port, dpi: 203, ancho_mm: 60, alto_mm: 40 };
const imprimir = (body: object, u = owner, b = base) =>
  req(u, 'POST', '/etiquetas/imprimir', { caja_id: caja, ...body }, b);
/** Prints and reads the job back from the fake (the answer comes once the bytes left). */
async function impreso(body: object) {
  const n = impresora.trabajos.length;
  const res = await imprimir(body);
  expect(res.statusCode, res.body).toBe(200);
  await impresora.esperar(n + 1);
  return { res: res.json(), formatos: impresora.ultimoZpl()! };
}

describe('the caja’s label printer', () => {
  it('is set by admins with its address, resolution and label size; bad values are 422', async () => {
    const bad = await req(owner, 'PATCH', `/cajas/${caja}`, {
      impresora_etiquetas: { lenguaje: 'epl', host: 'http://zebra', dpi: 250, ancho_mm: 5 },
    });
    expect(bad.statusCode).toBe(422);
    const campos = (bad.json().errors as { field: string; message: string }[]).map((e) => e.field).sort();
    expect(campos).toEqual([
      'impresora_etiquetas.ancho_mm',
      'impresora_etiquetas.dpi',
      'impresora_etiquetas.host',
      'impresora_etiquetas.lenguaje',
    ]);
    const empleado = await registerUser(app, 'Repositor');
    await addMember(ctx, biz, owner, empleado, ['puede_ver_productos', 'puede_ver_ventas']);
    expect((await req(empleado, 'PATCH', `/cajas/${caja}`, { impresora_etiquetas: zebra })).statusCode).toBe(403);

    const ok = await req(owner, 'PATCH', `/cajas/${caja}`, {
      impresora_etiquetas: { lenguaje: 'zpl', host: '127.0.0.1', puerto: impresora.port },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    // Defaults: 203 dpi, 60 × 40 mm; the receipt printer is left as it was.
    expect(ok.json()).toMatchObject({ impresora: null, impresora_etiquetas: { ...zebra } });
    const leidas = (await req(empleado, 'GET', '/cajas')).json() as { impresora_etiquetas: unknown }[];
    expect(leidas[0].impresora_etiquetas).toEqual(zebra);
  });

  it('prints góndola labels as ZPL: one format per product, its copies in ^PQ, the prices of the PDF', async () => {
    const { res, formatos } = await impreso({ plantilla: 'gondola', productos: todos, copias: 2 });
    expect(res).toEqual({ impreso: true, etiquetas: 8, productos: 4, lenguaje: 'zpl' });
    expect(impresora.rechazados).toEqual([]);
    expect(formatos).toHaveLength(4);
    for (const f of formatos) expect(f).toMatchObject({ ancho: 480, alto: 320, copias: 2, utf8: true });
    const de = (nombre: string) => formatos.find((f) => f.textos.includes(nombre))!.textos;
    expect(de('Yerba Mate Ñandutí 500 g')).toEqual([
      'Yerba Mate Ñandutí 500 g',
      '$ 1.600,00',
      'Precio por kg: $ 3.200,00',
      'PRECIO SIN IMPUESTOS NACIONALES: $ 1.322,31',
      expect.stringMatching(/^YER-500 · \d{2}\/\d{2}\/\d{4}$/),
    ]);
    // The name's ^ ~ _ travel escaped (^FH) and come back as written: no fifth format, no command.
    expect(de('Queso ^XZ^XA~JR_raro')[1]).toBe('$ 9.000,00');
  });

  it('prints code labels: EAN-13 by ^BE, UPC-A by ^BU, Code 128 of the product’s code otherwise', async () => {
    const { formatos } = await impreso({ plantilla: 'codigo', productos: todos });
    expect(impresora.rechazados).toEqual([]);
    expect(formatos.flatMap((f) => f.codigos)).toEqual(
      expect.arrayContaining([
        { simbologia: 'EAN13', codigo: YERBA_EAN },
        { simbologia: 'UPCA', codigo: '012345678905' },
        { simbologia: 'CODE128', codigo: 'CLA-1' },
        { simbologia: 'CODE128', codigo: 'QUE^1' },
      ]),
    );
    expect(formatos.every((f) => f.copias === 1)).toBe(true);
  });

  it('a printer that is off, hung or out of labels: 502 saying what failed, nothing printed', async () => {
    const n = impresora.trabajos.length;
    await impresora.modo('apagada');
    const off = await imprimir({ productos: [yerba.id] });
    await impresora.modo('ok');
    expect(off.statusCode).toBe(502);
    expect(off.json()).toMatchObject({ code: 'PRINTER_FAILED' });
    expect(off.json().detail).toBe(
      `La impresora de etiquetas de Caja 1 (127.0.0.1:${impresora.port}) no acepta la conexión: revisá que esté prendida, y la IP y el puerto en la configuración de la caja.`,
    );
    await impresora.modo('sin_papel');
    const vacia = await imprimir({ productos: [yerba.id] });
    await impresora.modo('ok');
    expect(vacia.statusCode).toBe(502);
    expect(vacia.json().detail).toContain('no tiene papel');
    await impresora.modo('lenta');
    const lenta = await imprimir({ productos: [yerba.id] });
    await impresora.modo('ok');
    expect(lenta.statusCode).toBe(502);
    expect(lenta.json().detail).toContain('no terminó de responder a tiempo');
    expect(impresora.trabajos.length).toBe(n);
    // Back on, it prints.
    await impreso({ productos: [yerba.id] });
  });

  it('refuses what it cannot print: no label printer 409, another business’s caja 404, nothing to label 404, no criterion 422', async () => {
    const otra = (await req(owner, 'POST', '/cajas', { nombre: 'Caja sin Zebra' })).json() as { id: string };
    const sin = await imprimir({ caja_id: otra.id, productos: [yerba.id] });
    expect(sin.statusCode).toBe(409);
    expect(sin.json().detail).toContain('no tiene impresora de etiquetas');
    const ajeno = await createBusiness(app, owner, 'Otro almacén');
    const cajaAjena = (
      (await req(owner, 'GET', '/cajas', undefined, `/api/v1/businesses/${ajeno}`)).json() as {
        id: string;
      }[]
    )[0].id;
    expect((await imprimir({ caja_id: cajaAjena, productos: [yerba.id] })).statusCode).toBe(404);
    // This business's products asked from another business (with its own label printer): none of them.
    const otroBase = `/api/v1/businesses/${ajeno}`;
    expect(
      (await req(owner, 'PATCH', `/cajas/${cajaAjena}`, { impresora_etiquetas: zebra }, otroBase)).statusCode,
    ).toBe(200);
    const n = impresora.trabajos.length;
    const desdeOtro = await imprimir({ caja_id: cajaAjena, productos: [yerba.id] }, owner, otroBase);
    expect(desdeOtro.statusCode).toBe(404);
    expect(impresora.trabajos.length).toBe(n);
    const nada = await imprimir({ categoria_id: '00000000-0000-4000-8000-000000000000' });
    expect(nada.statusCode).toBe(404);
    const sinCriterio = await imprimir({});
    expect(sinCriterio.statusCode).toBe(422);
    expect((await imprimir({ productos: [yerba.id], caja_id: 'x' })).statusCode).toBe(422);
  });

  it('needs productos/ver', async () => {
    const cajero = await registerUser(app, 'Cajero');
    await addMember(ctx, biz, owner, cajero, ['puede_ver_ventas']);
    expect((await imprimir({ productos: [yerba.id] }, cajero)).statusCode).toBe(403);
  });
});

describe('the fake label printer', () => {
  const enviar = (zpl: string) =>
    new Promise<void>((resolve, reject) => {
      const s = net.createConnection({ host: '127.0.0.1', port: impresora.port }, () => s.end(zpl));
      s.on('close', () => resolve());
      s.on('error', reject);
    });

  it('refuses malformed ZPL and keeps why', async () => {
    const antes = impresora.trabajos.length;
    const r = impresora.rechazados.length;
    await enviar('^XA^FO10,10^A0N,30,30^FDSin cierre^XZ');
    await enviar('^XA^FO10,10^A0N,30,30^FDSin fin');
    expect(impresora.trabajos.length).toBe(antes);
    expect(impresora.rechazados.slice(r).map((x) => x.motivo)).toEqual(['Un ^FD sin su ^FS.', 'Un ^FD sin su ^FS.']);
  });

  it('reads ZPL strictly', () => {
    const malos: [string, RegExp][] = [
      ['^XA^FO10,10^A0N,30,30^FDHola^FS', /falta \^XZ/],
      ['^FO10,10^A0N,30,30^FDHola^FS^XZ', /fuera de \^XA/],
      ['^XA^ZZ^XZ', /Comando desconocido: \^ZZ/],
      ['^XA^A0N,30,30^FDHola^FS^XZ', /\^A fuera de un campo/],
      ['^XA^FO10,10^BEN,80,Y,N^FD12345678901^FS^XZ', /12 dígitos/],
      ['^XA^FO10,10^A0N,30,30^FDAñejo^FS^XZ', /sin \^CI28/],
      ['hola ^XA^XZ', /Texto suelto/],
      ['^XA^FOa,10^A0N,30,30^FDx^FS^XZ', /\^FO x/],
      ['^XA^PQ0^XZ', /\^PQ cantidad/],
      ['^XA^CI28^FO1,1^FH^FD_ZZ^FS^XZ', /Escape \^FH/],
      ['', /ningún formato/],
    ];
    for (const [zpl, motivo] of malos) {
      expect(() => decodificarZpl(new TextEncoder().encode(zpl)), zpl).toThrow(ZplInvalido);
      expect(() => decodificarZpl(new TextEncoder().encode(zpl)), zpl).toThrow(motivo);
    }
    const bueno = decodificarZpl(
      new TextEncoder().encode(
        '^XA^CI28^PW480^LL320^FO16,16^A0N,28,28^FH^FDA_5Eo ñ^FS^FO16,60^BEN,80,Y,N^FD779123400001^FS^PQ3^XZ',
      ),
    );
    expect(bueno).toEqual([
      {
        ancho: 480,
        alto: 320,
        textos: ['A^o ñ'],
        codigos: [{ simbologia: 'EAN13', codigo: ean('779123400001') }],
        copias: 3,
        utf8: true,
      },
    ]);
  });

  it('our encoder escapes what ZPL would read as a command', () => {
    expect(campoZpl('a^b~c_d\u0007e\u00a0$')).toBe('a_5Eb_7Ec_5Fde $');
    const f = formatoZpl(
      'gondola',
      {
        nombre: '^XZ',
        precio: '$ 1,00',
        porUnidad: null,
        sinImpuestos: null,
        codigo: null,
        codigoBarras: null,
        fecha: '01/01/2026',
      },
      1,
      { dpi: 300, ancho_mm: 50, alto_mm: 30 },
    );
    expect(f.match(/\^XZ/g)).toHaveLength(1);
    expect(decodificarZpl(new TextEncoder().encode(f))[0]).toMatchObject({
      ancho: 600,
      alto: 360,
      textos: ['^XZ', '$ 1,00', '01/01/2026'],
    });
  });
});
