import { afterAll, describe, expect, it } from 'vitest';
import { LEYENDA_RG_5003 } from '@mostrador/shared';
import { createTestApp } from '../../test/app.js';
import { createBusiness, registerUser } from '../../test/fixtures.js';
import { list, node, text, type XmlNode } from './soap.js';
import { FakeArca } from './fake/fake-arca.js';

/*
 * Issue 32, decision 0041: the padrón A5 as ARCA answers it (no alcanzado, inactive CUITs, answers
 * with only errorConstancia), the printed Factura A (RG 5003 legend, a sale discount that adds up
 * to what ARCA received) and a sale that asked for an invoice and stands without one.
 */

const fake = new FakeArca();
await fake.listen(0);
const ctx = await createTestApp({
  arca: { urls: fake.urls, timeoutMs: 5000, waitMs: 8000, workerMs: 0, concurrency: 2 },
});
const { app } = ctx;
afterAll(() => fake.close());
const owner = await registerUser(app, 'Padron');

const RI = '30-71234567-1';
const PV = 7;
fake.cuits.set(RI, { condicion: 'responsable_inscripto', puntos_venta: [{ nro: PV }] });
fake.cuits.set('30500010912', { condicion: 'responsable_inscripto' });
fake.cuits.set('20123456786', { condicion: 'monotributo' });

/** What the API sent to WSFE's FECAESolicitar, as the fake ARCA received and approved it. */
const enviado = (tipo: number) => {
  const aprobados = fake.approved(RI, PV, tipo);
  return node(aprobados[aprobados.length - 1]?.det as XmlNode);
};

type Method = 'GET' | 'POST' | 'PUT';

async function shop(nombre: string, extra: object = {}, configurar = true) {
  const id = await createBusiness(app, owner, nombre);
  const r = (method: Method, url: string, payload?: object) =>
    app.inject({ method, url: `/api/v1/businesses/${id}${url}`, headers: owner.auth, ...(payload ? { payload } : {}) });
  if (configurar) {
    const csr = await r('POST', '/facturacion/csr', { cuit: RI, razon_social: nombre });
    const put = await r('PUT', '/facturacion/config', {
      cuit: RI,
      razon_social: nombre,
      condicion_iva: 'responsable_inscripto',
      punto_venta: PV,
      certificado_pem: fake.certificateFor(csr.json().csr_pem),
      // Invoices are asked for one by one here (a responsable inscripto's default is every sale).
      facturar: 'elegir',
      ...extra,
    });
    expect(put.statusCode, put.body).toBe(200);
  }
  const product = async (nombre: string, precio_venta: number, iva = '21') =>
    (await r('POST', '/products', { nombre, precio_venta, stock_actual: 1000, iva })).json() as { id: string };
  const cliente = async (nombre: string, condicion_iva: string, cuit: string) =>
    (
      await r('POST', '/clientes', {
        nombre,
        condicion_iva,
        documento_tipo: 'CUIT',
        documento_numero: cuit,
      })
    ).json() as { id: string };
  const sell = async (body: object) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/ventas/record-sale',
      headers: owner.auth,
      payload: { negocio_id: id, metodo_pago: 'efectivo', ...body },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as {
      id: string;
      numero: number;
      total: number;
      comprobante?: { id: string; estado: string };
      sin_factura?: string;
    };
  };
  const emitir = async (venta_id: string) => {
    const res = await r('POST', '/facturacion/comprobantes', { venta_id });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  return { id, r, product, cliente, sell, emitir };
}

const cents = (n: number) => Math.round(n * 100);
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

