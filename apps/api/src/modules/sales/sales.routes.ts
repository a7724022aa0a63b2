import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  recordSaleInput,
  SALE_LIST_MAX_LIMIT,
  SALE_MESSAGES,
  saleListQuery,
  salesReportQuery,
  voidSaleInput,
  type AutorizacionInput,
  type Sale,
  recordSaleResultSchema,
  saleListSchema,
  saleSchema,
  salesReportSchema,
} from '@mostrador/shared';
import { jsonOrXlsx, rateLimitedResponse, refusedResponse, sendJsonText } from '../../lib/responses.js';
import type { App } from '../../app.js';
import {
  access,
  authOf,
  businessOf,
  canChangePrices,
  canExceedCredit,
  canSeeCosts,
  maxDiscount,
  takeFirstRead,
} from '../../lib/access.js';
import { idempotencyKey } from '../../lib/http.js';
import { knownFilters } from '../../lib/known-ids.js';
import { todayIn } from '../../lib/dates.js';
import { AppError, invalid } from '../../lib/errors.js';
import { paged, pathId } from '../products/common.js';
import { sendReportXlsx } from './report-xlsx.js';
import { reportCache, reportVersion, versionOf } from './report-cache.js';
import { reportVersionQuery } from './reports.queries.js';
import { readReport, reportJson, reportObject, reportRange } from './reports.service.js';
import { recordSale } from './record-sale.js';
import { reembolsador } from '../mercadopago/reembolsos.js';
import { getSale, listSales, voidSale, type SaleContext } from './sales.service.js';
import { autorizar } from '../autorizacion/autorizar.js';
import { pinLimiter } from '../autorizacion/autorizacion.routes.js';
import { creditVoid, invoiceSale, saleComprobante } from '../facturacion/sale-hooks.js';

const tags = ['ventas'];
const ver = { access: access.module('ventas', 'ver') };
const editar = { access: access.module('ventas', 'editar') };
const eliminar = { access: access.module('ventas', 'eliminar') };

const idParams = z.object({ id: z.string() });
const vidParams = z.object({ vid: z.string() });
const idVidParams = z.object({ id: z.string(), vid: z.string() });

const notDeleted = () => new AppError(405, 'METHOD_NOT_ALLOWED', SALE_MESSAGES.notDeleted);

/**
 * Sales (API-CONTRACT §6.2–6.4, §14.3): record-sale on the global mount (business per §1.5,
 * also from the body) and under /businesses/:id, lists, detail, void and the report. Sales are
 * never deleted: DELETE answers 405.
 */
