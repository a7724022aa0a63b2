import { CODEPAGE_PC850, PC850_ALTO } from '../escpos.js';

/*
 * Reads an ESC/POS job back (the fake printer's records, the tests): the printed rows, which of
 * them were bold, the QR payloads, cuts and drawer pulses. Strict: a command it does not know, a
 * byte above 0x7F without code page PC850 selected, or a truncated command is an error, as a
 * real printer would print garbage.
 */

export interface TrabajoLeido {
  /** Printed rows, in order (a row ends with LF). */
  renglones: string[];
  /** The rows printed (partly) in bold. */
  negritas: string[];
  /** The rows printed at double size. */
  grandes: string[];
  /** Rows centred with ESC a 1. */
  centrados: string[];
  qr: string[];
  cortes: number;
  /** Drawer pulses (ESC p). */
  cajon: number;
  /** The code page selected with ESC t (null: never selected). */
  codepage: number | null;
  /** Whether the job began with ESC @. */
  inicializa: boolean;
}

export function decodificar(bytes: Uint8Array): TrabajoLeido {
  const out: TrabajoLeido = {
    renglones: [],
    negritas: [],
    grandes: [],
    centrados: [],
    qr: [],
    cortes: 0,
    cajon: 0,
    codepage: null,
    inicializa: bytes[0] === 0x1b && bytes[1] === 0x40,
  };
  let row = '';
  let bold = false;
  let rowBold = false;
  let big = false;
  let align = 0;
  let qrData: string | null = null;
  let i = 0;
  const need = (n: number) => {
    if (i + n > bytes.length) throw new Error(`Comando truncado en el byte ${i}.`);
  };
  const endRow = () => {
    out.renglones.push(row);
    if (rowBold) out.negritas.push(row);
    if (big) out.grandes.push(row);
    if (align === 1) out.centrados.push(row);
    row = '';
    rowBold = bold;
  };
  while (i < bytes.length) {
    const b = bytes[i];
    if (b === 0x0a) {
      endRow();
      i++;
    } else if (b === 0x1b) {
      need(2);
      const c = bytes[i + 1];
      if (c === 0x40) {
        bold = rowBold = big = false;
        align = 0;
        i += 2;
      } else if (c === 0x74) {
        need(3);
        out.codepage = bytes[i + 2];
        i += 3;
      } else if (c === 0x45) {
        need(3);
        bold = (bytes[i + 2] & 1) === 1;
        if (bold) rowBold = true;
        i += 3;
      } else if (c === 0x61) {
        need(3);
        align = bytes[i + 2] % 48;
        i += 3;
      } else if (c === 0x64) {
        need(3);
        for (let k = 0; k < bytes[i + 2]; k++) endRow();
        i += 3;
      } else if (c === 0x70) {
        need(5);
        out.cajon++;
        i += 5;
      } else throw new Error(`Comando ESC 0x${c.toString(16)} desconocido en el byte ${i}.`);
    } else if (b === 0x1d) {
      need(2);
      const c = bytes[i + 1];
      if (c === 0x21) {
        need(3);
        big = bytes[i + 2] !== 0;
        i += 3;
      } else if (c === 0x56) {
        need(3);
        const m = bytes[i + 2];
        out.cortes++;
        i += m === 65 || m === 66 ? 4 : 3;
      } else if (c === 0x28 && bytes[i + 2] === 0x6b) {
        need(5);
        const len = bytes[i + 3] + bytes[i + 4] * 256;
        need(5 + len);
        const cn = bytes[i + 5];
        const fn = bytes[i + 6];
        if (cn !== 0x31) throw new Error(`GS ( k con cn=${cn} (no es un QR).`);
        if (fn === 0x50) qrData = Buffer.from(bytes.slice(i + 8, i + 5 + len)).toString('utf8');
        else if (fn === 0x51) {
          if (qrData === null) throw new Error('Se pidió imprimir un QR sin datos guardados.');
          out.qr.push(qrData);
        }
        i += 5 + len;
      } else throw new Error(`Comando GS 0x${c.toString(16)} desconocido en el byte ${i}.`);
    } else if (b === 0x10) {
      need(3);
      if (bytes[i + 1] !== 0x04) throw new Error(`Comando DLE desconocido en el byte ${i}.`);
      i += 3;
    } else if (b < 0x20) {
      throw new Error(`Byte de control 0x${b.toString(16)} inesperado en el byte ${i}.`);
    } else {
      if (b >= 0x80) {
        if (out.codepage !== CODEPAGE_PC850)
          throw new Error(`Carácter 0x${b.toString(16)} sin la página PC850 elegida.`);
        row += PC850_ALTO[b - 0x80];
      } else row += String.fromCharCode(b);
      i++;
    }
  }
  if (row) endRow();
  return out;
}

/** The job's text, rows joined. */
export const textoDe = (t: TrabajoLeido) => t.renglones.join('\n');
