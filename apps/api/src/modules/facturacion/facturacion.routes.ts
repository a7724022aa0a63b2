import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  FACTURACION_MESSAGES as M,
  comprobanteListQuery,
  comprobanteListSchema,
  comprobanteSchema,
  csrInput,
  csrResultSchema,
  emitirInput,
  facturacionConfigInput,
  facturacionConfigSchema,
  facturacionModoSchema,
  ivaMasivoInput,
  ivaMasivoResultSchema,
  libroIvaQuery,
  normalizeCuit,
  padronPersonaSchema,
  probarResultSchema,
} from '@mostrador/shared';
import type { App } from '../../app.js';
import { access, authOf, businessOf } from '../../lib/access.js';
import { todayIn } from '../../lib/dates.js';
import { AppError, invalid, notFound } from '../../lib/errors.js';
import { xlsxFile } from '../../lib/responses.js';
import { MONEY_FMT, onePage, pathId, sendXlsx } from '../products/common.js';
import * as arca from './arca-client.js';
import { ArcaError, ArcaUnavailableError } from './arca-client.js';
import {
  configOut,
  createCsr,
  createFactura,
  getComprobante,
  libroIva,
  listComprobantes,
  putConfig,
  readConfig,
  requireReady,
  resetForRetry,
  setIvaMasivo,
} from './facturacion.service.js';

const tags = ['facturacion'];
const admin = { access: access.admin };
// Issuing belongs to the counter: the POS's permissions guard it (decision 0013).
const ver = { access: access.module('ventas', 'ver') };
const editar = { access: access.module('ventas', 'editar') };

const idParams = z.object({ id: z.string() });
const cidParams = z.object({ id: z.string(), comprobanteId: z.string() });
const cuitParams = z.object({ id: z.string(), cuit: z.string() });

const unavailable = (e: unknown) =>
  new AppError(503, 'UNAVAILABLE', e instanceof ArcaError ? `ARCA respondió: ${e.message}` : M.arcaUnavailable);

