import {
  BarcodeFormat,
  BinaryBitmap,
  BitArray,
  DecodeHintType,
  HybridBinarizer,
  MultiFormatOneDReader,
  QRCodeReader,
  RGBLuminanceSource,
} from '@zxing/library';
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream, type PDFRef } from 'pdf-lib';

/*
 * Reads a PDF the API made (labels, shared documents) back for the tests: its pages, the text of
 * each page, and the barcodes drawn on it, decoded by ZXing's 1D readers from the bars' rectangles
 * (so a wrong bar pattern fails to decode, whatever our encoder thinks).
 */

export interface PaginaLeida {
  textos: string[];
  codigos: string[];
  qr: string[];
}

const MODULO = (0.33 * 72) / 25.4;

function contenido(doc: PDFDocument, page: ReturnType<PDFDocument['getPages']>[number]): string {
  const c = page.node.Contents();
  const refs = c instanceof PDFArray ? c.asArray() : c ? [c] : [];
  return refs
    .map((r) => {
      const s = doc.context.lookup(r as PDFRef) ?? r;
      return s instanceof PDFRawStream ? Buffer.from(decodePDFRawStream(s).decode()).toString('latin1') : '';
    })
    .join('\n');
}

/** The barcodes among the filled rectangles: bars of one symbol are side by side at one height. */
function codigos(ops: string): string[] {
  const bars = [...ops.matchAll(/(-?[\d.]+) (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) re/g)]
    .map((m) => ({ x: Number(m[1]), y: Number(m[2]), w: Number(m[3]), h: Number(m[4]) }))
    .filter((r) => r.w > 0 && r.w < 5 * MODULO && r.h > 20);
  const porFila = new Map<string, typeof bars>();
  for (const b of bars) porFila.set(`${b.y}|${b.h}`, [...(porFila.get(`${b.y}|${b.h}`) ?? []), b]);
  const out: string[] = [];
  // EAN-13 and EAN-8 only: with UPC-A allowed, ZXing reports an EAN-13 that starts with 0 as its 12 digits.
  const hints = new Map([[DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.EAN_13, BarcodeFormat.EAN_8]]]);
  const reader = new MultiFormatOneDReader(hints);
  for (const fila of porFila.values()) {
    fila.sort((a, b) => a.x - b.x);
    const grupos: (typeof bars)[] = [];
    for (const b of fila) {
      const g = grupos[grupos.length - 1];
      const last = g?.[g.length - 1];
      if (last && b.x - (last.x + last.w) < 8 * MODULO) g.push(b);
      else grupos.push([b]);
    }
    for (const g of grupos) {
      const x0 = g[0].x;
      const quiet = 15;
      const end = Math.round((g[g.length - 1].x + g[g.length - 1].w - x0) / MODULO);
      const row = new BitArray(end + 2 * quiet);
      for (const b of g) {
        const from = Math.round((b.x - x0) / MODULO);
        const n = Math.round(b.w / MODULO);
        for (let k = 0; k < n; k++) row.set(quiet + from + k);
      }
      out.push(reader.decodeRow(0, row, hints).getText());
    }
  }
  return out;
}

/** A QR drawn as equal squares (the shared invoice's): rendered to pixels and read by ZXing. */
function qrs(ops: string): string[] {
  const sq = [...ops.matchAll(/(-?[\d.]+) (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) re/g)]
    .map((m) => ({ x: Number(m[1]), y: Number(m[2]), w: Number(m[3]), h: Number(m[4]) }))
    .filter((r) => r.w > 0 && Math.abs(r.w - r.h) < 1e-6 && r.w < 10);
  if (sq.length < 50) return [];
  const m = sq[0].w;
  const x0 = Math.min(...sq.map((r) => r.x));
  const top = Math.max(...sq.map((r) => r.y + r.h));
  const n = Math.round((Math.max(...sq.map((r) => r.x + r.w)) - x0) / m);
  const px = 4;
  const quiet = 4;
  const side = (n + 2 * quiet) * px;
  const lum = new Uint8ClampedArray(side * side).fill(255);
  for (const r of sq) {
    const col = Math.round((r.x - x0) / m) + quiet;
    const row = Math.round((top - (r.y + r.h)) / m) + quiet;
    for (let dy = 0; dy < px; dy++) for (let dx = 0; dx < px; dx++) lum[(row * px + dy) * side + col * px + dx] = 0;
  }
  const bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(lum, side, side)));
  return [new QRCodeReader().decode(bitmap, new Map([[DecodeHintType.PURE_BARCODE, true]])).getText()];
}

export async function leerPdf(pdf: Buffer | Uint8Array) {
  const doc = await PDFDocument.load(pdf);
  const paginas: PaginaLeida[] = doc.getPages().map((p) => {
    const ops = contenido(doc, p);
    const textos = [...ops.matchAll(/<([0-9A-Fa-f]*)> Tj/g)].map((m) => Buffer.from(m[1], 'hex').toString('latin1'));
    return { textos, codigos: codigos(ops), qr: qrs(ops) };
  });
  return {
    paginas,
    titulo: doc.getTitle() ?? null,
    textos: paginas.flatMap((p) => p.textos),
    codigos: paginas.flatMap((p) => p.codigos),
    qr: paginas.flatMap((p) => p.qr),
  };
}
