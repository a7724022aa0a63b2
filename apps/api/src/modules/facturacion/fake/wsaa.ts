import { randomBytes, X509Certificate } from 'node:crypto';
import { certFingerprint, certInfo, cmsSignedBy, readCms } from '../arca-crypto.js';
import { envelope, escapeXml, node, parseXml, text, type XmlNode } from '../soap.js';
import type { FakeArca } from './fake-arca.js';

/*
 * The fake's WSAA (decision 0039): LoginCms as strict as ARCA's, and the check of the Token and
 * Sign that WSFE and padrón receive. A login must carry a CMS signed by the key of its certificate,
 * a certificate issued by the fake's CA and in force, a TRA whose window holds now, and a known
 * service the CUIT may use; while a ticket (TA) of that certificate and service is valid, another
 * login is refused with coe.alreadyAuthenticated. `lenient` (a switch) answers any login, as the
 * first fake did. Fault codes and texts are WSAA's.
 */

export const NS_WSAA = 'http://wsaa.view.sua.dvadac.desein.afip.gov';

/** A SOAP fault with WSAA's code (the server answers it as `ns1:<code>`). */
export class FaultError extends Error {
  constructor(
    readonly faultCode: string,
    message: string,
  ) {
    super(message);
  }
}

const fault = (code: string, msg: string) => new FaultError(`ns1:${code}`, msg);

/** The services the fake's WSAA knows. */
export const SERVICIOS = new Set(['wsfe', 'ws_sr_constancia_inscripcion', 'ws_sr_padron_a5', 'wsfex', 'wsmtxca']);

/** WSAA's texts for its codes. */
export const WSAA_FAULTS = {
  alreadyAuthenticated: 'El CEE ya posee un TA valido para el acceso al WSN solicitado',
  notAuthorized: 'Computador no autorizado a acceder al servicio',
  signInvalid: 'Firma inválida o algoritmo no soportado',
  certNotFound: 'No se ha encontrado certificado de firma en el CMS',
  cmsBad: 'El CMS no es valido',
  untrusted: 'Certificado no emitido por AC de confianza',
  expired: 'Certificado expirado',
  notYetValid: 'Certificado con fecha de inicio posterior a la actual',
  generationTime: 'El campo generationTime posee una fecha posterior a la actual o el rango es mayor a 24 horas',
  expirationTime: 'El campo expirationTime posee una fecha anterior a la actual',
  timeFormat: 'El campo generationTime o expirationTime posee formato incorrecto',
  serviceNotFound: 'Servicio informado inexistente',
  xmlBad: 'No se ha podido interpretar el XML contra el SCHEMA',
} as const;

export interface FakeTicket {
  cuit: string;
  service: string;
  sign: string;
  generated: Date;
  expires: Date;
  /** The certificate's fingerprint (one TA per certificate and service). */
  cert: string;
}