/** Facturación electrónica ARCA (issue 16, decision 0013). */
export async function facturacionRoutes(app: App) {
  const { db } = app.db;
  const f = () => app.facturacion;
  const ctx = (req: FastifyRequest) => ({ businessId: businessOf(req).id, userId: authOf(req).id });
  const hoy = (req: FastifyRequest) => todayIn(businessOf(req).timezone, app.services.now());
  const base = '/businesses/:id/facturacion';

  app.get(
    `${base}/config`,
    { config: admin, schema: { tags, params: idParams, response: { 200: facturacionConfigSchema } } },
    async (req) => configOut(await readConfig(db, businessOf(req).id)),
  );
  app.get(
    `${base}/modo`,
    { config: ver, schema: { tags, params: idParams, response: { 200: facturacionModoSchema } } },
    async (req) => {
      const c = configOut(await readConfig(db, businessOf(req).id));
      return {
        listo: c.configurado && c.tiene_certificado && c.tiene_clave,
        facturar: c.facturar,
        domicilio_fiscal: c.domicilio_fiscal,
        condicion_iva: c.condicion_iva,
      };
    },
  );
  app.put(
    `${base}/config`,
    {
      config: admin,
      schema: { tags, params: idParams, body: facturacionConfigInput, response: { 200: facturacionConfigSchema } },
    },
    async (req) => putConfig(db, f().box, ctx(req), req.body),
  );
  app.post(
    `${base}/csr`,
    { config: admin, schema: { tags, params: idParams, body: csrInput, response: { 200: csrResultSchema } } },
    async (req) => createCsr(db, f().box, ctx(req), req.body),
  );
  app.post(
    `${base}/probar`,
    { config: admin, schema: { tags, params: idParams, response: { 200: probarResultSchema } } },
    async (req) => {
      const cfg = await readConfig(db, businessOf(req).id);
      try {
        const ready = requireReady(cfg);
        const urls = f().urls(ready.entorno);
        const creds = await f().credentials(ready, 'wsfe');
        const dummy = await arca.feDummy(urls.wsfe, f().timeoutMs);
        const last = await arca.ultimoAutorizado(
          urls.wsfe,
          creds,
          ready.puntoVenta,
          ready.condicionIva === 'responsable_inscripto' ? 6 : 11,
          f().timeoutMs,
        );
        return {
          ok: true,
          mensaje: M.probarOk,
          detalle: `Servidores: ${dummy.app}/${dummy.db}/${dummy.auth}. Último comprobante del punto de venta ${ready.puntoVenta}: ${last}.`,
        };
      } catch (e) {
        if (e instanceof AppError) return { ok: false, mensaje: e.message, detalle: null };
        if (e instanceof ArcaUnavailableError) return { ok: false, mensaje: M.arcaUnavailable, detalle: e.message };
        if (e instanceof ArcaError) {
          return {
            ok: false,
            mensaje: 'ARCA rechazó la conexión: revisá el certificado y que esté asociado al servicio «wsfe».',
            detalle: e.message,
          };
        }
        throw e;
      }
    },
  );

  app.post(
    `${base}/comprobantes`,
    {
      config: editar,
      schema: {
        tags,
        params: idParams,
        body: emitirInput,
        response: { 200: comprobanteSchema, 201: comprobanteSchema, 202: comprobanteSchema },
      },
    },
    async (req, reply) => {
      const c = ctx(req);
      const cfg = requireReady(await readConfig(db, c.businessId));
      const r = await createFactura(db, cfg, c.businessId, req.body.venta_id, {
        receptor: req.body.receptor,
        puntoVenta: req.body.punto_venta,
        hoy: hoy(req),
        userId: c.userId,
      });
      if (r.created) await f().attemptWaiting(c.businessId, r.id);
      const out = await getComprobante(db, c.businessId, r.id);
      const status = !r.created ? 200 : out.estado === 'pendiente' ? 202 : 201;
      return reply.status(status).send({
        ...out,
        mensaje: out.estado === 'pendiente' ? M.pending : out.estado === 'autorizado' ? M.authorized : undefined,
      });
    },
  );
  app.get(
    `${base}/comprobantes`,
    {
      config: ver,
      schema: { tags, params: idParams, querystring: comprobanteListQuery, response: { 200: comprobanteListSchema } },
    },
    async (req) => listComprobantes(db, businessOf(req).id, req.query),
  );
  app.get(
    `${base}/comprobantes/:comprobanteId`,
    { config: ver, schema: { tags, params: cidParams, response: { 200: comprobanteSchema } } },
    async (req) => getComprobante(db, businessOf(req).id, pathId(req.params.comprobanteId, M.notFound)),
  );
  app.post(
    `${base}/comprobantes/:comprobanteId/reintentar`,
    {
      config: editar,
      schema: { tags, params: cidParams, response: { 200: comprobanteSchema, 202: comprobanteSchema } },
    },
    async (req, reply) => {
      const c = ctx(req);
      const id = pathId(req.params.comprobanteId, M.notFound);
      const cfg = requireReady(await readConfig(db, c.businessId));
      await db.transaction((tx) => resetForRetry(tx, cfg, c.businessId, id, hoy(req), c.userId));
      await f().attemptWaiting(c.businessId, id);
      const out = await getComprobante(db, c.businessId, id);
      return reply.status(out.estado === 'pendiente' ? 202 : 200).send(out);
    },
  );

  app.get(
    `${base}/libro-iva`,
    { config: ver, schema: { tags, params: idParams, querystring: libroIvaQuery, response: { 200: xlsxFile } } },
    async (req, reply) => {
      const rows = await libroIva(db, businessOf(req).id, req.query.mes);
      type R = (typeof rows)[number];
      const money = (header: string, value: (r: R) => number) => ({ header, value, numFmt: MONEY_FMT, width: 14 });
      return sendXlsx<R>(reply, {
        filename: `libro-iva-ventas-${req.query.mes}.xlsx`,
        sheet: 'IVA Ventas',
        pages: onePage(rows),
        columns: [
          { header: 'Fecha', value: (r) => r.fecha, width: 12 },
          { header: 'Comprobante', value: (r) => r.tipo, width: 20 },
          { header: 'Punto de venta', value: (r) => r.punto_venta, width: 10 },
          { header: 'Número', value: (r) => r.numero, width: 10 },
          { header: 'CAE', value: (r) => r.cae, width: 16 },
          { header: 'Receptor', value: (r) => r.receptor, width: 30 },
          { header: 'Documento', value: (r) => r.doc, width: 16 },
          { header: 'Condición IVA', value: (r) => r.condicion, width: 20 },
          money('Neto gravado', (r) => r.neto),
          money('IVA 21 %', (r) => r.iva21),
          money('IVA 10,5 %', (r) => r.iva105),
          money('IVA 27 %', (r) => r.iva27),
          money('IVA otras', (r) => r.iva_otros),
          money('IVA total', (r) => r.iva),
          money('Exento', (r) => r.exento),
          money('No gravado', (r) => r.no_gravado),
          money('Total', (r) => r.total),
        ],
      });
    },
  );

  app.get(
    `${base}/padron/:cuit`,
    { config: ver, schema: { tags, params: cuitParams, response: { 200: padronPersonaSchema } } },
    async (req) => {
      const cuit = normalizeCuit(req.params.cuit);
      if (!cuit) throw invalid('cuit', M.badCuit);
      const cfg = requireReady(await readConfig(db, businessOf(req).id));
      try {
        const creds = await f().credentials(cfg, 'ws_sr_constancia_inscripcion');
        const p = await arca.getPersona(f().urls(cfg.entorno).padron, creds, cuit.replace(/-/g, ''), f().timeoutMs);
        return { cuit, ...p };
      } catch (e) {
        if (e instanceof ArcaError && /no existe/i.test(e.message)) throw notFound(M.padronNotFound);
        if (e instanceof ArcaError || e instanceof ArcaUnavailableError) throw unavailable(e);
        throw e;
      }
    },
  );

  app.post(
    `${base}/iva-masivo`,
    {
      config: { access: access.module('productos', 'editar') },
      schema: { tags, params: idParams, body: ivaMasivoInput, response: { 200: ivaMasivoResultSchema } },
    },
    async (req) => db.transaction((tx) => setIvaMasivo(tx, ctx(req), req.body)),
  );
}
