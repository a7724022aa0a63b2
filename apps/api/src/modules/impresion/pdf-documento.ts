import {
  PDFDocument,
  StandardFonts,
  fill,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  setFillingRgbColor,
} from 'pdf-lib';
import qrcode from 'qrcode-generator';
import { winAnsi } from '../etiquetas/etiquetas-pdf.js';
import { renglones, type Documento } from './documento.js';

/*
 * A printed document as a PDF (issue 35: the shared link): the same rows as the 80 mm ticket
 * (48 columns, Courier), bold and double size as printed, ARCA's QR drawn as squares; one page as
 * long as the document.
 */

const COLS = 48;
const SIZE = 9;
const CHAR = SIZE * 0.6;
const LINE = SIZE * 1.35;
const MARGIN = 18;
const QR_SIZE = 96;

/** A4 in points, its margins, and the columns of Courier 10 that fit between them. */
const A4 = { w: 595.28, h: 841.89, margin: 56, size: 10 };
const A4_COLS = Math.floor((A4.w - 2 * A4.margin) / (A4.size * 0.6));

/**
 * An A4 document (presupuestos, remitos): the same rows as the ticket at the width of the sheet,
 * in as many pages as they need.
 */
async function documentoA4(doc: Documento): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(winAnsi(doc.titulo));
  pdf.setCreator('Mostrador');
  pdf.setProducer('Mostrador');
  const regular = await pdf.embedFont(StandardFonts.Courier);
  const bold = await pdf.embedFont(StandardFonts.CourierBold);
  const line = A4.size * 1.45;
  let page = pdf.addPage([A4.w, A4.h]);
  let y = A4.h - A4.margin;
  for (const r of renglones(doc, A4_COLS)) {
    if (r.tipo === 'qr') continue;
    const size = r.grande ? A4.size * 1.6 : A4.size;
    const step = r.grande ? line * 1.6 : line;
    if (y - step < A4.margin) {
      page = pdf.addPage([A4.w, A4.h]);
      y = A4.h - A4.margin;
    }
    y -= step;
    const text = winAnsi(r.texto);
    if (!text) continue;
    const w = text.length * size * 0.6;
    const x = r.alinear === 'centro' ? (A4.w - w) / 2 : r.alinear === 'der' ? A4.w - A4.margin - w : A4.margin;
    page.drawText(text, { x, y, size, font: r.negrita ? bold : regular });
  }
  return Buffer.from(await pdf.save());
}

export async function documentoPdf(doc: Documento): Promise<Buffer> {
  if (doc.a4) return documentoA4(doc);
  const pdf = await PDFDocument.create();
  pdf.setTitle(winAnsi(doc.titulo));
  pdf.setCreator('Mostrador');
  pdf.setProducer('Mostrador');
  const regular = await pdf.embedFont(StandardFonts.Courier);
  const bold = await pdf.embedFont(StandardFonts.CourierBold);
  const rows = renglones(doc, COLS);
  const height = rows.reduce((h, r) => h + (r.tipo === 'qr' ? QR_SIZE + 2 * LINE : r.grande ? LINE * 2 : LINE), 0);
  const width = COLS * CHAR + 2 * MARGIN;
  const page = pdf.addPage([width, height + 2 * MARGIN]);
  let y = height + MARGIN;
  for (const r of rows) {
    if (r.tipo === 'qr') {
      const qr = qrcode(0, 'M');
      qr.addData(r.datos);
      qr.make();
      const n = qr.getModuleCount();
      const m = QR_SIZE / n;
      const x0 = (width - QR_SIZE) / 2;
      // A line of white above (its quiet zone; the row above may reach below its baseline).
      y -= LINE;
      const ops = [pushGraphicsState(), setFillingRgbColor(0, 0, 0)];
      for (let row = 0; row < n; row++)
        for (let col = 0; col < n; col++)
          if (qr.isDark(row, col)) ops.push(rectangle(x0 + col * m, y - (row + 1) * m, m, m));
      page.pushOperators(...ops, fill(), popGraphicsState());
      y -= QR_SIZE + LINE;
      continue;
    }
    const size = r.grande ? SIZE * 2 : SIZE;
    const step = r.grande ? LINE * 2 : LINE;
    y -= step;
    const text = winAnsi(r.texto);
    if (!text) continue;
    const w = text.length * size * 0.6;
    const x = r.alinear === 'centro' ? (width - w) / 2 : r.alinear === 'der' ? width - MARGIN - w : MARGIN;
    page.drawText(text, { x, y: y + (step - size) / 2, size, font: r.negrita ? bold : regular });
  }
  return Buffer.from(await pdf.save());
}
