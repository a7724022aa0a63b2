import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { tiendaArca } from '../../test/arca.js';
import { createBusiness, registerUser } from '../../test/fixtures.js';
import { FakeArca } from './fake/fake-arca.js';
import { list, node, text } from './soap.js';

/*
 * What WSFEv1 demands of each comprobante (issue 32 point 2, decision 0013), through the routes
 * against the strict fake: Concepto 2/3 with the service's dates, no AlicIva without a base, the
 * receptor's DocTipo from the customer's document, the manual's error texts, and a responsable
 * inscripto invoicing every sale by default.
 */

const fake = new FakeArca();
await fake.listen(0);
const ctx = await createTestApp({
  arca: { urls: fake.urls, timeoutMs: 1500, waitMs: 4000, workerMs: 0, concurrency: 2 },
});
const { app } = ctx;
afterAll(() => fake.close());
const owner = await registerUser(app, 'Wsfe');

const RI = '30-71234567-1';

async function shop(nombre: string, punto_venta: number) {
  const t = await tiendaArca(app, fake, owner, { nombre, cuit: RI, punto_venta });
  /** The request ARCA got for the comprobante (FECAEDetRequest), from the fake's book. */
  const sent = (tipo: number, numero: number) => {
    const a = fake.approved(RI, punto_venta, tipo).find((x) => x.nro === numero);
    return a?.det ?? null;
  };
  return { ...t, product: t.producto, service: t.servicio, sell: t.vender, sent };
}

describe('WSFE: services go as Concepto 2 or 3 with their dates', () => {
  it('a sale of services is Concepto 2, dates from the sale; products and services is 3; products only is 1 without dates', async () => {
    const s = await shop('Servicios', 21);
    const flete = await s.service('Flete', 1210);
    const caja = await s.product('Caja', 121);
    const hoy = new Date().toISOString().slice(0, 10);

    const soloServicio = await s.sell({ items: [{ id: flete.id, tipo: 'servicio', cantidad: 1 }] });
    const c1 = (await s.emitir(soloServicio.id)).json();
    expect(c1).toMatchObject({ estado: 'autorizado', concepto: 2 });
    // The sale's date unless given (the API's day may differ from UTC's by a few hours).
    expect(c1.servicio_desde).toBe(c1.fecha);
    expect(c1.servicio_hasta).toBe(c1.fecha);
    expect(c1.vencimiento_pago).toBe(c1.fecha);
    expect(Math.abs(Date.parse(c1.fecha) - Date.parse(hoy))).toBeLessThanOrEqual(86_400_000);
    const d1 = s.sent(6, c1.numero)!;
    const ymd = c1.fecha.replace(/-/g, '');
    expect(d1).toMatchObject({ Concepto: '2', FchServDesde: ymd, FchServHasta: ymd, FchVtoPago: ymd });

    const mixta = await s.sell({
      items: [
        { id: flete.id, tipo: 'servicio', cantidad: 1 },
        { id: caja.id, cantidad: 1 },
      ],
    });
    // Editable where the invoice is issued: the period served and the payment's due date.
    const desde = '2026-01-01';
    const c2 = (
      await s.emitir(mixta.id, { servicio_desde: desde, servicio_hasta: c1.fecha, vencimiento_pago: '2099-12-31' })
    ).json();
    expect(c2).toMatchObject({
      estado: 'autorizado',
      concepto: 3,
      servicio_desde: desde,
      servicio_hasta: c1.fecha,
      vencimiento_pago: '2099-12-31',
    });
    expect(s.sent(6, c2.numero)).toMatchObject({
      Concepto: '3',
      FchServDesde: '20260101',
      FchServHasta: ymd,
      FchVtoPago: '20991231',
    });
    // The printed comprobante shows the same.
    expect((await s.r('GET', `/facturacion/comprobantes/${c2.id}`)).json()).toMatchObject({
      concepto: 3,
      servicio_desde: desde,
      vencimiento_pago: '2099-12-31',
    });

    const productos = await s.sell({ items: [{ id: caja.id, cantidad: 1 }] });
    const c3 = (await s.emitir(productos.id, { servicio_desde: desde })).json();
    expect(c3).toMatchObject({
      estado: 'autorizado',
      concepto: 1,
      servicio_desde: null,
      servicio_hasta: null,
      vencimiento_pago: null,
    });
    const d3 = s.sent(6, c3.numero)!;
    expect(d3.Concepto).toBe('1');
    expect(d3.FchServDesde).toBeUndefined();
  });

  it('refuses a period that ends before it starts, or a payment due before the invoice, and creates nothing', async () => {
    const s = await shop('Servicios Malos', 22);
    const flete = await s.service('Flete', 1210);
    const sale = await s.sell({ items: [{ id: flete.id, tipo: 'servicio', cantidad: 1 }] });
    const hastaAntes = await s.emitir(sale.id, { servicio_desde: '2026-03-10', servicio_hasta: '2026-03-01' });
    expect(hastaAntes.statusCode).toBe(422);
    expect(hastaAntes.json().errors[0]).toMatchObject({
      field: 'servicio_hasta',
      message: 'El fin del período del servicio no puede ser anterior a su inicio.',
    });
    const vtoAntes = await s.emitir(sale.id, { vencimiento_pago: '2020-01-01' });
    expect(vtoAntes.statusCode).toBe(422);
    expect(vtoAntes.json().errors[0]).toMatchObject({
      field: 'vencimiento_pago',
      message: 'El vencimiento del pago no puede ser anterior a la fecha de la factura.',
    });
    const bad = await s.emitir(sale.id, { vencimiento_pago: '31/12/2026' });
    expect(bad.statusCode).toBe(422);
    expect(await ctx.sql('SELECT 1 FROM comprobantes WHERE business_id = $1', [s.id])).toHaveLength(0);
  });
});

