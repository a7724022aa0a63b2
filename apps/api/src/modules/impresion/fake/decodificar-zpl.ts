import { isValidEan13 } from '@mostrador/shared';

/*
 * Reads a ZPL II job back, strictly (the fake label printer, issue 35): formats between ^XA and
 * ^XZ, only the commands our encoder uses and with their parameters as the ZPL II reference
 * defines them, every field opened at an origin (^FO) and its data closed by ^FS. Anything else
 * — an unknown command, a format left open, data outside a format, a field without ^FS, a
 * barcode of the wrong length, accented text without UTF-8 (^CI28) — is an error, and the fake
 * refuses the job, as a strict printer would leave it unprinted.
 */

export interface CodigoZpl {
  simbologia: 'EAN13' | 'UPCA' | 'EAN8' | 'CODE128';
  /** The full code as scanned: EAN-13 and UPC-A with their check digit (the printer adds it). */
  codigo: string;
}

export interface FormatoZpl {
  ancho: number | null;
  alto: number | null;
  /** Text fields, top to bottom as sent. */
  textos: string[];
  codigos: CodigoZpl[];
  copias: number;
  utf8: boolean;
}

export class ZplInvalido extends Error {}

/** The two-letter commands read; ^A (a font) takes its font name as its first parameter. */
const COMANDOS = new Set([
  'XA',
  'XZ',
  'CI',
  'PW',
  'LL',
  'LH',
  'FO',
  'FD',
  'FS',
  'FH',
  'FB',
  'BY',
  'BE',
  'BU',
  'B8',
  'BC',
  'PQ',
]);
const ORIENTACION = /^[NRIB]$/;
const entero = (v: string | undefined, min: number, max: number, que: string) => {
  if (v === undefined || !/^\d{1,5}$/.test(v.trim()) || Number(v) < min || Number(v) > max)
    throw new ZplInvalido(`${que}: «${v ?? ''}» no es un número entre ${min} y ${max}.`);
  return Number(v);
};
const sino = (v: string | undefined, que: string) => {
  if (v !== undefined && v !== '' && v !== 'Y' && v !== 'N') throw new ZplInvalido(`${que}: debe ser Y o N.`);
};
const eanCompleto = (datos: string) => {
  for (let d = 0; d <= 9; d++) if (isValidEan13(datos + d)) return datos + d;
  return datos;
};

