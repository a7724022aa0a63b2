import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createTestApp, siblingApp } from '../../test/app.js';
import { registrarEnArca } from '../../test/arca.js';
import { createBusiness, registerUser } from '../../test/fixtures.js';
import type { App } from '../../app.js';
import { certFingerprint, generateKeyAndCsr, makeCa, signCsr } from './arca-crypto.js';
import { FakeArca } from './fake/fake-arca.js';

/*
 * WSAA done right (decision 0039), through the routes against the strict fake ARCA: one ticket per
 * certificate and service shared by every business and instance, kept across uploads, reused when
 * ARCA says it has one, a lost one explained with until when invoicing waits; and "Probar
 * conexión" telling each problem apart.
 */

const fake = new FakeArca();
await fake.listen(0);
/** The app's clock runs this far ahead (the fake's has its own switch). */
let ahead = 0;
const now = () => new Date(Date.now() + ahead);
const arcaSettings = { urls: fake.urls, timeoutMs: 700, waitMs: 3000, workerMs: 0, concurrency: 2 };
const ctx = await createTestApp({ arca: arcaSettings, now });
const { app } = ctx;
const other = await siblingApp(ctx, { arca: arcaSettings, now });
afterAll(() => fake.close());
afterEach(() => {
  fake.reset();
  ahead = 0;
});
const owner = await registerUser(app, 'Tickets');

/** A key and the certificate "ARCA's portal" (the fake's CA, or `ca`) gives for it. */
function certificado(cuit: string, ca?: { certPem: string; keyPem: string }, at?: Date) {
  const { keyPem, csrPem } = generateKeyAndCsr(cuit, 'Pruebas');
  return { keyPem, certPem: ca ? signCsr(csrPem, ca, at) : fake.certificateFor(csrPem) };
}