describe('padrón A5 (getPersona_v2)', () => {
  it('maps each IVA condition, warns of an inactive CUIT and explains an answer with only errorConstancia', async () => {
    const s = await shop('Padrón Casos');
    const get = (cuit: string) => s.r('GET', `/facturacion/padron/${cuit}`);

    const ri = await get('30500010912');
    expect(ri.statusCode).toBe(200);
    expect(ri.json()).toEqual({
      cuit: '30-50001091-2',
      nombre: 'DISTRIBUIDORA EL TREBOL SA',
      domicilio: 'AV CORRIENTES 1234, CIUDAD AUTONOMA BUENOS AIRES, CIUDAD AUTONOMA BUENOS AIRES',
      condicion_iva: 'responsable_inscripto',
      estado_clave: 'ACTIVO',
      advertencias: [],
    });
    expect((await get('20-12345678-6')).json()).toMatchObject({
      nombre: 'PEREZ JUAN',
      condicion_iva: 'monotributista',
      advertencias: [],
    });
    expect((await get('27234567891')).json()).toMatchObject({ nombre: 'GOMEZ MARIA', condicion_iva: 'exento' });
    // Impuesto 34 (IVA no alcanzado) is its own condition, not consumidor final.
    expect((await get('30710000014')).json()).toMatchObject({
      nombre: 'CLUB SOCIAL LOS ALAMOS',
      condicion_iva: 'no_alcanzado',
      advertencias: [],
    });

    // INACTIVO: the data comes back, with the warning the screens show (ARCA would reject with 10247).
    const inactivo = await get('20400000019');
    expect(inactivo.statusCode).toBe(200);
    expect(inactivo.json()).toMatchObject({
      nombre: 'LOPEZ ROBERTO',
      condicion_iva: 'responsable_inscripto',
      estado_clave: 'INACTIVO',
      advertencias: [
        'ARCA tiene este CUIT como INACTIVO: rechaza las facturas a su nombre (error 10247) hasta que el titular lo regularice.',
      ],
    });

    // Only errorConstancia: no 200 with an empty name, but a 422 that says what ARCA said.
    const sinConstancia = await get('27111111117');
    expect(sinConstancia.statusCode).toBe(422);
    expect(sinConstancia.json().errors).toEqual([
      {
        field: 'cuit',
        message:
          'ARCA no da la constancia de inscripción de ese CUIT (La clave ingresada no es una CUIT): revisá el número o cargá los datos del cliente a mano.',
      },
    ]);

    // Unknown to ARCA (its fault) and a bad check digit.
    const nadie = await get('20222222223');
    expect(nadie.statusCode).toBe(404);
    expect(nadie.json().detail).toBe('ARCA no tiene una persona con ese CUIT.');
    expect((await get('20-40000001-8')).statusCode).toBe(422);
  });

  it('the fake answers personaReturn in the WSDL sequence order', async () => {
    // personaReturn: datosGenerales, datosMonotributo, datosRegimenGeneral, errorConstancia, …, metadata.
    const { PADRON_SEED } = await import('./fake/padron.js');
    expect(Object.keys(PADRON_SEED)).toEqual(
      expect.arrayContaining([
        '30500010912',
        '20123456786',
        '27234567891',
        '30710000014',
        '20400000019',
        '27111111117',
      ]),
    );
    const s = await shop('Padrón Orden');
    await s.r('GET', '/facturacion/padron/20123456786');
    // A raw call with the ticket the app keeps (the same one the padrón route used).
    const [ticket] = await ctx.sql<{ token: string; sign: string }>(
      `SELECT token, sign FROM arca_tickets_acceso WHERE servicio = 'ws_sr_constancia_inscripcion'
        ORDER BY actualizado_en DESC LIMIT 1`,
    );
    const xml = await (
      await fetch(fake.urls.padron, {
        method: 'POST',
        headers: { 'content-type': 'text/xml' },
        body:
          '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:a5="http://a5.soap.ws.server.puc.sr/"><soap:Body>' +
          `<a5:getPersona_v2><token>${ticket.token}</token><sign>${ticket.sign}</sign><cuitRepresentada>30712345671</cuitRepresentada><idPersona>20123456786</idPersona></a5:getPersona_v2>` +
          '</soap:Body></soap:Envelope>',
      })
    ).text();
    const persona = xml.slice(xml.indexOf('<personaReturn>'), xml.indexOf('</personaReturn>'));
    const top = [
      ...persona.matchAll(/<(datosGenerales|datosMonotributo|datosRegimenGeneral|errorConstancia|metadata)>/g),
    ].map((m) => m[1]);
    expect(top).toEqual(['datosGenerales', 'datosMonotributo', 'metadata']);
    const generales = persona.slice(persona.indexOf('<datosGenerales>'), persona.indexOf('</datosGenerales>'));
    const children = [...generales.matchAll(/<(\w+)>/g)].map((m) => m[1]).filter((n) => n !== 'datosGenerales');
    const own = children.filter(
      (n) =>
        !['codPostal', 'descripcionProvincia', 'direccion', 'idProvincia', 'localidad', 'tipoDomicilio'].includes(n),
    );
    expect(own).toEqual([
      'apellido',
      'domicilioFiscal',
      'esSucesion',
      'estadoClave',
      'idPersona',
      'mesCierre',
      'nombre',
      'tipoClave',
      'tipoPersona',
    ]);
  });
});

