import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  REMITO_MESSAGES,
  remitoAnularInput,
  remitoInput,
  remitoListQuery,
  remitoListSchema,
  remitoSchema,
  remitosFacturadosSchema,
  remitosFacturarInput,
} from '@mostrador/shared';
import type { App } from '../../app.js';
import {
  access,
  assertCan,
  authOf,
  businessOf,
  canChangePrices,
  canExceedCredit,
  maxDiscount,
} from '../../lib/access.js';
import { pathId } from '../products/common.js';
import type { SaleContext } from '../sales/sales.service.js';
import { facturarRemitos } from './facturar.js';
import { anularRemito, createRemito, getRemito, listRemitos } from './remitos.service.js';

const tags = ['remitos'];
const ver = { access: access.module('remitos', 'ver') };
const editar = { access: access.module('remitos', 'editar') };
const eliminar = { access: access.module('remitos', 'eliminar') };

const idParams = z.object({ id: z.string() });
const ridParams = z.object({ id: z.string(), remitoId: z.string() });

/** Remitos (issue 37, decision 0056). */
export async function remitoRoutes(app: App) {
  const { db } = app.db;
  const ctx = (req: FastifyRequest): SaleContext => {
    const b = businessOf(req);
    return {
      businessId: b.id,
      userId: authOf(req).id,
      timezone: b.timezone,
      now: app.services.now(),
      precios: { cambiar: canChangePrices(b), descuentoMaximo: maxDiscount(b) },
      excederCredito: canExceedCredit(b),
    };
  };
  const rid = (v: string) => pathId(v, REMITO_MESSAGES.notFound);

  app.get(
    '/businesses/:id/remitos',
    {
      config: ver,
      schema: {
        tags,
        summary:
          'Los remitos del negocio, del más nuevo al más viejo (filtros: cliente_id, estado pendiente|facturado|anulado).',
        params: idParams,
        querystring: remitoListQuery,
        response: { 200: remitoListSchema },
      },
    },
    async (req) => listRemitos(db, businessOf(req).id, req.query),
  );

  app.post(
    '/businesses/:id/remitos',
    {
      config: editar,
      schema: {
        tags,
        summary:
          'Registra un remito: la mercadería sale del stock al entregarla (409 si no alcanza, como una venta). Con presupuesto_id, el presupuesto queda convertido.',
        params: idParams,
        body: remitoInput,
        response: { 201: remitoSchema },
      },
    },
    async (req, reply) => reply.status(201).send(await createRemito(db, ctx(req), req.body)),
  );

  app.post(
    '/businesses/:id/remitos/facturar',
    {
      config: editar,
      schema: {
        tags,
        summary:
          'Una venta (y su factura, si el negocio factura) por uno o más remitos pendientes del mismo cliente, sin mover el stock otra vez. Un remito ya facturado: 409; de clientes distintos: 422.',
        params: idParams,
        body: remitosFacturarInput,
        response: { 201: remitosFacturadosSchema },
      },
    },
    async (req, reply) => {
      assertCan(businessOf(req), 'ventas', 'editar');
      return reply.status(201).send(await facturarRemitos(app, ctx(req), req.body));
    },
  );

  app.get(
    '/businesses/:id/remitos/:remitoId',
    {
      config: ver,
      schema: { tags, summary: 'Un remito con sus ítems.', params: ridParams, response: { 200: remitoSchema } },
    },
    async (req) => getRemito(db, businessOf(req).id, rid(req.params.remitoId)),
  );

  app.post(
    '/businesses/:id/remitos/:remitoId/anular',
    {
      config: eliminar,
      schema: {
        tags,
        summary:
          'Anula un remito no facturado: su mercadería vuelve al stock con movimientos nuevos (409 si está facturado).',
        params: ridParams,
        body: remitoAnularInput,
        response: { 200: remitoSchema },
      },
    },
    async (req) => {
      const c = ctx(req);
      return anularRemito(db, c, rid(req.params.remitoId), req.body.motivo ?? null);
    },
  );
}
