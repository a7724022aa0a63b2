import { z } from 'zod';
import { DEVOLUCION_MESSAGES, devolucionInput, devolucionSchema, SALE_MESSAGES } from '@mostrador/shared';
import type { App } from '../../app.js';
import { idempotencyKey } from '../../lib/http.js';
import { access, authOf, businessOf } from '../../lib/access.js';
import { pathId } from '../products/common.js';
import { createDevolucion, getDevolucion, listDevoluciones } from './devoluciones.service.js';
import { creditReturn } from '../facturacion/sale-hooks.js';
import { reembolsador } from '../mercadopago/reembolsos.js';

const tags = ['ventas'];
const ver = { access: access.module('ventas', 'ver') };
// A return gives back part of a sale, as a void gives back all of it: guarded the same.
const eliminar = { access: access.module('ventas', 'eliminar') };

const vidParams = z.object({ id: z.string(), vid: z.string() });
const didParams = z.object({ id: z.string(), did: z.string() });

/** Returns of sales (issue 15, decision 0009). */
export async function devolucionRoutes(app: App) {
  const { db } = app.db;
  const ventaId = (v: string) => pathId(v, SALE_MESSAGES.notFound);

  app.post(
    '/businesses/:id/ventas/:vid/devoluciones',
    {
      config: { ...eliminar, ownIdempotency: true },
      schema: {
        tags,
        params: vidParams,
        body: devolucionInput,
        response: { 200: devolucionSchema, 201: devolucionSchema },
      },
    },
    async (req, reply) => {
      const b = businessOf(req);
      const ctx = { businessId: b.id, userId: authOf(req).id, timezone: b.timezone, now: app.services.now() };
      const vid = ventaId(req.params.vid);
      const r = await createDevolucion(
        db,
        ctx,
        vid,
        req.body,
        idempotencyKey(req),
        reembolsador(app.mercadopago, ctx.businessId, ctx.userId),
      );
      if (r.status === 201) await creditReturn(app, { ...ctx, ventaId: vid }, r.body);
      return reply.status(r.status).send(r.body);
    },
  );
  app.get(
    '/businesses/:id/ventas/:vid/devoluciones',
    { config: ver, schema: { tags, params: vidParams, response: { 200: z.array(devolucionSchema) } } },
    async (req) => listDevoluciones(db, businessOf(req).id, ventaId(req.params.vid)),
  );
  app.get(
    '/businesses/:id/devoluciones/:did',
    { config: ver, schema: { tags, params: didParams, response: { 200: devolucionSchema } } },
    async (req) => getDevolucion(db, businessOf(req).id, pathId(req.params.did, DEVOLUCION_MESSAGES.notFound)),
  );
}
