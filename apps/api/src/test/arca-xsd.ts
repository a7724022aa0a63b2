import { createRequire } from 'node:module';
import { validateXML } from 'xmllint-wasm';

/*
 * ARCA's own schemas for the contract tests (decision 0040): the xs:schema embedded in each
 * published WSDL, as the maintained package @arcasdk/core ships them (never retyped here), and a
 * validator of a SOAP envelope's body element against them (libxml2 compiled to WebAssembly).
 */

export type Wsdl = 'wsfe.wsdl' | 'wsaa.wsdl' | 'ws_sr_padron_a5.wsdl';

const require = createRequire(import.meta.url);
const { WSDL_STRINGS } = require('@arcasdk/core/lib/infrastructure/soap/wsdl-strings.js') as {
  WSDL_STRINGS: Record<string, string>;
};

/** The namespace declarations of an element's start tag. */
const declarations = (startTag: string) => [...startTag.matchAll(/\sxmlns(?::[\w.-]+)?="[^"]*"/g)].map((m) => m[0]);

/** Adds the declarations the element's start tag lacks. */
function declare(xml: string, decls: string[]): string {
  const start = /^<[^>]*?(\/?)>/.exec(xml);
  if (!start) throw new Error('Sin elemento raíz');
  const own = new Set(declarations(start[0]).map((d) => d.split('=')[0]));
  const missing = decls.filter((d) => !own.has(d.split('=')[0]));
  const head = start[0].slice(0, start[0].length - 1 - start[1].length);
  return `${head}${missing.join('')}${start[1]}>${xml.slice(start[0].length)}`;
}

/** The WSDL's xs:schema of a target namespace, standalone: the WSDL's namespace declarations copied in. */
export function schemaOf(wsdl: Wsdl, targetNamespace: string): string {
  const text = WSDL_STRINGS[wsdl];
  if (!text) throw new Error(`@arcasdk/core no trae ${wsdl}`);
  const root = /<wsdl:definitions[^>]*>/.exec(text)![0];
  const schemas = [...text.matchAll(/<((?:\w+:)?schema)\b[^>]*>[\s\S]*?<\/\1>/g)].map((m) => m[0]);
  const schema = schemas.find((s) => /^<[^>]*targetNamespace="([^"]*)"/.exec(s)?.[1] === targetNamespace);
  if (!schema) throw new Error(`${wsdl} no tiene un esquema de ${targetNamespace}`);
  // An import without schemaLocation names a namespace the schema never uses for these elements.
  return declare(schema.replace(/<(?:\w+:)?import\b(?![^>]*schemaLocation)[^>]*\/>/g, ''), declarations(root));
}

/** The first element inside soap:Body, standalone: the envelope's namespace declarations copied in. */
export function bodyElement(envelope: string): string {
  const env = /<(\w+):Envelope\b[^>]*>/.exec(envelope);
  if (!env) throw new Error('No es un sobre SOAP');
  const p = env[1];
  const body = new RegExp(`<${p}:Body[^>]*>([\\s\\S]*)</${p}:Body>`).exec(envelope);
  if (!body) throw new Error('Sobre SOAP sin Body');
  return declare(body[1].trim(), declarations(env[0]));
}

export interface Validation {
  valid: boolean;
  errors: string[];
}

/** The body element of an envelope and the namespace of that element. */
function bodyOf(envelope: string): { el: string; ns: string } {
  const el = bodyElement(envelope);
  const start = /^<(?:(\w+):)?[\w.-]+[^>]*>/.exec(el)![0];
  const prefix = /^<(\w+):/.exec(start)?.[1];
  const ns = new RegExp(`xmlns${prefix ? `:${prefix}` : ''}="([^"]*)"`).exec(start)?.[1];
  if (!ns) throw new Error(`Elemento sin espacio de nombres: ${start}`);
  return { el, ns };
}

/**
 * Validates the body elements of SOAP envelopes against the WSDL's schema of their namespace, one
 * run of the validator per schema (compiling ARCA's schema is the slow part).
 */
export async function validateEnvelopes(envelopes: string[], wsdl: Wsdl): Promise<Validation[]> {
  const bodies = envelopes.map(bodyOf);
  const out: Validation[] = envelopes.map(() => ({ valid: true, errors: [] }));
  for (const ns of new Set(bodies.map((b) => b.ns))) {
    const idx = bodies.flatMap((b, i) => (b.ns === ns ? [i] : []));
    const r = await validateXML({
      xml: idx.map((i) => ({
        fileName: `body${i}.xml`,
        contents: `<?xml version="1.0" encoding="utf-8"?>${bodies[i].el}`,
      })),
      schema: [{ fileName: 'schema.xsd', contents: schemaOf(wsdl, ns) }],
    });
    for (const e of r.errors) {
      const i = Number(/body(\d+)\.xml/.exec(e.loc?.fileName ?? e.rawMessage)?.[1] ?? NaN);
      const target = Number.isNaN(i) ? idx.map((k) => out[k]) : [out[i]];
      for (const t of target) {
        t.valid = false;
        t.errors.push(e.message);
      }
    }
    if (!r.valid && !r.errors.length) for (const k of idx) out[k] = { valid: false, errors: [r.rawOutput] };
  }
  return out;
}

/** Validates the body element of one SOAP envelope against the WSDL's schema of its namespace. */
export async function validateEnvelope(envelope: string, wsdl: Wsdl): Promise<Validation> {
  return (await validateEnvelopes([envelope], wsdl))[0];
}
