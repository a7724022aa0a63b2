import { z } from 'zod';
import {
  apiErrorSchema,
  CONCILIACION_TIPO_LABELS,
  conciliacionQuery,
  conciliacionSchema,
  MERCADOPAGO_MESSAGES as M,
  mercadopagoConfigInput,
  mercadopagoConfigSchema,
  mercadopagoProbarSchema,
  ordenInput,
  ordenSchema,
  webhookRecibidoSchema,
  type ConciliacionLinea,
} from '@mostrador/shared';
import type { App } from '../../app.js';
import { access, authOf, businessOf } from '../../lib/access.js';
import { AppError } from '../../lib/errors.js';
import { idempotencyKey } from '../../lib/http.js';
import { xlsxFile } from '../../lib/responses.js';
import {
  DATE_FMT,
  DATETIME_FMT,
  excelDate,
  excelDateTime,
  MONEY_FMT,
  onePage,
  pathId,
  sendXlsx,
} from '../products/common.js';
import { conciliacion } from './conciliacion.js';
import { cancelarOrden, crearOrden, getOrden, probar, putConfig, readConfig } from './mercadopago.service.js';
import { handleWebhook } from './webhook.js';

const tags = ['mercadopago'];
const admin = { access: access.admin };
// Orders belong to the counter: the POS's permissions guard them, as record-sale.
const ver = { access: access.module('ventas', 'ver') };
const editar = { access: access.module('ventas', 'editar') };
const finanzas = { access: access.module('finanzas', 'ver') };

const idParams = z.object({ id: z.string() });
const ordenParams = z.object({ id: z.string(), ordenId: z.string() });

/** Mercado Pago at the counter (issue 34, decision 0052). */
export async function mercadopagoRoutes(app: App) {
  const { db } = app.db;
  const m = () => app.mercadopago;
  const base = '/businesses/:id/mercadopago';
  const ctx = (req: Parameters<typeof businessOf>[0]) => ({ businessId: businessOf(req).id, userId: authOf(req).id });
  const ordenId = (v: string) => pathId(v, M.ordenNotFound);
  const publicUrl = () => app.services.publicUrl;

  app.get(
    `${base}/config`,
    { config: admin, schema: { tags, params: idParams, response: { 200: mercadopagoConfigSchema } } },
    async (req) => readConfig(db, businessOf(req).id, publicUrl()),
  );
  app.put(
    `${base}/config`,
    {
      config: admin,
      schema: { tags, params: idParams, body: mercadopagoConfigInput, response: { 200: mercadopagoConfigSchema } },
    },
    async (req) => putConfig(db, m(), ctx(req), req.body, publicUrl()),
  );
  app.post(
    `${base}/config/probar`,
    { config: admin, schema: { tags, params: idParams, response: { 200: mercadopagoProbarSchema } } },
    async (req) => probar(db, m(), businessOf(req).id),
  );

  app.post(
    `${base}/ordenes`,
    {
      config: editar,
      schema: {
        tags,
        description: 'Crea la orden en Mercado Pago (QR o Point). Requiere el encabezado Idempotency-Key.',
        params: idParams,
        body: ordenInput,
        response: { 201: ordenSchema },
      },
    },
    async (req, reply) => reply.status(201).send(await crearOrden(db, m(), ctx(req), req.body, idempotencyKey(req))),
  );
  app.get(
    `${base}/ordenes/:ordenId`,
    { config: ver, schema: { tags, params: ordenParams, response: { 200: ordenSchema } } },
    async (req) => getOrden(db, businessOf(req).id, ordenId(req.params.ordenId)),
  );
  app.post(
    `${base}/ordenes/:ordenId/cancelar`,
    { config: editar, schema: { tags, params: ordenParams, response: { 200: ordenSchema } } },
    async (req) => cancelarOrden(db, m(), ctx(req), ordenId(req.params.ordenId)),
  );

  app.get(
    `${base}/conciliacion`,
    {
      config: finanzas,
      schema: { tags, params: idParams, querystring: conciliacionQuery, response: { 200: conciliacionSchema } },
    },
    async (req) => conciliacion(db, m(), businessOf(req).id, req.query),
  );
  app.get(
    `${base}/conciliacion/exportar`,
    {
      config: finanzas,
      schema: { tags, params: idParams, querystring: conciliacionQuery, response: { 200: xlsxFile } },
    },
    async (req, reply) => {
      const b = businessOf(req);
      const c = await conciliacion(db, m(), b.id, req.query);
      type Fila = ConciliacionLinea & { dia: string; totales?: true };
      const filas: Fila[] = c.dias.flatMap((d) => d.lineas.map((l) => ({ ...l, dia: d.fecha })));
      filas.push({
        tipo: 'conciliado',
        dia: '',
        fecha_hora: '',
        venta_id: null,
        venta_numero: null,
        orden_id: null,
        mp_pago_id: null,
        monto_mp: c.totales.cobrado,
        monto_venta: c.totales.vendido,
        comision: c.totales.comision,
        neto: c.totales.neto,
        diferencia: c.totales.diferencia,
        totales: true,
      });
      const money = (header: string, v: (f: Fila) => number | null) => ({
        header,
        value: v,
        numFmt: MONEY_FMT,
        width: 14,
      });
      return sendXlsx<Fila>(reply, {
        filename: `conciliacion-mercadopago-${c.desde}-a-${c.hasta}.xlsx`,
        sheet: 'Conciliación',
        pages: onePage(filas),
        columns: [
          { header: 'Día', value: (f) => (f.totales ? 'Totales' : excelDate(f.dia)), numFmt: DATE_FMT, width: 12 },
          {
            header: 'Fecha y hora',
            value: (f) => (f.totales ? null : excelDateTime(f.fecha_hora, b.timezone)),
            numFmt: DATETIME_FMT,
            width: 18,
          },
          { header: 'Situación', value: (f) => (f.totales ? null : CONCILIACION_TIPO_LABELS[f.tipo]), width: 20 },
          { header: 'Venta', value: (f) => f.venta_numero, width: 10 },
          { header: 'Pago de Mercado Pago', value: (f) => f.mp_pago_id, width: 20 },
          money('Cobrado por Mercado Pago', (f) => f.monto_mp),
          money('Registrado en la venta', (f) => f.monto_venta),
          money('Comisión', (f) => f.comision),
          money('Neto', (f) => f.neto),
          money('Diferencia', (f) => f.diferencia),
        ],
      });
    },
  );

  // MP's notifications: no session; the signature of the business's webhook secret instead.
  app.post(
    '/webhooks/mercadopago',
    {
      config: { access: access.public },
      schema: {
        tags,
        description:
          'Notificaciones de Mercado Pago (evento Order). Firma x-signature verificada con la clave secreta del negocio.',
        response: { 200: webhookRecibidoSchema, 401: apiErrorSchema },
      },
    },
    async (req) => {
      const r = await handleWebhook(app.db, m(), req.log, {
        query: req.query as Record<string, unknown>,
        headers: req.headers,
        body: req.body,
      });
      if (r === 'firma_invalida') throw new AppError(401, 'UNAUTHENTICATED', 'Firma de la notificación no válida.');
      if (r === 'no_disponible') throw new AppError(503, 'UNAVAILABLE', M.unavailable, {}, { 'Retry-After': '30' });
      return { recibido: r === 'procesada' };
    },
  );
}
