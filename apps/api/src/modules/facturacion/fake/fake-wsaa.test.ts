import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import * as arca from '../arca-client.js';
import { ArcaError } from '../arca-client.js';
import { generateKeyAndCsr, loginTicketRequest, makeCa, signCms, signCsr } from '../arca-crypto.js';
import { envelope } from '../soap.js';
import { FakeArca } from './fake-arca.js';
import { WSAA_FAULTS } from './wsaa.js';

/*
 * The fake ARCA's WSAA is as strict as ARCA's (decision 0039): over its SOAP, as the client speaks
 * it, each refusal with WSAA's code and text, each with the good request beside it (negative
 * control); and the lenient switch brings back the first fake.
 */

const fake = new FakeArca();
await fake.listen(0);
afterAll(() => fake.close());
const T = 5_000;
const CUIT = '30-71111111-1';

beforeEach(() => fake.reset());

/** A key and a certificate from the fake's CA (ARCA's portal), or from `ca` and at `at`. */
function certificado(cuit = CUIT, ca?: { certPem: string; keyPem: string }, at?: Date) {
  const { keyPem, csrPem } = generateKeyAndCsr(cuit, 'Pruebas SA');
  return { keyPem, certPem: ca ? signCsr(csrPem, ca, at) : fake.certificateFor(csrPem) };
}

const login = (cms: string) => arca.loginCms(fake.urls.wsaa, cms, T);
const tra = (service = 'wsfe', now = new Date()) => loginTicketRequest(service, now);
/** The ARCA error code and text a login got ('ok' when it got a ticket). */
const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: ArcaError) => `${e.codigo}: ${e.message}`,
  );

describe('fake WSAA: loginCms', () => {
  it('issues a ticket for a CMS signed by the certificate’s key; a second one while it is valid is coe.alreadyAuthenticated', async () => {
    const c = certificado();
    const ta = await login(signCms(tra(), c.certPem, c.keyPem));
    expect(ta.token).toBeTruthy();
    expect(ta.vence.getTime() - ta.generado.getTime()).toBe(12 * 3600_000);
    expect(await outcome(login(signCms(tra(), c.certPem, c.keyPem)))).toBe(
      `coe.alreadyAuthenticated: ${WSAA_FAULTS.alreadyAuthenticated}`,
    );
    // Another service of the same certificate has a ticket of its own.
    expect(await outcome(login(signCms(tra('ws_sr_constancia_inscripcion'), c.certPem, c.keyPem)))).toBe('ok');
    // Once the ticket expired (the fake's clock moved), a new login is answered.
    fake.setFaults({ clock_offset_ms: 12 * 3600_000 + 1000 });
    expect(await outcome(login(signCms(tra('wsfe', fake.now()), c.certPem, c.keyPem)))).toBe('ok');
  });

  it('refuses a tampered CMS and one signed by another key (cms.sign.invalid)', async () => {
    const c = certificado();
    const good = signCms(tra(), c.certPem, c.keyPem);
    const raw = Buffer.from(good, 'base64').toString('binary');
    expect(raw).toContain('<service>wsfe</service>');
    const tampered = Buffer.from(raw.replace('<service>wsfe</service>', '<service>wsfX</service>'), 'binary');
    expect(await outcome(login(tampered.toString('base64')))).toBe(`cms.sign.invalid: ${WSAA_FAULTS.signInvalid}`);
    const other = generateKeyAndCsr(CUIT, 'Otra');
    expect(await outcome(login(signCms(tra(), c.certPem, other.keyPem)))).toBe(
      `cms.sign.invalid: ${WSAA_FAULTS.signInvalid}`,
    );
    expect(await outcome(login(good))).toBe('ok');
  });

  it('refuses a certificate of a foreign CA, an expired one and one not valid yet', async () => {
    const foreign = certificado(CUIT, makeCa());
    expect(await outcome(login(signCms(tra(), foreign.certPem, foreign.keyPem)))).toBe(
      `cms.cert.untrusted: ${WSAA_FAULTS.untrusted}`,
    );
    // The fake's own CA, but issued three years ago (valid two).
    const expired = certificado(CUIT, fake.ca, new Date(Date.now() - 3 * 365 * 24 * 3600_000));
    expect(await outcome(login(signCms(tra(), expired.certPem, expired.keyPem)))).toBe(
      `cms.cert.expired: ${WSAA_FAULTS.expired}`,
    );
    const future = certificado(CUIT, fake.ca, new Date(Date.now() + 24 * 3600_000));
    expect(await outcome(login(signCms(tra(), future.certPem, future.keyPem)))).toBe(
      `cms.cert.invalid: ${WSAA_FAULTS.notYetValid}`,
    );
    const good = certificado(CUIT, fake.ca);
    expect(await outcome(login(signCms(tra(), good.certPem, good.keyPem)))).toBe('ok');
  });

  it('checks the TRA window and the service', async () => {
    const c = certificado();
    const sign = (content: string) => signCms(content, c.certPem, c.keyPem);
    // Generated an hour ahead of ARCA's clock.
    expect(await outcome(login(sign(tra('wsfe', new Date(Date.now() + 3600_000)))))).toBe(
      `xml.generationTime.invalid: ${WSAA_FAULTS.generationTime}`,
    );
    // Its window closed an hour ago.
    expect(await outcome(login(sign(tra('wsfe', new Date(Date.now() - 3600_000)))))).toBe(
      `xml.expirationTime.expired: ${WSAA_FAULTS.expirationTime}`,
    );
    // A window longer than 24 hours.
    const wide = tra().replace(
      /<expirationTime>[^<]+</,
      `<expirationTime>${new Date(Date.now() + 30 * 3600_000).toISOString()}<`,
    );
    expect(await outcome(login(sign(wide)))).toBe(`xml.generationTime.invalid: ${WSAA_FAULTS.generationTime}`);
    expect(await outcome(login(sign(tra('wsfacturas'))))).toBe(`wsn.notFound: ${WSAA_FAULTS.serviceNotFound}`);
    // A CUIT whose certificates are associated with the padrón only.
    const otro = certificado('30-71222222-7');
    fake.registrar('30-71222222-7', { servicios: ['ws_sr_constancia_inscripcion'] });
    expect(await outcome(login(signCms(tra(), otro.certPem, otro.keyPem)))).toBe(
      `coe.notAuthorized: ${WSAA_FAULTS.notAuthorized}`,
    );
    expect(await outcome(login(signCms(tra('ws_sr_constancia_inscripcion'), otro.certPem, otro.keyPem)))).toBe('ok');
    expect(await outcome(login(sign(tra())))).toBe('ok');
  });

  it('TRAs made in the same instant carry different uniqueIds', () => {
    const now = new Date();
    const ids = new Set(
      Array.from({ length: 200 }, () => /<uniqueId>(\d+)<\/uniqueId>/.exec(loginTicketRequest('wsfe', now))![1]),
    );
    expect(ids.size).toBe(200);
  });
});

