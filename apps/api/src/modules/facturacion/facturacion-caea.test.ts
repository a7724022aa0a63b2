import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { enNegocio } from '../../db/tenant.js';
import { createTestApp } from '../../test/app.js';
import { cuitDe as cuit, tiendaArca } from '../../test/arca.js';
import { PASSWORD, registerUser } from '../../test/fixtures.js';
import * as arca from './arca-client.js';
import { ArcaError } from './arca-client.js';
import { FakeArca } from './fake/fake-arca.js';

/*
 * CAEA contingency (issue 32 point 6, decision 0047), through the routes against the strict fake:
 * the CAEA punto de venta checked with ARCA, the fortnight's CAEA requested ahead (FECAEAConsultar
 * after 15008), an outage past the setting issuing facturas and notas de crédito under the CAEA,
 * the report once WSFE answers (in order, from the day after the fortnight began), its rejections
 * with FECAEARegInformativo's own codes (manual v4.7), a report past FchTopeInf shown as such, and
 * the unused CAEA informed without movement. The app and the fake run on the same moved clock: 12
 * December 2026 at noon in Argentina (the second fortnight is due from the 11th).
 */

const fake = new FakeArca();
await fake.listen(0);
const reloj = { offset: 0 };
/** Both clocks at an instant (the fake's answers and windows follow it too). */
const a = (iso: string) => {
  reloj.offset = Date.parse(iso) - Date.now();
  fake.setFaults({ clock_offset_ms: reloj.offset });
};
a('2026-12-12T15:00:00Z');
const ctx = await createTestApp({
  now: () => new Date(Date.now() + reloj.offset),
  arca: { urls: fake.urls, timeoutMs: 1000, waitMs: 3000, workerMs: 0, concurrency: 2 },
});
const { app } = ctx;
afterAll(() => fake.close());
beforeEach(() => fake.setFaults({ down: false, reject_code: null }));
const owner = await registerUser(app, 'Caea');
/** The session, renewed when the clock jumps days ahead. */
const sesion = { auth: owner.auth };
async function relogin() {
  const login = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: `username=${encodeURIComponent(owner.email)}&password=${encodeURIComponent(PASSWORD)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(login.statusCode, login.body).toBe(200);
  sesion.auth = { authorization: `Bearer ${login.json().access_token}` };
}

interface Estado {
  punto_venta: number | null;
  tras_minutos: number;
  wsfe_sin_respuesta_desde: string | null;
  en_contingencia: boolean;
  vigente: {
    periodo: number;
    orden: number;
    caea: string | null;
    vig_desde: string;
    vig_hasta: string;
    tope_informe: string | null;
    error_codigo: string | null;
    error_mensaje: string | null;
    usados: number;
    sin_movimiento: string | null;
  } | null;
  proxima: Estado['vigente'];
  caeas: NonNullable<Estado['vigente']>[];
  por_informar: {
    id: string;
    tipo_label: string;
    numero: number;
    caea_informe: string;
    tope_informe: string | null;
    fuera_de_termino: boolean;
    informable_desde: string;
    error_mensaje: string | null;
  }[];
}

/** A responsable inscripto with CAE punto de venta 5 and, in ARCA, CAEA punto de venta 9. */
async function shop(nombre: string, base: string, extra: object = {}) {
  const t = await tiendaArca(app, fake, owner, {
    nombre,
    cuit: cuit(base),
    punto_venta: 5,
    puntos_venta_arca: [{ nro: 9, emision_tipo: 'CAEA' }],
    headers: () => sesion.auth,
  });
  const caea = await t.r('PUT', '/facturacion/config', { ...t.config, caea_punto_venta: 9, ...extra });
  expect(caea.statusCode, caea.body).toBe(200);
  const producto = await t.producto('Yerba', 1210);
  const vender = async () => {
    const v = await t.vender({ facturar: true, items: [{ id: producto.id, cantidad: 1 }] });
    await app.facturacion.idle();
    return v as { id: string; comprobante: { id: string } };
  };
  const estado = async (actualizar = false) => {
    const res = await t.r(
      actualizar ? 'POST' : 'GET',
      actualizar ? '/facturacion/caea/actualizar' : '/facturacion/caea',
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Estado;
  };
  const comprobante = async (cid: string) => (await t.r('GET', `/facturacion/comprobantes/${cid}`)).json();
  const anular = async (ventaId: string) => {
    expect((await t.r('POST', `/ventas/${ventaId}/anular`, {})).statusCode).toBe(200);
    await app.facturacion.idle();
  };
  const notas = async () =>
    (await t.r('GET', '/facturacion/comprobantes?tipo=nota_credito_b')).json().comprobantes as {
      id: string;
      estado: string;
      emision: string;
      punto_venta: number;
      numero: number;
      caea_informe: string | null;
    }[];
  const creds = () =>
    enNegocio(t.id, async () => app.facturacion.credentials((await app.facturacion.config(t.id))!, 'wsfe'));
  return { ...t, vender, estado, comprobante, anular, notas, creds };
}

/** WSFE down past the setting: what is attempted now goes under the CAEA. */
async function caido() {
  fake.setFaults({ down: true });
  await app.facturacion.runPending({ all: true });
  await app.facturacion.idle();
}

beforeEach(async () => {
  if (sesion.auth !== owner.auth) {
    a('2026-12-12T15:00:00Z');
    await relogin();
  }
});

describe('CAEA: the punto de venta and the setting', () => {
  it('takes only a punto de venta ARCA enabled for CAEA; keeps it and the minutes; answers them in the config', async () => {
    a('2026-12-12T15:00:00Z');
    const s = await shop('Caea Config', '3071000001', { caea_tras_minutos: 45 });
    const cfg = (await s.r('GET', '/facturacion/config')).json();
    expect(cfg).toMatchObject({ caea_punto_venta: 9, caea_tras_minutos: 45 });
    // A CAE punto de venta, one ARCA does not know, one blocked: refused, nothing changes.
    fake.registrar(s.cuit, { puntos_venta: [6, { nro: 11, emision_tipo: 'CAEA', bloqueado: true }] });
    for (const [pv, msg] of [
      [6, /no tiene el punto de venta 6 habilitado para CAEA/],
      [12, /no tiene el punto de venta 12 habilitado para CAEA/],
      [11, /punto de venta 11 bloqueado/],
    ] as const) {
      const res = await s.r('PUT', '/facturacion/config', { ...s.config, caea_punto_venta: pv });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors[0]).toMatchObject({ field: 'caea_punto_venta' });
      expect(res.json().errors[0].message).toMatch(msg);
    }
    // One of the CAE puntos de venta of the setup: refused before asking ARCA.
    const mismo = await s.r('PUT', '/facturacion/config', { ...s.config, caea_punto_venta: 5 });
    expect(mismo.statusCode).toBe(422);
    // ARCA down: it cannot be checked.
    fake.registrar(s.cuit, { puntos_venta: [{ nro: 10, emision_tipo: 'CAEA' }] });
    fake.setFaults({ down: true });
    const caido = await s.r('PUT', '/facturacion/config', { ...s.config, caea_punto_venta: 10 });
    fake.setFaults({ down: false });
    expect(caido.statusCode).toBe(503);
    expect((await s.r('GET', '/facturacion/config')).json()).toMatchObject({
      caea_punto_venta: 9,
      caea_tras_minutos: 45,
    });
    // Absent keeps; null clears; the minutes have bounds.
    expect((await s.r('PUT', '/facturacion/config', s.config)).json()).toMatchObject({ caea_punto_venta: 9 });
    expect((await s.r('PUT', '/facturacion/config', { ...s.config, caea_tras_minutos: 1441 })).statusCode).toBe(422);
    expect((await s.r('PUT', '/facturacion/config', { ...s.config, caea_punto_venta: null })).json()).toMatchObject({
      caea_punto_venta: null,
      caea_tras_minutos: 45,
    });
  });
});

describe('CAEA: requested ahead', () => {
  it('asks the fortnight’s CAEA and, from 5 days before, the next one; a second ask of the same CUIT gets it with FECAEAConsultar', async () => {
    a('2026-12-05T15:00:00Z');
    const s = await shop('Caea Pedido', '3071000002');
    const antes = await s.estado(true);
    expect(antes.vigente).toMatchObject({
      periodo: 202612,
      orden: 1,
      vig_desde: '2026-12-01',
      vig_hasta: '2026-12-15',
      tope_informe: '2026-12-23',
    });
    expect(antes.vigente!.caea).toMatch(/^\d{14}$/);
    // The 5th is more than 5 days before the 16th: the next one is not asked yet.
    expect(antes.proxima).toBeNull();
    expect([...fake.caeas.keys()].filter((k) => k.startsWith(s.digits))).toEqual([`${s.digits}|202612|1`]);

    a('2026-12-11T15:00:00Z');
    const ahora = await s.estado(true);
    expect(ahora.vigente!.caea).toBe(antes.vigente!.caea);
    expect(ahora.proxima).toMatchObject({
      periodo: 202612,
      orden: 2,
      vig_desde: '2026-12-16',
      vig_hasta: '2026-12-31',
    });
    expect(ahora.proxima!.caea).toBe(fake.caeas.get(`${s.digits}|202612|2`)!.caea);

    // Asked again (another instance, an answer lost): ARCA answers 15008 and FECAEAConsultar gives it.
    const creds = await s.creds();
    await expect(arca.caeaSolicitar(fake.urls.wsfe, creds, 202612, 2, 1000)).rejects.toMatchObject({ codigo: '15008' });
    expect((await arca.caeaConsultar(fake.urls.wsfe, creds, 202612, 2, 1000)).caea).toBe(ahora.proxima!.caea);
    // The app itself: its row lost, it asks again and keeps ARCA's.
    await ctx.sql(`DELETE FROM caeas WHERE business_id = $1 AND periodo = 202612 AND orden = 2`, [s.id]);
    expect((await s.estado(true)).proxima!.caea).toBe(ahora.proxima!.caea);
  });

  it('the fake refuses what ARCA refuses: out of the window, a bad periodo or orden, a CUIT without CAEA punto de venta', async () => {
    a('2026-12-12T15:00:00Z');
    const s = await shop('Caea Ventana', '3071000003');
    const creds = await s.creds();
    const code = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: ArcaError) => e.codigo,
      );
    expect(await code(arca.caeaSolicitar(fake.urls.wsfe, creds, 202701, 1, 1000))).toBe('15006');
    expect(await code(arca.caeaSolicitar(fake.urls.wsfe, creds, 202611, 2, 1000))).toBe('15006');
    expect(await code(arca.caeaSolicitar(fake.urls.wsfe, creds, 202613, 1, 1000))).toBe('15004');
    expect(await code(arca.caeaSolicitar(fake.urls.wsfe, creds, 202612, 3, 1000))).toBe('15005');
    expect(await code(arca.caeaConsultar(fake.urls.wsfe, creds, 202612, 1, 1000))).toBe('602');
    expect(await code(arca.caeaSolicitar(fake.urls.wsfe, creds, 202612, 1, 1000))).toBe('ok');
    // Without a CAEA punto de venta in ARCA: 15003, kept with its reason and shown in Spanish.
    fake.registrar(s.cuit, { puntos_venta: [{ nro: 9, emision_tipo: 'CAE' }] });
    const e = await s.estado(true);
    fake.registrar(s.cuit, { puntos_venta: [{ nro: 9, emision_tipo: 'CAEA' }] });
    expect(e.proxima).toMatchObject({ caea: null, error_codigo: '15003' });
    expect(e.proxima!.error_mensaje).toMatch(/no tiene puntos de venta para CAEA/);
    // Only for contingencies (RG 5782): without an active CAE punto de venta, 15016.
    fake.registrar(s.cuit, { puntos_venta: [{ nro: 5, bloqueado: true }] });
    expect(await code(arca.caeaSolicitar(fake.urls.wsfe, creds, 202612, 2, 1000))).toBe('15016');
    fake.registrar(s.cuit, { puntos_venta: [{ nro: 5 }] });
    expect(await code(arca.caeaSolicitar(fake.urls.wsfe, creds, 202612, 2, 1000))).toBe('ok');
  });
});

describe('CAEA: an outage past the setting', () => {
  it('issues facturas and the void’s nota de crédito under the CAEA, prints them valid, and reports them in order when WSFE answers', async () => {
    a('2026-12-12T15:00:00Z');
    const s = await shop('Caea Corte', '3071000004', { caea_tras_minutos: 30 });
    const { vigente } = await s.estado(true);
    const code = vigente!.caea!;

    fake.setFaults({ down: true });
    const primera = await s.vender();
    // WSFE just stopped answering: the invoice waits (not yet past the 30 minutes).
    expect(await s.comprobante(primera.comprobante.id)).toMatchObject({
      estado: 'pendiente',
      emision: 'cae',
      numero: null,
    });
    const marcada = await s.estado();
    expect(marcada.wsfe_sin_respuesta_desde).not.toBeNull();
    expect(marcada.en_contingencia).toBe(false);

    a('2026-12-12T15:31:00Z');
    expect((await s.estado()).en_contingencia).toBe(true);
    await app.facturacion.runPending({ all: true });
    await app.facturacion.idle();
    const c1 = await s.comprobante(primera.comprobante.id);
    expect(c1).toMatchObject({
      estado: 'autorizado',
      emision: 'caea',
      caea_informe: 'pendiente',
      cae: code,
      cae_vencimiento: '2026-12-15',
      punto_venta: 9,
      numero: 1,
      fecha: '2026-12-12',
    });
    // RG 4892's QR names a CAEA ("A").
    const qr = JSON.parse(Buffer.from(new URL(c1.qr_url).searchParams.get('p')!, 'base64').toString());
    expect(qr).toMatchObject({ ptoVta: 9, nroCmp: 1, tipoCodAut: 'A', codAut: Number(code) });
    // The next sale goes under the CAEA at once, with the next number.
    const segunda = await s.vender();
    expect(await s.comprobante(segunda.comprobante.id)).toMatchObject({ emision: 'caea', punto_venta: 9, numero: 2 });
    // The void of the first sale: its nota de crédito goes under the CAEA too, on its own sequence.
    await s.anular(primera.id);
    expect(await s.notas()).toMatchObject([
      { estado: 'autorizado', emision: 'caea', punto_venta: 9, numero: 1, caea_informe: 'pendiente' },
    ]);
    const pendientes = await s.estado();
    expect(pendientes.por_informar.map((p) => [p.tipo_label, p.numero, p.caea_informe])).toEqual([
      ['Factura B', 1, 'pendiente'],
      ['Factura B', 2, 'pendiente'],
      ['Nota de crédito B', 1, 'pendiente'],
    ]);
    // Still down: nothing reported, nothing lost.
    expect((await s.estado(true)).por_informar).toHaveLength(3);
    expect(fake.approved(s.cuit, 9, 6)).toEqual([]);

    fake.setFaults({ down: false });
    const despues = await s.estado(true);
    expect(despues.wsfe_sin_respuesta_desde).toBeNull();
    expect(despues.por_informar).toEqual([]);
    expect(fake.approved(s.cuit, 9, 6).map((x) => [x.nro, x.cae, x.emision, x.obs])).toEqual([
      [1, code, 'CAEA', []],
      [2, code, 'CAEA', []],
    ]);
    // The nota went after its factura: ARCA had it, so no 801 observation; CbtesAsoc names it.
    const [nota] = fake.approved(s.cuit, 9, 8);
    expect([nota.nro, nota.emision, nota.obs]).toEqual([1, 'CAEA', []]);
    expect(nota.det).toMatchObject({ CbtesAsoc: { CbteAsoc: { Tipo: '6', PtoVta: '9', Nro: '1' } } });
    expect(await s.comprobante(segunda.comprobante.id)).toMatchObject({
      caea_informe: 'informado',
      estado: 'autorizado',
    });
    // With WSFE back, the next sale goes with CAE again.
    const tercera = await s.vender();
    expect(await s.comprobante(tercera.comprobante.id)).toMatchObject({
      estado: 'autorizado',
      emision: 'cae',
      punto_venta: 5,
    });
  });

  it('the nota de crédito of a factura authorised with CAE goes under the CAEA pointing at it on the CAE punto de venta', async () => {
    a('2026-12-12T15:00:00Z');
    const s = await shop('Caea Nota', '3071000020', { caea_tras_minutos: 0 });
    await s.estado(true);
    const venta = await s.vender();
    expect(await s.comprobante(venta.comprobante.id)).toMatchObject({
      estado: 'autorizado',
      emision: 'cae',
      punto_venta: 5,
      numero: 1,
    });
    // WSFE stops answering (noticed by the next sale's attempt), then the first sale is voided.
    fake.setFaults({ down: true });
    const otra = await s.vender();
    await caido();
    expect(await s.comprobante(otra.comprobante.id)).toMatchObject({ emision: 'caea', punto_venta: 9, numero: 1 });
    await s.anular(venta.id);
    const [nc] = await s.notas();
    expect(nc).toMatchObject({ estado: 'autorizado', emision: 'caea', punto_venta: 9, numero: 1 });
    // Printed valid, with the CAEA, naming the factura it cancels.
    expect(await s.comprobante(nc.id)).toMatchObject({
      cae: (await s.estado()).vigente!.caea,
      asociado: { id: venta.comprobante.id, tipo: 'factura_b', punto_venta: 5, numero: 1 },
    });

    fake.setFaults({ down: false });
    expect((await s.estado(true)).por_informar).toEqual([]);
    const [nota] = fake.approved(s.cuit, 9, 8);
    expect(nota.obs).toEqual([]);
    expect(nota.det).toMatchObject({ CbtesAsoc: { CbteAsoc: { Tipo: '6', PtoVta: '5', Nro: '1' } } });
    expect(await s.comprobante(nc.id)).toMatchObject({ caea_informe: 'informado' });
  });

  it('without a CAEA in force the invoice keeps waiting for WSFE', async () => {
    a('2026-12-12T15:00:00Z');
    const s = await shop('Caea Sin Caea', '3071000005', { caea_tras_minutos: 0 });
    fake.setFaults({ down: true });
    const v = await s.vender();
    await app.facturacion.runPending({ all: true });
    await app.facturacion.idle();
    fake.setFaults({ down: false });
    expect(await s.comprobante(v.comprobante.id)).toMatchObject({ estado: 'pendiente', emision: 'cae', numero: null });
  });

  it('a comprobante of the fortnight’s first day is reported from the next day, as ARCA takes it (1414)', async () => {
    a('2026-12-16T15:00:00Z');
    await relogin();
    const s = await shop('Caea Primer Dia', '3071000013', { caea_tras_minutos: 0 });
    const { vigente } = await s.estado(true);
    expect(vigente).toMatchObject({ orden: 2, vig_desde: '2026-12-16' });
    fake.setFaults({ down: true });
    const v = await s.vender();
    await caido();
    expect(await s.comprobante(v.comprobante.id)).toMatchObject({ emision: 'caea', fecha: '2026-12-16' });
    fake.setFaults({ down: false });
    // WSFE answers the same day: the report waits, nothing refused.
    expect((await s.estado(true)).por_informar.map((p) => [p.caea_informe, p.informable_desde])).toEqual([
      ['pendiente', '2026-12-17'],
    ]);
    expect(fake.approved(s.cuit, 9, 6)).toEqual([]);
    // ARCA would have refused it that day.
    const creds = await s.creds();
    const informe = await arca.caeaInformar(
      fake.urls.wsfe,
      creds,
      { ...BASE, fecha: '20261216', caea: vigente!.caea!, generado: '20261216120000' },
      1000,
    );
    expect(informe).toMatchObject({ aprobado: false, codigo: '1414' });
    a('2026-12-17T15:00:00Z');
    await relogin();
    expect((await s.estado(true)).por_informar).toEqual([]);
    expect(fake.approved(s.cuit, 9, 6).map((x) => x.nro)).toEqual([1]);
  });

  it('a report still pending past FchTopeInf is shown as overdue; ARCA still takes it (the manual has no rule for it)', async () => {
    a('2026-12-12T15:00:00Z');
    const s = await shop('Caea Tarde', '3071000014', { caea_tras_minutos: 0 });
    await s.estado(true);
    fake.setFaults({ down: true });
    await s.vender();
    await caido();
    const antes = await s.estado(true);
    expect(antes.por_informar).toMatchObject([
      { caea_informe: 'pendiente', tope_informe: '2026-12-23', fuera_de_termino: false, error_mensaje: null },
    ]);
    // WSFE still down after the deadline: the screen says so, with what it means.
    a('2026-12-24T15:00:00Z');
    await relogin();
    const tarde = await s.estado(true);
    expect(tarde.por_informar).toMatchObject([{ caea_informe: 'pendiente', fuera_de_termino: true }]);
    expect(tarde.por_informar[0].error_mensaje).toBe(
      'Venció el plazo para informarlo a ARCA (era hasta el 23/12/2026): se informa apenas ARCA responda. Mientras adeudes informes, ARCA puede negarte nuevos CAEA.',
    );
    // Back: reported late, accepted, and off the list.
    fake.setFaults({ down: false });
    expect((await s.estado(true)).por_informar).toEqual([]);
    expect(fake.approved(s.cuit, 9, 6)).toHaveLength(1);
  });
});

/** A Factura B of $121 to a consumidor final, as the client reports it under a CAEA. */
const BASE = {
  ptoVta: 9,
  tipo: 6,
  nro: 1,
  fecha: '20261212',
  concepto: 1,
  docTipo: 99,
  docNro: '0',
  condicionIvaReceptor: 5,
  total: '121.00',
  neto: '100.00',
  iva: '21.00',
  tributos: '0.00',
  exento: '0.00',
  noGravado: '0.00',
  alicuotas: [{ id: 5, base: '100.00', importe: '21.00' }],
  caea: '',
  generado: '20261212120000',
};

describe('CAEA: the report’s rejections', () => {
  it('a rejected report is shown in Spanish, holds the numbers after it, and goes again with Reintentar', async () => {
    a('2026-12-12T15:00:00Z');
    const s = await shop('Caea Rechazo', '3071000006', { caea_tras_minutos: 0 });
    await s.estado(true);
    fake.setFaults({ down: true });
    const v1 = await s.vender();
    await app.facturacion.runPending({ all: true });
    await app.facturacion.idle();
    const v2 = await s.vender();
    expect(await s.comprobante(v2.comprobante.id)).toMatchObject({ emision: 'caea', numero: 2 });

    // 703: the number does not continue ARCA's last (another system reported there).
    fake.setFaults({ down: false, reject_code: '703' });
    const e = await s.estado(true);
    fake.setFaults({ reject_code: null });
    expect(e.por_informar.map((p) => [p.numero, p.caea_informe])).toEqual([
      [1, 'rechazado'],
      [2, 'pendiente'],
    ]);
    expect(e.por_informar[0].error_mensaje).toBe(
      'ARCA rechazó el informe de este comprobante emitido con CAEA. El número no sigue al último informado en ese punto de venta: revisá en ARCA si otro sistema informó comprobantes con CAEA ahí y avisá a soporte.',
    );
    expect(fake.approved(s.cuit, 9, 6)).toEqual([]);
    const c1 = await s.comprobante(v1.comprobante.id);
    expect(c1).toMatchObject({ estado: 'autorizado', caea_informe: 'rechazado', error_codigo: '703' });
    // The next number waits for it.
    expect((await s.estado(true)).por_informar.map((p) => p.caea_informe)).toEqual(['rechazado', 'pendiente']);

    const again = await s.r('POST', `/facturacion/comprobantes/${v1.comprobante.id}/reintentar`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ caea_informe: 'informado', numero: 1, error_mensaje: null });
    await s.estado(true);
    expect(fake.approved(s.cuit, 9, 6).map((x) => x.nro)).toEqual([1, 2]);
    // Informed: nothing to retry.
    expect((await s.r('POST', `/facturacion/comprobantes/${v1.comprobante.id}/reintentar`)).statusCode).toBe(409);
  });

  it('the fake checks the report with FECAEARegInformativo’s own codes (manual v4.7): what rejects, and what only observes', async () => {
    a('2026-12-12T15:00:00Z');
    const s = await shop('Caea Estricto', '3071000007');
    const otra = await shop('Caea Ajena', '3071000008');
    const mio = (await s.estado(true)).vigente!.caea!;
    const ajeno = (await otra.estado(true)).vigente!.caea!;
    fake.registrar(s.cuit, { puntos_venta: [{ nro: 10, emision_tipo: 'CAEA' }] });
    const creds = await s.creds();
    const informar = async (over: object) => {
      const r = await arca.caeaInformar(fake.urls.wsfe, creds, { ...BASE, caea: mio, ...over }, 1000);
      return r.aprobado ? 'A' : r.observaciones.map((o) => o.code).join(',');
    };
    // Rejected: the punto de venta, the CAEA, its vigencia, the numbering, the generation time, a
    // nota without the factura it adjusts. Each is the report below, broken in one thing.
    expect(await informar({ ptoVta: 5 })).toBe('701');
    expect(await informar({ caea: ajeno })).toBe('705');
    expect(await informar({ caea: '12345' })).toBe('782');
    expect(await informar({ caea: '39999999999999' })).toBe('780');
    expect(await informar({ fecha: '20261216', generado: '20261216100000' })).toBe('702');
    expect(await informar({ nro: 2 })).toMatch(/^703/);
    expect(await informar({ generado: '' })).toBe('1440');
    expect(await informar({ generado: '2026121212' })).toBe('1441');
    expect(await informar({ tipo: 8 })).toBe('1491');
    // A total that does not add up rejects a CAE (10048) but only observes a report (724).
    expect(await informar({ total: '120.00' })).toBe('A');
    expect(fake.approved(s.cuit, 9, 6).map((x) => [x.nro, x.obs])).toEqual([[1, ['724']]]);
    // The dates continue the punto de venta's too (704).
    expect(await informar({ nro: 2, fecha: '20261211', generado: '20261211120000' })).toBe('704');
    expect(await informar({ nro: 2 })).toBe('A');
    // A nota whose factura ARCA does not have: approved, observed 801.
    const asociado = { tipo: 6, ptoVta: 9, nro: 50, cuit: s.digits, fecha: '20261212' };
    expect(await informar({ tipo: 8, asociado })).toBe('A');
    expect(fake.approved(s.cuit, 9, 8).map((x) => x.obs)).toEqual([['801']]);
    // Informed without movement on punto de venta 10 (once: 1209), then used there: observed 1424.
    expect(await arca.caeaSinMovimiento(fake.urls.wsfe, creds, 10, mio, 1000)).toEqual({ ok: true });
    expect(await arca.caeaSinMovimiento(fake.urls.wsfe, creds, 10, mio, 1000)).toMatchObject({ codigo: '1209' });
    expect(await informar({ ptoVta: 10 })).toBe('A');
    expect(fake.approved(s.cuit, 10, 6).map((x) => x.obs)).toEqual([['1424']]);
    // Once used on punto de venta 9, it cannot be informed without movement there (1202).
    expect(await arca.caeaSinMovimiento(fake.urls.wsfe, creds, 9, mio, 1000)).toMatchObject({ codigo: '1202' });
    expect(await arca.caeaSinMovimiento(fake.urls.wsfe, creds, 9, '123', 1000)).toMatchObject({ codigo: '1207' });
  });
});

describe('CAEA: without movement', () => {
  it('after its fortnight, an unused CAEA is informed with FECAEASinMovimientoInformar; a used one is not', async () => {
    a('2026-12-12T15:00:00Z');
    const s = await shop('Caea Sin Uso', '3071000090');
    const usada = await shop('Caea Usada', '3071000110', { caea_tras_minutos: 0 });
    const code = (await s.estado(true)).vigente!.caea!;
    await usada.estado(true);
    fake.setFaults({ down: true });
    await usada.vender();
    await app.facturacion.runPending({ all: true });
    await app.facturacion.idle();
    fake.setFaults({ down: false });
    // Not before the fortnight ended.
    expect((await s.estado(true)).vigente!.sin_movimiento).toBeNull();

    a('2026-12-17T15:00:00Z');
    await relogin();
    const e = await s.estado(true);
    expect(e.caeas.find((c) => c.orden === 1)).toMatchObject({ caea: code, usados: 0, sin_movimiento: 'informado' });
    expect(fake.sinMovimiento.has(`${code}|9`)).toBe(true);
    // Its answer lost: informed again, ARCA answers 1209 (already notified), and it stays informed.
    await ctx.sql(`UPDATE caeas SET sin_movimiento = NULL WHERE business_id = $1 AND periodo = 202612 AND orden = 1`, [
      s.id,
    ]);
    expect((await s.estado(true)).caeas.find((c) => c.orden === 1)).toMatchObject({
      sin_movimiento: 'informado',
      error_codigo: null,
    });
    // The second fortnight's is still in force.
    expect(e.vigente).toMatchObject({ orden: 2, sin_movimiento: null });
    const u = await usada.estado(true);
    expect(u.caeas.find((c) => c.orden === 1)).toMatchObject({ usados: 1, sin_movimiento: null });
    expect(u.por_informar).toEqual([]);
    // The fake: a CAEA not yet in force, a punto de venta that is not CAEA, another CUIT's CAEA.
    const creds = await s.creds();
    const next = (await s.estado()).caeas.find((c) => c.periodo === 202612 && c.orden === 2)!.caea!;
    a('2026-12-15T15:00:00Z');
    expect(await arca.caeaSinMovimiento(fake.urls.wsfe, creds, 9, next, 1000)).toMatchObject({ codigo: '1203' });
    expect(await arca.caeaSinMovimiento(fake.urls.wsfe, creds, 5, code, 1000)).toMatchObject({ codigo: '1204' });
    const ajeno = u.caeas.find((c) => c.orden === 1)!.caea!;
    expect(await arca.caeaSinMovimiento(fake.urls.wsfe, creds, 9, ajeno, 1000)).toMatchObject({ codigo: '1201' });
  });
});
