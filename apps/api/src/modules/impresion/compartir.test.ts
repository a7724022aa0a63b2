import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, siblingApp } from '../../test/app.js';
import { addMember, createBusiness, registerUser } from '../../test/fixtures.js';
import { leerPdf } from '../../test/pdf.js';
import { startSmtpPeer } from '../../test/smtp.js';
import { FakeArca } from '../facturacion/fake/fake-arca.js';
import { firmarEnlace, leerEnlace, telefonoWhatsapp } from './compartir.js';

/*
 * Issue 35: a ticket, an invoice, a cobro receipt or an estado de cuenta shared by a signed link
 * that needs no session and expires, with the customer's wa.me link, and by e-mail through SMTP.
 */

const smtp = await startSmtpPeer();
const fake = new FakeArca();
await fake.listen(0);
afterAll(() => fake.close());
// The real day (ARCA's fake checks an invoice's date against it), held still.
let clock = new Date(Math.floor(Date.now() / 1000) * 1000);
// Without SMTP (signups need no confirmation); a second instance on the same database has it.
const ctx = await createTestApp({
  publicUrl: 'https://mostrador.test',
  now: () => clock,
  arca: { urls: fake.urls, timeoutMs: 5000, waitMs: 8000, workerMs: 0, concurrency: 2 },
});
const { app } = ctx;
const conSmtp = await siblingApp(ctx, { smtpUrl: smtp.url, publicUrl: 'https://mostrador.test', now: () => clock });
const owner = await registerUser(app, 'Comparte');
const biz = await createBusiness(app, owner, 'Librería Ñandú');
const base = `/api/v1/businesses/${biz}`;
const post = (url: string, payload: object, u = owner) =>
  app.inject({ method: 'POST', url: `${base}${url}`, headers: u.auth, payload });
const medios = (await app.inject({ method: 'GET', url: `${base}/medios-pago`, headers: owner.auth })).json() as {
  id: string;
  nombre: string;
}[];
const medio = (n: string) => medios.find((m) => m.nombre === n)!.id;
const libro = (await post('/products', { nombre: 'Cuaderno rayado', precio_venta: 2500, stock_actual: 50 })).json();
const cliente = (
  await post('/clientes', {
    nombre: 'Begoña',
    apellido: 'Ibáñez',
    telefono: '011 15-4123-4567',
    email: 'begona@ejemplo.com',
    limite_credito: 100000,
  })
).json() as { id: string };
const venta = (
  await app.inject({
    method: 'POST',
    url: '/api/v1/ventas/record-sale',
    headers: owner.auth,
    payload: {
      negocio_id: biz,
      cliente_id: cliente.id,
      items: [{ id: libro.id, tipo: 'producto', cantidad: 2 }],
      pagos: [{ medio_pago_id: medio('Cuenta corriente'), monto: 5000 }],
    },
  })
).json() as { id: string; numero: number };
const cobro = (
  await post(`/clientes/${cliente.id}/cobros`, { monto: 2000, medio_pago_id: medio('Efectivo') })
).json() as {
  id: string;
  numero: number;
};

const abrir = (url: string) => app.inject({ method: 'GET', url: url.replace('https://mostrador.test', '') });

