import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  CAEA_MESSAGES as CM,
  FACTURACION_MESSAGES as M,
  caeaEstadoSchema,
  type Entorno,
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
  IVA_RATE_LABELS,
  centsToNumber,
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
import { txtFile, xlsxFile } from '../../lib/responses.js';
import { DATE_FMT, excelDate, MONEY_FMT, onePage, pathId, sendXlsx } from '../products/common.js';
import * as arca from './arca-client.js';
import { ArcaError, ArcaUnavailableError, PadronSinConstanciaError } from './arca-client.js';
import { archivo, nombreArchivo, ventasDigital } from './libro-iva-digital.js';
import {
  LIBRO_RATES,
  type LibroIvaVentaRow,
  comprobantesDelMes,
  configOut,
  createCsr,
  createFactura,
  getComprobante,
  libroIva,
  libroTotales,
  listComprobantes,
  putConfig,
  readConfig,
  requireReady,
  resetForRetry,
  setIvaMasivo,
} from './facturacion.service.js';
import type { ConfigRow } from './facturador.js';
import { probarConexion } from './probar.js';
import { WsaaError } from './tickets-acceso.js';

const tags = ['facturacion'];
const admin = { access: access.admin };
// Issuing belongs to the counter: the POS's permissions guard it (decision 0013).
const ver = { access: access.module('ventas', 'ver') };
const editar = { access: access.module('ventas', 'editar') };

const idParams = z.object({ id: z.string() });
const cidParams = z.object({ id: z.string(), comprobanteId: z.string() });
const cuitParams = z.object({ id: z.string(), cuit: z.string() });

/** The padrón's answer with what the user must be warned of: an inactive CUIT, ARCA's own errors. */
function padronAnswer(cuit: string, p: Awaited<ReturnType<typeof arca.getPersona>>) {
  const { errores, ...persona } = p;
  const advertencias = [
    ...(p.estado_clave && p.estado_clave !== 'ACTIVO' ? [M.padronInactivo(p.estado_clave)] : []),
    ...errores.map((e) => `ARCA informa: ${e}`),
  ];
  return { cuit, ...persona, advertencias };
}

const unavailable = (e: unknown) =>
  new AppError(
    503,
    'UNAVAILABLE',
    e instanceof WsaaError ? e.message : e instanceof ArcaError ? `ARCA respondió: ${e.message}` : M.arcaUnavailable,
  );