describe('WSFE: no AlicIva without a base', () => {
  it('a line discounted 100 % leaves its rate out, and the sums still add up', async () => {
    const s = await shop('Bonificado', 23);
    const yerba = await s.product('Yerba', 1210, '21');
    const libro = await s.product('Libro', 221, '10.5');
    const cliente = (
      await s.r('POST', '/clientes', {
        nombre: 'Distribuidora',
        condicion_iva: 'responsable_inscripto',
        documento_tipo: 'CUIT',
        documento_numero: '30500010912',
      })
    ).json();
    const sale = await s.sell({
      cliente_id: cliente.id,
      items: [
        { id: yerba.id, cantidad: 1 },
        { id: libro.id, cantidad: 1, descuento: 221 },
      ],
    });
    expect(sale.total).toBe(1210);
    const c = (await s.emitir(sale.id)).json();
    expect(c).toMatchObject({
      tipo: 'factura_a',
      estado: 'autorizado',
      importes: { total: 1210, neto: 1000, iva: 210 },
      alicuotas: [{ id: 5, iva: '21', base_imponible: 1000, importe: 210 }],
    });
    const det = s.sent(1, c.numero)!;
    const alic = list(node(det.Iva).AlicIva).map(node);
    expect(alic.map((a) => [text(a.Id), text(a.BaseImp), text(a.Importe)])).toEqual([['5', '1000.00', '210.00']]);
    expect(det).toMatchObject({ ImpNeto: '1000.00', ImpIVA: '210.00', ImpTotal: '1210.00' });
  });
});

