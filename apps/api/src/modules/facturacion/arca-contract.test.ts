import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { tiendaArca } from '../../test/arca.js';
import { validateEnvelopes, type Wsdl } from '../../test/arca-xsd.js';
import { caeaSinMovimiento } from './arca-client.js';
import { registerUser } from '../../test/fixtures.js';
import { FakeArca } from './fake/fake-arca.js';
import { PADRON_SEED } from './fake/padron.js';
import { envelope, toXml } from './soap.js';

/*
 * Contract tests (issue 32 point 4, decision 0040): every envelope the client sends while the app
 * issues Facturas A, B and C, a nota de crédito, two rates, an exempt line and services, asks for
 * the last number, settles a timeout with FECompConsultar, logs in to WSAA and looks up the padrón
 * is validated against the XSD embedded in ARCA's published WSDLs (from @arcasdk/core); so is
 * every answer of the fake, the padrón A5's included. Negative controls show the validator refuses
 * what ARCA would. The app and the fake run on one fixed day (12 December 2026), so the CAEA's
 * fortnight rules do not depend on the day the suite runs.
 */

const fake = new FakeArca();
await fake.listen(0);
const DESFASE = Date.parse('2026-12-12T15:00:00Z') - Date.now();
fake.setFaults({ clock_offset_ms: DESFASE });

/** A loopback proxy in front of the fake that keeps every request and answer. */
interface Exchange {
  path: string;
  op: string;
  request: string;
  status: number;
  response: string;
}
const seen: Exchange[] = [];
const proxy = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const request = Buffer.concat(chunks).toString('utf8');
    void fetch(`${fake.url}${req.url}`, {
      method: 'POST',
      headers: {
        'content-type': String(req.headers['content-type']),
        soapaction: String(req.headers.soapaction ?? ''),
      },
      body: request,
    }).then(
      async (r) => {
        const response = await r.text();
        const op = /<soap:Body>\s*<(?:\w+:)?(\w+)/.exec(request)?.[1] ?? '';
        seen.push({ path: req.url ?? '', op, request, status: r.status, response });
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'text/xml' });
        res.end(response);
      },
      () => req.socket.destroy(),
    );
  });
});
await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
const urls = { wsaa: `${base}/wsaa`, wsfe: `${base}/wsfe`, padron: `${base}/padron-a5` };

const ctx = await createTestApp({
  now: () => new Date(Date.now() + DESFASE),
  arca: { urls, timeoutMs: 1500, waitMs: 4000, workerMs: 0, concurrency: 2 },
});
const { app } = ctx;
afterAll(async () => {
  await fake.close();
  await new Promise((r) => proxy.close(r));
});
const owner = await registerUser(app, 'Contrato');

const WSDL_OF: Record<string, Wsdl> = {
  '/wsfe': 'wsfe.wsdl',
  '/wsaa': 'wsaa.wsdl',
  '/padron-a5': 'ws_sr_padron_a5.wsdl',
};

async function shop(nombre: string, cuit: string, condicion_iva: 'responsable_inscripto' | 'monotributo') {
  const t = await tiendaArca(app, fake, owner, { nombre, cuit, condicion_iva, punto_venta: 5 });
  const cliente = async (documento_tipo: string, documento_numero: string, condicion: string) =>
    (
      await t.r('POST', '/clientes', {
        nombre: `Cliente ${documento_numero}`,
        documento_tipo,
        documento_numero,
        condicion_iva: condicion,
      })
    ).json() as { id: string };
  const invoice = async (items: object[], extra: object = {}) => {
    const sale = await t.vender({ items, ...extra });
    const c = await t.emitir(sale.id);
    return { venta: sale.id, c: c.json() as { id: string; estado: string; tipo: string } };
  };
  return { ...t, product: t.producto, service: t.servicio, cliente, invoice };
}