describe('compartir un documento', () => {
  it('gives a link that opens the PDF without a session, and a wa.me link with the customer’s phone', async () => {
    const res = await post('/documentos/compartir', { tipo: 'ticket', id: venta.id });
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json();
    expect(c.url).toMatch(/^https:\/\/mostrador\.test\/api\/v1\/documentos\/[\w-]+\.[\w-]{43}$/);
    const vence = new Date(clock.getTime() + 7 * 86_400_000);
    expect(c.vence).toBe(vence.toISOString());
    const dia = new Intl.DateTimeFormat('es-AR', {
      dateStyle: 'short',
      timeZone: 'America/Argentina/Buenos_Aires',
    }).format(vence);
    expect(c.email_enviado).toBe(false);
    const wa = new URL(c.whatsapp_url);
    expect(wa.origin + wa.pathname).toBe('https://wa.me/5491141234567');
    expect(wa.searchParams.get('text')).toBe(
      `Hola Begoña Ibáñez, te compartimos Venta #${venta.numero} de Librería Ñandú: ${c.url} (el enlace vence el ${dia}).`,
    );

    const pdf = await abrir(c.url);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['cache-control']).toBe('private, no-store');
    expect(pdf.headers['content-disposition']).toBe(`inline; filename="Venta #${venta.numero}.pdf"`);
    const read = await leerPdf(pdf.rawPayload);
    expect(read.titulo).toBe(`Venta #${venta.numero}`);
    expect(read.textos).toEqual(
      expect.arrayContaining(['Librería Ñandú', `Venta #${venta.numero}`, 'Cliente: Begoña Ibáñez', 'Cuaderno rayado']),
    );
    expect(read.textos.some((t) => /^TOTAL +\$ 5\.000,00$/.test(t))).toBe(true);
  });

  it('expires: after seven days the link answers 410, and a tampered link 404', async () => {
    const c = (await post('/documentos/compartir', { tipo: 'cobro', id: cobro.id })).json();
    const ok = await abrir(c.url);
    expect(ok.statusCode).toBe(200);
    expect((await leerPdf(ok.rawPayload)).textos).toEqual(
      expect.arrayContaining([`Recibo #${cobro.numero}`, 'Recibimos de Begoña Ibáñez']),
    );
    const token = c.url.split('/').pop() as string;
    const [body, sig] = token.split('.');
    // Another document's id under the same signature; a signature cut short; garbage.
    const other = Buffer.from(
      JSON.stringify([biz, 'cobro', venta.id, JSON.parse(Buffer.from(body, 'base64url').toString())[3]]),
    ).toString('base64url');
    for (const bad of [`${other}.${sig}`, `${body}.${sig.slice(1)}x`, 'nada', `${body}.${'A'.repeat(43)}`]) {
      const r = await app.inject({ method: 'GET', url: `/api/v1/documentos/${bad}` });
      expect(r.statusCode, bad).toBe(404);
      expect(r.json().detail).toBe('El enlace no es válido.');
    }

    const saved = clock;
    clock = new Date(saved.getTime() + 7 * 86_400_000 - 1000);
    expect((await abrir(c.url)).statusCode).toBe(200);
    clock = new Date(saved.getTime() + 7 * 86_400_000);
    const gone = await abrir(c.url);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().detail).toBe('El enlace venció: pedile al comercio que te lo comparta de nuevo.');
    // Opened in a browser: a page that says so.
    const page = await app.inject({
      method: 'GET',
      url: c.url.replace('https://mostrador.test', ''),
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    expect(page.statusCode).toBe(410);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<p>El enlace venció: pedile al comercio que te lo comparta de nuevo.</p>');
    clock = saved;
  });

  it('sends the link by e-mail through SMTP; without SMTP it says so', async () => {
    const res = await conSmtp.inject({
      method: 'POST',
      url: `${base}/documentos/compartir`,
      headers: owner.auth,
      payload: { tipo: 'estado_cuenta', id: cliente.id, email: 'begona@ejemplo.com' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().email_enviado).toBe(true);
    const mail = smtp.messages.find((m) => m.to.includes('begona@ejemplo.com'))!;
    expect(mail.raw).toContain('Subject: =?UTF-8?');
    const link = mail.raw
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=')
      .match(/https:\/\/mostrador\.test\/api\/v1\/documentos\/[\w.-]+/)?.[0];
    expect(link).toBe(res.json().url);
    const pdf = await leerPdf((await abrir(link!)).rawPayload);
    expect(pdf.textos).toEqual(expect.arrayContaining(['ESTADO DE CUENTA', 'Begoña Ibáñez']));
    expect(pdf.textos.some((t) => /^SALDO +\$ 3\.000,00$/.test(t))).toBe(true);

    const refused = await post('/documentos/compartir', { tipo: 'ticket', id: venta.id, email: 'begona@ejemplo.com' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe(
      'El envío por e-mail no está configurado en este servidor: compartí el enlace o por WhatsApp.',
    );
  });

  it("refuses another business's documents (404), bad input (422) and members who may not see them (403)", async () => {
    const other = await createBusiness(app, owner, 'Otra librería');
    for (const [tipo, id] of [
      ['ticket', venta.id],
      ['cobro', cobro.id],
      ['estado_cuenta', cliente.id],
    ]) {
      const r = await app.inject({
        method: 'POST',
        url: `/api/v1/businesses/${other}/documentos/compartir`,
        headers: owner.auth,
        payload: { tipo, id },
      });
      expect(r.statusCode, tipo).toBe(404);
    }
    const bad = await post('/documentos/compartir', { tipo: 'cierre', id: 'x', email: 'no-es-mail' });
    expect(bad.statusCode).toBe(422);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['email', 'id', 'tipo']);
    const vendedor = await registerUser(app, 'Vendedor');
    await addMember(ctx, biz, owner, vendedor, ['puede_ver_ventas']);
    expect((await post('/documentos/compartir', { tipo: 'ticket', id: venta.id }, vendedor)).statusCode).toBe(200);
    expect((await post('/documentos/compartir', { tipo: 'estado_cuenta', id: cliente.id }, vendedor)).statusCode).toBe(
      403,
    );
    expect((await app.inject({ method: 'POST', url: `${base}/documentos/compartir`, payload: {} })).statusCode).toBe(
      401,
    );
  });

  it('shares an authorised invoice, CAE and ARCA’s QR included', async () => {
    const RI = '30-71234567-1';
    fake.cuits.set(RI, { condicion: 'responsable_inscripto', puntos_venta: [{ nro: 5 }] });
    const id = await createBusiness(app, owner, 'Factura Compartida');
    const r = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      app.inject({
        method,
        url: `/api/v1/businesses/${id}${url}`,
        headers: owner.auth,
        ...(payload ? { payload } : {}),
      });
    const csr = await r('POST', '/facturacion/csr', { cuit: RI, razon_social: 'Factura Compartida SRL' });
    const put = await r('PUT', '/facturacion/config', {
      cuit: RI,
      razon_social: 'Factura Compartida SRL',
      condicion_iva: 'responsable_inscripto',
      punto_venta: 5,
      certificado_pem: fake.certificateFor(csr.json().csr_pem),
      facturar: 'elegir',
    });
    expect(put.statusCode, put.body).toBe(200);
    const p = (await r('POST', '/products', { nombre: 'Lápiz', precio_venta: 121, stock_actual: 10 })).json();
    const sale = await app.inject({
      method: 'POST',
      url: '/api/v1/ventas/record-sale',
      headers: owner.auth,
      payload: { negocio_id: id, metodo_pago: 'efectivo', items: [{ id: p.id, tipo: 'producto', cantidad: 1 }] },
    });
    const emitida = await r('POST', '/facturacion/comprobantes', { venta_id: sale.json().id });
    expect(emitida.statusCode, emitida.body).toBe(201);
    let c = emitida.json();
    for (let i = 0; i < 100 && c.estado !== 'autorizado'; i++) {
      await new Promise((ok) => setTimeout(ok, 100));
      c = (await r('GET', `/facturacion/comprobantes/${c.id}`)).json();
    }
    expect(c.estado).toBe('autorizado');
    const shared = await r('POST', '/documentos/compartir', { tipo: 'factura', id: c.id });
    expect(shared.statusCode).toBe(200);
    // No customer: WhatsApp asks whom to send it to.
    expect(shared.json().whatsapp_url).toMatch(/^https:\/\/wa\.me\/\?text=/);
    const pdf = await leerPdf((await abrir(shared.json().url)).rawPayload);
    expect(pdf.titulo).toMatch(/^Factura B 0005-0000000\d$/);
    expect(pdf.textos).toEqual(expect.arrayContaining(['FACTURA B', `CAE N.º: ${c.cae}`, 'Lápiz']));
    expect(pdf.qr).toEqual([c.qr_url]);
  });
});

describe('el enlace y el teléfono', () => {
  const key = new TextEncoder().encode('una-clave-de-pruebas-de-treinta-y-dos-bytes');
  it('reads back only what it signed', () => {
    const e = { negocio: 'b', tipo: 'ticket' as const, id: 'x', vence: 2_000_000_000 };
    const t = firmarEnlace(key, e);
    expect(leerEnlace(key, t)).toEqual(e);
    expect(leerEnlace(new TextEncoder().encode('otra-clave-de-pruebas-de-treinta-y-dos-b'), t)).toBeNull();
    expect(leerEnlace(key, firmarEnlace(key, { ...e, tipo: 'cierre' as never }))).toBeNull();
  });

  it('writes Argentine phones as wa.me wants them', () => {
    expect(telefonoWhatsapp('011 15-4123-4567')).toBe('5491141234567');
    expect(telefonoWhatsapp('+54 9 11 4123-4567')).toBe('5491141234567');
    expect(telefonoWhatsapp('0351 15 512-3456')).toBe('5493515123456');
    expect(telefonoWhatsapp('(0299) 154-123456')).toBe('5492994123456');
    expect(telefonoWhatsapp('11 4123 4567')).toBe('5491141234567');
    expect(telefonoWhatsapp('4123-4567')).toBeNull();
    expect(telefonoWhatsapp(null)).toBeNull();
  });
});
