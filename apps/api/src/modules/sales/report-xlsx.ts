import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { neutralizeCell, saleMedioNombre, SALE_STATE_LABELS, type Sale, type SalesReport } from '@mostrador/shared';
import { DATE_FMT, DATETIME_FMT, excelDate, excelDateTime, MONEY_FMT } from '../products/common.js';

type Cell = string | number | Date | null;

interface Sheet {
  name: string;
  /** `fmt`: the column's number format (money, a date); a date elsewhere shows as a date. */
  columns: { header: string; width?: number; money?: boolean; fmt?: string }[];
  rows: AsyncIterable<Cell[][]> | Cell[][];
}

const neutral = (v: Cell) => (typeof v === 'string' ? neutralizeCell(v) : v);

/** Costs and profit, left out of the file for members without ver_costos (see lib/costs.ts). */
const COST_HEADERS = new Set(['Costo estimado', 'Ganancia', 'Ganancia estimada']);

function withoutCostColumns(sheet: Sheet): Sheet {
  const keep = sheet.columns.map((c) => !COST_HEADERS.has(c.header));
  const row = (r: Cell[]) => r.filter((_, i) => keep[i]);
  // The summary lists concepts in rows: its cost rows go instead.
  const wanted = (r: Cell[]) => !(typeof r[0] === 'string' && COST_HEADERS.has(r[0]));
  const rows = sheet.rows;
  return {
    ...sheet,
    columns: sheet.columns.filter((_, i) => keep[i]),
    rows: Array.isArray(rows)
      ? rows.filter(wanted).map(row)
      : (async function* () {
          for await (const page of rows) yield page.filter(wanted).map(row);
        })(),
  };
}

/**
 * The report as an .xlsx (API-CONTRACT §6.4): sheets Resumen, Ventas, Productos, Métodos de
 * pago, Clientes, Por día; amounts as numeric cells; text that a spreadsheet could run as a
 * formula is prefixed with an apostrophe. Streamed: the sales sheet is written page by page.
 */
export function sendReportXlsx(
  reply: FastifyReply,
  report: SalesReport,
  salePages: AsyncIterable<Sale[]>,
  timezone: string,
  withCosts = true,
) {
  const when = (iso: string) => excelDateTime(iso, timezone);
  // Quantities inside a text read the es-AR way ("1,5 × Queso"), not with a decimal point.
  const qty = new Intl.NumberFormat('es-AR', { maximumFractionDigits: 3 });
  const all: Sheet[] = [
    {
      name: 'Resumen',
      columns: [
        { header: 'Concepto', width: 28 },
        { header: 'Valor', width: 18 },
      ],
      rows: [
        ['Desde', excelDate(report.fecha_desde)],
        ['Hasta', excelDate(report.fecha_hasta)],
        ['Cantidad de ventas', report.total_ventas],
        ['Total de ingresos', report.total_ingresos],
        ['Ticket promedio', report.ticket_promedio],
        ['Descuentos', report.descuentos],
        ['Costo estimado', report.costo_estimado],
        ['Ganancia estimada', report.ganancias_netas],
        ['Ventas anuladas', report.ventas_anuladas],
        ['Devoluciones', report.devoluciones],
      ],
    },
    {
      name: 'Ventas',
      columns: [
        { header: 'Número', width: 10 },
        { header: 'Fecha', width: 18, fmt: DATETIME_FMT },
        { header: 'Estado', width: 12 },
        { header: 'Cliente', width: 26 },
        { header: 'Método de pago', width: 20 },
        { header: 'Subtotal', money: true },
        { header: 'Descuento', money: true },
        { header: 'Total', money: true },
        { header: 'Costo estimado', money: true },
        { header: 'Vendedor', width: 22 },
        { header: 'Ítems', width: 60 },
        { header: 'Observaciones', width: 30 },
        { header: 'Motivo de anulación', width: 30 },
      ],
      rows: (async function* () {
        for await (const page of salePages) {
          yield page.map((s): Cell[] => [
            s.numero,
            when(s.fecha),
            SALE_STATE_LABELS[s.estado],
            s.cliente_nombre ?? 'Consumidor final',
            saleMedioNombre(s),
            s.subtotal,
            s.descuento,
            s.total,
            s.costo_estimado,
            s.vendedor?.nombre ?? null,
            s.items.map((i) => `${qty.format(i.cantidad)} × ${i.nombre}`).join('; '),
            s.observaciones,
            s.motivo_anulacion,
          ]);
        }
      })(),
    },
    {
      name: 'Productos',
      columns: [
        { header: 'Tipo', width: 10 },
        { header: 'Nombre', width: 34 },
        { header: 'Cantidad', width: 12 },
        { header: 'Total', money: true },
        { header: 'Ganancia', money: true },
      ],
      rows: report.productos_mas_vendidos.map((p) => [
        p.tipo === 'producto' ? 'Producto' : 'Servicio',
        p.nombre,
        p.cantidad,
        p.total,
        p.ganancia,
      ]),
    },
    {
      name: 'Métodos de pago',
      columns: [
        { header: 'Método de pago', width: 26 },
        { header: 'Ventas', width: 10 },
        { header: 'Total', money: true },
      ],
      // Each medio as the business configured it (issue 33): cuenta corriente is not "Otro".
      rows: report.por_medio_pago.map((m) => [m.nombre, m.cantidad_ventas, m.total]),
    },
    {
      name: 'Clientes',
      columns: [
        { header: 'Cliente', width: 30 },
        { header: 'Ventas', width: 10 },
        { header: 'Total', money: true },
      ],
      rows: report.por_cliente.map((c) => [c.cliente_nombre, c.cantidad_ventas, c.total]),
    },
    {
      name: 'Por día',
      columns: [
        { header: 'Fecha', width: 12, fmt: DATE_FMT },
        { header: 'Ventas', width: 10 },
        { header: 'Total', money: true },
        { header: 'Ganancia', money: true },
      ],
      rows: report.por_dia.map((d) => [excelDate(d.fecha), d.cantidad_ventas, d.total, d.ganancia]),
    },
  ];

  const sheets = withCosts ? all : all.map(withoutCostColumns);

  const stream = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const write = async () => {
    try {
      for (const sheet of sheets) {
        const ws = wb.addWorksheet(sheet.name, { views: [{ state: 'frozen', ySplit: 1 }] });
        ws.columns = sheet.columns.map((c, i) => ({
          header: c.header,
          key: String(i),
          width: c.width ?? 16,
          style: c.money ? { numFmt: MONEY_FMT } : c.fmt ? { numFmt: c.fmt } : {},
        }));
        ws.getRow(1).font = { bold: true };
        const add = (cells: Cell[]) => {
          const row = ws.addRow(cells.map(neutral));
          // A date in a column without a format of its own (the summary's Desde and Hasta).
          cells.forEach((v, i) => {
            if (v instanceof Date && !sheet.columns[i]?.fmt) row.getCell(i + 1).numFmt = DATE_FMT;
          });
          row.commit();
        };
        if (Array.isArray(sheet.rows)) sheet.rows.forEach(add);
        else for await (const page of sheet.rows) page.forEach(add);
        ws.commit();
      }
      await wb.commit();
    } catch (e) {
      stream.destroy(e as Error);
    }
  };
  void write();
  return reply
    .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header(
      'Content-Disposition',
      `attachment; filename="reporte-ventas-${report.fecha_desde}-a-${report.fecha_hasta}.xlsx"`,
    )
    .send(stream);
}
