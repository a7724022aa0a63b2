import { request as httpRequest } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import type { Entorno } from '@mostrador/shared';
import { envelope, list, node, parseBody, parseXml, SoapError, text, toXml, type XmlNode } from './soap.js';

/*
 * A thin direct SOAP client of ARCA (decision 0013): WSAA LoginCms, WSFEv1 and padrón A5, with
 * node:http(s) and a deadline on every call. It never logs what it sends (the CMS carries the
 * certificate; the tickets are credentials).
 */

export interface ArcaEndpoints {
  wsaa: string;
  wsfe: string;
  padron: string;
}

export const ARCA_URLS: Record<Entorno, ArcaEndpoints> = {
  homologacion: {
    wsaa: 'https://wsaahomo.afip.gov.ar/ws/services/LoginCms',
    wsfe: 'https://wswhomo.afip.gov.ar/wsfev1/service.asmx',
    padron: 'https://awshomo.afip.gov.ar/sr-padron/webservices/personaServiceA5',
  },
  produccion: {
    wsaa: 'https://wsaa.afip.gov.ar/ws/services/LoginCms',
    wsfe: 'https://servicios1.afip.gov.ar/wsfev1/service.asmx',
    padron: 'https://aws.afip.gov.ar/sr-padron/webservices/personaServiceA5',
  },
};

const NS_WSAA = 'http://wsaa.view.sua.dvadac.desein.afip.gov';
const NS_WSFE = 'http://ar.gov.afip.dif.FEV1/';
const NS_A5 = 'http://a5.soap.ws.server.puc.sr/';

/** ARCA could not be reached or did not answer in time: the request may or may not have arrived. */
export class ArcaUnavailableError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

/** ARCA answered with an error (a SOAP fault, or Errors in WSFEv1's answer). */
export class ArcaError extends Error {
  constructor(
    readonly codigo: string | null,
    message: string,
  ) {
    super(message);
  }
}

export interface Credentials {
  token: string;
  sign: string;
  /** The represented CUIT, digits only. */
  cuit: string;
}

/**
 * TLS towards ARCA's hosts (decision 0039). ARCA's production hosts offer a 1024-bit DH group,
 * which OpenSSL 3 refuses at security level 2 ("dh key too small", the default of many builds):
 * this agent, used only by this client and so only for the ARCA endpoints of the settings, allows
 * security level 1 (which is what accepts that group). Nothing global changes: every other
 * connection of the process keeps the platform's defaults.
 */
export const ARCA_TLS = { ciphers: 'DEFAULT:@SECLEVEL=1', minVersion: 'TLSv1.2' } as const;

/** An agent with ARCA's TLS settings; `extra` (a CA) is for tests against a local server. */
export const arcaAgent = (extra: { ca?: string } = {}) => new Agent({ keepAlive: true, ...ARCA_TLS, ...extra });

/** The agent of every https call of this client (tests may swap it for one that trusts their CA). */
export const arcaTransport: { agent: Agent } = { agent: arcaAgent() };

function send(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  retried = false,
): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  const tls = u.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (tls ? httpsRequest : httpRequest)(
      u,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        ...(tls ? { agent: arcaTransport.agent } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', () => reject(new ArcaUnavailableError('ARCA cortó la respuesta.', true)));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => {
      // A kept-alive connection the server closed while idle: the request never arrived (Node's
      // documented case), so it goes once more on a new connection.
      if (req.reusedSocket && e.code === 'ECONNRESET' && !retried)
        return resolve(send(url, headers, body, timeoutMs, true));
      const timedOut = e.name === 'AbortError' || e.name === 'TimeoutError' || e.code === 'ABORT_ERR';
      const tlsError = e.code === 'EPROTO' || /SSL|TLS|CERT/.test(e.code ?? '') || /ssl routines/i.test(e.message);
      reject(
        new ArcaUnavailableError(
          timedOut
            ? 'ARCA no respondió a tiempo.'
            : tlsError
              ? `No se pudo conectar con ARCA (TLS: ${e.message}).`
              : 'No se pudo conectar con ARCA.',
          timedOut,
        ),
      );
    });
    req.end(body);
  });
}