describe('the printed Factura A', () => {
  it('carries the RG 5003 legend when the receptor is a monotributista, and only then', async () => {
    const s = await shop('Legenda A');
    const p = await s.product('Pintura', 1210);
    const mono = await s.cliente('Juan Pérez', 'monotributista', '20123456786');
    const ri = await s.cliente('El Trébol', 'responsable_inscripto', '30500010912');
    const aMono = await s.emitir((await s.sell({ cliente_id: mono.id, items: [{ id: p.id, cantidad: 1 }] })).id);
    expect(aMono).toMatchObject({ tipo: 'factura_a', estado: 'autorizado', leyendas: [LEYENDA_RG_5003] });
    expect(LEYENDA_RG_5003).toBe(
      'El crédito fiscal discriminado en el presente comprobante, sólo podrá ser computado a efectos del Régimen de Sostenimiento e Inclusión Fiscal para Pequeños Contribuyentes de la Ley Nº 27.618',
    );
    const aRi = await s.emitir((await s.sell({ cliente_id: ri.id, items: [{ id: p.id, cantidad: 1 }] })).id);
    expect(aRi).toMatchObject({ tipo: 'factura_a', leyendas: [] });
    const b = await s.emitir((await s.sell({ items: [{ id: p.id, cantidad: 1 }] })).id);
    expect(b).toMatchObject({ tipo: 'factura_b', leyendas: [], discriminado: null });
  });

  it('with a sale discount: the lines net of IVA, the bonificación, the net per rate, IVA and total add up to what ARCA received', async () => {
    const s = await shop('Bonificación A');
    const tornillos = await s.product('Tornillos', 121);
    const pintura = await s.product('Pintura', 3333.33);
    const libro = await s.product('Libro', 110.5, '10.5');
    const leche = await s.product('Leche', 50, 'exento');
    const ri = await s.cliente('El Trébol', 'responsable_inscripto', '30500010912');
    const sale = await s.sell({
      cliente_id: ri.id,
      descuento: 100,
      items: [
        { id: tornillos.id, cantidad: 3 },
        { id: pintura.id, cantidad: 1.5 },
        { id: libro.id, cantidad: 1, descuento: 10 },
        { id: leche.id, cantidad: 2 },
      ],
    });
    const c = await s.emitir(sale.id);
    expect(c).toMatchObject({ tipo: 'factura_a', estado: 'autorizado', discrimina_iva: true });
    const det = enviado(1);
    expect(Number(text(det.CbteDesde))).toBe(c.numero);
    const alic = list(node(det.Iva).AlicIva).map((a) => ({
      id: Number(text(node(a).Id)),
      base: cents(Number(text(node(a).BaseImp))),
      importe: cents(Number(text(node(a).Importe))),
    }));

    const d = c.discriminado;
    const i = c.importes;
    // The printed lines are net of IVA (exento as it is) and add up to the printed subtotal.
    expect(d.lineas).toHaveLength(4);
    expect(cents(d.subtotal)).toBe(sum(d.lineas.map((l: { subtotal: number }) => cents(l.subtotal))));
    // Subtotal − bonificación = Importe neto gravado + exento + no gravado, as sent (ImpNeto, ImpOpEx, ImpTotConc).
    expect(cents(d.bonificacion)).toBeGreaterThan(0);
    expect(cents(d.subtotal) - cents(d.bonificacion)).toBe(cents(i.neto) + cents(i.exento) + cents(i.no_gravado));
    expect(cents(i.neto)).toBe(cents(Number(text(det.ImpNeto))));
    expect(cents(i.exento)).toBe(cents(Number(text(det.ImpOpEx))));
    expect(cents(i.no_gravado)).toBe(cents(Number(text(det.ImpTotConc))));
    // IVA per rate as sent in AlicIva, summing to ImpIVA; the total is ImpTotal.
    expect(
      c.alicuotas.map((a: { id: number; base_imponible: number; importe: number }) => ({
        id: a.id,
        base: cents(a.base_imponible),
        importe: cents(a.importe),
      })),
    ).toEqual(alic);
    expect(sum(alic.map((a) => a.base))).toBe(cents(i.neto));
    expect(sum(alic.map((a) => a.importe))).toBe(cents(Number(text(det.ImpIVA))));
    expect(cents(i.neto) + cents(i.iva) + cents(i.exento) + cents(i.no_gravado)).toBe(
      cents(Number(text(det.ImpTotal))),
    );
    expect(cents(i.total)).toBe(cents(sale.total));
    // The exento line prints as it is (2 × 50); the line with its own discount shows it net.
    expect(d.lineas[3]).toEqual({ precio_unitario: 50, descuento: 0, subtotal: 100 });
    expect(d.lineas[2].descuento).toBeGreaterThan(0);
    expect(d.lineas[0]).toMatchObject({ precio_unitario: 100, descuento: 0, subtotal: 300 });

    // Without a sale discount there is no bonificación: the lines add up to ImpNeto on their own.
    const sinDescuento = await s.emitir(
      (
        await s.sell({
          cliente_id: ri.id,
          items: [
            { id: tornillos.id, cantidad: 7 },
            { id: pintura.id, cantidad: 1 },
          ],
        })
      ).id,
    );
    expect(sinDescuento.discriminado.bonificacion).toBe(0);
    expect(cents(sinDescuento.discriminado.subtotal)).toBe(cents(sinDescuento.importes.neto));
  });
});

