import { z } from 'zod';
import {
  accountInput,
  accountListQuery,
  accountUpdate,
  FINANCE_MESSAGES,
  financeCategoryInput,
  financeCategoryQuery,
  financeCategoryUpdate,
  markPaidInput,
  MOVEMENT_ORIGIN_LABELS,
  MOVEMENT_TYPE_LABELS,
  movementInput,
  movementListQuery,
  movementUpdate,
  paymentMethodLabel,
  periodQuery,
  type Movement,
  accountSchema,
  cashFlowSchema,
  deudorSchema,
  financeCategorySchema,
  financeSummarySchema,
  markPaidResultSchema,
  movementSchema,
} from '@mostrador/shared';
import type { FastifyRequest } from 'fastify';
import { noContent, xlsxFile } from '../../lib/responses.js';
import type { App } from '../../app.js';
import { access, authOf, businessOf, isUuid } from '../../lib/access.js';
import { knownFilters } from '../../lib/known-ids.js';
import { todayIn } from '../../lib/dates.js';
import { notFound } from '../../lib/errors.js';
import { requireSomeField } from '../../lib/http.js';
import { DATE_FMT, excelDate, MONEY_FMT, onePage, paged, sendXlsx } from '../products/common.js';
import { listDeudores } from '../caja/cuenta.service.js';
import * as accounts from './accounts.service.js';
import * as categories from './categories.service.js';
import * as movements from './movements.service.js';
import * as reports from './reports.service.js';

const tags = ['finanzas'];
const base = '/businesses/:id/finanzas';
const idParams = z.object({ id: z.string() });
const cidParams = z.object({ id: z.string(), cid: z.string() });
const midParams = z.object({ id: z.string(), mid: z.string() });

const ver = { access: access.module('finanzas', 'ver') };
const editar = { access: access.module('finanzas', 'editar') };
const eliminar = { access: access.module('finanzas', 'eliminar') };

/** A path id that is not a UUID names no object: 404 with the entity's message. */
function pathId(value: string, message: string): string {
  if (!isUuid(value)) throw notFound(message);
  return value;
}