describe('WSFE: DocTipo from the customer’s document', () => {
  it('CUIT 80, CUIL 86, CDI 87, LE 89, LC 90, pasaporte 94, DNI 96, otro 99', async () => {
    const s = await shop('Documentos', 24);
    const p = await s.product('Pan', 100);
    const casos: [string, string, number, string][] = [
      ['CUIT', '27234567891', 80, '27234567891'],
      ['CUIL', '20123456786', 86, '20123456786'],
      ['CDI', '20300000003', 87, '20300000003'],
      ['LE', '4567890', 89, '4567890'],
      ['LC', '5678901', 90, '5678901'],
      ['Pasaporte', 'AAB123456', 94, '123456'],
      ['DNI', '30111222', 96, '30111222'],
      ['otro', 'X-1', 99, '0'],
    ];
    for (const [documento_tipo, documento_numero, code, nro] of casos) {
      const cliente = await s.r('POST', '/clientes', {
        nombre: `Cliente ${documento_tipo}`,
        condicion_iva: documento_tipo === 'CUIT' ? 'exento' : 'consumidor_final',
        documento_tipo,
        documento_numero,
      });
      expect(cliente.statusCode, cliente.body).toBe(201);
      const sale = await s.sell({ cliente_id: cliente.json().id, items: [{ id: p.id, cantidad: 1 }] });
      const c = (await s.emitir(sale.id)).json();
      expect(c.estado, `${documento_tipo}: ${c.error_mensaje}`).toBe('autorizado');
      const det = s.sent(6, c.numero)!;
      expect([documento_tipo, det.DocTipo, det.DocNro]).toEqual([documento_tipo, String(code), nro]);
      // The QR names the same document (RG 4892).
      const qr = JSON.parse(Buffer.from(c.qr_url.split('?p=')[1], 'base64').toString());
      expect([qr.tipoDocRec, qr.nroDocRec]).toEqual([code, Number(nro)]);
    }
  });

  it('the receptor given when issuing takes CUIL and passport too, and checks the CUIL', async () => {
    const s = await shop('Documentos Receptor', 25);
    const p = await s.product('Pan', 100);
    const sale = await s.sell({ items: [{ id: p.id, cantidad: 1 }] });
    const bad = await s.emitir(sale.id, {
      receptor: { condicion_iva: 'consumidor_final', doc_tipo: 'CUIL', doc_nro: '20-12345678-0' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0].message).toBe('CUIT no válido: revisá el dígito verificador.');
    const c = (
      await s.emitir(sale.id, {
        receptor: { condicion_iva: 'consumidor_final', doc_tipo: 'CUIL', doc_nro: '20-12345678-6', nombre: 'Juan' },
      })
    ).json();
    expect(c).toMatchObject({ estado: 'autorizado', receptor: { doc_tipo: 'CUIL', doc_nro: '20-12345678-6' } });
    expect(s.sent(6, c.numero)).toMatchObject({ DocTipo: '86', DocNro: '20123456786' });
    const sale2 = await s.sell({ items: [{ id: p.id, cantidad: 1 }] });
    const c2 = (
      await s.emitir(sale2.id, {
        receptor: { condicion_iva: 'consumidor_final', doc_tipo: 'Pasaporte', doc_nro: '987654' },
      })
    ).json();
    expect(c2).toMatchObject({ estado: 'autorizado', receptor: { doc_tipo: 'Pasaporte', doc_nro: '987654' } });
    expect(s.sent(6, c2.numero)).toMatchObject({ DocTipo: '94', DocNro: '987654' });
  });
});

describe('WSFE: ARCA’s errors as the manual words them', () => {
  it('an unenabled punto de venta is 10005; 10242 is a value not permitted, 10246 a missing one; 10051 is not a sum', async () => {
    const s = await shop('Errores', 26);
    const p = await s.product('Vino', 2000);
    // ARCA's portal never enabled punto de venta 27 for this CUIT.
    const put = await s.r('PUT', '/facturacion/config', {
      cuit: RI,
      razon_social: 'Errores',
      condicion_iva: 'responsable_inscripto',
      punto_venta: 27,
      puntos_venta: [26, 27],
    });
    expect(put.statusCode, put.body).toBe(200);
    const sale = await s.sell({ items: [{ id: p.id, cantidad: 1 }] });
    const c = (await s.emitir(sale.id)).json();
    expect(c).toMatchObject({
      estado: 'rechazado',
      error_codigo: '10005',
      error_mensaje:
        'El punto de venta no está habilitado en ARCA para factura electrónica por web services (o está bloqueado, o es solo CAEA): dalo de alta en ARCA (Administración de puntos de venta) o elegí otro.',
    });
    // Its negative control: enabled in ARCA, the same comprobante goes through.
    fake.cuits.set(RI, { puntos_venta: [{ nro: 27 }] });
    expect((await s.r('POST', `/facturacion/comprobantes/${c.id}/reintentar`)).json()).toMatchObject({
      estado: 'autorizado',
      punto_venta: 27,
    });

    const textos: Record<string, string> = {
      '10242':
        'La condición frente al IVA del cliente no es un valor que ARCA acepte: revisala en su ficha y reintentá.',
      '10246': 'Falta la condición frente al IVA del cliente: cargala en su ficha y reintentá.',
      '10051': 'El IVA de una alícuota no corresponde a su base imponible: avisá a soporte.',
      '10023': 'La suma del IVA por alícuota no coincide con el IVA total: avisá a soporte.',
      '10061': 'La suma de las bases imponibles del detalle de IVA no coincide con el neto gravado: avisá a soporte.',
      // As the manual (v4.7) defines them: the currency, the amounts' signs and precision, the Iva array.
      '10037': 'ARCA no reconoce la moneda del comprobante: avisá a soporte.',
      '10038': 'Falta la cotización de la moneda o no es mayor a cero: avisá a soporte.',
      '10039': 'En un comprobante en pesos la cotización tiene que ser 1: avisá a soporte.',
      '10043': 'El importe no gravado no puede ser negativo (y en una factura C tiene que ser cero): avisá a soporte.',
      '10044': 'El importe exento no puede ser negativo (y en una factura C tiene que ser cero): avisá a soporte.',
      '10056': 'Un importe del comprobante tiene más de dos decimales: avisá a soporte.',
      '10070': 'El comprobante tiene neto gravado pero no informa el detalle de IVA: avisá a soporte.',
    };
    for (const [code, mensaje] of Object.entries(textos)) {
      const v = await s.sell({ items: [{ id: p.id, cantidad: 1 }] });
      fake.setFaults({ reject_code: code });
      try {
        const r = (await s.emitir(v.id)).json();
        expect(r, code).toMatchObject({ estado: 'rechazado', error_codigo: code, error_mensaje: mensaje });
      } finally {
        fake.setFaults({ reject_code: null });
      }
    }
  });
});

describe('facturación: a responsable inscripto invoices every sale by default', () => {
  it('a new setup of a responsable inscripto starts with "siempre", others with "elegir"; a chosen mode stays', async () => {
    const put = async (id: string, body: object) =>
      app.inject({
        method: 'PUT',
        url: `/api/v1/businesses/${id}/facturacion/config`,
        headers: owner.auth,
        payload: { cuit: RI, razon_social: 'X', punto_venta: 1, ...body },
      });
    const ri = await createBusiness(app, owner, 'Default RI');
    expect((await put(ri, { condicion_iva: 'responsable_inscripto' })).json().facturar).toBe('siempre');
    const mono = await createBusiness(app, owner, 'Default Mono');
    expect((await put(mono, { condicion_iva: 'monotributo' })).json().facturar).toBe('elegir');
    // After the CSR (which stores a placeholder condition) the first real setup still gets its default.
    const conCsr = await createBusiness(app, owner, 'Default CSR');
    await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${conCsr}/facturacion/csr`,
      headers: owner.auth,
      payload: { cuit: RI, razon_social: 'X' },
    });
    expect((await put(conCsr, { condicion_iva: 'responsable_inscripto' })).json().facturar).toBe('siempre');
    // A business that chose "elegir" keeps it when its setup is saved again without the field.
    const elige = await createBusiness(app, owner, 'Elegí en cada venta');
    expect((await put(elige, { condicion_iva: 'responsable_inscripto', facturar: 'elegir' })).json().facturar).toBe(
      'elegir',
    );
    expect((await put(elige, { condicion_iva: 'responsable_inscripto', razon_social: 'Y' })).json().facturar).toBe(
      'elegir',
    );
    const modo = await app.inject({
      method: 'GET',
      url: `/api/v1/businesses/${ri}/facturacion/modo`,
      headers: owner.auth,
    });
    expect(modo.json()).toMatchObject({ facturar: 'siempre' });
  });
});