describe('a sale that asked for an invoice and stands without one', () => {
  it('says why and what to do in the sale’s answer (record-sale), and nothing when it was invoiced', async () => {
    const s = await shop('Sin Factura');
    const caro = await s.product('Tractor', 12_000_000);
    const barato = await s.product('Yerba', 1210);
    const grande = await s.sell({ facturar: true, items: [{ id: caro.id, cantidad: 1 }] });
    expect(grande.comprobante ?? null).toBeNull();
    expect(grande.sin_factura).toBe(
      'La venta quedó registrada SIN factura. Para este importe ARCA pide el documento del cliente: cargá su CUIT o DNI. ' +
        'Cuando lo resuelvas, emití la factura desde Reporte de ventas: abrí la venta y tocá «Emitir factura».',
    );
    // The sale itself stands, with no comprobante.
    const detalle = (await s.r('GET', `/ventas/sales/${grande.id}`)).json();
    expect(detalle).toMatchObject({ id: grande.id, estado: 'completada', comprobante: null });
    expect(await ctx.sql('SELECT 1 FROM comprobantes WHERE business_id = $1', [s.id])).toHaveLength(0);

    const ok = await s.sell({ facturar: true, items: [{ id: barato.id, cantidad: 1 }] });
    expect(ok.comprobante).toMatchObject({ tipo: 'factura_b' });
    expect(ok.sin_factura).toBeUndefined();
    const sinPedir = await s.sell({ items: [{ id: caro.id, cantidad: 1 }] });
    expect(sinPedir.sin_factura).toBeUndefined();

    // Invoicing not set up at all.
    const t = await shop('Sin Configurar', {}, false);
    const p = await t.product('Yerba', 1210);
    const sale = await t.sell({ facturar: true, items: [{ id: p.id, cantidad: 1 }] });
    expect(sale.sin_factura).toBe(
      'La venta quedó registrada SIN factura. La facturación no está lista: falta configurar el CUIT, el punto de venta o el certificado de ARCA. ' +
        'Cuando lo resuelvas, emití la factura desde Reporte de ventas: abrí la venta y tocá «Emitir factura».',
    );
  });
});