describe('ARCA contract: the envelopes against the XSDs of ARCA’s WSDLs', () => {
  it('every request the client builds and every answer of the fake are schema-valid', async () => {
    const ri = await shop('Contrato RI', '30-71234567-1', 'responsable_inscripto');
    const tornillo = await ri.product('Tornillo', 121, '21');
    const libro = await ri.product('Libro', 110.5, '10.5');
    const leche = await ri.product('Leche', 50, 'exento');
    const flete = await ri.service('Flete', 242, '21');
    const distribuidora = await ri.cliente('CUIT', '30500010912', 'responsable_inscripto');
    const monotributista = await ri.cliente('CUIT', '20123456786', 'monotributista');

    const results = [
      // Factura A, one rate.
      await ri.invoice([{ id: tornillo.id, cantidad: 2 }], { cliente_id: distribuidora.id }),
      // Factura B with two rates.
      await ri.invoice([
        { id: tornillo.id, cantidad: 1 },
        { id: libro.id, cantidad: 1 },
      ]),
      // Factura B with an exempt line.
      await ri.invoice([
        { id: tornillo.id, cantidad: 1 },
        { id: leche.id, cantidad: 2 },
      ]),
      // Services only (Concepto 2).
      await ri.invoice([{ id: flete.id, tipo: 'servicio', cantidad: 1 }]),
      // Factura A to a monotributista, products and services (Concepto 3): ARCA observes 10217.
      await ri.invoice(
        [
          { id: tornillo.id, cantidad: 1 },
          { id: flete.id, tipo: 'servicio', cantidad: 1 },
        ],
        { cliente_id: monotributista.id },
      ),
    ];
    expect(results.map((x) => [x.c.tipo, x.c.estado])).toEqual([
      ['factura_a', 'autorizado'],
      ['factura_b', 'autorizado'],
      ['factura_b', 'autorizado'],
      ['factura_b', 'autorizado'],
      ['factura_a', 'autorizado'],
    ]);
    // A nota de crédito (CbtesAsoc): the void of the two-rate B.
    const anulada = await ri.r('POST', `/ventas/${results[1].venta}/anular`, {});
    expect(anulada.statusCode, anulada.body).toBe(200);
    await app.facturacion.idle();
    // A timeout after ARCA approved: settled with FECompConsultar.
    fake.setFaults({ timeout_after_approve: true });
    const perdida = await ri.invoice([{ id: tornillo.id, cantidad: 3 }]);
    fake.setFaults({ timeout_after_approve: false });
    expect(perdida.c.estado).toBe('pendiente');
    await app.facturacion.runPending({ all: true });
    await app.facturacion.idle();
    // Factura C of a monotributista.
    const mono = await shop('Contrato Mono', '20-30000000-3', 'monotributo');
    const alfajor = await mono.product('Alfajor', 500, '21');
    expect((await mono.invoice([{ id: alfajor.id, cantidad: 1 }])).c).toMatchObject({
      tipo: 'factura_c',
      estado: 'autorizado',
    });
    // The padrón A5.
    expect((await ri.r('GET', '/facturacion/padron/20123456786')).statusCode).toBe(200);

    const ncs = (await ri.r('GET', '/facturacion/comprobantes?tipo=nota_credito_b')).json();
    expect(ncs.comprobantes.map((c: { estado: string }) => c.estado)).toEqual(['autorizado']);
    expect((await ri.r('GET', `/facturacion/comprobantes/${perdida.c.id}`)).json().estado).toBe('autorizado');

    // Every kind of request went out.
    const ops = new Set(seen.map((x) => x.op));
    for (const op of ['loginCms', 'FECompUltimoAutorizado', 'FECAESolicitar', 'FECompConsultar', 'getPersona_v2'])
      expect(ops, op).toContain(op);
    const solicitudes = seen.filter((x) => x.op === 'FECAESolicitar').map((x) => x.request);
    for (const [field, value] of [
      ['Concepto', '1'],
      ['Concepto', '2'],
      ['Concepto', '3'],
      ['CbteTipo', '1'],
      ['CbteTipo', '6'],
      ['CbteTipo', '8'],
      ['CbteTipo', '11'],
    ]) {
      expect(
        solicitudes.some((s) => s.includes(`<ns:${field}>${value}</ns:${field}>`)),
        `${field} ${value}`,
      ).toBe(true);
    }
    expect(solicitudes.some((s) => s.includes('<ns:ImpOpEx>100.00</ns:ImpOpEx>'))).toBe(true);
    expect(solicitudes.some((s) => (s.match(/<ns:AlicIva>/g) ?? []).length === 2)).toBe(true);
    expect(solicitudes.some((s) => s.includes('<ns:CbtesAsoc>'))).toBe(true);

    // Requests and answers against the schemas.
    for (const [path, wsdl] of Object.entries(WSDL_OF)) {
      const mine = seen.filter((x) => x.path === path);
      const answered = mine.filter((x) => x.status === 200);
      const reqs = await validateEnvelopes(
        mine.map((x) => x.request),
        wsdl,
      );
      const answers = await validateEnvelopes(
        answered.map((x) => x.response),
        wsdl,
      );
      mine.forEach((x, i) => expect(reqs[i], `${x.op} (pedido)`).toEqual({ valid: true, errors: [] }));
      answered.forEach((x, i) => expect(answers[i], `${x.op} (respuesta)`).toEqual({ valid: true, errors: [] }));
    }
    // The answers as ARCA gives them: FchProceso with 14 digits, the full FECompConsultar record.
    for (const x of seen.filter((e) => e.op === 'FECAESolicitar' && e.status === 200)) {
      expect(x.response).toMatch(/<FchProceso>\d{14}<\/FchProceso>/);
    }
    const consulta = seen.find((x) => x.op === 'FECompConsultar' && x.response.includes('<ResultGet>'))!;
    for (const f of ['ImpNeto', 'ImpIVA', 'ImpOpEx', 'ImpTotConc', 'ImpTrib', 'CondicionIVAReceptorId', 'Iva']) {
      expect(consulta.response, f).toContain(`<${f}>`);
    }
    expect(consulta.response).toMatch(/<FchProceso>\d{14}<\/FchProceso>/);
    const a5 = seen.find((x) => x.op === 'FECAESolicitar' && x.response.includes('<Code>10217</Code>'));
    expect(a5?.response).toContain('<Resultado>A</Resultado>');
  }, 180_000);

  it('the fake’s FEParamGet* tables are schema-valid and carry ARCA’s codes', async () => {
    // The ticket the client used for the responsable inscripto above.
    const sent = [...seen].reverse().find((x) => x.path === '/wsfe' && x.request.includes('<ns:Cuit>30712345671<'))!;
    const ta = /<ns:Token>([^<]+)<\/ns:Token><ns:Sign>([^<]+)<\/ns:Sign>/.exec(sent.request)!;
    const auth = { Auth: { Token: ta[1], Sign: ta[2], Cuit: '30712345671' } };
    const envelopes: string[] = [];
    const ask = async (op: string, extra: object = {}) => {
      const xml = envelope(
        `<ns:${op}>${toXml({ ...auth, ...extra }).replace(/<(\/?)(\w+)>/g, '<$1ns:$2>')}</ns:${op}>`,
        'http://ar.gov.afip.dif.FEV1/',
      );
      const res = await fetch(`${fake.url}/wsfe`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml' },
        body: xml,
      });
      const body = await res.text();
      envelopes.push(xml, body);
      return [...body.matchAll(/<Id>([^<]+)<\/Id>/g)].map((m) => m[1]);
    };
    expect(await ask('FEParamGetTiposDoc')).toEqual(
      expect.arrayContaining(['80', '86', '87', '89', '90', '94', '96', '99']),
    );
    expect(await ask('FEParamGetTiposCbte')).toEqual(expect.arrayContaining(['1', '3', '6', '8', '11', '13']));
    expect(await ask('FEParamGetTiposIva')).toEqual(['3', '4', '5', '6', '8', '9']);
    expect(await ask('FEParamGetTiposConcepto')).toEqual(['1', '2', '3']);
    const a = await ask('FEParamGetCondicionIvaReceptor', { ClaseCmp: 'A' });
    expect(a).toEqual(expect.arrayContaining(['1', '6', '13', '16']));
    expect(a).not.toContain('5');
    const checked = await validateEnvelopes(envelopes, 'wsfe.wsdl');
    checked.forEach((v, i) => expect(v, envelopes[i].slice(0, 400)).toEqual({ valid: true, errors: [] }));
  }, 120_000);

  it('the CAEA operations (decision 0047): every request and answer against the schema', async () => {
    const cuit = '30-71000500-8';
    const s = await shop('Contrato CAEA', cuit, 'responsable_inscripto');
    fake.registrar(cuit, { puntos_venta: [{ nro: 9, emision_tipo: 'CAEA' }] });
    const put = await s.r('PUT', '/facturacion/config', {
      cuit,
      razon_social: 'Contrato CAEA',
      condicion_iva: 'responsable_inscripto',
      punto_venta: 5,
      caea_punto_venta: 9,
      caea_tras_minutos: 0,
    });
    expect(put.statusCode, put.body).toBe(200);
    const desde = seen.length;
    // FECAEASolicitar; then, its row lost, 15008 and FECAEAConsultar.
    const estado = (await s.r('POST', '/facturacion/caea/actualizar')).json();
    expect(estado.vigente.caea).toMatch(/^\d{14}$/);
    await ctx.sql('DELETE FROM caeas WHERE business_id = $1', [s.id]);
    expect((await s.r('POST', '/facturacion/caea/actualizar')).json().vigente.caea).toBe(estado.vigente.caea);
    // An outage: the invoice goes under the CAEA; WSFE back (FEDummy): FECAEARegInformativo.
    const producto = await s.product('Mate', 2420, '21');
    fake.setFaults({ down: true });
    await s.invoice([{ id: producto.id, cantidad: 1 }]);
    await app.facturacion.runPending({ all: true });
    await app.facturacion.idle();
    fake.setFaults({ down: false });
    const despues = (await s.r('POST', '/facturacion/caea/actualizar')).json();
    expect(despues.por_informar).toEqual([]);
    // FECAEASinMovimientoInformar (refused: the CAEA was used) and FECAEASinMovimientoConsultar.
    const sent = [...seen].reverse().find((x) => x.op === 'FECAEARegInformativo')!;
    const ta = /<ns:Token>([^<]+)<\/ns:Token><ns:Sign>([^<]+)<\/ns:Sign>/.exec(sent.request)!;
    const creds = { token: ta[1], sign: ta[2], cuit: '30710005008' };
    expect(await caeaSinMovimiento(urls.wsfe, creds, 9, estado.vigente.caea, 1500)).toMatchObject({ codigo: '1202' });
    const consultar = envelope(
      `<ns:FECAEASinMovimientoConsultar>${toXml({
        Auth: { Token: creds.token, Sign: creds.sign, Cuit: creds.cuit },
        CAEA: estado.vigente.caea,
        PtoVta: 9,
      }).replace(/<(\/?)(\w+)>/g, '<$1ns:$2>')}</ns:FECAEASinMovimientoConsultar>`,
      'http://ar.gov.afip.dif.FEV1/',
    );
    await fetch(urls.wsfe, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: consultar });

    const caea = seen.slice(desde).filter((x) => x.path === '/wsfe' && x.status === 200);
    const ops = new Set(caea.map((x) => x.op));
    for (const op of [
      'FECAEASolicitar',
      'FECAEAConsultar',
      'FECAEARegInformativo',
      'FECAEASinMovimientoInformar',
      'FECAEASinMovimientoConsultar',
      'FEDummy',
    ])
      expect(ops, op).toContain(op);
    expect(caea.some((x) => x.op === 'FECAEASolicitar' && x.response.includes('<Code>15008</Code>'))).toBe(true);
    const informe = caea.find((x) => x.op === 'FECAEARegInformativo')!;
    expect(informe.request).toMatch(/<\/ns:Iva><ns:CAEA>\d{14}<\/ns:CAEA><ns:CbteFchHsGen>\d{14}<\/ns:CbteFchHsGen>/);
    expect(informe.response).toContain('<Resultado>A</Resultado>');
    const docs = caea.flatMap((x) => [x.request, x.response]);
    const checked = await validateEnvelopes(docs, 'wsfe.wsdl');
    checked.forEach((v, i) => expect(v, docs[i].slice(0, 300)).toEqual({ valid: true, errors: [] }));
    // Negative control: CAEA before the FEDetRequest fields it extends.
    const mal = informe.request
      .replace(/(<ns:CAEA>\d{14}<\/ns:CAEA>)/, '')
      .replace('<ns:Concepto>', `${/<ns:CAEA>\d{14}<\/ns:CAEA>/.exec(informe.request)![0]}<ns:Concepto>`);
    expect((await validateEnvelopes([mal], 'wsfe.wsdl'))[0].valid).toBe(false);
  }, 180_000);

  it('the padrón A5 (getPersona_v2): every case the fake answers is valid against the WSDL’s schema; negative controls', async () => {
    const s = await shop('Contrato Padrón', '30-71234567-1', 'responsable_inscripto');
    const desde = seen.length;
    const estados: Record<string, number> = {};
    for (const cuit of Object.keys(PADRON_SEED))
      estados[cuit] = (await s.r('GET', `/facturacion/padron/${cuit}`)).statusCode;
    // One of each: responsable inscripto, monotributista, exento, no alcanzado, inactive, only errorConstancia.
    expect(Object.values(estados).filter((c) => c === 200).length).toBeGreaterThanOrEqual(5);
    const respuestas = seen.slice(desde).filter((x) => x.path === '/padron-a5' && x.status === 200);
    expect(respuestas).toHaveLength(Object.keys(PADRON_SEED).length);
    for (const marca of ['<datosMonotributo>', '<datosRegimenGeneral>', '<errorConstancia>', 'INACTIVO'])
      expect(
        respuestas.some((x) => x.response.includes(marca)),
        marca,
      ).toBe(true);
    const validas = await validateEnvelopes(
      respuestas.map((x) => x.response),
      'ws_sr_padron_a5.wsdl',
    );
    validas.forEach((v, i) => expect(v, respuestas[i].response.slice(0, 400)).toEqual({ valid: true, errors: [] }));

    // Negative controls, each an answer broken in one thing the schema defines.
    const mono = respuestas.find((x) => x.response.includes('<datosMonotributo>'))!.response;
    const generales = /<datosGenerales>[\s\S]*?<\/datosGenerales>/.exec(mono)![0];
    const monotributo = /<datosMonotributo>[\s\S]*?<\/datosMonotributo>/.exec(mono)![0];
    const rotas = [
      // datosMonotributo before datosGenerales (an xs:sequence).
      mono.replace(generales, '').replace(monotributo, `${monotributo}${generales}`),
      // idProvincia is an xs:int.
      mono.replace(/<idProvincia>\d+<\/idProvincia>/, '<idProvincia>SANTA FE</idProvincia>'),
      // An element the schema does not have.
      mono.replace('<metadata>', '<categoriaIva>MONOTRIBUTO</categoriaIva><metadata>'),
      // personaReturn qualified (the A5 schema is unqualified).
      mono.replace('<personaReturn>', '<ns2:personaReturn>').replace('</personaReturn>', '</ns2:personaReturn>'),
    ];
    for (const r of rotas) expect(r).not.toBe(mono);
    const malas = await validateEnvelopes(rotas, 'ws_sr_padron_a5.wsdl');
    malas.forEach((v, i) => expect(v.valid, rotas[i].slice(0, 400)).toBe(false));
    expect(malas[0].errors.join(' ')).toMatch(/datosGenerales|datosMonotributo/);
    expect(malas[1].errors.join(' ')).toMatch(/idProvincia/);
  }, 120_000);

  it('negative controls: a wrong order, a missing required element and a bad type are refused', async () => {
    const solicitud = seen.find((x) => x.op === 'FECAESolicitar')!.request;
    // DocNro before DocTipo (an xs:sequence).
    const doc = /<ns:DocTipo>\d+<\/ns:DocTipo>/.exec(solicitud)![0];
    const nro = /<ns:DocNro>\d+<\/ns:DocNro>/.exec(solicitud)![0];
    const swapped = solicitud.replace(`${doc}${nro}`, `${nro}${doc}`);
    expect(swapped).not.toBe(solicitud);
    // CbteHasta is required (minOccurs 1); ImpTotal is an xs:double.
    const missing = solicitud.replace(/<ns:CbteHasta>\d+<\/ns:CbteHasta>/, '');
    const badType = solicitud.replace(/<ns:ImpTotal>[^<]+<\/ns:ImpTotal>/, '<ns:ImpTotal>1.210,00</ns:ImpTotal>');
    // An answer too: FECompConsultar's record without its PtoVta.
    const consulta = seen.find((x) => x.op === 'FECompConsultar' && x.response.includes('<ResultGet>'))!.response;
    const sinPto = consulta.replace(/<PtoVta>\d+<\/PtoVta>/, '');
    const [ok, order, falta, tipo, consultaOk, consultaMal] = await validateEnvelopes(
      [solicitud, swapped, missing, badType, consulta, sinPto],
      'wsfe.wsdl',
    );
    expect(ok).toEqual({ valid: true, errors: [] });
    expect(consultaOk).toEqual({ valid: true, errors: [] });
    expect(order.valid).toBe(false);
    expect(order.errors.join(' ')).toMatch(/DocNro/);
    expect(falta.valid).toBe(false);
    expect(falta.errors.join(' ')).toMatch(/CbteHasta/);
    expect(tipo.valid).toBe(false);
    expect(tipo.errors.join(' ')).toMatch(/ImpTotal/);
    expect(consultaMal.valid).toBe(false);
    // loginCms without its in0, and getPersona_v2 with a qualified child (the A5 schema is unqualified).
    const login = seen.find((x) => x.op === 'loginCms')!.request;
    const [loginOk, loginMal] = await validateEnvelopes(
      [login, login.replace(/<ns:in0>[\s\S]*<\/ns:in0>/, '')],
      'wsaa.wsdl',
    );
    expect(loginOk.valid).toBe(true);
    expect(loginMal.valid).toBe(false);
    const persona = seen.find((x) => x.op === 'getPersona_v2')!.request;
    const [personaOk, personaMal] = await validateEnvelopes(
      [persona, persona.replace(/<token>([^<]*)<\/token>/, '<ns:token>$1</ns:token>')],
      'ws_sr_padron_a5.wsdl',
    );
    expect(personaOk.valid).toBe(true);
    expect(personaMal.valid).toBe(false);
  }, 120_000);
});