/** Finance (API-CONTRACT §10): module `finanzas` (GET ver, POST/PUT editar, DELETE eliminar). */
export async function financeRoutes(app: App) {
  const { db } = app.db;
  const movementFilters = knownFilters(db, [{ field: 'categoria_id', kind: 'categoria_financiera' }]);
  const accountFilters = knownFilters(db, [
    { field: 'cliente_id', kind: 'cliente' },
    { field: 'proveedor_id', kind: 'proveedor' },
  ]);
  const today = (req: FastifyRequest) => todayIn(businessOf(req).timezone, app.services.now());

  /* categories */

  app.get(
    `${base}/categorias`,
    {
      config: ver,
      schema: {
        tags,
        params: idParams,
        querystring: financeCategoryQuery,
        response: { 200: z.array(financeCategorySchema) },
      },
    },
    async (req) => categories.listCategories(db, businessOf(req).id, req.query),
  );

  app.post(
    `${base}/categorias`,
    {
      config: editar,
      schema: { tags, params: idParams, body: financeCategoryInput, response: { 201: financeCategorySchema } },
    },
    async (req, reply) =>
      reply.status(201).send(await categories.createCategory(db, businessOf(req).id, authOf(req).id, req.body)),
  );

  app.put(
    `${base}/categorias/:cid`,
    {
      config: editar,
      schema: { tags, params: cidParams, body: financeCategoryUpdate, response: { 200: financeCategorySchema } },
    },
    async (req) => {
      requireSomeField(req.body);
      const cid = pathId(req.params.cid, FINANCE_MESSAGES.categoryNotFound);
      return categories.updateCategory(db, businessOf(req).id, authOf(req).id, cid, req.body);
    },
  );

  app.delete(
    `${base}/categorias/:cid`,
    { config: eliminar, schema: { tags, params: cidParams, response: { 204: noContent } } },
    async (req, reply) => {
      await categories.deleteCategory(
        db,
        businessOf(req).id,
        authOf(req).id,
        pathId(req.params.cid, FINANCE_MESSAGES.categoryNotFound),
      );
      return reply.status(204).send();
    },
  );

  /* movements */

  app.get(
    `${base}/movimientos`,
    {
      config: ver,
      schema: { tags, params: idParams, querystring: movementListQuery, response: { 200: z.array(movementSchema) } },
      preHandler: movementFilters,
    },
    async (req, reply) => {
      const { rows, total } = await movements.listMovements(db, businessOf(req).id, req.query);
      return reply.header('X-Total-Count', String(total)).send(rows);
    },
  );

  app.get(
    `${base}/movimientos/exportar`,
    {
      config: ver,
      schema: { tags, params: idParams, querystring: movementListQuery, response: { 200: xlsxFile } },
      preHandler: movementFilters,
    },
    async (req, reply) => {
      const b = businessOf(req);
      const q = req.query;
      const rdb = await app.reports.db(reply);
      return sendXlsx<Movement>(reply, {
        filename: `movimientos-${todayIn(b.timezone, app.services.now())}.xlsx`,
        sheet: 'Movimientos',
        columns: [
          { header: 'Fecha', value: (m) => excelDate(m.fecha), width: 12, numFmt: DATE_FMT },
          { header: 'Tipo', value: (m) => MOVEMENT_TYPE_LABELS[m.tipo], width: 10 },
          { header: 'Categoría', value: (m) => m.categoria_nombre, width: 22 },
          { header: 'Descripción', value: (m) => m.descripcion, width: 32 },
          { header: 'Monto', value: (m) => m.monto, numFmt: MONEY_FMT },
          { header: 'Medio de pago', value: (m) => paymentMethodLabel(m.metodo_pago), width: 20 },
          { header: 'Cliente', value: (m) => m.cliente_nombre, width: 24 },
          { header: 'Origen', value: (m) => MOVEMENT_ORIGIN_LABELS[m.origen], width: 12 },
          { header: 'Anulado', value: (m) => (m.anulado ? 'Sí' : 'No'), width: 9 },
          { header: 'Observaciones', value: (m) => m.observaciones, width: 30 },
        ],
        pages: paged(async (limit, offset) => (await movements.listMovements(rdb, b.id, { ...q, limit, offset })).rows),
      });
    },
  );

  app.post(
    `${base}/movimientos`,
    { config: editar, schema: { tags, params: idParams, body: movementInput, response: { 201: movementSchema } } },
    async (req, reply) =>
      reply
        .status(201)
        .send(await movements.createMovement(db, businessOf(req).id, authOf(req).id, req.body, today(req))),
  );

  app.put(
    `${base}/movimientos/:mid`,
    { config: editar, schema: { tags, params: midParams, body: movementUpdate, response: { 200: movementSchema } } },
    async (req) => {
      requireSomeField(req.body);
      const mid = pathId(req.params.mid, FINANCE_MESSAGES.movementNotFound);
      return movements.updateMovement(db, businessOf(req).id, authOf(req).id, mid, req.body);
    },
  );

  app.delete(
    `${base}/movimientos/:mid`,
    { config: eliminar, schema: { tags, params: midParams, response: { 204: noContent } } },
    async (req, reply) => {
      await movements.deleteMovement(
        db,
        businessOf(req).id,
        authOf(req).id,
        pathId(req.params.mid, FINANCE_MESSAGES.movementNotFound),
      );
      return reply.status(204).send();
    },
  );

  /* summary and cash flow */

  app.get(
    `${base}/resumen`,
    {
      config: ver,
      schema: { tags, params: idParams, querystring: periodQuery, response: { 200: financeSummarySchema } },
    },
    async (req, reply) => {
      const t = today(req);
      return reports.summary(await app.reports.db(reply), businessOf(req).id, reports.periodOf(req.query, t), t);
    },
  );

  app.get(
    `${base}/flujo-caja`,
    { config: ver, schema: { tags, params: idParams, querystring: periodQuery, response: { 200: cashFlowSchema } } },
    async (req, reply) =>
      reports.cashFlow(await app.reports.db(reply), businessOf(req).id, reports.periodOf(req.query, today(req))),
  );

  // The month's cash flow as a spreadsheet: one row per day, real dates and numbers, and the totals.
  app.get(
    `${base}/flujo-caja/exportar`,
    { config: ver, schema: { tags, params: idParams, querystring: periodQuery, response: { 200: xlsxFile } } },
    async (req, reply) => {
      const p = reports.periodOf(req.query, today(req));
      const flow = await reports.cashFlow(await app.reports.db(reply), businessOf(req).id, p);
      type Row = { fecha: Date | string; ingresos: number; egresos: number; diario: number; acumulado: number | null };
      const rows: Row[] = [
        ...flow.flujo_diario.map((d) => ({
          fecha: excelDate(d.fecha)!,
          ingresos: d.ingresos,
          egresos: d.egresos,
          diario: d.saldo_diario,
          acumulado: d.saldo_acumulado,
        })),
        {
          fecha: 'Totales',
          ingresos: flow.total_ingresos,
          egresos: flow.total_egresos,
          diario: flow.saldo_final,
          acumulado: null,
        },
      ];
      return sendXlsx<Row>(reply, {
        filename: `flujo-de-caja-${p.anio}-${String(p.mes).padStart(2, '0')}.xlsx`,
        sheet: 'Flujo de caja',
        columns: [
          { header: 'Fecha', value: (r) => r.fecha, width: 12, numFmt: DATE_FMT },
          { header: 'Ingresos', value: (r) => r.ingresos, numFmt: MONEY_FMT },
          { header: 'Egresos', value: (r) => r.egresos, numFmt: MONEY_FMT },
          { header: 'Saldo diario', value: (r) => r.diario, numFmt: MONEY_FMT },
          { header: 'Saldo acumulado', value: (r) => r.acumulado, numFmt: MONEY_FMT },
        ],
        pages: onePage(rows),
      });
    },
  );

  /* pending accounts */

  // What customers owe on account, one row per customer who owes: the Por cobrar tab lists them
  // beside the accounts, and their sum is the summary's cuentas_corrientes_clientes (decision 0045).
  app.get(
    `${base}/cuentas-corrientes`,
    { config: ver, schema: { tags, params: idParams, response: { 200: z.array(deudorSchema) } } },
    async (req) => {
      const b = businessOf(req);
      return listDeudores(db, b.id, b.timezone, today(req));
    },
  );

  for (const [path, tipo] of [
    ['cuentas-cobrar', 'por_cobrar'],
    ['cuentas-pagar', 'por_pagar'],
  ] as const) {
    app.get(
      `${base}/${path}`,
      {
        config: ver,
        schema: { tags, params: idParams, querystring: accountListQuery, response: { 200: z.array(accountSchema) } },
        preHandler: accountFilters,
      },
      async (req, reply) => {
        const { rows, total } = await accounts.listAccounts(db, businessOf(req).id, tipo, req.query, today(req));
        return reply.header('X-Total-Count', String(total)).send(rows);
      },
    );
  }

  app.post(
    `${base}/cuentas`,
    { config: editar, schema: { tags, params: idParams, body: accountInput, response: { 201: accountSchema } } },
    async (req, reply) =>
      reply
        .status(201)
        .send(await accounts.createAccount(db, businessOf(req).id, authOf(req).id, req.body, today(req))),
  );

  app.put(
    `${base}/cuentas/:cid`,
    { config: editar, schema: { tags, params: cidParams, body: accountUpdate, response: { 200: accountSchema } } },
    async (req) => {
      requireSomeField(req.body);
      const cid = pathId(req.params.cid, FINANCE_MESSAGES.accountNotFound);
      return accounts.updateAccount(db, businessOf(req).id, authOf(req).id, cid, req.body, today(req));
    },
  );

  app.delete(
    `${base}/cuentas/:cid`,
    { config: eliminar, schema: { tags, params: cidParams, response: { 204: noContent } } },
    async (req, reply) => {
      const cid = pathId(req.params.cid, FINANCE_MESSAGES.accountNotFound);
      await accounts.deleteAccount(db, businessOf(req).id, authOf(req).id, cid, today(req));
      return reply.status(204).send();
    },
  );

  app.put(
    `${base}/cuentas/:cid/marcar-pagado`,
    {
      config: editar,
      schema: { tags, params: cidParams, body: markPaidInput, response: { 200: markPaidResultSchema } },
    },
    async (req) => {
      const cid = pathId(req.params.cid, FINANCE_MESSAGES.accountNotFound);
      return accounts.markPaid(db, businessOf(req).id, authOf(req).id, cid, req.body, today(req), app.services.now());
    },
  );
}
