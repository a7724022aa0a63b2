import ExcelJS from 'exceljs';
import { z } from 'zod';
import {
  ALICUOTA_LABELS,
  ALICUOTAS_IVA,
  FACTURA_TIPO_LABELS,
  libroIvaQuery,
  neutralizeCell,
  PAYMENT_CONDITION_LABELS,
  paymentMethodLabel,
  PURCHASE_MESSAGES,
  PURCHASE_STATE_LABELS,
  purchaseInput,
  purchaseListQuery,
  purchaseUpdate,
  type AlicuotaCompra,
  centsToNumber,
  type FacturaCents,
  type FacturaTipo,
  type Purchase,
  purchaseSchema,
} from '@mostrador/shared';
import type { FastifyRequest } from 'fastify';
import { noContent, txtFile, xlsxFile } from '../../lib/responses.js';
import type { App } from '../../app.js';
import { access, authOf, businessOf, canSeeCosts } from '../../lib/access.js';
import { AppError } from '../../lib/errors.js';
import { knownFilters } from '../../lib/known-ids.js';
import { todayIn } from '../../lib/dates.js';
import { requireSomeField } from '../../lib/http.js';
import { DATE_FMT, excelDate, MONEY_FMT, onePage, paged, pathId, sendXlsx } from '../products/common.js';
import { archivo, comprasDigital, nombreArchivo } from '../facturacion/libro-iva-digital.js';
import * as service from './purchases.service.js';
import { recepcionRoutes } from './recepciones.routes.js';

const tags = ['compras'];
const base = '/businesses/:id/compras';
const idParams = z.object({ id: z.string() });
const pidParams = z.object({ id: z.string(), pid: z.string() });

// API-CONTRACT §1.5: compras → module stock.
const ver = { access: access.module('stock', 'ver') };
const editar = { access: access.module('stock', 'editar') };
const eliminar = { access: access.module('stock', 'eliminar') };

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A date YYYY-MM-DD as the es-AR reader writes it. */

