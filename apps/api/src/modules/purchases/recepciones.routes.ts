import { z } from 'zod';
import {
  aplicarPreciosInput,
  aplicarPreciosResultSchema,
  permissionKey,
  PURCHASE_MESSAGES,
  RECEPCION_MESSAGES,
  recepcionInput,
  recepcionResultSchema,
  recepcionSchema,
  sugerenciasPrecioSchema,
} from '@mostrador/shared';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../app.js';
import { access, authOf, businessOf, canSeeCosts, hasFullAccess, type BusinessContext } from '../../lib/access.js';
import { AppError } from '../../lib/errors.js';
import { todayIn } from '../../lib/dates.js';
import { pathId } from '../products/common.js';
import * as service from './recepciones.service.js';

const tags = ['compras'];
const base = '/businesses/:id/compras/:pid/recepciones';
const pidParams = z.object({ id: z.string(), pid: z.string() });
const ridParams = z.object({ id: z.string(), pid: z.string(), rid: z.string() });

// Receptions move stock: module stock, as every purchase route (API-CONTRACT §1.5).
const ver = { access: access.module('stock', 'ver') };
const editar = { access: access.module('stock', 'editar') };

/** Suggested prices show costs and change prices: ver_costos, and productos · editar to apply. */
const canEditProducts = (b: BusinessContext) =>
  hasFullAccess(b) || b.permisos[permissionKey('editar', 'productos')] === true;

function assertPricing(b: BusinessContext, apply: boolean) {
  if (!canSeeCosts(b)) throw new AppError(403, 'FORBIDDEN', RECEPCION_MESSAGES.needsCosts);
  if (apply && !canEditProducts(b)) throw new AppError(403, 'FORBIDDEN', RECEPCION_MESSAGES.noPrices);
}

/** Partial receptions of a purchase and the price that keeps the margin (decision 0023). */
export async function recepcionRoutes(app: App) {
  const { db } = app.db;
  const today = (req: FastifyRequest) => todayIn(businessOf(req).timezone, app.services.now());
  const ids = (p: { pid: string; rid?: string }) => ({
    compraId: pathId(p.pid, PURCHASE_MESSAGES.notFound),
    recepcionId: p.rid === undefined ? '' : pathId(p.rid, RECEPCION_MESSAGES.notFound),
  });

  app.get(
    base,
    { config: ver, schema: { tags, params: pidParams, response: { 200: z.array(recepcionSchema) } } },
    async (req) => service.listReceptions(db, businessOf(req).id, ids(req.params).compraId),
  );

  app.post(
    base,
    {
      config: editar,
      schema: { tags, params: pidParams, body: recepcionInput, response: { 201: recepcionResultSchema } },
    },
    async (req, reply) => {
      const b = businessOf(req);
      const result = await service.createReception(
        db,
        b.id,
        authOf(req).id,
        ids(req.params).compraId,
        req.body,
        today(req),
        app.services.now(),
        canSeeCosts(b) && canEditProducts(b),
      );
      return reply.status(201).send(result);
    },
  );

  app.get(
    `${base}/:rid/precios`,
    { config: ver, schema: { tags, params: ridParams, response: { 200: sugerenciasPrecioSchema } } },
    async (req) => {
      const b = businessOf(req);
      const { compraId, recepcionId } = ids(req.params);
      // A missing reception is a 404 before any permission beyond the route's.
      await service.findReception(db, b.id, compraId, recepcionId);
      assertPricing(b, false);
      return { sugerencias: await service.previewPrices(db, b.id, compraId, recepcionId) };
    },
  );

  app.post(
    `${base}/:rid/precios`,
    {
      config: editar,
      schema: { tags, params: ridParams, body: aplicarPreciosInput, response: { 200: aplicarPreciosResultSchema } },
    },
    async (req) => {
      const b = businessOf(req);
      const { compraId, recepcionId } = ids(req.params);
      await service.findReception(db, b.id, compraId, recepcionId);
      assertPricing(b, true);
      return {
        aplicados: await service.applyPrices(db, b.id, authOf(req).id, compraId, recepcionId, req.body.producto_ids),
      };
    },
  );
}