/** Facturación electrónica ARCA (issue 16, decision 0013). */
export async function facturacionRoutes(app: App) {
  const { db } = app.db;
  const f = () => app.facturacion;

  /** 422 unless ARCA lists the punto de venta with emission type CAEA, open and not blocked; 503 if it cannot tell. */
  async function checkPuntoCaea(before: ConfigRow | null, input: { cuit: string; entorno: Entorno }, pv: number) {
    if (!before?.certificadoPem || !before.claveCifrada) throw invalid('caea_punto_venta', CM.sinCertificado);
    const cfg = { ...before, cuit: input.cuit, entorno: input.entorno };
    let pvs: arca.PuntoVentaArca[];
    try {
      const creds = await f().credentials(cfg, 'wsfe');
      pvs = await arca.puntosVenta(f().urls(cfg.entorno).wsfe, creds, f().timeoutMs);
    } catch (e) {
      if (e instanceof ArcaError || e instanceof ArcaUnavailableError || e instanceof WsaaError)
        throw new AppError(503, 'UNAVAILABLE', `${CM.noVerificable} (${e.message})`);
      throw e;
    }
    const p = pvs.find((x) => x.nro === pv && !x.baja);
    if (!p || !/^CAEA/i.test(p.emisionTipo)) throw invalid('caea_punto_venta', CM.puntoVentaNoCaea(pv));
    if (p.bloqueado) throw invalid('caea_punto_venta', CM.puntoVentaBloqueado(pv));
  }
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
    async (req) => {
      const c = ctx(req);
      const before = await readConfig(db, c.businessId);
      const pv = req.body.caea_punto_venta;
      // A new CAEA punto de venta must be one ARCA enabled for CAEA (FEParamGetPtosVenta).
      if (pv && pv !== before?.caeaPuntoVenta) await checkPuntoCaea(before, req.body, pv);
      return putConfig(db, f().box, c, req.body);
    },
  );
  app.get(
    `${base}/caea`,
    { config: admin, schema: { tags, params: idParams, response: { 200: caeaEstadoSchema } } },
    async (req) => {
      const id = businessOf(req).id;
      return f().caea.estado(id, await readConfig(db, id));
    },
  );
  app.post(
    `${base}/caea/actualizar`,
    { config: admin, schema: { tags, params: idParams, response: { 200: caeaEstadoSchema } } },
    async (req) => {
      const id = businessOf(req).id;
      await f().caea.actualizar(id);
      return f().caea.estado(id, await readConfig(db, id));
    },
  );
  app.post(
    `${base}/csr`,
    { config: admin, schema: { tags, params: idParams, body: csrInput, response: { 200: csrResultSchema } } },
    async (req) => createCsr(db, f().box, ctx(req), req.body),
  );
  app.post(
    `${base}/probar`,
    { config: admin, schema: { tags, params: idParams, response: { 200: probarResultSchema } } },
    async (req) => probarConexion(f(), await readConfig(db, businessOf(req).id), app.services.now()),
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
        servicio: {
          desde: req.body.servicio_desde,
          hasta: req.body.servicio_hasta,
          vencimiento: req.body.vencimiento_pago,
        },
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
      const emision = await db.transaction((tx) => resetForRetry(tx, cfg, c.businessId, id, hoy(req), c.userId));
      // A comprobante issued under a CAEA stands as printed: its report goes again (decision 0047).
      if (emision === 'caea') await f().caea.actualizar(c.businessId);
      else await f().attemptWaiting(c.businessId, id);
      const out = await getComprobante(db, c.businessId, id);
      return reply.status(out.estado === 'pendiente' ? 202 : 200).send(out);
    },
  );

  app.get(
    `${base}/libro-iva`,
    { config: ver, schema: { tags, params: idParams, querystring: libroIvaQuery, response: { 200: xlsxFile } } },
    async (req, reply) => {
      const rows: (LibroIvaVentaRow & { totales?: true })[] = await libroIva(db, businessOf(req).id, req.query.mes);
      rows.push(libroTotales(rows));
      type R = (typeof rows)[number];
      const money = (header: string, cents: (r: R) => number) => ({
        header,
        value: (r: R) => centsToNumber(cents(r)),
        numFmt: MONEY_FMT,
        width: 14,
      });
      const text = (header: string, value: (r: R) => string | number, width: number) => ({
        header,
        value: (r: R) => (r.totales ? null : value(r)),
        width,
      });
      // The 0 % rate has no IVA column: its net is the gravado al 0 %.
      const rateColumns = LIBRO_RATES.flatMap((rate) => [
        money(`Neto ${IVA_RATE_LABELS[rate]}`, (r) => r.neto_por_tasa[rate]),
        ...(rate === '0' ? [] : [money(`IVA ${IVA_RATE_LABELS[rate]}`, (r) => r.iva_por_tasa[rate])]),
      ]);
      return sendXlsx<R>(reply, {
        filename: `libro-iva-ventas-${req.query.mes}.xlsx`,
        sheet: 'IVA Ventas',
        pages: onePage(rows),
        columns: [
          {
            header: 'Fecha',
            value: (r) => (r.totales ? 'Totales' : excelDate(r.fecha)),
            width: 12,
            numFmt: DATE_FMT,
          },
          text('Comprobante', (r) => r.tipo, 20),
          text('Punto de venta', (r) => r.punto_venta, 10),
          text('Número', (r) => r.numero, 10),
          text('CAE', (r) => r.cae, 16),
          text('Receptor', (r) => r.receptor, 30),
          text('Documento', (r) => r.doc, 16),
          text('Condición IVA', (r) => r.condicion, 20),
          ...rateColumns,
          money('Neto gravado', (r) => r.neto),
          money('IVA total', (r) => r.iva),
          money('Exento', (r) => r.exento),
          money('No gravado', (r) => r.no_gravado),
          money('Otros tributos', (r) => r.tributos),
          money('Total', (r) => r.total),
        ],
      });
    },
  );

  // Libro IVA Digital (decision 0042): the month's comprobantes and their rates as ARCA imports them.
  for (const parte of ['comprobantes', 'alicuotas'] as const) {
    app.get(
      `${base}/libro-iva-digital/${parte}`,
      { config: ver, schema: { tags, params: idParams, querystring: libroIvaQuery, response: { 200: txtFile } } },
      async (req, reply) => {
        const files = ventasDigital(await comprobantesDelMes(db, businessOf(req).id, req.query.mes));
        const name = nombreArchivo('VENTAS', parte === 'comprobantes' ? 'CBTE' : 'ALICUOTAS', req.query.mes);
        return reply
          .header('Content-Type', 'text/plain; charset=iso-8859-1')
          .header('Content-Disposition', `attachment; filename="${name}"`)
          .send(archivo(files[parte]));
      },
    );
  }

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
        return padronAnswer(cuit, p);
      } catch (e) {
        if (e instanceof ArcaError && /no existe/i.test(e.message)) throw notFound(M.padronNotFound);
        if (e instanceof PadronSinConstanciaError) throw invalid('cuit', M.padronSinConstancia(e.message));
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
