import { isValidEan13, type EtiquetaPlantilla, type ImpresoraEtiquetas } from '@mostrador/shared';
import type { ProtocoloEstado } from '../impresion/impresora-red.js';
import type { Etiqueta } from './etiquetas-pdf.js';

/*
 * Labels in ZPL II for a Zebra-compatible label printer (issue 35, decision 0054), our own
 * encoder. One format per product (^XA … ^XZ) with its copies in ^PQ; text in UTF-8 (^CI28) in
 * the printer's scalable font (^A0), every field at its origin (^FO) with its data between ^FD
 * and ^FS, escaped through ^FH (the characters ^ ~ _ as _5E _7E _5F), so a product's name can
 * never carry a printer command. Barcodes: ^BE (EAN-13, its 12 digits: the printer adds the
 * check digit), ^BU (UPC-A, 11), ^B8 (EAN-8, 7), else ^BC (Code 128) of the product's code.
 */

/** Dots per millimetre of each resolution. */
const PUNTOS_MM: Record<number, number> = { 203: 8, 300: 12 };

/** Field data as ^FH reads it: no command prefix, no control character, no no-break space. */
export function campoZpl(texto: string): string {
  return texto
    .replace(/[\u00a0\u202f\u2009]/g, ' ')
    .replace(/\u2212/g, '-')
    .replace(/\p{Cc}/gu, '')
    .replace(/[_^~]/g, (c) => `_${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

const texto = (x: number, y: number, alto: number, valor: string, ancho?: number, filas = 1) =>
  `^FO${x},${y}^A0N,${alto},${alto}${ancho ? `^FB${ancho},${filas},0,L,0` : ''}^FH^FD${campoZpl(valor)}^FS`;

/** The barcode field of a code: the symbology it reads as, or Code 128 of the product's own code. */
function barras(e: Etiqueta, x: number, y: number, alto: number): string | null {
  const c = e.codigoBarras ?? '';
  const base = `^FO${x},${y}`;
  if (/^\d{13}$/.test(c) && isValidEan13(c)) return `${base}^BEN,${alto},Y,N^FD${c.slice(0, 12)}^FS`;
  if (/^\d{12}$/.test(c) && isValidEan13(`0${c}`)) return `${base}^BUN,${alto},Y,N,Y^FD${c.slice(0, 11)}^FS`;
  if (/^\d{8}$/.test(c) && isValidEan13(`00000${c}`)) return `${base}^B8N,${alto},Y,N^FD${c.slice(0, 7)}^FS`;
  const propio = e.codigo?.trim();
  if (propio && /^[\x20-\x7e]{1,40}$/.test(propio)) return `${base}^BCN,${alto},Y,N,N^FH^FD${campoZpl(propio)}^FS`;
  return null;
}

/** One label's format: góndola (price large, per unit and without national taxes smaller) or code. */
export function formatoZpl(
  plantilla: EtiquetaPlantilla,
  e: Etiqueta,
  copias: number,
  impresora: Pick<ImpresoraEtiquetas, 'dpi' | 'ancho_mm' | 'alto_mm'>,
): string {
  const d = PUNTOS_MM[impresora.dpi] ?? 8;
  const w = impresora.ancho_mm * d;
  const h = impresora.alto_mm * d;
  const m = 2 * d;
  const util = w - 2 * m;
  const chico = Math.round(2.5 * d);
  const l: string[] = ['^XA', '^CI28', `^PW${w}`, `^LL${h}`, '^LH0,0'];
  if (plantilla === 'gondola') {
    const nombre = Math.round(3.5 * d);
    const precio = Math.round(Math.min(10 * d, h * 0.3));
    let y = m;
    l.push(texto(m, y, nombre, e.nombre, util, 2));
    y += 2 * nombre + d;
    l.push(texto(m, y, precio, e.precio));
    y += precio + d;
    if (e.porUnidad) {
      l.push(texto(m, y, chico, e.porUnidad));
      y += chico + Math.round(d / 2);
    }
    if (e.sinImpuestos) {
      l.push(texto(m, y, chico, `PRECIO SIN IMPUESTOS NACIONALES: ${e.sinImpuestos}`, util, 2));
      y += 2 * chico;
    }
    l.push(texto(m, Math.max(y, h - m - chico), chico, [e.codigo, e.fecha].filter(Boolean).join(' · ')));
  } else {
    l.push(texto(m, m, Math.round(3 * d), e.nombre, util, 1));
    // A module of 0,25 mm (2 dots at 203 dpi, 3 at 300), bars as tall as the label allows.
    l.push(`^BY${d >= 12 ? 3 : 2}`);
    const b = barras(e, m + 2 * d, m + Math.round(4 * d), Math.max(5 * d, h - m - Math.round(4 * d) - 5 * d));
    l.push(b ?? texto(m, m + Math.round(5 * d), chico, `${e.codigo ?? 'Sin código'} (sin código de barras)`));
  }
  l.push(`^PQ${copias}`, '^XZ');
  return l.join('\n');
}

/** Every product's format, in one job. */
export function trabajoZpl(
  plantilla: EtiquetaPlantilla,
  etiquetas: Etiqueta[],
  copias: number,
  impresora: Pick<ImpresoraEtiquetas, 'dpi' | 'ancho_mm' | 'alto_mm'>,
): Uint8Array {
  return new TextEncoder().encode(`${etiquetas.map((e) => formatoZpl(plantilla, e, copias, impresora)).join('\n')}\n`);
}

/**
 * ~HS (host status): three strings between STX and ETX. The first's second and third fields are
 * the paper-out and pause flags; the second's third field is the head-up flag.
 */
export const ESTADO_ZPL: ProtocoloEstado = {
  pedido: new TextEncoder().encode('~HS'),
  leer(r) {
    if (r.filter((b) => b === 0x03).length < 3) return null;
    // STX (2) opens each string, ETX (3) closes it; CR LF between them.
    const partes = Buffer.from(r.filter((b) => b !== 0x02 && b !== 0x0d && b !== 0x0a))
      .toString('latin1')
      .split('\x03')
      .map((x) => x.trim().split(','));
    const [uno, dos] = partes;
    if (uno?.[1] === '1') return 'sin_papel';
    if (uno?.[2] === '1' || dos?.[2] === '1') return 'fuera_de_linea';
    return 'ok';
  },
};
