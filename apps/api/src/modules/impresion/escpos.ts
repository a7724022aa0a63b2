/*
 * A small ESC/POS encoder (issue 35, decision 0054): the commands thermal receipt printers share
 * (Epson's ESC/POS and the clones sold in Argentina), nothing more.
 *
 * Text goes out in code page PC850 (Multilingual Latin 1), selected with `ESC t 2` after `ESC @`
 * resets the printer (whose factory table is often PC437, without Á, Í, Ó, Ú or ¡ in the right
 * places). PC850 holds every letter and sign Spanish needs: á é í ó ú ü ñ Á É Í Ó Ú Ü Ñ ¿ ¡ º ª.
 */

export const ESC = 0x1b;
export const GS = 0x1d;
export const DLE = 0x10;
export const EOT = 0x04;
export const LF = 0x0a;

/** `ESC t n`: the code page table number of PC850 (Multilingual). */
export const CODEPAGE_PC850 = 2;

/** PC850's characters 0x80–0xFF, in order. */
export const PC850_ALTO =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜø£Ø×ƒáíóúñÑªº¿®¬½¼¡«»░▒▓│┤ÁÂÀ©╣║╗╝¢¥┐└┴┬├─┼ãÃ╚╔╩╦╠═╬¤ðÐÊËÈıÍÎÏ┘┌█▄¦Ì▀ÓßÔÒõÕµþÞÚÛÙýÝ¯´\u00AD±‗¾¶§÷¸°¨·¹³²■\u00A0';

const PC850 = new Map<string, number>([...PC850_ALTO].map((c, i) => [c, 0x80 + i]));

/** Characters PC850 lacks, as the closest ASCII. */
const SUSTITUTOS: Record<string, string> = {
  '\u00A0': ' ', // no-break space (Intl puts one between "$" and the amount)
  '\u202F': ' ',
  '\u2009': ' ',
  '\u2212': '-', // minus sign
  '\u2013': '-',
  '\u2014': '-',
  '\u2018': "'",
  '\u2019': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u2026': '...',
  '\u20AC': 'EUR',
  '\u2022': '*',
};

/**
 * Text as PC850 bytes. Control characters are dropped, so a product's name can never carry a
 * printer command; what PC850 lacks becomes its closest ASCII (accents dropped, "?" at worst).
 */
export function pc850(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code >= 0x20 && code < 0x7f) out.push(code);
    else if (code < 0x20 || code === 0x7f) continue;
    else if (SUSTITUTOS[ch] !== undefined) for (const c of SUSTITUTOS[ch]) out.push(c.charCodeAt(0));
    else if (PC850.has(ch)) out.push(PC850.get(ch)!);
    else {
      const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      out.push(
        ...(base && base !== ch && /^[\x20-\x7e]+$/.test(base) ? [...base].map((c) => c.charCodeAt(0)) : [0x3f]),
      );
    }
  }
  return out;
}

export type Alineacion = 'izq' | 'centro' | 'der';
const ALIGN: Record<Alineacion, number> = { izq: 0, centro: 1, der: 2 };

/** `GS ( k` with its two-byte length, function `cn fn` and parameters. */
const gsK = (fn: number, params: number[]) => {
  const len = params.length + 2;
  return [GS, 0x28, 0x6b, len & 0xff, len >> 8, 0x31, fn, ...params];
};

/** Builds one print job: the commands in order, then `bytes()`. */
export function trabajo() {
  const out: number[] = [];
  const b = {
    /** `ESC @` (reset) and `ESC t 2` (PC850). */
    iniciar() {
      out.push(ESC, 0x40, ESC, 0x74, CODEPAGE_PC850);
      return b;
    },
    texto(t: string) {
      out.push(...pc850(t));
      return b;
    },
    linea(t = '') {
      out.push(...pc850(t), LF);
      return b;
    },
    /** `ESC E n`: emphasized (bold). */
    negrita(on: boolean) {
      out.push(ESC, 0x45, on ? 1 : 0);
      return b;
    },
    /** `ESC a n`. */
    alinear(a: Alineacion) {
      out.push(ESC, 0x61, ALIGN[a]);
      return b;
    },
    /** `GS ! n`: width and height multipliers (1 or 2 here). */
    tamano(ancho: 1 | 2, alto: 1 | 2) {
      out.push(GS, 0x21, ((ancho - 1) << 4) | (alto - 1));
      return b;
    },
    /** `ESC d n`: prints and feeds n lines. */
    avanzar(n: number) {
      out.push(ESC, 0x64, n);
      return b;
    },
    /**
     * A QR of `datos` printed by the printer itself (`GS ( k`): model 2, module size, error
     * correction M, store the data, print it.
     */
    qr(datos: string, modulo = 6) {
      const data = [...Buffer.from(datos, 'utf8')];
      out.push(
        ...gsK(0x41, [0x32, 0x00]),
        ...gsK(0x43, [modulo]),
        ...gsK(0x45, [0x31]),
        ...gsK(0x50, [0x30, ...data]),
        ...gsK(0x51, [0x30]),
      );
      return b;
    },
    /** `ESC p 0 25 250`: a 50 ms pulse on the drawer connector's pin 2. */
    cajon() {
      out.push(ESC, 0x70, 0x00, 25, 250);
      return b;
    },
    /** `GS V 66 n`: feeds past the cutter and cuts (partial cut). */
    cortar() {
      out.push(GS, 0x56, 0x42, 0x03);
      return b;
    },
    bytes: () => Uint8Array.from(out),
  };
  return b;
}

/** `DLE EOT 1` (printer status) then `DLE EOT 4` (roll paper sensor): each answers one byte. */
export const PEDIDO_ESTADO = Uint8Array.from([DLE, EOT, 1, DLE, EOT, 4]);

/** What a printer's two status bytes say (ESC/POS real-time status, fixed bits 1 and 4 set). */
export function leerEstado(impresora: number, papel: number) {
  return {
    offline: (impresora & 0x08) !== 0,
    sinPapel: (papel & 0x60) !== 0,
    pocoPapel: (papel & 0x0c) !== 0,
  };
}
