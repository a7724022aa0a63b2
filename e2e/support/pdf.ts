import zxing from '@zxing/library';
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream, type PDFRef } from 'pdf-lib';

/*
 * A downloaded PDF read back in a journey: each page's text (pdf-lib's standard fonts write it
 * as hex strings) and its barcodes, decoded by ZXing from the bars' rectangles (0,33 mm modules).
 * The API's tests read PDFs the same way (apps/api/src/test/pdf.ts).
 */

// A CommonJS package: Playwright's loader sees only its default export.
const { BarcodeFormat, BitArray, DecodeHintType, MultiFormatOneDReader } = zxing;
const MODULO = (0.33 * 72) / 25.4;

export async function leerPdf(bytes: Buffer) {
  const doc = await PDFDocument.load(bytes);
  const hints = new Map([[DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.EAN_13, BarcodeFormat.EAN_8]]]);
  const reader = new MultiFormatOneDReader(hints);
  const paginas = doc.getPages().map((page) => {
    const c = page.node.Contents();
    const refs = c instanceof PDFArray ? c.asArray() : c ? [c] : [];
    const ops = refs
      .map((r) => {
        const s = doc.context.lookup(r as PDFRef) ?? r;
        return s instanceof PDFRawStream ? Buffer.from(decodePDFRawStream(s).decode()).toString('latin1') : '';
      })
      .join('\n');
    const textos = [...ops.matchAll(/<([0-9A-Fa-f]*)> Tj/g)].map((m) => Buffer.from(m[1], 'hex').toString('latin1'));
    const bars = [...ops.matchAll(/(-?[\d.]+) (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) re/g)]
      .map((m) => ({ x: Number(m[1]), y: Number(m[2]), w: Number(m[3]), h: Number(m[4]) }))
      .filter((r) => r.w > 0 && r.w < 5 * MODULO && r.h > 20)
      .sort((a, b) => a.y - b.y || a.x - b.x);
    const codigos: string[] = [];
    let grupo: typeof bars = [];
    const cerrar = () => {
      if (!grupo.length) return;
      const x0 = grupo[0].x;
      const last = grupo[grupo.length - 1];
      const row = new BitArray(Math.round((last.x + last.w - x0) / MODULO) + 30);
      for (const b of grupo) {
        const from = Math.round((b.x - x0) / MODULO);
        for (let k = 0; k < Math.round(b.w / MODULO); k++) row.set(15 + from + k);
      }
      codigos.push(reader.decodeRow(0, row, hints).getText());
      grupo = [];
    };
    for (const b of bars) {
      const prev = grupo[grupo.length - 1];
      if (prev && (prev.y !== b.y || b.x - (prev.x + prev.w) > 8 * MODULO)) cerrar();
      grupo.push(b);
    }
    cerrar();
    return { textos, codigos };
  });
  return { paginas, textos: paginas.flatMap((p) => p.textos), codigos: paginas.flatMap((p) => p.codigos) };
}