async function post(url: string, action: string, xml: string, timeoutMs: number): Promise<XmlNode> {
  const res = await send(url, { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${action}"` }, xml, timeoutMs);
  try {
    return parseBody(res.body);
  } catch (e) {
    // A fault's code without its namespace prefix ("ns1:coe.alreadyAuthenticated" → "coe.alreadyAuthenticated").
    if (e instanceof SoapError) throw new ArcaError(e.faultCode?.replace(/^[\w-]+:/, '') ?? null, e.message);
    throw new ArcaUnavailableError(`ARCA respondió ${res.status} sin SOAP.`, false);
  }
}

/** WSAA: a ticket for a service from the signed TRA. */
export async function loginCms(url: string, cms: string, timeoutMs: number) {
  const body = await post(url, '', envelope(`<ns:loginCms><ns:in0>${cms}</ns:in0></ns:loginCms>`, NS_WSAA), timeoutMs);
  const ta = parseXml(text(node(body.loginCmsResponse).loginCmsReturn));
  const r = node(ta.loginTicketResponse);
  const cred = node(r.credentials);
  const header = node(r.header);
  return {
    token: text(cred.token),
    sign: text(cred.sign),
    generado: new Date(text(header.generationTime)),
    vence: new Date(text(header.expirationTime)),
  };
}

const auth = (c: Credentials) => ({ Auth: { Token: c.token, Sign: c.sign, Cuit: c.cuit } });

async function wsfe(url: string, op: string, args: Record<string, unknown>, timeoutMs: number): Promise<XmlNode> {
  const body = await post(
    url,
    `${NS_WSFE}${op}`,
    envelope(`<ns:${op}>${toXml(args).replace(/<(\/?)(\w+)>/g, '<$1ns:$2>')}</ns:${op}>`, NS_WSFE),
    timeoutMs,
  );
  return node(node(body[`${op}Response`])[`${op}Result`]);
}

const errorsOf = (r: XmlNode) =>
  list(node(r.Errors).Err).map((e) => ({ code: text(node(e).Code), msg: text(node(e).Msg) }));

function throwErrors(r: XmlNode) {
  const [e] = errorsOf(r);
  if (e) throw new ArcaError(e.code, e.msg);
}

export async function feDummy(url: string, timeoutMs: number) {
  const r = await wsfe(url, 'FEDummy', {}, timeoutMs);
  return { app: text(r.AppServer), db: text(r.DbServer), auth: text(r.AuthServer) };
}

export interface PuntoVentaArca {
  nro: number;
  /** "CAE", "CAEA"… as ARCA names the emission type. */
  emisionTipo: string;
  bloqueado: boolean;
  /** The date it was closed (YYYYMMDD), or null while it is open. */
  baja: string | null;
}

/** FEParamGetPtosVenta: the puntos de venta enabled for web services (none: ARCA's 602, "sin resultados"). */
export async function puntosVenta(url: string, c: Credentials, timeoutMs: number): Promise<PuntoVentaArca[]> {
  const r = await wsfe(url, 'FEParamGetPtosVenta', auth(c), timeoutMs);
  const errs = errorsOf(r);
  if (errs.some((e) => e.code === '602')) return [];
  throwErrors(r);
  return list(node(r.ResultGet).PtoVenta).map((p) => {
    const n = node(p);
    const baja = text(n.FchBaja);
    return {
      nro: Number(text(n.Nro)),
      emisionTipo: text(n.EmisionTipo),
      bloqueado: text(n.Bloqueado).toUpperCase() === 'S',
      baja: baja && baja.toUpperCase() !== 'NULL' ? baja : null,
    };
  });
}

export async function ultimoAutorizado(url: string, c: Credentials, ptoVta: number, tipo: number, timeoutMs: number) {
  const r = await wsfe(url, 'FECompUltimoAutorizado', { ...auth(c), PtoVta: ptoVta, CbteTipo: tipo }, timeoutMs);
  throwErrors(r);
  return Number(text(r.CbteNro));
}

export interface Consulta {
  cae: string;
  vencimiento: string;
  total: string;
  docNro: string;
}

/** A comprobante ARCA has, or null when it has none with that number (error 602). */
export async function consultar(
  url: string,
  c: Credentials,
  ptoVta: number,
  tipo: number,
  nro: number,
  timeoutMs: number,
): Promise<Consulta | null> {
  const r = await wsfe(
    url,
    'FECompConsultar',
    { ...auth(c), FeCompConsReq: { CbteTipo: tipo, CbteNro: nro, PtoVta: ptoVta } },
    timeoutMs,
  );
  const errs = errorsOf(r);
  if (errs.some((e) => e.code === '602')) return null;
  throwErrors(r);
  const g = node(r.ResultGet);
  if (text(g.Resultado) !== 'A') return null;
  return { cae: text(g.CodAutorizacion), vencimiento: text(g.FchVto), total: text(g.ImpTotal), docNro: text(g.DocNro) };
}

export interface Solicitud {
  ptoVta: number;
  tipo: number;
  nro: number;
  /** YYYYMMDD */
  fecha: string;
  /** 1 productos, 2 servicios, 3 productos y servicios. */
  concepto: number;
  /** Concepto 2 and 3: FchServDesde, FchServHasta, FchVtoPago (YYYYMMDD). */
  servicio?: { desde: string; hasta: string; vtoPago: string };
  docTipo: number;
  docNro: string;
  condicionIvaReceptor: number;
  /** Amounts as "123.45". */
  total: string;
  neto: string;
  iva: string;
  tributos: string;
  exento: string;
  noGravado: string;
  alicuotas: { id: number; base: string; importe: string }[];
  asociado?: { tipo: number; ptoVta: number; nro: number; cuit: string; fecha: string };
}

export type Resultado =
  | { aprobado: true; cae: string; vencimiento: string }
  | { aprobado: false; codigo: string | null; mensaje: string; observaciones: { code: string; msg: string }[] };

/** A FECAEDetRequest (FEDetRequest) in the schema's order (an xs:sequence). */
function detRequest(s: Solicitud): Record<string, unknown> {
  const det: Record<string, unknown> = {
    Concepto: s.concepto,
    DocTipo: s.docTipo,
    DocNro: s.docNro,
    CbteDesde: s.nro,
    CbteHasta: s.nro,
    CbteFch: s.fecha,
    ImpTotal: s.total,
    ImpTotConc: s.noGravado,
    ImpNeto: s.neto,
    ImpOpEx: s.exento,
    ImpTrib: s.tributos,
    ImpIVA: s.iva,
    FchServDesde: s.servicio?.desde,
    FchServHasta: s.servicio?.hasta,
    FchVtoPago: s.servicio?.vtoPago,
    MonId: 'PES',
    MonCotiz: 1,
    CondicionIVAReceptorId: s.condicionIvaReceptor,
  };
  if (s.asociado) {
    det.CbtesAsoc = {
      CbteAsoc: {
        Tipo: s.asociado.tipo,
        PtoVta: s.asociado.ptoVta,
        Nro: s.asociado.nro,
        Cuit: s.asociado.cuit,
        CbteFch: s.asociado.fecha,
      },
    };
  }
  if (s.alicuotas.length)
    det.Iva = { AlicIva: s.alicuotas.map((a) => ({ Id: a.id, BaseImp: a.base, Importe: a.importe })) };
  return det;
}

/** The outcome of one detail of FECAESolicitar or FECAEARegInformativo. */
function resultadoDe(r: XmlNode, detalle: string): Resultado {
  const d = node(list(node(r.FeDetResp)[detalle])[0]);
  if (text(d.Resultado) === 'A')
    return { aprobado: true, cae: text(d.CAE) || text(d.CAEA), vencimiento: text(d.CAEFchVto) };
  const obs = [
    ...list(node(d.Observaciones).Obs).map((o) => ({ code: text(node(o).Code), msg: text(node(o).Msg) })),
    ...errorsOf(r),
  ];
  return {
    aprobado: false,
    codigo: obs[0]?.code ?? null,
    mensaje: obs.map((o) => `${o.code}: ${o.msg}`).join(' ') || 'Rechazado.',
    observaciones: obs,
  };
}

export async function solicitar(url: string, c: Credentials, s: Solicitud, timeoutMs: number): Promise<Resultado> {
  const r = await wsfe(
    url,
    'FECAESolicitar',
    {
      ...auth(c),
      FeCAEReq: {
        FeCabReq: { CantReg: 1, PtoVta: s.ptoVta, CbteTipo: s.tipo },
        FeDetReq: { FECAEDetRequest: detRequest(s) },
      },
    },
    timeoutMs,
  );
  const res = resultadoDe(r, 'FECAEDetResponse');
  return res.aprobado && !res.cae
    ? { aprobado: false, codigo: null, mensaje: 'ARCA aprobó sin CAE.', observaciones: [] }
    : res;
}

/* ---------------------------------------------------------------- CAEA (decision 0047) */

export interface CaeaOtorgado {
  caea: string;
  periodo: number;
  orden: number;
  /** YYYYMMDD */
  desde: string;
  hasta: string;
  tope: string;
}

const caeaDe = (r: XmlNode): CaeaOtorgado => {
  throwErrors(r);
  const g = node(r.ResultGet);
  if (!text(g.CAEA)) throw new ArcaError(null, 'ARCA no devolvió el CAEA.');
  return {
    caea: text(g.CAEA),
    periodo: Number(text(g.Periodo)),
    orden: Number(text(g.Orden)),
    desde: text(g.FchVigDesde),
    hasta: text(g.FchVigHasta),
    tope: text(g.FchTopeInf),
  };
};

/** FECAEASolicitar: the CAEA of a fortnight (15008 when it was already granted: ask FECAEAConsultar). */
export async function caeaSolicitar(url: string, c: Credentials, periodo: number, orden: number, timeoutMs: number) {
  return caeaDe(await wsfe(url, 'FECAEASolicitar', { ...auth(c), Periodo: periodo, Orden: orden }, timeoutMs));
}

/** FECAEAConsultar: a CAEA already granted. */
export async function caeaConsultar(url: string, c: Credentials, periodo: number, orden: number, timeoutMs: number) {
  return caeaDe(await wsfe(url, 'FECAEAConsultar', { ...auth(c), Periodo: periodo, Orden: orden }, timeoutMs));
}

/** FECAEARegInformativo: reports one comprobante issued under a CAEA (`generado`: yyyymmddhhmmss). */
export async function caeaInformar(
  url: string,
  c: Credentials,
  s: Solicitud & { caea: string; generado: string },
  timeoutMs: number,
): Promise<Resultado> {
  const r = await wsfe(
    url,
    'FECAEARegInformativo',
    {
      ...auth(c),
      FeCAEARegInfReq: {
        FeCabReq: { CantReg: 1, PtoVta: s.ptoVta, CbteTipo: s.tipo },
        // CAEA and CbteFchHsGen extend FEDetRequest: after all of its fields.
        FeDetReq: { FECAEADetRequest: { ...detRequest(s), CAEA: s.caea, CbteFchHsGen: s.generado } },
      },
    },
    timeoutMs,
  );
  return resultadoDe(r, 'FECAEADetResponse');
}

/** FECAEASinMovimientoInformar: a CAEA that was not used on a punto de venta. */
export async function caeaSinMovimiento(
  url: string,
  c: Credentials,
  ptoVta: number,
  caea: string,
  timeoutMs: number,
): Promise<{ ok: true } | { ok: false; codigo: string | null; mensaje: string }> {
  const r = await wsfe(url, 'FECAEASinMovimientoInformar', { ...auth(c), PtoVta: ptoVta, CAEA: caea }, timeoutMs);
  const [e] = errorsOf(r);
  if (text(r.Resultado) === 'A' && !e) return { ok: true };
  return { ok: false, codigo: e?.code ?? null, mensaje: e ? `${e.code}: ${e.msg}` : 'Rechazado.' };
}

/** Padrón A5 answered only `errorConstancia`: ARCA gives no constancia for that CUIT (e.g. a CUIL). */
export class PadronSinConstanciaError extends Error {
  constructor(readonly errores: string[]) {
    super(errores.join('; ') || 'sin constancia');
  }
}

/**
 * The IVA condition from the A5 answer: monotributo from datosMonotributo; else the IVA tax in
 * datosRegimenGeneral (30 IVA, 32 IVA exento, 34 IVA no alcanzado); else consumidor final.
 */
function condicionDe(p: XmlNode) {
  if (p.datosMonotributo) return 'monotributista' as const;
  const ids = list(node(p.datosRegimenGeneral).impuesto).map((i) => text(node(i).idImpuesto));
  if (ids.includes('30')) return 'responsable_inscripto' as const;
  if (ids.includes('32')) return 'exento' as const;
  if (ids.includes('34')) return 'no_alcanzado' as const;
  return 'consumidor_final' as const;
}

/** Padrón A5 (getPersona_v2): a person's name, address, IVA condition and key state. */
export async function getPersona(url: string, c: Credentials, idPersona: string, timeoutMs: number) {
  const xml = envelope(
    `<ns:getPersona_v2>${toXml({ token: c.token, sign: c.sign, cuitRepresentada: c.cuit, idPersona })}</ns:getPersona_v2>`,
    NS_A5,
  );
  const body = await post(url, '', xml, timeoutMs);
  const p = node(node(body.getPersona_v2Response).personaReturn);
  const erroresConstancia = list<unknown>(node(p.errorConstancia).error).map(text).filter(Boolean);
  if (!p.datosGenerales) throw new PadronSinConstanciaError(erroresConstancia);
  const g = node(p.datosGenerales);
  const dom = node(g.domicilioFiscal);
  const nombre = text(g.razonSocial) || [text(g.apellido), text(g.nombre)].filter(Boolean).join(' ');
  const domicilio =
    [text(dom.direccion), text(dom.localidad), text(dom.descripcionProvincia)].filter(Boolean).join(', ') || null;
  const estadoClave = text(g.estadoClave) || null;
  return { nombre, domicilio, condicion_iva: condicionDe(p), estado_clave: estadoClave, errores: erroresConstancia };
}