describe('fake WSFE and padrón: Token, Sign and expiry', () => {
  it('take the Token only with its Sign, for its CUIT, while it lasts', async () => {
    const cuit = '30-71333333-2';
    fake.registrar(cuit, { puntos_venta: [1] });
    const c = certificado(cuit);
    const ta = await login(signCms(tra(), c.certPem, c.keyPem));
    const creds = { token: ta.token, sign: ta.sign, cuit: cuit.replace(/-/g, '') };
    expect(await arca.ultimoAutorizado(fake.urls.wsfe, creds, 1, 6, T)).toBe(0);
    await expect(arca.ultimoAutorizado(fake.urls.wsfe, { ...creds, sign: 'otro' }, 1, 6, T)).rejects.toMatchObject({
      codigo: '600',
      message: 'ValidacionDeToken: No validaron las credenciales: el Sign no corresponde al Token.',
    });
    await expect(
      arca.ultimoAutorizado(fake.urls.wsfe, { ...creds, cuit: '30711111111' }, 1, 6, T),
    ).rejects.toMatchObject({
      codigo: '600',
      message: 'ValidacionDeToken: No apareció CUIT en lista de relaciones: 30711111111',
    });

    const padron = await login(signCms(tra('ws_sr_constancia_inscripcion'), c.certPem, c.keyPem));
    const pc = { token: padron.token, sign: padron.sign, cuit: creds.cuit };
    expect((await arca.getPersona(fake.urls.padron, pc, '30500010912', T)).nombre).toBe('DISTRIBUIDORA EL TREBOL SA');
    await expect(arca.getPersona(fake.urls.padron, { ...pc, sign: 'otro' }, '30500010912', T)).rejects.toMatchObject({
      message: expect.stringContaining('el Sign no corresponde al Token'),
    });
    // The WSFE ticket is not the padrón's.
    await expect(arca.getPersona(fake.urls.padron, creds, '30500010912', T)).rejects.toBeInstanceOf(ArcaError);

    fake.setFaults({ clock_offset_ms: 12 * 3600_000 + 1000 });
    await expect(arca.ultimoAutorizado(fake.urls.wsfe, creds, 1, 6, T)).rejects.toMatchObject({
      codigo: '600',
      message: expect.stringMatching(
        /^ValidacionDeToken: No validaron las fechas del token GenTime, ExpTime, NowUTC: \d+ /,
      ),
    });
    await expect(arca.getPersona(fake.urls.padron, pc, '30500010912', T)).rejects.toMatchObject({
      message: expect.stringContaining('No validaron las fechas del token'),
    });
  });

  it('FEParamGetPtosVenta answers the CUIT’s puntos de venta as ARCA’s WSDL shapes them; none is 602', async () => {
    const cuit = '30-71444444-8';
    const res = await fetch(`${fake.url}/__control/cuit`, {
      method: 'POST',
      body: JSON.stringify({ cuit, condicion: 'monotributo', puntos_venta: [{ nro: 4, bloqueado: true }, { nro: 2 }] }),
    });
    expect(await res.json()).toMatchObject({ condicion: 'monotributo', puntos_venta: [{ nro: 4 }, { nro: 2 }] });
    const c = certificado(cuit);
    const ta = await login(signCms(tra(), c.certPem, c.keyPem));
    const creds = { token: ta.token, sign: ta.sign, cuit: cuit.replace(/-/g, '') };
    const raw = await fetch(fake.urls.wsfe, {
      method: 'POST',
      headers: { 'content-type': 'text/xml' },
      body: envelope(
        `<ns:FEParamGetPtosVenta><ns:Auth><ns:Token>${ta.token}</ns:Token><ns:Sign>${ta.sign}</ns:Sign><ns:Cuit>${creds.cuit}</ns:Cuit></ns:Auth></ns:FEParamGetPtosVenta>`,
        'http://ar.gov.afip.dif.FEV1/',
      ),
    }).then((r) => r.text());
    expect(raw).toContain(
      '<FEParamGetPtosVentaResult><ResultGet><PtoVenta><Nro>2</Nro><EmisionTipo>CAE - Ws</EmisionTipo><Bloqueado>N</Bloqueado><FchBaja>NULL</FchBaja></PtoVenta>',
    );
    expect(await arca.puntosVenta(fake.urls.wsfe, creds, T)).toEqual([
      { nro: 2, emisionTipo: 'CAE - Ws', bloqueado: false, baja: null },
      { nro: 4, emisionTipo: 'CAE - Ws', bloqueado: true, baja: null },
    ]);
    const sinPuntos = '30-71555555-3';
    const c2 = certificado(sinPuntos);
    const ta2 = await login(signCms(tra(), c2.certPem, c2.keyPem));
    expect(
      await arca.puntosVenta(fake.urls.wsfe, { token: ta2.token, sign: ta2.sign, cuit: '30715555553' }, T),
    ).toEqual([]);
  });
});