/** One purchase order as a spreadsheet: its header, the lines and the total (to send to the supplier). */
async function orderWorkbook(p: Purchase): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(`Compra ${p.numero}`);
  ws.columns = [{ width: 16 }, { width: 40 }, { width: 12 }, { width: 12 }, { width: 16 }, { width: 16 }];
  const text = (v: string | null) => (v ? neutralizeCell(v) : '');
  ws.addRow([`Orden de compra #${p.numero}`]).font = { bold: true, size: 14 };
  const info: [string, string | Date | null][] = [
    ['Proveedor', text(p.proveedor_nombre) || 'Sin proveedor'],
    ['Fecha', excelDate(p.fecha)],
    ['Estado', PURCHASE_STATE_LABELS[p.estado]],
    ['Condición de pago', PAYMENT_CONDITION_LABELS[p.condicion_pago]],
  ];
  if (p.metodo_pago) info.push(['Método de pago', paymentMethodLabel(p.metodo_pago)]);
  if (p.fecha_vencimiento) info.push(['Vencimiento', excelDate(p.fecha_vencimiento)]);
  if (p.fecha_entrega) info.push(['Fecha de entrega', excelDate(p.fecha_entrega)]);
  if (p.observaciones) info.push(['Observaciones', text(p.observaciones)]);
  for (const [k, v] of info) {
    const r = ws.addRow([k, v]);
    r.getCell(1).font = { bold: true };
    if (v instanceof Date) r.getCell(2).numFmt = DATE_FMT;
  }
  ws.addRow([]);
  const header = ws.addRow(['Código', 'Producto', 'Cantidad', 'Unidad', 'Precio unitario', 'Subtotal']);
  header.font = { bold: true };
  for (const it of p.items ?? []) {
    const r = ws.addRow([
      text(it.producto_codigo),
      text(it.producto_nombre),
      it.cantidad,
      text(it.unidad),
      it.precio_unitario,
      it.subtotal,
    ]);
    r.getCell(5).numFmt = MONEY_FMT;
    r.getCell(6).numFmt = MONEY_FMT;
  }
  const total = ws.addRow(['', '', '', '', 'Total', p.total]);
  total.font = { bold: true };
  total.getCell(6).numFmt = MONEY_FMT;
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** Purchases (API-CONTRACT §13): module `stock`. */
export async function purchaseRoutes(app: App) {
  const { db } = app.db;
  const filters = knownFilters(db, [
    { field: 'proveedor_id', kind: 'proveedor' },
    { field: 'producto_id', kind: 'producto' },
  ]);
  const today = (req: FastifyRequest) => todayIn(businessOf(req).timezone, app.services.now());

  app.get(
    base,
    {
      config: ver,
      schema: { tags, params: idParams, querystring: purchaseListQuery, response: { 200: z.array(purchaseSchema) } },
      preHandler: filters,
    },
    async (req, reply) => {
      const { rows, total } = await service.listPurchases(db, businessOf(req).id, req.query, today(req));
      return reply.header('X-Total-Count', String(total)).send(rows);
    },
  );

  app.get(
    `${base}/exportar`,
    {
      config: ver,
      schema: { tags, params: idParams, querystring: purchaseListQuery, response: { 200: xlsxFile } },
      preHandler: filters,
    },
    async (req, reply) => {
      const b = businessOf(req);
      const q = req.query;
      const day = today(req);
      return sendXlsx<Purchase>(reply, {
        filename: `compras-${day}.xlsx`,
        sheet: 'Compras',
        columns: [
          { header: 'Número', value: (p) => p.numero, width: 10 },
          { header: 'Fecha', value: (p) => excelDate(p.fecha), width: 12, numFmt: DATE_FMT },
          { header: 'Proveedor', value: (p) => p.proveedor_nombre, width: 28 },
          { header: 'Estado', value: (p) => PURCHASE_STATE_LABELS[p.estado] },
          { header: 'Condición de pago', value: (p) => PAYMENT_CONDITION_LABELS[p.condicion_pago], width: 20 },
          { header: 'Método de pago', value: (p) => paymentMethodLabel(p.metodo_pago) || null },
          { header: 'Vencimiento', value: (p) => excelDate(p.fecha_vencimiento), width: 12, numFmt: DATE_FMT },
          { header: 'Ítems', value: (p) => p.cantidad_items, width: 8 },
          { header: 'Total', value: (p) => p.total, numFmt: MONEY_FMT },
          { header: 'Observaciones', value: (p) => p.observaciones, width: 30 },
        ],
        pages: paged(
          async (limit, offset) => (await service.listPurchases(db, b.id, { ...q, limit, offset }, day)).rows,
          200,
        ),
      });
    },
  );

  /** Libro IVA Compras (decision 0021): one row per supplier invoice of the month and a totals row. */
  app.get(
    `${base}/libro-iva`,
    { config: ver, schema: { tags, params: idParams, querystring: libroIvaQuery, response: { 200: xlsxFile } } },
    async (req, reply) => {
      const b = businessOf(req);
      if (!canSeeCosts(b)) throw new AppError(403, 'FORBIDDEN', PURCHASE_MESSAGES.libroNeedsCosts);
      const rows = await service.libroIvaCompras(db, b.id, req.query.mes);
      type R = {
        fecha: string;
        tipo: string;
        comprobante: string;
        proveedor: string | null;
        cuit: string | null;
        f: FacturaCents;
        totals?: true;
      };
      const data: R[] = rows.map((r) => ({ ...r, f: r.factura }));
      const sum = (pick: (f: FacturaCents) => number) => data.reduce((s, r) => s + pick(r.f), 0);
      const byRate = (f: FacturaCents, a: AlicuotaCompra, k: 'neto' | 'iva') =>
        f.iva.filter((i) => i.alicuota === a).reduce((s, i) => s + i[k], 0);
      const fields = ['no_gravado', 'exento', 'percepcion_iva', 'percepcion_iibb', 'otros_impuestos', 'total'] as const;
      const totals: FacturaCents = {
        tipo: 'otro',
        punto_venta: 0,
        numero: 0,
        fecha: '',
        iva: ALICUOTAS_IVA.map((a) => ({
          alicuota: a,
          neto: sum((f) => byRate(f, a, 'neto')),
          iva: sum((f) => byRate(f, a, 'iva')),
        })),
        ...(Object.fromEntries(fields.map((k) => [k, sum((f) => f[k])])) as Record<(typeof fields)[number], number>),
      };
      data.push({ fecha: '', tipo: '', comprobante: '', proveedor: null, cuit: null, f: totals, totals: true });
      const money = (header: string, cents: (f: FacturaCents) => number) => ({
        header,
        value: (r: R) => centsToNumber(cents(r.f)),
        numFmt: MONEY_FMT,
        width: 14,
      });
      // The 0 % rate has no IVA column: its net is the gravado al 0 %.
      const rateColumns = ALICUOTAS_IVA.flatMap((a) => [
        money(`Neto ${ALICUOTA_LABELS[a]}`, (f) => byRate(f, a, 'neto')),
        ...(a === '0' ? [] : [money(`IVA ${ALICUOTA_LABELS[a]}`, (f) => byRate(f, a, 'iva'))]),
      ]);
      return sendXlsx<R>(reply, {
        filename: `libro-iva-compras-${req.query.mes}.xlsx`,
        sheet: 'IVA Compras',
        pages: onePage(data),
        columns: [
          { header: 'Fecha', value: (r) => (r.totals ? 'Totales' : excelDate(r.fecha)), width: 12, numFmt: DATE_FMT },
          {
            header: 'Comprobante',
            value: (r) => (r.totals ? null : FACTURA_TIPO_LABELS[r.tipo as FacturaTipo]),
            width: 14,
          },
          { header: 'Punto de venta - Número', value: (r) => r.comprobante || null, width: 16 },
          { header: 'Proveedor', value: (r) => r.proveedor, width: 30 },
          { header: 'CUIT', value: (r) => r.cuit, width: 15 },
          ...rateColumns,
          money('No gravado', (f) => f.no_gravado),
          money('Exento', (f) => f.exento),
          money('Percepción IVA', (f) => f.percepcion_iva),
          money('Percepción IIBB', (f) => f.percepcion_iibb),
          money('Otros impuestos', (f) => f.otros_impuestos),
          money('Total', (f) => f.total),
        ],
      });
    },
  );

  // Libro IVA Digital (decision 0042): the month's supplier invoices and their rates as ARCA imports them.
  for (const parte of ['comprobantes', 'alicuotas'] as const) {
    app.get(
      `${base}/libro-iva-digital/${parte}`,
      { config: ver, schema: { tags, params: idParams, querystring: libroIvaQuery, response: { 200: txtFile } } },
      async (req, reply) => {
        const b = businessOf(req);
        if (!canSeeCosts(b)) throw new AppError(403, 'FORBIDDEN', PURCHASE_MESSAGES.libroNeedsCosts);
        const files = comprasDigital(await service.libroIvaCompras(db, b.id, req.query.mes));
        const name = nombreArchivo('COMPRAS', parte === 'comprobantes' ? 'CBTE' : 'ALICUOTAS', req.query.mes);
        return reply
          .header('Content-Type', 'text/plain; charset=iso-8859-1')
          .header('Content-Disposition', `attachment; filename="${name}"`)
          .send(archivo(files[parte]));
      },
    );
  }

  app.post(
    base,
    { config: editar, schema: { tags, params: idParams, body: purchaseInput, response: { 201: purchaseSchema } } },
    async (req, reply) =>
      reply
        .status(201)
        .send(
          await service.createPurchase(
            db,
            businessOf(req).id,
            authOf(req).id,
            req.body,
            today(req),
            app.services.now(),
          ),
        ),
  );

  app.get(
    `${base}/:pid`,
    { config: ver, schema: { tags, params: pidParams, response: { 200: purchaseSchema } } },
    async (req) =>
      service.getPurchase(db, businessOf(req).id, pathId(req.params.pid, PURCHASE_MESSAGES.notFound), today(req)),
  );

  app.get(
    `${base}/:pid/exportar`,
    { config: ver, schema: { tags, params: pidParams, response: { 200: xlsxFile } } },
    async (req, reply) => {
      const p = await service.getPurchase(
        db,
        businessOf(req).id,
        pathId(req.params.pid, PURCHASE_MESSAGES.notFound),
        today(req),
      );
      return reply
        .header('Content-Type', XLSX)
        .header('Content-Disposition', `attachment; filename="orden-de-compra-${p.numero}.xlsx"`)
        .send(await orderWorkbook(p));
    },
  );

  app.put(
    `${base}/:pid`,
    { config: editar, schema: { tags, params: pidParams, body: purchaseUpdate, response: { 200: purchaseSchema } } },
    async (req) => {
      requireSomeField(req.body);
      const pid = pathId(req.params.pid, PURCHASE_MESSAGES.notFound);
      return service.updatePurchase(
        db,
        businessOf(req).id,
        authOf(req).id,
        pid,
        req.body,
        today(req),
        app.services.now(),
      );
    },
  );

  app.delete(
    `${base}/:pid`,
    { config: eliminar, schema: { tags, params: pidParams, response: { 204: noContent } } },
    async (req, reply) => {
      await service.deletePurchase(
        db,
        businessOf(req).id,
        authOf(req).id,
        pathId(req.params.pid, PURCHASE_MESSAGES.notFound),
        today(req),
      );
      return reply.status(204).send();
    },
  );

  await recepcionRoutes(app);
}