const isoRe = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export function wsaa(f: FakeArca, op: string, arg: XmlNode, gone: () => boolean = () => false): string {
  if (op !== 'loginCms') throw new Error(`Operación desconocida: ${op}`);
  f.logins++;
  // A client that gave up before the answer (slow_ms beyond its deadline) gets no ticket: ARCA would
  // have issued one, and the 12-hour wait that follows is tested on purpose, not by accident.
  if (gone()) throw new Error('El cliente cerró la conexión.');
  const now = f.now();
  const cms = text(arg.in0);
  let content: string;
  let certPem: string;
  try {
    ({ content, certPem } = readCms(cms));
  } catch {
    throw fault('cms.bad', WSAA_FAULTS.cmsBad);
  }
  let tra: XmlNode;
  try {
    tra = node(parseXml(content).loginTicketRequest);
  } catch {
    throw fault('xml.bad', WSAA_FAULTS.xmlBad);
  }
  const service = text(tra.service);
  const info = certInfo(certPem);
  if (!info) throw fault('cms.cert.notFound', WSAA_FAULTS.certNotFound);
  if (!info.cuit) throw fault('cms.cert.untrusted', WSAA_FAULTS.untrusted);
  const cuit = info.cuit.replace(/-/g, '');
  const fp = certFingerprint(certPem);
  if (!f.faults.lenient) {
    if (!cmsSignedBy(cms, certPem)) throw fault('cms.sign.invalid', WSAA_FAULTS.signInvalid);
    const cert = new X509Certificate(certPem);
    if (!cert.checkIssued(f.caCert) || !cert.verify(f.caCert.publicKey))
      throw fault('cms.cert.untrusted', WSAA_FAULTS.untrusted);
    if (new Date(cert.validTo) < now) throw fault('cms.cert.expired', WSAA_FAULTS.expired);
    if (new Date(cert.validFrom) > now) throw fault('cms.cert.invalid', WSAA_FAULTS.notYetValid);
    const header = node(tra.header);
    const gen = text(header.generationTime);
    const exp = text(header.expirationTime);
    if (!isoRe.test(gen) || !isoRe.test(exp)) throw fault('xml.generationTime.invalid', WSAA_FAULTS.timeFormat);
    const g = Date.parse(gen);
    const x = Date.parse(exp);
    if (g > now.getTime() || x - g > 24 * 3600_000 || x <= g)
      throw fault('xml.generationTime.invalid', WSAA_FAULTS.generationTime);
    if (x <= now.getTime()) throw fault('xml.expirationTime.expired', WSAA_FAULTS.expirationTime);
    if (!SERVICIOS.has(service)) throw fault('wsn.notFound', WSAA_FAULTS.serviceNotFound);
    const servicios = f.cuits.get(cuit)?.servicios;
    if (servicios && !servicios.includes(service)) throw fault('coe.notAuthorized', WSAA_FAULTS.notAuthorized);
    const current = f.tas.get(`${fp}|${service}`);
    const held = current ? f.tokens.get(current) : undefined;
    if (held && held.expires > now) throw fault('coe.alreadyAuthenticated', WSAA_FAULTS.alreadyAuthenticated);
  }
  const token = randomBytes(32).toString('base64');
  const sign = randomBytes(16).toString('base64');
  const expires = new Date(now.getTime() + f.faults.ta_ttl_s * 1000);
  f.tokens.set(token, { cuit, service, sign, generated: now, expires, cert: fp });
  f.tas.set(`${fp}|${service}`, token);
  const ta =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><loginTicketResponse version="1.0"><header>' +
    `<source>CN=wsaahomo, O=AFIP, C=AR, SERIALNUMBER=CUIT 33693450239</source><destination>${escapeXml(cert(certPem))}</destination>` +
    `<uniqueId>${Math.floor(Math.random() * 2 ** 32)}</uniqueId><generationTime>${now.toISOString()}</generationTime>` +
    `<expirationTime>${expires.toISOString()}</expirationTime></header>` +
    `<credentials><token>${token}</token><sign>${sign}</sign></credentials></loginTicketResponse>`;
  return envelope(
    `<ns:loginCmsResponse><ns:loginCmsReturn>${escapeXml(ta)}</ns:loginCmsReturn></ns:loginCmsResponse>`,
    NS_WSAA,
  );
}

const cert = (pem: string) => new X509Certificate(pem).subject.split('\n').reverse().join(', ');

/** WSFE's Err (600) for a Token and Sign it does not take, or null when they are good for `service`. */
export function authError(f: FakeArca, auth: XmlNode, service: string): { Code: number; Msg: string } | null {
  const t = f.tokens.get(text(auth.Token ?? auth.token));
  const sign = text(auth.Sign ?? auth.sign);
  const cuit = text(auth.Cuit ?? auth.cuitRepresentada);
  if (!t || t.service !== service) return { Code: 600, Msg: 'ValidacionDeToken: No validaron las credenciales.' };
  if (f.faults.lenient) return t.cuit === cuit ? null : { Code: 600, Msg: relaciones(cuit) };
  if (t.sign !== sign)
    return { Code: 600, Msg: 'ValidacionDeToken: No validaron las credenciales: el Sign no corresponde al Token.' };
  const now = f.now();
  if (t.expires <= now) {
    const s = (d: Date) => Math.floor(d.getTime() / 1000);
    const gen = t.generated;
    return {
      Code: 600,
      Msg: `ValidacionDeToken: No validaron las fechas del token GenTime, ExpTime, NowUTC: ${s(gen)} (${gen.toISOString()}), ${s(t.expires)} (${t.expires.toISOString()}), ${now.toISOString()}`,
    };
  }
  if (t.cuit !== cuit) return { Code: 600, Msg: relaciones(cuit) };
  return null;
}

const relaciones = (cuit: string) => `ValidacionDeToken: No apareció CUIT en lista de relaciones: ${cuit}`;