export function decodificarZpl(bytes: Uint8Array): FormatoZpl[] {
  let texto: string;
  try {
    texto = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ZplInvalido('El trabajo no es texto UTF-8.');
  }
  const formatos: FormatoZpl[] = [];
  let f: FormatoZpl | null = null;
  /** The field being built: its origin, barcode or font, hex escapes. */
  let campo: { origen: boolean; barras: string | null; hex: boolean } | null = null;
  let i = 0;
  while (i < texto.length) {
    const c = texto[i];
    if (c !== '^' && c !== '~') {
      if (/\s/.test(c)) {
        i++;
        continue;
      }
      throw new ZplInvalido(`Texto suelto fuera de un comando en la posición ${i}: «${texto.slice(i, i + 10)}».`);
    }
    if (c === '~') throw new ZplInvalido(`Comando de control no esperado en un trabajo: «${texto.slice(i, i + 3)}».`);
    let nombre = texto.slice(i + 1, i + 3).toUpperCase();
    let inicio = i + 3;
    if (!COMANDOS.has(nombre)) {
      if (nombre[0] !== 'A') throw new ZplInvalido(`Comando desconocido: ^${nombre}.`);
      nombre = 'A';
      inicio = i + 2;
    }
    if (nombre === 'FD') {
      const fin = texto.indexOf('^FS', inicio);
      const otro = texto.slice(inicio).search(/[\^~]/);
      if (fin < 0 || (otro >= 0 && inicio + otro < fin)) throw new ZplInvalido('Un ^FD sin su ^FS.');
      if (!f || !campo?.origen) throw new ZplInvalido('Un ^FD sin ^FO (campo sin origen) o fuera de ^XA … ^XZ.');
      let datos = texto.slice(inicio, fin);
      if (campo.hex) {
        if (/_(?![0-9A-Fa-f]{2})/.test(datos)) throw new ZplInvalido(`Escape ^FH mal formado en «${datos}».`);
        datos = datos.replace(/_([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
      }
      if (!f.utf8 && /[^\x20-\x7e]/.test(datos)) throw new ZplInvalido(`Texto con acentos sin ^CI28: «${datos}».`);
      if (campo.barras) f.codigos.push(leerCodigo(campo.barras, datos));
      else f.textos.push(datos);
      campo = null;
      i = fin + 3;
      continue;
    }
    const resto = texto.slice(inicio);
    const corte = resto.search(/[\^~]/);
    const params = (corte < 0 ? resto : resto.slice(0, corte)).trim();
    i = corte < 0 ? texto.length : inicio + corte;
    const p = params === '' ? [] : params.split(',').map((x) => x.trim());
    if (nombre === 'XA') {
      if (f) throw new ZplInvalido('^XA dentro de otro formato (falta ^XZ).');
      f = { ancho: null, alto: null, textos: [], codigos: [], copias: 1, utf8: false };
      continue;
    }
    if (!f) throw new ZplInvalido(`^${nombre} fuera de ^XA … ^XZ.`);
    switch (nombre) {
      case 'XZ':
        if (campo) throw new ZplInvalido('^XZ con un campo abierto (falta ^FD … ^FS).');
        formatos.push(f);
        f = null;
        break;
      case 'CI':
        f.utf8 = entero(p[0], 0, 36, '^CI') === 28;
        break;
      case 'PW':
        f.ancho = entero(p[0], 2, 32000, '^PW');
        break;
      case 'LL':
        f.alto = entero(p[0], 1, 32000, '^LL');
        break;
      case 'LH':
        entero(p[0], 0, 32000, '^LH x');
        entero(p[1], 0, 32000, '^LH y');
        break;
      case 'FO': {
        if (campo) throw new ZplInvalido('^FO con el campo anterior sin cerrar (falta ^FS).');
        const x = entero(p[0], 0, 32000, '^FO x');
        const y = entero(p[1], 0, 32000, '^FO y');
        if ((f.ancho !== null && x >= f.ancho) || (f.alto !== null && y >= f.alto))
          throw new ZplInvalido(`^FO${x},${y} fuera de la etiqueta.`);
        campo = { origen: true, barras: null, hex: false };
        break;
      }
      case 'A': {
        if (!campo) throw new ZplInvalido('^A fuera de un campo.');
        const [fuente, ...medidas] = params.split(',');
        if (!/^[0-9A-Z][NRIB]?$/.test(fuente ?? ''))
          throw new ZplInvalido(`^A: fuente u orientación no válida «${fuente}».`);
        entero(medidas[0], 10, 32000, '^A alto');
        entero(medidas[1], 10, 32000, '^A ancho');
        break;
      }
      case 'FB':
        if (!campo) throw new ZplInvalido('^FB fuera de un campo.');
        entero(p[0], 0, 32000, '^FB ancho');
        entero(p[1], 1, 9999, '^FB renglones');
        if (p[3] !== undefined && !/^[LCRJ]$/.test(p[3])) throw new ZplInvalido('^FB: justificación L, C, R o J.');
        break;
      case 'FH':
        if (!campo) throw new ZplInvalido('^FH fuera de un campo.');
        if (p.length) throw new ZplInvalido('^FH: el indicador es el predeterminado (_).');
        campo.hex = true;
        break;
      case 'BY':
        entero(p[0], 1, 10, '^BY módulo');
        break;
      case 'BE':
      case 'BU':
      case 'B8':
      case 'BC':
        if (!campo) throw new ZplInvalido(`^${nombre} fuera de un campo.`);
        if (!ORIENTACION.test(p[0] ?? '')) throw new ZplInvalido(`^${nombre}: orientación N, R, I o B.`);
        entero(p[1], 1, 32000, `^${nombre} alto`);
        p.slice(2).forEach((v) => sino(v, `^${nombre}`));
        campo.barras = nombre;
        break;
      case 'FS':
        if (!campo) throw new ZplInvalido('^FS sin campo abierto.');
        throw new ZplInvalido('Un campo cerrado sin datos (^FS sin ^FD).');
      case 'PQ':
        f.copias = entero(p[0], 1, 99_999, '^PQ cantidad');
        break;
    }
  }
  if (f) throw new ZplInvalido('El trabajo termina con un formato abierto (falta ^XZ).');
  if (!formatos.length) throw new ZplInvalido('El trabajo no tiene ningún formato (^XA … ^XZ).');
  return formatos;
}

function leerCodigo(comando: string, datos: string): CodigoZpl {
  switch (comando) {
    case 'BE':
      if (!/^\d{12}$/.test(datos)) throw new ZplInvalido(`^BE (EAN-13) lleva 12 dígitos, no «${datos}».`);
      return { simbologia: 'EAN13', codigo: eanCompleto(datos) };
    case 'BU':
      if (!/^\d{11}$/.test(datos)) throw new ZplInvalido(`^BU (UPC-A) lleva 11 dígitos, no «${datos}».`);
      return { simbologia: 'UPCA', codigo: eanCompleto(`0${datos}`).slice(1) };
    case 'B8':
      if (!/^\d{7}$/.test(datos)) throw new ZplInvalido(`^B8 (EAN-8) lleva 7 dígitos, no «${datos}».`);
      return { simbologia: 'EAN8', codigo: eanCompleto(`00000${datos}`).slice(5) };
    default:
      if (!/^[\x20-\x7e]+$/.test(datos))
        throw new ZplInvalido(`^BC (Code 128) con caracteres que no codifica: «${datos}».`);
      return { simbologia: 'CODE128', codigo: datos };
  }
}

/** A format as lines of text, for the console. */
export const textoZpl = (fs: FormatoZpl[]) =>
  fs
    .map(
      (f) =>
        `${f.textos.join('\n')}${f.codigos.map((c) => `\n[${c.simbologia} ${c.codigo}]`).join('')}\n(× ${f.copias})`,
    )
    .join('\n-----\n');
