import { XMLParser } from 'fast-xml-parser';

/*
 * The little SOAP both sides need (decision 0013): an envelope around a body, and the body of an
 * answer as plain objects (namespace prefixes dropped, every value text so CUITs and CAEs keep
 * their digits).
 */

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
});

export const escapeXml = (s: string | number) =>
  String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `{a: 1, b: {c: 2}, d: [{e: 1}, {e: 2}]}` as `<a>1</a><b><c>2</c></b><d><e>1</e></d><d><e>2</e></d>`. */
export function toXml(value: Record<string, unknown>): string {
  let out = '';
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined || v === null) continue;
    const items = Array.isArray(v) ? v : [v];
    for (const item of items) {
      if (typeof item === 'object' && item !== null) out += `<${k}>${toXml(item as Record<string, unknown>)}</${k}>`;
      else out += `<${k}>${escapeXml(item as string | number)}</${k}>`;
    }
  }
  return out;
}

export function envelope(body: string, ns: string): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?>' +
    `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns="${ns}">` +
    `<soap:Body>${body}</soap:Body></soap:Envelope>`
  );
}

export type XmlNode = Record<string, unknown>;

/** The SOAP body of a document, or throws with the fault's text. */
export function parseBody(xml: string): XmlNode {
  const doc = parser.parse(xml) as XmlNode;
  const env = doc.Envelope as XmlNode | undefined;
  const body = (env?.Body ?? undefined) as XmlNode | undefined;
  if (!body || typeof body !== 'object') throw new SoapError('Respuesta SOAP sin cuerpo.', null);
  const fault = body.Fault as XmlNode | undefined;
  if (fault) throw new SoapError(String(fault.faultstring ?? 'SOAP fault'), String(fault.faultcode ?? '') || null);
  return body;
}

export const parseXml = (xml: string) => parser.parse(xml) as XmlNode;

export class SoapError extends Error {
  constructor(
    message: string,
    readonly faultCode: string | null,
  ) {
    super(message);
  }
}

/** A node that may come once or repeated, always as a list. */
export const list = <T = XmlNode>(v: unknown): T[] =>
  v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? (v as T[]) : [v as T];
export const node = (v: unknown): XmlNode => (v && typeof v === 'object' ? (v as XmlNode) : {});
export const text = (v: unknown): string =>
  v === undefined || v === null ? '' : typeof v === 'object' ? '' : String(v);
