import {
  PDFDocument,
  StandardFonts,
  fill,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setFillingRgbColor,
  type PDFFont,
  type PDFPage,
} from 'pdf-lib';
import { ETIQUETAS_POR_HOJA, type EtiquetaPlantilla } from '@mostrador/shared';
import { barras } from './ean.js';

/*
 * A4 sheets of labels (issue 35). Standard PDF fonts (Helvetica, WinAnsi: every Spanish letter),
 * nothing embedded; barcodes as filled rectangles at the nominal module of 0,33 mm.
 */

export interface Etiqueta {
  nombre: string;
  /** "$ 1.600,00". */
  precio: string;
  /** "Precio por kg: $ 3.200,00", or null. */
  porUnidad: string | null;
  /** "$ 1.322,31" (net of IVA), or null when the shop does not show it. */
  sinImpuestos: string | null;
  codigo: string | null;
  codigoBarras: string | null;
  fecha: string;
}

const MM = 72 / 25.4;
const A4 = { w: 210 * MM, h: 297 * MM };
const MARGEN = 8 * MM;
const MODULO = 0.33 * MM;

/** Text as WinAnsi can write it (what it lacks becomes "?"; the no-break space a plain one). */
export const winAnsi = (s: string) =>
  s
    .replace(/[\u00a0\u202f\u2009]/g, ' ')
    .replace(/\u2212/g, '-')
    .replace(/[^\x20-\x7e\u00a1-\u00ff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/g, '?');

/** Rows of at most `width` points at `size` (a word longer than a row is cut). */
export function filas(text: string, font: PDFFont, size: number, width: number, max: number): string[] {
  const out: string[] = [];
  let row = '';
  for (const word of winAnsi(text).split(/\s+/).filter(Boolean)) {
    const next = row ? `${row} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) <= width) row = next;
    else {
      if (row) out.push(row);
      row = word;
      while (font.widthOfTextAtSize(row, size) > width && row.length > 1) {
        let cut = row.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(row.slice(0, cut), size) > width) cut--;
        out.push(row.slice(0, cut));
        row = row.slice(cut);
      }
    }
  }
  if (row) out.push(row);
  if (out.length > max) {
    const kept = out.slice(0, max);
    let last = kept[max - 1];
    while (last.length > 1 && font.widthOfTextAtSize(`${last}…`, size) > width) last = last.slice(0, -1);
    kept[max - 1] = `${last}…`;
    return kept;
  }
  return out;
}

/** The bars of `modulos` from (x, y), `alto` points high: one filled path. */
export function dibujarBarras(page: PDFPage, modulos: string, x: number, y: number, alto: number) {
  const ops = [pushGraphicsState(), setFillingRgbColor(0, 0, 0)];
  for (let i = 0; i < modulos.length;) {
    if (modulos[i] !== '1') {
      i++;
      continue;
    }
    let j = i;
    while (modulos[j] === '1') j++;
    ops.push(rectangle(round(x + i * MODULO), round(y), round((j - i) * MODULO), round(alto)));
    i = j;
  }
  ops.push(fill(), popGraphicsState());
  page.pushOperators(...ops);
}
const round = (n: number) => Math.round(n * 1000) / 1000;

export async function etiquetasPdf(plantilla: EtiquetaPlantilla, etiquetas: Etiqueta[], titulo: string) {
  const doc = await PDFDocument.create();
  doc.setTitle(titulo);
  doc.setCreator('Mostrador');
  doc.setProducer('Mostrador');
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const { columnas, filas: filasHoja } = ETIQUETAS_POR_HOJA[plantilla];
  const ancho = (A4.w - 2 * MARGEN) / columnas;
  const alto = (A4.h - 2 * MARGEN) / filasHoja;
  const porHoja = columnas * filasHoja;
  let page: PDFPage | null = null;
  etiquetas.forEach((e, k) => {
    if (k % porHoja === 0) page = doc.addPage([A4.w, A4.h]);
    const i = k % porHoja;
    const x = MARGEN + (i % columnas) * ancho;
    const y = A4.h - MARGEN - (Math.floor(i / columnas) + 1) * alto;
    // The cutting guide.
    page!.drawRectangle({ x, y, width: ancho, height: alto, borderColor: rgb(0.8, 0.8, 0.8), borderWidth: 0.5 });
    if (plantilla === 'gondola') gondola(page!, e, { x, y, ancho, alto }, regular, bold);
    else codigo(page!, e, { x, y, ancho, alto }, regular, bold);
  });
  return Buffer.from(await doc.save());
}

type Caja = { x: number; y: number; ancho: number; alto: number };
const GRIS = rgb(0.35, 0.35, 0.35);

/** Name, the final price large, then smaller the price per unit of measure and without national taxes. */
function gondola(page: PDFPage, e: Etiqueta, c: Caja, regular: PDFFont, bold: PDFFont) {
  const pad = 2.5 * MM;
  const w = c.ancho - 2 * pad;
  let y = c.y + c.alto - pad - 9;
  for (const row of filas(e.nombre, bold, 9, w, 2)) {
    page.drawText(row, { x: c.x + pad, y, size: 9, font: bold });
    y -= 10.5;
  }
  const precio = winAnsi(e.precio);
  let size = 24;
  while (bold.widthOfTextAtSize(precio, size) > w && size > 12) size--;
  y -= size - 4;
  page.drawText(precio, { x: c.x + pad, y, size, font: bold });
  y -= 10;
  if (e.porUnidad) {
    page.drawText(winAnsi(e.porUnidad), { x: c.x + pad, y, size: 7.5, font: regular });
    y -= 8.5;
  }
  if (e.sinImpuestos) {
    page.drawText(winAnsi(`PRECIO SIN IMPUESTOS NACIONALES: ${e.sinImpuestos}`), {
      x: c.x + pad,
      y,
      size: 5.5,
      font: regular,
      color: GRIS,
    });
  }
  const pie = winAnsi([e.codigoBarras ?? e.codigo, e.fecha].filter(Boolean).join('  ·  '));
  page.drawText(pie, { x: c.x + pad, y: c.y + pad - 1, size: 5.5, font: regular, color: GRIS });
}

/** Name, price and the barcode with its digits (or the internal code's absence, said). */
function codigo(page: PDFPage, e: Etiqueta, c: Caja, regular: PDFFont, bold: PDFFont) {
  const pad = 2 * MM;
  const w = c.ancho - 2 * pad;
  const precio = winAnsi(e.precio);
  const precioW = bold.widthOfTextAtSize(precio, 9);
  const top = c.y + c.alto - pad - 7;
  page.drawText(precio, { x: c.x + c.ancho - pad - precioW, y: top, size: 9, font: bold });
  filas(e.nombre, regular, 7, w - precioW - 2 * MM, 2).forEach((row, k) =>
    page.drawText(row, { x: c.x + pad, y: top - k * 8, size: 7, font: regular }),
  );
  const b = barras(e.codigoBarras);
  if (!b) {
    const msg = e.codigoBarras ? `Código ${e.codigoBarras}: no es EAN` : 'Sin código de barras';
    page.drawText(winAnsi(msg), { x: c.x + pad, y: c.y + pad + 6, size: 7, font: regular, color: GRIS });
    return;
  }
  const barW = b.modulos.length * MODULO;
  const bx = c.x + (c.ancho - barW) / 2;
  const by = c.y + pad + 8;
  dibujarBarras(page, b.modulos, bx, by, 11 * MM);
  const digits = b.codigo;
  const dw = regular.widthOfTextAtSize(digits, 7);
  page.drawText(digits, { x: c.x + (c.ancho - dw) / 2, y: c.y + pad + 1, size: 7, font: regular });
}
