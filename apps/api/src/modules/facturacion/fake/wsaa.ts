import { randomBytes } from 'node:crypto';
import { certInfo, readCms } from '../arca-crypto.js';
import { envelope, escapeXml, node, parseXml, text, type XmlNode } from '../soap.js';
import type { FakeArca } from './fake-arca.js';

/* The fake's WSAA: LoginCms, and the check of the Token/Sign other services receive. */

export const NS_WSAA = 'http://wsaa.view.sua.dvadac.desein.afip.gov';

export function wsaa(f: FakeArca, op: string, arg: XmlNode): string {
  if (op !== 'loginCms') throw new Error(`Operación desconocida: ${op}`);
  const { content, certPem } = readCms(text(arg.in0));
  const tra = node(parseXml(content).loginTicketRequest);
  const service = text(tra.service);
  const info = certInfo(certPem);
  if (!info?.cuit) throw new Error('ns1:cms.cert.untrusted: Certificado sin CUIT');
  if (info.vence.getTime() < Date.now()) throw new Error('ns1:cms.cert.expired: Certificado expirado');
  const token = randomBytes(32).toString('base64');
  const sign = randomBytes(16).toString('base64');
  f.tokens.set(token, { cuit: info.cuit.replace(/-/g, ''), service });
  const now = new Date();
  const ta =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><loginTicketResponse version="1.0"><header>' +
    `<source>CN=wsaahomo, O=AFIP, C=AR</source><destination>${escapeXml(info.cuit)}</destination>` +
    `<uniqueId>${Date.now()}</uniqueId><generationTime>${now.toISOString()}</generationTime>` +
    `<expirationTime>${new Date(now.getTime() + 12 * 3600_000).toISOString()}</expirationTime></header>` +
    `<credentials><token>${token}</token><sign>${sign}</sign></credentials></loginTicketResponse>`;
  return envelope(
    `<ns:loginCmsResponse><ns:loginCmsReturn>${escapeXml(ta)}</ns:loginCmsReturn></ns:loginCmsResponse>`,
    NS_WSAA,
  );
}

export function authError(f: FakeArca, auth: XmlNode, service: string): { Code: number; Msg: string } | null {
  const t = f.tokens.get(text(auth.Token ?? auth.token));
  const cuit = text(auth.Cuit ?? auth.cuitRepresentada);
  if (!t || t.service !== service) return { Code: 600, Msg: 'ValidacionDeToken: No validaron las credenciales.' };
  if (t.cuit !== cuit) return { Code: 600, Msg: 'ValidacionDeToken: el CUIT no corresponde al token.' };
  return null;
}
