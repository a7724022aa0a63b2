import { createHmac, timingSafeEqual } from 'node:crypto';
import { DOCUMENTOS_COMPARTIBLES, type DocumentoTipo } from '@mostrador/shared';

/*
 * Shared documents (issue 35): a link that opens one document's PDF without a session until it
 * expires. The link carries the business, the document and the expiry, signed with a key derived
 * from the server's token key (HMAC-SHA256): nothing is stored, and no link names another
 * document or lasts longer than it says.
 */

export interface Enlace {
  negocio: string;
  tipo: DocumentoTipo;
  id: string;
  /** Expiry, seconds since the epoch. */
  vence: number;
}

const b64 = (b: Buffer) => b.toString('base64url');
const keyOf = (jwtKey: Uint8Array) => createHmac('sha256', jwtKey).update('mostrador:documentos-compartidos').digest();

export function firmarEnlace(jwtKey: Uint8Array, e: Enlace): string {
  const body = b64(Buffer.from(JSON.stringify([e.negocio, e.tipo, e.id, e.vence])));
  return `${body}.${b64(createHmac('sha256', keyOf(jwtKey)).update(body).digest())}`;
}

/** The link's content when its signature holds (expired or not: the caller says which); null otherwise. */
export function leerEnlace(jwtKey: Uint8Array, token: string): Enlace | null {
  const m = /^([\w-]{10,400})\.([\w-]{43})$/.exec(token);
  if (!m) return null;
  const expected = createHmac('sha256', keyOf(jwtKey)).update(m[1]).digest();
  const given = Buffer.from(m[2], 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const [negocio, tipo, id, vence] = JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8')) as unknown[];
    if (typeof negocio !== 'string' || typeof id !== 'string' || typeof vence !== 'number') return null;
    if (!(DOCUMENTOS_COMPARTIBLES as readonly unknown[]).includes(tipo)) return null;
    return { negocio, tipo: tipo as DocumentoTipo, id, vence };
  } catch {
    return null;
  }
}

/**
 * An Argentine phone as WhatsApp's wa.me wants it: country code 54, the 9 of mobiles, the area
 * code without its 0 and the number without the 15 ("011 15-4123-4567" → 5491141234567). Null
 * when it cannot be read as one.
 */
export function telefonoWhatsapp(telefono: string | null): string | null {
  if (!telefono) return null;
  let d = telefono.replace(/\D/g, '');
  if (d.startsWith('00')) d = d.slice(2);
  if (d.startsWith('54')) {
    d = d.slice(2);
    if (d.startsWith('9')) d = d.slice(1);
  }
  if (d.startsWith('0')) d = d.slice(1);
  if (d.length === 12) {
    // The area code (2 to 4 digits) followed by the 15 of a mobile.
    for (const n of [2, 3, 4]) {
      if (d.slice(n, n + 2) === '15') {
        d = d.slice(0, n) + d.slice(n + 2);
        break;
      }
    }
  }
  return d.length === 10 ? `549${d}` : null;
}