/** A business set up with `cert` (its CUIT registered in the fake with the puntos de venta unless `registrar: false`). */
async function shop(
  nombre: string,
  cuit: string,
  cert: { keyPem: string; certPem: string },
  opts: { punto_venta?: number; registrar?: boolean } = {},
) {
  const id = await createBusiness(app, owner, nombre);
  const base = `/api/v1/businesses/${id}`;
  const config = {
    cuit,
    razon_social: nombre,
    condicion_iva: 'responsable_inscripto',
    punto_venta: opts.punto_venta ?? 3,
    certificado_pem: cert.certPem,
    clave_privada_pem: cert.keyPem,
  };
  if (opts.registrar !== false) registrarEnArca(fake, config);
  const put = await app.inject({
    method: 'PUT',
    url: `${base}/facturacion/config`,
    headers: owner.auth,
    payload: config,
  });
  expect(put.statusCode, put.body).toBe(200);
  const p = await app.inject({
    method: 'POST',
    url: `${base}/products`,
    headers: owner.auth,
    payload: { nombre: 'Yerba', precio_venta: 1210, stock_actual: 1000 },
  });
  const producto = p.json().id as string;
  const probar = async (on: App = app) =>
    (await on.inject({ method: 'POST', url: `${base}/facturacion/probar`, headers: owner.auth })).json();
  const sell = async (on: App = app) => {
    const res = await on.inject({
      method: 'POST',
      url: '/api/v1/ventas/record-sale',
      headers: owner.auth,
      payload: { negocio_id: id, metodo_pago: 'efectivo', facturar: true, items: [{ id: producto, cantidad: 1 }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().comprobante as { id: string; estado: string };
  };
  const comprobante = async (cid: string) =>
    (await app.inject({ method: 'GET', url: `${base}/facturacion/comprobantes/${cid}`, headers: owner.auth })).json();
  const reupload = () =>
    app.inject({ method: 'PUT', url: `${base}/facturacion/config`, headers: owner.auth, payload: config });
  return { id, base, probar, sell, comprobante, reupload };
}

const tickets = (certPem: string) =>
  ctx.sql<{ servicio: string; token: string | null; vence: Date | null; espera_hasta: Date | null }>(
    'SELECT servicio, token, vence, espera_hasta FROM arca_tickets_acceso WHERE certificado = $1 ORDER BY servicio',
    [certFingerprint(certPem)],
  );

const settle = async () => {
  await Promise.all([app.facturacion.idle(), other.facturacion.idle()]);
};

describe('WSAA tickets: one per certificate and service', () => {
  it('two businesses with one certificate share its ticket; uploading the same certificate again keeps it', async () => {
    const cuit = '30-71111111-1';
    const cert = certificado(cuit);
    const a = await shop('Casa Central', cuit, cert);
    const b = await shop('Sucursal Norte', cuit, cert);
    const before = fake.logins;
    expect(await a.probar()).toMatchObject({ ok: true, codigo: 'ok' });
    expect(await b.probar()).toMatchObject({ ok: true, codigo: 'ok' });
    expect(fake.logins - before).toBe(1);
    const [ta] = await tickets(cert.certPem);
    expect(ta).toMatchObject({ servicio: 'wsfe', token: expect.any(String) });

    // Both invoice with it.
    const fa = await a.sell();
    const fb = await b.sell();
    await settle();
    expect(await a.comprobante(fa.id)).toMatchObject({ estado: 'autorizado' });
    expect(await b.comprobante(fb.id)).toMatchObject({ estado: 'autorizado' });

    // The same certificate uploaded again: the ticket stays, no login.
    expect((await a.reupload()).statusCode).toBe(200);
    expect(await a.probar()).toMatchObject({ ok: true });
    expect(await tickets(cert.certPem)).toEqual([ta]);
    expect(fake.logins - before).toBe(1);

    // Another certificate of the same CUIT has a ticket of its own.
    const nuevo = certificado(cuit);
    const c = await shop('Sucursal Sur', cuit, nuevo);
    expect(await c.probar()).toMatchObject({ ok: true });
    expect(fake.logins - before).toBe(2);
    expect(await tickets(cert.certPem)).toEqual([ta]);
  });

  it('concurrent first invoices of two businesses on two instances make a single loginCms', async () => {
    const cuit = '30-71222222-7';
    const cert = certificado(cuit);
    const a = await shop('Norte', cuit, cert);
    const b = await shop('Sur', cuit, cert);
    const before = fake.logins;
    const ventas = await Promise.all([a.sell(app), b.sell(other), a.sell(other), b.sell(app)]);
    await settle();
    await Promise.all([app.facturacion.runPending({ all: true }), other.facturacion.runPending({ all: true })]);
    await settle();
    expect(fake.logins - before).toBe(1);
    const estados = await Promise.all(ventas.map((v, k) => (k % 2 ? b : a).comprobante(v.id)));
    expect(estados.map((c) => c.estado)).toEqual(['autorizado', 'autorizado', 'autorizado', 'autorizado']);
    expect(fake.approved(cuit, 3, 6)).toHaveLength(4);
  });

  it('a renewal ARCA refuses while the ticket is valid goes on with the stored ticket', async () => {
    const cuit = '30-71333333-2';
    const cert = certificado(cuit);
    const s = await shop('Renueva', cuit, cert);
    expect(await s.probar()).toMatchObject({ ok: true });
    // Our record says it is about to expire (clocks apart); ARCA's, that it is still valid: alreadyAuthenticated.
    await ctx.sql(`UPDATE arca_tickets_acceso SET vence = now() + interval '10 seconds' WHERE certificado = $1`, [
      certFingerprint(cert.certPem),
    ]);
    const [ta] = await tickets(cert.certPem);
    const before = fake.logins;
    expect(await s.probar()).toMatchObject({ ok: true, codigo: 'ok' });
    expect(fake.logins - before).toBe(1);
    expect(await tickets(cert.certPem)).toEqual([ta]);
  });

  it('a ticket ARCA holds and Mostrador lost: says until when invoicing waits, invoices stay pendiente and go out once it expired', async () => {
    const cuit = '30-71444444-8';
    const cert = certificado(cuit);
    const s = await shop('Perdido', cuit, cert);
    expect(await s.probar()).toMatchObject({ ok: true });
    // The stored ticket is lost (another system took it, a restored backup…).
    await ctx.sql('DELETE FROM arca_tickets_acceso WHERE certificado = $1', [certFingerprint(cert.certPem)]);

    const t0 = Date.now();
    const f = await s.sell();
    await settle();
    const pendiente = await s.comprobante(f.id);
    expect(pendiente).toMatchObject({ estado: 'pendiente', numero: null, error_codigo: null });
    expect(pendiente.error_mensaje).toMatch(
      /^ARCA ya entregó un ticket de acceso vigente para este certificado \(servicio «wsfe»\) y Mostrador no lo tiene guardado .* la facturación espera como máximo hasta el \d{2}\/\d{2} \d{2}:\d{2} \(hora de Argentina\)\. Los comprobantes quedan pendientes y salen solos después; el certificado está bien, no hace falta cambiarlo\.$/,
    );
    const probar = await s.probar();
    expect(probar).toMatchObject({ ok: false, codigo: 'ticket_en_uso', mensaje: pendiente.error_mensaje });
    expect(probar.detalle).toBe(
      'coe.alreadyAuthenticated: El CEE ya posee un TA valido para el acceso al WSN solicitado',
    );
    const hasta = Date.parse(probar.espera_hasta);
    expect(hasta).toBeGreaterThanOrEqual(t0 + 12 * 3600_000);
    expect(hasta).toBeLessThan(Date.now() + 12 * 3600_000 + 1000);
    const [row] = await tickets(cert.certPem);
    expect(row).toMatchObject({ token: null });
    expect(row.espera_hasta!.getTime()).toBe(hasta);

    // Still before the ticket expires: the pass leaves it pendiente, with the same wait.
    ahead = 2 * 60_000;
    await app.facturacion.runPending({ all: true });
    await settle();
    expect(await s.comprobante(f.id)).toMatchObject({ estado: 'pendiente', error_mensaje: pendiente.error_mensaje });
    expect(fake.approved(cuit, 3, 6)).toHaveLength(0);

    // ARCA's ticket expired (both clocks move 12 hours): the next pass logs in and issues it.
    fake.setFaults({ clock_offset_ms: 12 * 3600_000 + 60_000 });
    ahead = 12 * 3600_000 + 60_000;
    await app.facturacion.runPending({ all: true });
    await settle();
    ahead = 0; // the owner's session lives on our clock
    expect(await s.comprobante(f.id)).toMatchObject({ estado: 'autorizado', numero: 1, error_mensaje: null });
    expect(fake.approved(cuit, 3, 6)).toHaveLength(1);
    expect(await tickets(cert.certPem)).toEqual([
      expect.objectContaining({ servicio: 'wsfe', token: expect.any(String), espera_hasta: null }),
    ]);
  });
});

describe('Probar conexión tells the problems apart', () => {
  const diagnose = async (s: { probar: () => Promise<Record<string, unknown>> }) => {
    const r = await s.probar();
    expect(r.ok).toBe(r.codigo === 'ok');
    return r;
  };

  it('certificate problems: expired, not the key’s, not ARCA’s', async () => {
    const cuit = '30-71555555-3';
    // Issued by ARCA three years ago (valid two).
    const vencido = await shop(
      'Vencido',
      cuit,
      certificado(cuit, fake.ca, new Date(Date.now() - 3 * 365 * 24 * 3600_000)),
    );
    expect(await diagnose(vencido)).toMatchObject({
      codigo: 'certificado_vencido',
      mensaje: 'El certificado de ARCA está vencido: generá uno nuevo.',
    });

    const ajeno = await shop('Ajeno', cuit, certificado(cuit, makeCa()));
    expect(await diagnose(ajeno)).toMatchObject({
      codigo: 'certificado_no_confiable',
      mensaje: expect.stringMatching(/^ARCA no reconoce el certificado: no lo emitió ARCA/),
      detalle: 'cms.cert.untrusted: Certificado no emitido por AC de confianza',
    });

    // A certificate that is not the stored key's (a backup restored half): caught before ARCA.
    const bueno = certificado(cuit);
    const mezcla = await shop('Mezcla', cuit, bueno);
    await ctx.sql('UPDATE facturacion_config SET certificado_pem = $2 WHERE business_id = $1', [
      mezcla.id,
      certificado(cuit).certPem,
    ]);
    expect(await diagnose(mezcla)).toMatchObject({
      codigo: 'clave_no_corresponde',
      mensaje: expect.stringMatching(/^El certificado no corresponde a la clave privada guardada\./),
    });
    // The control: the pair as uploaded works.
    expect(await diagnose(await shop('Par', cuit, bueno))).toMatchObject({ codigo: 'ok' });
  });

  it('a service the certificate is not associated with', async () => {
    const cuit = '30-71666666-9';
    const s = await shop('Sin Servicio', cuit, certificado(cuit));
    fake.registrar(cuit, { servicios: ['ws_sr_constancia_inscripcion'] });
    expect(await diagnose(s)).toMatchObject({
      codigo: 'servicio_no_autorizado',
      mensaje: expect.stringMatching(/^El certificado no está autorizado para el servicio «wsfe»/),
      detalle: 'coe.notAuthorized: Computador no autorizado a acceder al servicio',
    });
    fake.registrar(cuit, { servicios: ['wsfe', 'ws_sr_constancia_inscripcion'] });
    expect(await diagnose(s)).toMatchObject({ codigo: 'ok' });
  });

  it('a punto de venta not enabled for web services, or blocked', async () => {
    const cuit = '30-71777777-4';
    const s = await shop('Puntos', cuit, certificado(cuit), { punto_venta: 6, registrar: false });
    fake.registrar(cuit, { puntos_venta: [2, { nro: 9, emision_tipo: 'CAEA' }] });
    expect(await diagnose(s)).toMatchObject({
      codigo: 'punto_venta_no_habilitado',
      mensaje: expect.stringMatching(
        /^El punto de venta 6 no está habilitado para factura electrónica por web services en ARCA/,
      ),
      detalle: 'Habilitados en ARCA: 2, 9.',
    });
    fake.registrar(cuit, { puntos_venta: [{ nro: 6, bloqueado: true }] });
    expect(await diagnose(s)).toMatchObject({
      codigo: 'punto_venta_bloqueado',
      mensaje: expect.stringMatching(/^El punto de venta 6 está bloqueado o dado de baja en ARCA/),
    });
    fake.registrar(cuit, { puntos_venta: [{ nro: 6, bloqueado: false }] });
    expect(await diagnose(s)).toMatchObject({
      codigo: 'ok',
      detalle: 'Servidores: OK/OK/OK. Último comprobante del punto de venta 6: 0.',
    });
  });

  it('connectivity: ARCA unreachable, or too slow', async () => {
    const cuit = '20-40000000-0';
    const s = await shop('Red', cuit, certificado(cuit));
    fake.setFaults({ down: true });
    expect(await diagnose(s)).toMatchObject({
      codigo: 'sin_conexion',
      mensaje: expect.stringMatching(/^No se pudo conectar con ARCA: revisá la conexión a internet del servidor/),
    });
    fake.setFaults({ down: false, slow_ms: 1500 });
    expect(await diagnose(s)).toMatchObject({
      codigo: 'tiempo_agotado',
      mensaje: expect.stringMatching(/^ARCA no respondió a tiempo/),
    });
    fake.setFaults({ slow_ms: 0 });
    expect(await diagnose(s)).toMatchObject({ codigo: 'ok' });
  });

  it('without a setup or a certificate', async () => {
    const id = await createBusiness(app, owner, 'Sin Config');
    const r = await app.inject({
      method: 'POST',
      url: `/api/v1/businesses/${id}/facturacion/probar`,
      headers: owner.auth,
    });
    expect(r.json()).toEqual({
      ok: false,
      codigo: 'sin_configurar',
      mensaje: 'Configurá la facturación (CUIT, punto de venta y certificado) en Facturación → Configuración.',
      detalle: null,
      espera_hasta: null,
    });
  });
});