export async function salesRoutes(app: App) {
  const { db } = app.db;
  const filters = knownFilters(db, [{ field: 'cliente_id', kind: 'cliente' }]);
  // The sale's invoice (issue 16), so the POS shows its state.
  const withComprobante = async (businessId: string, sale: Sale) => ({
    ...sale,
    comprobante: await saleComprobante(db, businessId, sale.id),
  });
  const pins = pinLimiter(app);
  /** The seller's controls, and the member who authorizes with their PIN (only when one is sent). */
  const saleContext = async (req: FastifyRequest, autorizacion?: AutorizacionInput): Promise<SaleContext> => {
    const b = businessOf(req);
    return {
      ...(autorizacion ? { autorizador: await autorizar(pins, b.id, autorizacion) } : {}),
      businessId: b.id,
      userId: authOf(req).id,
      timezone: b.timezone,
      now: app.services.now(),
      precios: { cambiar: canChangePrices(b), descuentoMaximo: maxDiscount(b) },
      excederCredito: canExceedCredit(b),
    };
  };

  app.post(
    '/ventas/record-sale',
    {
      config: { ...editar, businessInBody: true, ownIdempotency: true },
      schema: { tags, body: recordSaleInput, response: { 201: recordSaleResultSchema, ...rateLimitedResponse } },
    },
    async (req, reply) => {
      const c = await saleContext(req, req.body.autorizacion);
      const r = await recordSale(app.db, c, req.body, idempotencyKey(req));
      const { comprobante, sin_factura } = await invoiceSale(
        app,
        { ...c, timezone: businessOf(req).timezone, ventaId: r.body.id },
        { facturar: r.facturar, pedida: req.body.facturar, receptor: req.body.receptor },
      );
      return reply
        .status(r.status)
        .send({ ...r.body, ...(comprobante ? { comprobante } : {}), ...(sin_factura ? { sin_factura } : {}) });
    },
  );

  app.post(
    '/businesses/:id/ventas',
    {
      config: { ...editar, ownIdempotency: true },
      schema: {
        tags,
        params: idParams,
        body: recordSaleInput,
        response: { 201: recordSaleResultSchema, ...rateLimitedResponse },
      },
    },
    async (req, reply) => {
      const b = businessOf(req);
      if (req.body.negocio_id && req.body.negocio_id !== b.id) {
        throw invalid('negocio_id', SALE_MESSAGES.businessMismatch);
      }
      const c = await saleContext(req, req.body.autorizacion);
      const r = await recordSale(app.db, c, req.body, idempotencyKey(req));
      const { comprobante, sin_factura } = await invoiceSale(
        app,
        { ...c, timezone: businessOf(req).timezone, ventaId: r.body.id },
        { facturar: r.facturar, pedida: req.body.facturar, receptor: req.body.receptor },
      );
      return reply
        .status(r.status)
        .send({ ...r.body, ...(comprobante ? { comprobante } : {}), ...(sin_factura ? { sin_factura } : {}) });
    },
  );

  const list = async (req: FastifyRequest & { query: z.output<typeof saleListQuery> }) => {
    const b = businessOf(req);
    return listSales(db, b.id, b.timezone, req.query);
  };
  app.get(
    '/ventas/sales',
    {
      config: ver,
      schema: { tags, querystring: saleListQuery, response: { 200: saleListSchema } },
      preHandler: filters,
    },
    list,
  );
  app.get(
    '/businesses/:id/ventas/sales',
    {
      config: ver,
      schema: { tags, params: idParams, querystring: saleListQuery, response: { 200: saleListSchema } },
      preHandler: filters,
    },
    list,
  );

  app.get(
    '/ventas/sales/:vid',
    { config: ver, schema: { tags, params: vidParams, response: { 200: saleSchema } } },
    async (req) => {
      const b = businessOf(req).id;
      return withComprobante(b, await getSale(db, b, pathId(req.params.vid, SALE_MESSAGES.notFound)));
    },
  );
  app.get(
    '/businesses/:id/ventas/sales/:vid',
    { config: ver, schema: { tags, params: idVidParams, response: { 200: saleSchema } } },
    async (req) => {
      const b = businessOf(req).id;
      return withComprobante(b, await getSale(db, b, pathId(req.params.vid, SALE_MESSAGES.notFound)));
    },
  );

  app.post(
    '/businesses/:id/ventas/:vid/anular',
    { config: eliminar, schema: { tags, params: idVidParams, body: voidSaleInput, response: { 200: saleSchema } } },
    async (req) => {
      const vid = pathId(req.params.vid, SALE_MESSAGES.notFound);
      const c = await saleContext(req);
      const sale = await voidSale(db, c, vid, req.body.motivo, reembolsador(app.mercadopago, c.businessId, c.userId));
      await creditVoid(app, { ...c, ventaId: vid });
      return withComprobante(c.businessId, sale);
    },
  );

  for (const url of ['/ventas/sales/:vid', '/businesses/:id/ventas/sales/:vid', '/businesses/:id/ventas/:vid']) {
    app.delete(
      url,
      {
        config: eliminar,
        schema: { tags, description: 'Las ventas no se eliminan: responde 405; anulalas.', response: refusedResponse },
      },
      async () => {
        throw notDeleted();
      },
    );
  }

  const reports = reportCache();
  app.get(
    '/businesses/:id/ventas/reporte',
    {
      config: {
        ...ver,
        // The version of the business's totals goes with the session check (decision 0029).
        firstRead: (req, businessId) =>
          app.reports.replica || (req.query as { formato?: string }).formato === 'xlsx'
            ? null
            : { query: reportVersionQuery(businessId), input: '' },
      },
      schema: {
        tags,
        params: idParams,
        querystring: salesReportQuery,
        response: { 200: jsonOrXlsx(salesReportSchema) },
      },
    },
    async (req, reply) => {
      const b = businessOf(req);
      const { desde, hasta } = reportRange(req.query, todayIn(b.timezone, app.services.now()));
      // Read from the reports' replica when there is one (docs/decisions/0015).
      const rdb = await app.reports.db(reply);
      if (req.query.formato !== 'xlsx') {
        // Sent again as it was while the business's totals have not changed (decision 0029); the
        // version comes with the session check when the report reads the primary (firstRead
        // above), else from the replica the report reads.
        const costos = canSeeCosts(b);
        const first = takeFirstRead(req, '');
        const version = first ? versionOf(await first) : await reportVersion(rdb, b.id);
        const key = `${b.id} ${desde} ${hasta} ${costos}`;
        let json = reports.get(key, version);
        if (json === null) {
          json = reportJson(await readReport(rdb, b.id, b.timezone, desde, hasta, costos));
          reports.set(key, version, json);
        }
        return sendJsonText(reply, json);
      }
      const report = reportObject(await readReport(rdb, b.id, b.timezone, desde, hasta, true));
      const pages = paged<Sale>(
        async (limit, offset) =>
          (
            await listSales(rdb, b.id, b.timezone, {
              fecha_desde: desde,
              fecha_hasta: hasta,
              limit,
              offset,
            })
          ).ventas,
        SALE_LIST_MAX_LIMIT,
      );
      return sendReportXlsx(reply, report, pages, b.timezone, canSeeCosts(b));
    },
  );
}
