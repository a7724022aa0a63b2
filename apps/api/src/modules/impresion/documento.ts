import { COLUMNAS_PAPEL, type AnchoPapel } from '@mostrador/shared';
import { trabajo, type Alineacion } from './escpos.js';

/*
 * A printed document as lines of a receipt (issue 35): the same lines go to a thermal printer as
 * ESC/POS (here) and into the PDF a shared link serves (pdf-documento.ts), so both say the same.
 */

export type Linea =
  | { tipo: 'texto'; texto: string; negrita?: boolean; alinear?: Alineacion; grande?: boolean }
  /** A label and an amount, the amount at the right edge. */
  | { tipo: 'par'; izq: string; der: string; negrita?: boolean; grande?: boolean }
  | { tipo: 'separador' }
  | { tipo: 'espacio' }
  /** A QR the printer draws (ARCA's invoice QR). */
  | { tipo: 'qr'; datos: string };

export interface Documento {
  /** "Venta #12", "Factura B 0001-00000023": the PDF's title and file name. */
  titulo: string;
  lineas: Linea[];
  /** Its PDF is an A4 sheet (presupuestos, remitos) rather than a ticket's strip. */
  a4?: boolean;
}

/** One printed row, already cut to the paper's width. */
export type Renglon =
  | { tipo: 'texto'; texto: string; negrita: boolean; alinear: Alineacion; grande: boolean }
  | { tipo: 'qr'; datos: string };

/** Words into rows of at most `cols` characters (a word longer than a row is cut). */
export function partir(texto: string, cols: number): string[] {
  const out: string[] = [];
  for (const parrafo of texto.split('\n')) {
    let row = '';
    for (const word of parrafo.split(/\s+/).filter(Boolean)) {
      let w = word;
      while (w.length > cols) {
        if (row) out.push(row);
        out.push(w.slice(0, cols));
        w = w.slice(cols);
        row = '';
      }
      if (!row) row = w;
      else if (row.length + 1 + w.length <= cols) row += ` ${w}`;
      else {
        out.push(row);
        row = w;
      }
    }
    out.push(row);
  }
  return out;
}

/** "Total ........ $ 100": the label wrapped, the amount at the right of its last row (or below). */
export function par(izq: string, der: string, cols: number): string[] {
  const rows = partir(izq, cols);
  const last = rows[rows.length - 1];
  if (last.length + 1 + der.length <= cols)
    rows[rows.length - 1] = last + ' '.repeat(cols - last.length - der.length) + der;
  else rows.push(der.padStart(cols));
  return rows;
}

/** The document's rows for a paper of `cols` characters (double size halves them). */
export function renglones(doc: Documento, cols: number): Renglon[] {
  const out: Renglon[] = [];
  for (const l of doc.lineas) {
    if (l.tipo === 'qr') {
      out.push(l);
      continue;
    }
    if (l.tipo === 'separador') {
      out.push({ tipo: 'texto', texto: '-'.repeat(cols), negrita: false, alinear: 'izq', grande: false });
      continue;
    }
    if (l.tipo === 'espacio') {
      out.push({ tipo: 'texto', texto: '', negrita: false, alinear: 'izq', grande: false });
      continue;
    }
    const grande = l.grande ?? false;
    const c = grande ? Math.floor(cols / 2) : cols;
    const rows = l.tipo === 'par' ? par(l.izq, l.der, c) : partir(l.texto, c);
    const alinear = l.tipo === 'par' ? 'izq' : (l.alinear ?? 'izq');
    for (const texto of rows) out.push({ tipo: 'texto', texto, negrita: l.negrita ?? false, alinear, grande });
  }
  return out;
}

/**
 * The document as one ESC/POS job for a roll of `ancho` mm: reset and code page, the drawer
 * pulse first when asked (the drawer opens while the ticket prints), the rows, feed and cut.
 */
export function aEscpos(doc: Documento, ancho: AnchoPapel, o: { cajon?: boolean } = {}): Uint8Array {
  const t = trabajo().iniciar();
  if (o.cajon) t.cajon();
  let negrita = false;
  let grande = false;
  let alinear: Alineacion = 'izq';
  for (const r of renglones(doc, COLUMNAS_PAPEL[ancho])) {
    const a = r.tipo === 'qr' ? 'centro' : r.alinear;
    if (a !== alinear) t.alinear((alinear = a));
    if (r.tipo === 'qr') {
      t.qr(r.datos, ancho === 58 ? 4 : 6).linea();
      continue;
    }
    if (r.negrita !== negrita) t.negrita((negrita = r.negrita));
    if (r.grande !== grande) {
      grande = r.grande;
      t.tamano(grande ? 2 : 1, grande ? 2 : 1);
    }
    t.linea(r.texto);
  }
  if (negrita) t.negrita(false);
  if (grande) t.tamano(1, 1);
  if (alinear !== 'izq') t.alinear('izq');
  return t.avanzar(3).cortar().bytes();
}
