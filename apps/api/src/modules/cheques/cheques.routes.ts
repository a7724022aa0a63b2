import { z } from 'zod';
import {
  CHEQUE_ESTADO_LABELS,
  CHEQUE_MESSAGES,
  CHEQUE_TIPO_LABELS,
  chequeAnularInput,
  chequeCobrarInput,
  chequeDepositarInput,
  chequeDetalleSchema,
  chequeEndosarInput,
  chequeInput,
  chequeListQuery,
  chequeListSchema,
  chequeRechazarInput,
  type Cheque,
  type ChequeAccion,
} from '@mostrador/shared';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../app.js';
import { access, authOf, businessOf } from '../../lib/access.js';
import { todayIn } from '../../lib/dates.js';
import { knownFilters } from '../../lib/known-ids.js';
import { xlsxFile } from '../../lib/responses.js';
import { DATE_FMT, excelDate, MONEY_FMT, onePage, pathId, sendXlsx } from '../products/common.js';
import * as cheques from './cheques.service.js';

const tags = ['cheques'];
const base = '/businesses/:id/cheques';
const idParams = z.object({ id: z.string() });
const chequeParams = z.object({ id: z.string(), chequeId: z.string() });

// Cheques are the business's money: module finanzas (see decision 0057). Reading the cartera is
// ver; registering a cheque and every change of state, editar.
const ver = { access: access.module('finanzas', 'ver') };
const editar = { access: access.module('finanzas', 'editar') };

/** The cartera of cheques and the business's own cheques (issue 37). */
export async function chequeRoutes(app: App) {
  const { db } = app.db;
  const filters = knownFilters(db, [
    { field: 'cliente_id', kind: 'cliente' },
    { field: 'proveedor_id', kind: 'proveedor' },
    { field: 'venta_id', kind: 'venta' },
  ]);
  const ctx = (req: FastifyRequest): cheques.ChequeContext => {
    const b = businessOf(req);
    return { businessId: b.id, userId: authOf(req).id, timezone: b.timezone, now: app.services.now() };
  };
  const today = (req: FastifyRequest) => todayIn(businessOf(req).timezone, app.services.now());
  const chequeId = (v: string) => pathId(v, CHEQUE_MESSAGES.notFound);

  app.get(
    base,
    {
      config: ver,
      schema: { tags, params: idParams, querystring: chequeListQuery, response: { 200: chequeListSchema } },
      preHandler: filters,
    },
    async (req) => cheques.listCheques(db, businessOf(req).id, req.query, today(req)),
  );

  app.get(
    `${base}/exportar`,
    {
      config: ver,
      schema: { tags, params: idParams, querystring: chequeListQuery, response: { 200: xlsxFile } },
      preHandler: filters,
    },
    async (req, reply) => {
      const list = await cheques.listCheques(
        db,
        businessOf(req).id,
        { ...req.query, limit: 5000, offset: 0 },
        today(req),
      );
      return sendXlsx<Cheque>(reply, {
        filename: 'cheques.xlsx',
        sheet: 'Cheques',
        columns: [
          { header: 'Vence', value: (c) => excelDate(c.fecha_pago), width: 12, numFmt: DATE_FMT },
          { header: 'Tipo', value: (c) => CHEQUE_TIPO_LABELS[c.tipo], width: 12 },
          { header: 'E-cheq', value: (c) => (c.electronico ? 'Sí' : 'No'), width: 8 },
          { header: 'Banco', value: (c) => c.banco, width: 22 },
          { header: 'Número', value: (c) => c.numero, width: 14 },
          { header: 'Emisión', value: (c) => excelDate(c.fecha_emision), width: 12, numFmt: DATE_FMT },
          { header: 'Librador', value: (c) => c.librador_nombre ?? '', width: 26 },
          { header: 'CUIT', value: (c) => c.librador_cuit ?? '', width: 15 },
          { header: 'Cliente', value: (c) => c.cliente?.nombre ?? '', width: 24 },
          { header: 'Proveedor', value: (c) => c.proveedor?.nombre ?? '', width: 24 },
          { header: 'Estado', value: (c) => CHEQUE_ESTADO_LABELS[c.estado], width: 12 },
          { header: 'Monto', value: (c) => c.monto, numFmt: MONEY_FMT },
        ],
        pages: onePage(list.cheques),
      });
    },
  );

  app.post(
    base,
    { config: editar, schema: { tags, params: idParams, body: chequeInput, response: { 201: chequeDetalleSchema } } },
    async (req, reply) => reply.status(201).send(await cheques.createCheque(db, ctx(req), req.body)),
  );

  app.get(
    `${base}/:chequeId`,
    { config: ver, schema: { tags, params: chequeParams, response: { 200: chequeDetalleSchema } } },
    async (req) => cheques.getCheque(db, businessOf(req).id, chequeId(req.params.chequeId), today(req)),
  );

  const acciones: [ChequeAccion, z.ZodType<cheques.AccionInput>][] = [
    ['depositar', chequeDepositarInput],
    ['endosar', chequeEndosarInput],
    ['cobrar', chequeCobrarInput],
    ['rechazar', chequeRechazarInput],
    ['anular', chequeAnularInput],
  ];
  for (const [accion, body] of acciones) {
    app.post(
      `${base}/:chequeId/${accion}`,
      { config: editar, schema: { tags, params: chequeParams, body, response: { 200: chequeDetalleSchema } } },
      async (req) =>
        cheques.changeCheque(db, ctx(req), chequeId(req.params.chequeId), accion, req.body as cheques.AccionInput),
    );
  }
}
