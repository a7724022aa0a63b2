import { z } from 'zod';
import {
  CUSTOMER_MESSAGES,
  customerInput,
  customerListQuery,
  customerUpdate,
  DOCUMENT_TYPE_LABELS,
  IVA_CONDITION_LABELS,
  type Customer,
  customerSchema,
} from '@mostrador/shared';
import { noContent, xlsxFile } from '../../lib/responses.js';
import type { App } from '../../app.js';
import {
  access,
  authOf,
  businessOf,
  canChangePrices,
  canExceedCredit,
  type BusinessContext,
} from '../../lib/access.js';
import { todayIn } from '../../lib/dates.js';
import { requireSomeField } from '../../lib/http.js';
import { paged, pathId, sendXlsx } from '../products/common.js';
import * as service from './customers.service.js';

const tags = ['clientes'];
const base = '/businesses/:id/clientes';
const idParams = z.object({ id: z.string() });
const cidParams = z.object({ id: z.string(), cid: z.string() });

const ver = { access: access.module('clientes', 'ver') };
const editar = { access: access.module('clientes', 'editar') };
const eliminar = { access: access.module('clientes', 'eliminar') };

/** The credit limit and the price list need the counter controls too (decision 0005). */
const controlsOf = (b: BusinessContext): service.CustomerControls => ({
  credito: canExceedCredit(b),
  precios: canChangePrices(b),
});

/** Customers (API-CONTRACT §3) and their export (§14.2): module `clientes`. */
export async function customerRoutes(app: App) {
  const { db } = app.db;

  app.get(
    base,
    {
      config: ver,
      schema: { tags, params: idParams, querystring: customerListQuery, response: { 200: z.array(customerSchema) } },
    },
    async (req, reply) => {
      const { rows, total } = await service.listCustomers(db, businessOf(req).id, req.query);
      return reply.header('X-Total-Count', String(total)).send(rows);
    },
  );

  app.get(
    `${base}/exportar`,
    { config: ver, schema: { tags, params: idParams, querystring: customerListQuery, response: { 200: xlsxFile } } },
    async (req, reply) => {
      const b = businessOf(req);
      const q = req.query;
      return sendXlsx<Customer>(reply, {
        filename: `clientes-${todayIn(b.timezone, app.services.now())}.xlsx`,
        sheet: 'Clientes',
        columns: [
          { header: 'Nombre', value: (c) => c.nombre, width: 24 },
          { header: 'Apellido', value: (c) => c.apellido, width: 20 },
          { header: 'E-mail', value: (c) => c.email, width: 28 },
          { header: 'Teléfono', value: (c) => c.telefono },
          { header: 'Dirección', value: (c) => c.direccion, width: 28 },
          {
            header: 'Tipo de documento',
            value: (c) => (c.documento_tipo ? DOCUMENT_TYPE_LABELS[c.documento_tipo] : null),
          },
          { header: 'Número de documento', value: (c) => c.documento_numero },
          { header: 'Condición IVA', value: (c) => IVA_CONDITION_LABELS[c.condicion_iva], width: 22 },
          { header: 'Notas', value: (c) => c.notas, width: 30 },
        ],
        pages: paged(async (limit, offset) => (await service.listCustomers(db, b.id, { ...q, limit, offset })).rows),
      });
    },
  );

  app.post(
    base,
    { config: editar, schema: { tags, params: idParams, body: customerInput, response: { 201: customerSchema } } },
    async (req, reply) => {
      const b = businessOf(req);
      const c = await service.createCustomer(db, b.id, authOf(req).id, req.body, controlsOf(b));
      return reply.status(201).send(c);
    },
  );

  app.get(
    `${base}/:cid`,
    { config: ver, schema: { tags, params: cidParams, response: { 200: customerSchema } } },
    async (req) => service.getCustomer(db, businessOf(req).id, pathId(req.params.cid, CUSTOMER_MESSAGES.notFound)),
  );

  app.put(
    `${base}/:cid`,
    { config: editar, schema: { tags, params: cidParams, body: customerUpdate, response: { 200: customerSchema } } },
    async (req) => {
      requireSomeField(req.body);
      const cid = pathId(req.params.cid, CUSTOMER_MESSAGES.notFound);
      const b = businessOf(req);
      return service.updateCustomer(db, b.id, authOf(req).id, cid, req.body, controlsOf(b));
    },
  );

  app.delete(
    `${base}/:cid`,
    { config: eliminar, schema: { tags, params: cidParams, response: { 204: noContent } } },
    async (req, reply) => {
      await service.deleteCustomer(
        db,
        businessOf(req).id,
        authOf(req).id,
        pathId(req.params.cid, CUSTOMER_MESSAGES.notFound),
      );
      return reply.status(204).send();
    },
  );
}
