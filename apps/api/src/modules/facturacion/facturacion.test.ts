import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, siblingApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser, type TestUser } from '../../test/fixtures.js';
import { readXlsx } from '../../test/xlsx.js';
import { multipartBody, xlsx } from '../imports/test-files.js';
import { registrarEnArca } from '../../test/arca.js';
import { generateKeyAndCsr } from './arca-crypto.js';
import { FakeArca } from './fake/fake-arca.js';

const fake = new FakeArca();
await fake.listen(0);
const logLines: string[] = [];
const ctx = await createTestApp({
  arca: { urls: fake.urls, timeoutMs: 700, waitMs: 3000, workerMs: 0, concurrency: 2 },
  logger: { level: 'debug', stream: { write: (l: string) => void logLines.push(l) } },
});
const { app } = ctx;
afterAll(() => fake.close());
const owner = await registerUser(app, 'Factura');

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';
const call = (u: TestUser, method: Method, url: string, payload?: object) =>
  app.inject({ method, url, headers: u.auth, ...(payload ? { payload } : {}) });

const RI = '30-71234567-1';
const MONO = '20-30000000-3';

/** A business of `owner` set up against the fake ARCA: key and CSR in the app, the certificate from the "portal". */
async function shop(
  nombre: string,
  condicion_iva: 'responsable_inscripto' | 'monotributo',
  cuit: string,
  extra: object = {},
) {
  const id = await createBusiness(app, owner, nombre);
  const base = `/api/v1/businesses/${id}`;
  const r = (method: Method, url: string, payload?: object, u = owner) => call(u, method, `${base}${url}`, payload);
  const csr = await r('POST', '/facturacion/csr', { cuit, razon_social: nombre });
  expect(csr.statusCode).toBe(200);
  const cert = fake.certificateFor(csr.json().csr_pem);
  const config = {
    cuit,
    razon_social: nombre,
    condicion_iva,
    punto_venta: 3,
    domicilio_fiscal: 'Av. Siempreviva 742',
    certificado_pem: cert,
    facturar: 'elegir',
    ...extra,
  };
  registrarEnArca(fake, config);
  const put = await r('PUT', '/facturacion/config', config);
  expect(put.statusCode, put.body).toBe(200);
  // ARCA's portal: the CUIT and its puntos de venta enabled for web services.
  const cfg = put.json() as { puntos_venta: number[] };
  fake.cuits.set(cuit, { condicion: condicion_iva, puntos_venta: cfg.puntos_venta.map((nro) => ({ nro })) });
  const product = async (nombre: string, precio_venta: number, iva = '21') =>
    (await r('POST', '/products', { nombre, precio_venta, stock_actual: 1000, iva })).json() as {
      id: string;
      iva: string;
    };
  const service = async (nombre: string, precio: number, iva = '21') =>
    (await r('POST', '/services', { nombre, precio, iva })).json() as { id: string };
  const sell = async (body: object) => {
    const res = await call(owner, 'POST', '/api/v1/ventas/record-sale', {
      negocio_id: id,
      metodo_pago: 'efectivo',
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; total: number; comprobante?: { id: string; estado: string } | null };
  };
  const emitir = (venta_id: string, extra: object = {}) =>
    r('POST', '/facturacion/comprobantes', { venta_id, ...extra });
  const comprobante = async (cid: string) => (await r('GET', `/facturacion/comprobantes/${cid}`)).json();
  return { id, base, r, product, service, sell, emitir, comprobante };
}

const settle = async () => {
  await app.facturacion.idle();
};

describe('facturación: setup', () => {
  it('refuses an invalid CUIT with 422 and saves nothing', async () => {
    const id = await createBusiness(app, owner, 'CUIT Malo');
    const res = await call(owner, 'PUT', `/api/v1/businesses/${id}/facturacion/config`, {
      cuit: '30-71234567-0',
      razon_social: 'X',
      condicion_iva: 'monotributo',
      punto_venta: 1,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({
      field: 'cuit',
      message: 'CUIT no válido: revisá el dígito verificador.',
    });
    expect(await ctx.sql('SELECT 1 FROM facturacion_config WHERE business_id = $1', [id])).toHaveLength(0);
    const get = (await call(owner, 'GET', `/api/v1/businesses/${id}/facturacion/config`)).json();
    expect(get).toMatchObject({ configurado: false, tiene_certificado: false });
  });

  it('generates the key, takes the certificate, never answers nor logs the key, and tests the connection', async () => {
    const s = await shop('Config Segura', 'responsable_inscripto', RI, { puntos_venta: [3, 4], facturar: 'siempre' });
    const cfg = await s.r('GET', '/facturacion/config');
    expect(cfg.json()).toMatchObject({
      configurado: true,
      cuit: RI,
      condicion_iva: 'responsable_inscripto',
      punto_venta: 3,
      puntos_venta: [3, 4],
      facturar: 'siempre',
      tiene_certificado: true,
      tiene_clave: true,
      certificado_cuit: RI,
    });
    expect(cfg.body).not.toMatch(/PRIVATE KEY|clave_privada|clave_cifrada/);
    const [row] = await ctx.sql<{ clave_cifrada: string }>(
      'SELECT clave_cifrada FROM facturacion_config WHERE business_id = $1',
      [s.id],
    );
    expect(row.clave_cifrada).toMatch(/^v1:/);
    expect(row.clave_cifrada).not.toMatch(/PRIVATE KEY/);
    const probar = await s.r('POST', '/facturacion/probar');
    expect(probar.json()).toMatchObject({ ok: true, mensaje: 'La conexión con ARCA funciona.' });

    // An uploaded key goes in but never out, and never to the log.
    const { keyPem, csrPem } = generateKeyAndCsr(RI, 'Config Segura');
    const cert = fake.certificateFor(csrPem);
    const put = await s.r('PUT', '/facturacion/config', {
      cuit: RI,
      razon_social: 'Config Segura',
      condicion_iva: 'responsable_inscripto',
      punto_venta: 3,
      certificado_pem: cert,
      clave_privada_pem: keyPem,
    });
    expect(put.statusCode).toBe(200);
    const keyBody = keyPem.split('\n')[1];
    expect(put.body).not.toContain(keyBody);
    expect(logLines.join('\n')).not.toContain(keyBody);
    const audit = await ctx.sql<{ d: string }>(
      `SELECT coalesce(despues::text, '') AS d FROM audit_log WHERE business_id = $1`,
      [s.id],
    );
    expect(audit.map((a) => a.d).join('\n')).not.toContain(keyBody);
    // A key that is not the certificate's is refused.
    const other = generateKeyAndCsr(RI, 'Otra');
    const mismatch = await s.r('PUT', '/facturacion/config', {
      cuit: RI,
      razon_social: 'Config Segura',
      condicion_iva: 'responsable_inscripto',
      punto_venta: 3,
      clave_privada_pem: other.keyPem,
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.body).not.toContain(other.keyPem.split('\n')[1]);
  });

  it('without a certificate, issuing says what is missing', async () => {
    const id = await createBusiness(app, owner, 'Sin Certificado');
    const base = `/api/v1/businesses/${id}`;
    await call(owner, 'PUT', `${base}/facturacion/config`, {
      cuit: MONO,
      razon_social: 'S',
      condicion_iva: 'monotributo',
      punto_venta: 1,
    });
    const p = (
      await call(owner, 'POST', `${base}/products`, { nombre: 'X', precio_venta: 10, stock_actual: 5 })
    ).json();
    const sale = (
      await call(owner, 'POST', '/api/v1/ventas/record-sale', {
        negocio_id: id,
        metodo_pago: 'efectivo',
        items: [{ id: p.id, cantidad: 1 }],
      })
    ).json();
    const res = await call(owner, 'POST', `${base}/facturacion/comprobantes`, { venta_id: sale.id });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toMatch(/Falta el certificado de ARCA/);
    const probar = (await call(owner, 'POST', `${base}/facturacion/probar`)).json();
    expect(probar).toMatchObject({ ok: false });
  });

  it('config is for admins; issuing and listing follow the POS permissions', async () => {
    const s = await shop('Permisos Factura', 'monotributo', MONO);
    const cajero = await registerUser(app, 'Cajero');
    await addMember(ctx, s.id, owner, cajero, ['puede_ver_ventas']);
    expect((await s.r('GET', '/facturacion/config', undefined, cajero)).statusCode).toBe(403);
    // The POS of a cashier still learns whether and how to invoice.
    const modo = await s.r('GET', '/facturacion/modo', undefined, cajero);
    expect(modo.statusCode).toBe(200);
    expect(modo.json()).toMatchObject({ listo: true, facturar: 'elegir', condicion_iva: 'monotributo' });
    const put = await s.r('PUT', '/facturacion/config', {
      cuit: MONO,
      razon_social: 'Permisos Factura',
      condicion_iva: 'monotributo',
      domicilio_fiscal: 'Av. San Martín 1234, Rosario',
      punto_venta: 3,
      facturar: 'siempre',
    });
    expect(put.statusCode, put.body).toBe(200);
    // What the cashier's ticket prints under the shop's name.
    expect((await s.r('GET', '/facturacion/modo', undefined, cajero)).json()).toEqual({
      listo: true,
      facturar: 'siempre',
      domicilio_fiscal: 'Av. San Martín 1234, Rosario',
      condicion_iva: 'monotributo',
    });
    const nuevo = await createBusiness(app, owner, 'Sin factura');
    expect((await call(owner, 'GET', `/api/v1/businesses/${nuevo}/facturacion/modo`)).json()).toEqual({
      listo: false,
      facturar: 'elegir',
      domicilio_fiscal: null,
      condicion_iva: null,
    });
    expect((await s.r('POST', '/facturacion/csr', { cuit: MONO, razon_social: 'x' }, cajero)).statusCode).toBe(403);
    expect((await s.r('GET', '/facturacion/comprobantes', undefined, cajero)).statusCode).toBe(200);
    const p = await s.product('Lápiz', 100);
    const sale = await s.sell({ items: [{ id: p.id, cantidad: 1 }] });
    expect((await s.r('POST', '/facturacion/comprobantes', { venta_id: sale.id }, cajero)).statusCode).toBe(403);
    // Another business's comprobante is a 404.
    const c = (await s.emitir(sale.id)).json();
    const other = await createBusiness(app, owner, 'Ajeno');
    expect((await call(owner, 'GET', `/api/v1/businesses/${other}/facturacion/comprobantes/${c.id}`)).statusCode).toBe(
      404,
    );
  });

  it('a caja with its own punto de venta invoices from it; the others from the default', async () => {
    const s = await shop('Dos Cajas', 'monotributo', MONO, { puntos_venta: [3, 4] });
    const bad = await s.r('POST', '/cajas', { nombre: 'Caja 2', punto_venta: 0 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0]).toMatchObject({ field: 'punto_venta', message: 'El punto de venta va de 1 a 99998.' });
    const caja = await s.r('POST', '/cajas', { nombre: 'Caja 2', punto_venta: 4 });
    expect(caja.statusCode, caja.body).toBe(201);
    expect(caja.json()).toMatchObject({ nombre: 'Caja 2', punto_venta: 4 });
    const p = await s.product('Cuaderno', 1500);
    // Sold before any turno is open: no caja, the default punto de venta.
    const sinCaja = await s.sell({ items: [{ id: p.id, cantidad: 1 }] });
    const turno = await s.r('POST', `/cajas/${caja.json().id}/turnos`, { fondo_inicial: 0 });
    expect(turno.statusCode, turno.body).toBe(201);
    const enCaja2 = await s.sell({ items: [{ id: p.id, cantidad: 1 }], turno_id: turno.json().id });
    const c2 = (await s.emitir(enCaja2.id)).json();
    const c1 = (await s.emitir(sinCaja.id)).json();
    await settle();
    // The fake ARCA numbers per CUIT and punto de venta across this file: numbers are relative.
    const f2 = await s.comprobante(c2.id);
    const f1 = await s.comprobante(c1.id);
    expect(f2).toMatchObject({ punto_venta: 4, estado: 'autorizado' });
    expect(f1).toMatchObject({ punto_venta: 3, estado: 'autorizado' });
    // Back to the default: the caja's next sale goes to punto de venta 3, numbered after the first.
    const patched = await s.r('PATCH', `/cajas/${caja.json().id}`, { punto_venta: null });
    expect(patched.json()).toMatchObject({ nombre: 'Caja 2', punto_venta: null });
    const otra = await s.sell({ items: [{ id: p.id, cantidad: 1 }], turno_id: turno.json().id });
    const c3 = (await s.emitir(otra.id)).json();
    await settle();
    expect(await s.comprobante(c3.id)).toMatchObject({ punto_venta: 3, numero: f1.numero + 1 });
  });

  it('looks a CUIT up in the padrón A5', async () => {
    const s = await shop('Padrón', 'responsable_inscripto', RI);
    const res = await s.r('GET', '/facturacion/padron/30-50001091-2');
    expect(res.json()).toEqual({
      cuit: '30-50001091-2',
      nombre: 'DISTRIBUIDORA EL TREBOL SA',
      domicilio: 'AV CORRIENTES 1234, CIUDAD AUTONOMA BUENOS AIRES, CIUDAD AUTONOMA BUENOS AIRES',
      condicion_iva: 'responsable_inscripto',
      estado_clave: 'ACTIVO',
      advertencias: [],
    });
    expect((await s.r('GET', '/facturacion/padron/20123456786')).json().condicion_iva).toBe('monotributista');
    expect((await s.r('GET', '/facturacion/padron/20-12345678-0')).statusCode).toBe(422);
  });
});

describe('facturación: issuing', () => {
  it('Factura B to a consumidor final from the POS: the sale answers at once, the CAE arrives, QR and sale state', async () => {
    const s = await shop('Almacén B', 'responsable_inscripto', RI);
    const p = await s.product('Yerba', 1210);
    const sale = await s.sell({ facturar: true, items: [{ id: p.id, cantidad: 1 }] });
    expect(sale.comprobante).toMatchObject({ tipo: 'factura_b', estado: 'pendiente', codigo: 6, punto_venta: 3 });
    await settle();
    const c = await s.comprobante(sale.comprobante!.id);
    expect(c).toMatchObject({
      error_mensaje: null,
      tipo: 'factura_b',
      letra: 'B',
      estado: 'autorizado',
      numero: 1,
      punto_venta: 3,
      venta_id: sale.id,
      discrimina_iva: false,
      receptor: { nombre: 'Consumidor final', condicion_iva: 'consumidor_final', doc_tipo: 'sin_documento' },
      importes: { total: 1210, neto: 1000, iva: 210, exento: 0, no_gravado: 0, tributos: 0 },
      alicuotas: [{ id: 5, iva: '21', base_imponible: 1000, importe: 210 }],
      emisor: { cuit: RI, condicion_iva: 'responsable_inscripto' },
    });
    expect(c.cae).toMatch(/^\d{14}$/);
    expect(c.cae_vencimiento).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const payload = JSON.parse(Buffer.from(c.qr_url.split('?p=')[1], 'base64').toString());
    expect(payload).toEqual({
      ver: 1,
      fecha: c.fecha,
      cuit: 30712345671,
      ptoVta: 3,
      tipoCmp: 6,
      nroCmp: 1,
      importe: 1210,
      moneda: 'PES',
      ctz: 1,
      tipoDocRec: 99,
      nroDocRec: 0,
      tipoCodAut: 'E',
      codAut: Number(c.cae),
    });
    const detail = (await s.r('GET', `/ventas/sales/${sale.id}`)).json();
    expect(detail.comprobante).toMatchObject({ id: c.id, estado: 'autorizado', numero: 1 });
    // Idempotent per sale.
    const again = await s.emitir(sale.id);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(c.id);
    const dash = (await call(owner, 'GET', `/api/v1/ventas/dashboard-stats-v2?negocio_id=${s.id}`)).json();
    expect(dash.facturas_emitidas).toBe(1);
  });

  it('Factura A to a responsable inscripto: per-rate IVA with line and sale discounts, exact totals', async () => {
    const s = await shop('Ferretería A', 'responsable_inscripto', RI);
    const tornillos = await s.product('Tornillos', 121);
    const libro = await s.product('Libro', 110.5, '10.5');
    const leche = await s.product('Leche', 50, 'exento');
    const flete = await s.service('Flete', 20, 'no_gravado');
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
      descuento: 7.77,
      items: [
        { id: tornillos.id, cantidad: 1 },
        { id: libro.id, cantidad: 1, descuento: 10 },
        { id: leche.id, cantidad: 1 },
        { id: flete.id, tipo: 'servicio', cantidad: 1 },
      ],
    });
    expect(sale.total).toBe(283.73);
    expect(sale.comprobante ?? null).toBeNull();
    const res = await s.emitir(sale.id);
    expect(res.statusCode).toBe(201);
    const c = res.json();
    expect(c).toMatchObject({ tipo: 'factura_a', codigo: 1, estado: 'autorizado', numero: 1, discrimina_iva: true });
    expect(c.receptor).toMatchObject({
      doc_tipo: 'CUIT',
      doc_nro: '30-50001091-2',
      condicion_iva: 'responsable_inscripto',
    });
    const i = c.importes;
    expect(Math.round((i.neto + i.iva + i.tributos + i.exento + i.no_gravado) * 100)).toBe(28373);
    expect(c.alicuotas.map((a: { id: number }) => a.id)).toEqual([5, 4]);
    expect(Math.round(c.alicuotas.reduce((t: number, a: { importe: number }) => t + a.importe, 0) * 100)).toBe(
      Math.round(i.iva * 100),
    );
    expect(i.exento).toBeGreaterThan(48);
    expect(i.no_gravado).toBeGreaterThan(19);
  });

  it('a monotributista issues C; a letter A needs the CUIT', async () => {
    const s = await shop('Kiosco C', 'monotributo', MONO);
    const p = await s.product('Alfajor', 500);
    const sale = await s.sell({ items: [{ id: p.id, cantidad: 2 }] });
    const c = (
      await s.emitir(sale.id, {
        receptor: { condicion_iva: 'responsable_inscripto', doc_tipo: 'CUIT', doc_nro: '30500010912' },
      })
    ).json();
    expect(c).toMatchObject({
      tipo: 'factura_c',
      codigo: 11,
      estado: 'autorizado',
      alicuotas: [],
      importes: { neto: 1000, iva: 0, total: 1000 },
    });

    const ri = await shop('Sin CUIT A', 'responsable_inscripto', RI);
    const q = await ri.product('Cable', 100);
    const sale2 = await ri.sell({ items: [{ id: q.id, cantidad: 1 }] });
    const bad = await ri.emitir(sale2.id, {
      receptor: { condicion_iva: 'monotributista', doc_tipo: 'DNI', doc_nro: '12345678' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0].message).toBe('La factura A necesita el CUIT del cliente.');
  });

  it('20 concurrent invoices on one punto de venta get 20 consecutive numbers', async () => {
    const s = await shop('Concurrente', 'responsable_inscripto', RI, { punto_venta: 7 });
    const p = await s.product('Pan', 100);
    const sales = [];
    for (let k = 0; k < 20; k++) sales.push(await s.sell({ items: [{ id: p.id, cantidad: 1 }] }));
    const results = await Promise.all(sales.map((x) => s.emitir(x.id)));
    await settle();
    await app.facturacion.runPending({ all: true });
    await settle();
    const list = (await s.r('GET', '/facturacion/comprobantes?limit=50')).json();
    expect(list.total).toBe(20);
    expect(results.every((r) => [201, 202].includes(r.statusCode))).toBe(true);
    const numeros = list.comprobantes.map((c: { numero: number }) => c.numero).sort((a: number, b: number) => a - b);
    expect(numeros).toEqual(Array.from({ length: 20 }, (_, k) => k + 1));
    expect(fake.approved(RI, 7, 6).map((a) => a.nro)).toEqual(numeros);
  });

  it('two instances on one database share a punto de venta without racing, and share the retries', async () => {
    const other = await siblingApp(ctx, { arca: { urls: fake.urls, timeoutMs: 700, waitMs: 3000, workerMs: 0 } });
    const s = await shop('Dos Instancias', 'responsable_inscripto', RI, { punto_venta: 8 });
    const p = await s.product('Fideos', 100);
    const sales = [];
    for (let k = 0; k < 12; k++) sales.push(await s.sell({ items: [{ id: p.id, cantidad: 1 }] }));
    const url = `${s.base}/facturacion/comprobantes`;
    await Promise.all(
      sales.map((x, k) =>
        (k % 2 ? other : app).inject({ method: 'POST', url, headers: owner.auth, payload: { venta_id: x.id } }),
      ),
    );
    await Promise.all([app.facturacion.idle(), other.facturacion.idle()]);
    await Promise.all([app.facturacion.runPending({ all: true }), other.facturacion.runPending({ all: true })]);
    await Promise.all([app.facturacion.idle(), other.facturacion.idle()]);
    const list = (await s.r('GET', '/facturacion/comprobantes?limit=50')).json();
    const numeros = list.comprobantes.map((c: { numero: number }) => c.numero).sort((a: number, b: number) => a - b);
    expect(numeros).toEqual(Array.from({ length: 12 }, (_, k) => k + 1));
    expect(fake.approved(RI, 8, 6)).toHaveLength(12);
  });

  it('a timeout after ARCA approved keeps the CAE without a duplicate', async () => {
    const s = await shop('Timeout', 'responsable_inscripto', RI, { punto_venta: 9 });
    const p = await s.product('Queso', 999.99);
    const sale = await s.sell({ items: [{ id: p.id, cantidad: 1 }] });
    fake.setFaults({ timeout_after_approve: true });
    const before = fake.solicitudes;
    const res = await s.emitir(sale.id);
    fake.setFaults({ timeout_after_approve: false });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ estado: 'pendiente', mensaje: expect.stringMatching(/pendiente/) });
    expect(fake.approved(RI, 9, 6)).toHaveLength(1);
    await app.facturacion.runPending({ all: true });
    await settle();
    const c = await s.comprobante(res.json().id);
    const [approved] = fake.approved(RI, 9, 6);
    expect(c).toMatchObject({ estado: 'autorizado', numero: 1, cae: approved.cae });
    expect(fake.approved(RI, 9, 6)).toHaveLength(1);
    expect(fake.solicitudes - before).toBe(1);
  });

  it('ARCA down: the sale is recorded, the invoice waits and is issued when ARCA returns', async () => {
    const s = await shop('Caído', 'monotributo', MONO, { facturar: 'siempre', punto_venta: 5 });
    const p = await s.product('Hielo', 300);
    // A ticket first, so the fault hits WSFE (a login while down is the same story).
    await s.r('POST', '/facturacion/probar');
    fake.setFaults({ down: true });
    try {
      const sale = await s.sell({ items: [{ id: p.id, cantidad: 1 }] });
      expect(sale.comprobante).toMatchObject({ estado: 'pendiente', tipo: 'factura_c' });
      await settle();
      await app.facturacion.runPending({ all: true });
      await settle();
      const pending = await s.comprobante(sale.comprobante!.id);
      expect(pending).toMatchObject({
        estado: 'pendiente',
        numero: null,
        error_mensaje: 'No se pudo conectar con ARCA.',
      });
      expect(pending.intentos).toBeGreaterThanOrEqual(2);
      expect(Date.parse(pending.proximo_intento)).toBeGreaterThan(Date.now());
      // Not due yet: a normal pass leaves it.
      expect(await app.facturacion.runPending()).toBe(0);
      fake.setFaults({ down: false });
      await app.facturacion.runPending({ all: true });
      await settle();
      expect(await s.comprobante(sale.comprobante!.id)).toMatchObject({ estado: 'autorizado', numero: 1 });
    } finally {
      fake.setFaults({ down: false });
    }
  });

  it('ARCA slow: the invoice answers pendiente, the background worker started by the app issues it with the same number', async () => {
    const worker = await siblingApp(ctx, { arca: { urls: fake.urls, timeoutMs: 700, waitMs: 3000, workerMs: 100 } });
    const s = await shop('Lento', 'responsable_inscripto', RI, { punto_venta: 14 });
    const p = await s.product('Café', 500);
    const sale = await s.sell({ items: [{ id: p.id, cantidad: 1 }] });
    fake.setFaults({ slow_ms: 1500 });
    let res;
    try {
      res = await s.emitir(sale.id);
    } finally {
      fake.setFaults({ slow_ms: 0 });
    }
    expect(res.statusCode).toBe(202);
    const id = res.json().id;
    // Made due at once (its backoff is 15 s), so the other instance's timer takes it.
    const due = () =>
      ctx.sql(
        `UPDATE comprobantes SET proximo_intento = now() WHERE id = $1 AND estado = 'pendiente'
            AND proximo_intento < now() + interval '1 minute'`,
        [id],
      );
    let c = await s.comprobante(id);
    for (let k = 0; k < 100 && c.estado !== 'autorizado'; k++) {
      await due();
      await new Promise((r) => setTimeout(r, 100));
      c = await s.comprobante(id);
    }
    await worker.facturacion.idle();
    expect(c).toMatchObject({ error_mensaje: null, proximo_intento: null, estado: 'autorizado', numero: 1 });
    expect(fake.approved(RI, 14, 6)).toHaveLength(1);
  });

  it('a rejection shows ARCA’s error in Spanish with what to do, and can be retried', async () => {
    const s = await shop('Rechazo', 'responsable_inscripto', RI, { punto_venta: 11 });
    const p = await s.product('Vino', 2000);
    const sale = await s.sell({ items: [{ id: p.id, cantidad: 1 }] });
    fake.setFaults({ reject_code: '10246' });
    const res = await s.emitir(sale.id);
    fake.setFaults({ reject_code: null });
    expect(res.json()).toMatchObject({
      estado: 'rechazado',
      numero: null,
      error_codigo: '10246',
      error_mensaje: 'Falta la condición frente al IVA del cliente: cargala en su ficha y reintentá.',
    });
    const retry = await s.r('POST', `/facturacion/comprobantes/${res.json().id}/reintentar`);
    expect(retry.json()).toMatchObject({ estado: 'autorizado', numero: 1, error_codigo: null });
    expect((await s.r('POST', `/facturacion/comprobantes/${res.json().id}/reintentar`)).statusCode).toBe(409);
    const list = (await s.r('GET', '/facturacion/comprobantes?estado=autorizado&tipo=factura_b')).json();
    expect(list.total).toBe(1);
  });

  it('voids and returns of an invoiced sale issue notas de crédito linked to the invoice', async () => {
    const s = await shop('Notas', 'responsable_inscripto', RI, { punto_venta: 12 });
    const p = await s.product('Aceite', 1210);
    const anulada = await s.sell({ facturar: true, items: [{ id: p.id, cantidad: 1 }] });
    await settle();
    const voided = await s.r('POST', `/ventas/${anulada.id}/anular`, {});
    expect(voided.statusCode).toBe(200);
    await settle();
    const ncs = (await s.r('GET', '/facturacion/comprobantes?tipo=nota_credito_b')).json();
    expect(ncs.total).toBe(1);
    const nc = await s.comprobante(ncs.comprobantes[0].id);
    expect(nc).toMatchObject({
      tipo: 'nota_credito_b',
      codigo: 8,
      estado: 'autorizado',
      numero: 1,
      asociado: { id: anulada.comprobante!.id, tipo: 'factura_b', punto_venta: 12, numero: 1 },
      importes: { total: 1210, neto: 1000, iva: 210 },
    });

    const parcial = await s.sell({ facturar: true, items: [{ id: p.id, cantidad: 3 }] });
    await settle();
    const detalle = (await s.r('GET', `/ventas/sales/${parcial.id}`)).json();
    const medios = (await s.r('GET', '/medios-pago')).json() as { id: string; tipo: string }[];
    const dev = await s.r('POST', `/ventas/${parcial.id}/devoluciones`, {
      items: [{ item_id: detalle.items[0].id, cantidad: 1 }],
      medio_pago_id: medios.find((m) => m.tipo === 'efectivo')!.id,
    });
    expect(dev.statusCode).toBe(201);
    await settle();
    const all = (await s.r('GET', '/facturacion/comprobantes?tipo=nota_credito_b')).json();
    expect(all.total).toBe(2);
    // The sale's detail lists its factura and its nota de crédito.
    const ofSale = (await s.r('GET', `/facturacion/comprobantes?venta_id=${parcial.id}`)).json();
    expect(ofSale.comprobantes.map((c: { tipo: string }) => c.tipo).sort()).toEqual(['factura_b', 'nota_credito_b']);
    const nc2 = await s.comprobante(all.comprobantes.find((c: { id: string }) => c.id !== nc.id).id);
    expect(nc2).toMatchObject({
      estado: 'autorizado',
      numero: 2,
      devolucion_id: dev.json().id,
      asociado: { id: parcial.comprobante!.id, numero: 2 },
      importes: { total: 1210, neto: 1000, iva: 210 },
    });
    expect(fake.approved(RI, 12, 8)).toHaveLength(2);

    // The Libro IVA Ventas of the month: invoices positive, notas de crédito negative.
    const mes = nc.fecha.slice(0, 7);
    const libro = await s.r('GET', `/facturacion/libro-iva?mes=${mes}`);
    expect(libro.statusCode).toBe(200);
    const rows = await readXlsx(libro.rawPayload);
    // Header, two facturas, two notas de crédito and the totals row: the notas cancel what they return.
    expect(rows.length).toBe(6);
    const header = rows[0] as string[];
    const total = rows[5][header.indexOf('Total')] as number;
    expect(rows[5][0]).toBe('Totales');
    expect(Math.round(total * 100)).toBe((1210 + 3 * 1210 - 1210 - 1210) * 100);
  });
});

describe('facturación: logs', () => {
  it('redacts private keys and credentials wherever they are logged, and nothing failed unexpectedly', () => {
    const { keyPem } = generateKeyAndCsr(MONO, 'Log');
    app.log.warn(
      { clave_privada_pem: keyPem, body: { clave_privada_pem: keyPem }, ta: { token: 'T0K3N', sign: 'S1GN' } },
      'prueba',
    );
    const all = logLines.join('\n');
    expect(all).toContain('prueba');
    expect(all).not.toContain(keyPem.split('\n')[1]);
    expect(all).not.toContain('T0K3N');
    expect(logLines.filter((l) => l.includes('"level":50'))).toEqual([]);
  });
});

describe('facturación: IVA of the catalogue', () => {
  it('products take iva (21 by default), and the Excel import reads an «Alícuota» column', async () => {
    const id = await createBusiness(app, owner, 'Import IVA');
    const base = `/api/v1/businesses/${id}`;
    const p = (await call(owner, 'POST', `${base}/products`, { nombre: 'Default', precio_venta: 10 })).json();
    expect(p.iva).toBe('21');
    const put = await call(owner, 'PUT', `${base}/products/${p.id}`, { iva: '10,5 %' });
    expect(put.json().iva).toBe('10.5');
    expect((await call(owner, 'PUT', `${base}/products/${p.id}`, { iva: '19' })).statusCode).toBe(422);
    const masivo = await call(owner, 'POST', `${base}/facturacion/iva-masivo`, { iva: '27', productos: [p.id] });
    expect(masivo.json()).toEqual({ productos: 1, servicios: 0 });
    expect((await call(owner, 'GET', `${base}/products/${p.id}`)).json().iva).toBe('27');
    await call(owner, 'PUT', `${base}/products/${p.id}`, { iva: '10.5' });
    const book = await xlsx([
      {
        name: 'Lista',
        rows: [
          ['Nombre', 'Precio', 'Alícuota'],
          ['Libro', 100, '10,5%'],
          ['Leche', 50, 'Exento'],
          ['Tornillo', 5, 0.21],
          ['Sin dato', 7, null],
        ],
      },
    ]);
    const { payload, headers } = multipartBody([{ name: 'file', filename: 'lista.xlsx', content: book }]);
    const up = await app.inject({
      method: 'POST',
      url: `${base}/import/upload`,
      headers: { ...owner.auth, ...headers },
      payload,
    });
    expect(up.statusCode, up.body).toBeLessThan(300);
    const conf = await call(owner, 'POST', `${base}/import/confirmar`, {});
    expect(conf.statusCode, conf.body).toBe(200);
    const rows = await ctx.sql<{ nombre: string; iva: string }>(
      'SELECT nombre, iva FROM products WHERE business_id = $1 ORDER BY nombre',
      [id],
    );
    expect(Object.fromEntries(rows.map((r) => [r.nombre, r.iva]))).toEqual({
      Default: '10.5',
      Leche: 'exento',
      Libro: '10.5',
      'Sin dato': '21',
      Tornillo: '21',
    });
  });
});