describe('fake ARCA: the lenient switch', () => {
  it('brings back the first fake: any CMS, any number of logins, no Sign nor expiry check', async () => {
    const res = await fetch(`${fake.url}/__control`, { method: 'POST', body: JSON.stringify({ lenient: true }) });
    expect(((await res.json()) as { faults: object }).faults).toMatchObject({ lenient: true });
    const foreign = certificado('30-71666666-9', makeCa());
    const other = generateKeyAndCsr('30-71666666-9', 'Otra');
    const a = await login(signCms(tra(), foreign.certPem, other.keyPem));
    const b = await login(signCms(tra(), foreign.certPem, foreign.keyPem));
    expect(a.token).not.toBe(b.token);
    fake.setFaults({ clock_offset_ms: 13 * 3600_000 });
    expect(
      await arca.ultimoAutorizado(fake.urls.wsfe, { token: a.token, sign: 'x', cuit: '30716666669' }, 1, 6, T),
    ).toBe(0);
    // Off again: the same requests are refused.
    fake.reset();
    expect(await outcome(login(signCms(tra(), foreign.certPem, foreign.keyPem)))).toBe(
      `cms.cert.untrusted: ${WSAA_FAULTS.untrusted}`,
    );
    await expect(
      arca.ultimoAutorizado(fake.urls.wsfe, { token: a.token, sign: 'x', cuit: '30716666669' }, 1, 6, T),
    ).rejects.toMatchObject({ codigo: '600' });
  });
});
