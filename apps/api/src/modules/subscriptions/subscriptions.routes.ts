import { z } from 'zod';
import {
  SUBSCRIPTION_MESSAGES,
  subscriptionInput,
  subscriptionListQuery,
  subscriptionStateInput,
  subscriptionUpdate,
  subscriptionSchema,
} from '@mostrador/shared';
import type { FastifyRequest } from 'fastify';
import { noContent } from '../../lib/responses.js';
import type { App } from '../../app.js';
import { access, authOf, businessOf } from '../../lib/access.js';
import { knownFilters } from '../../lib/known-ids.js';
import { todayIn } from '../../lib/dates.js';
import { invalid } from '../../lib/errors.js';
import { requireSomeField } from '../../lib/http.js';
import { pathId } from '../products/common.js';
import * as service from './subscriptions.service.js';

const tags = ['suscripciones'];
const base = '/businesses/:id/subscriptions';
const idParams = z.object({ id: z.string() });
const sidParams = z.object({ id: z.string(), sid: z.string() });

const ver = { access: access.module('productos', 'ver') };
const editar = { access: access.module('productos', 'editar') };
const eliminar = { access: access.module('productos', 'eliminar') };

/** `estado` in the query string (the existing client) or in a JSON body. */
const stateQuery = z.object({ estado: z.string().optional() });
const stateBody = z.preprocess((v) => v ?? {}, z.object({ estado: z.unknown().optional() }).passthrough()).optional();

/** Subscriptions of customers to services (API-CONTRACT §8): module `productos`. */
export async function subscriptionRoutes(app: App) {
  const { db } = app.db;
  const filters = knownFilters(db, [
    { field: 'cliente_id', kind: 'cliente' },
    { field: 'servicio_id', kind: 'servicio' },
  ]);
  const today = (req: FastifyRequest) => todayIn(businessOf(req).timezone, app.services.now());

  app.get(
    base,
    {
      config: ver,
      schema: {
        tags,
        params: idParams,
        querystring: subscriptionListQuery,
        response: { 200: z.array(subscriptionSchema) },
      },
      preHandler: filters,
    },
    async (req, reply) => {
      const { rows, total } = await service.listSubscriptions(db, businessOf(req).id, req.query, today(req));
      return reply.header('X-Total-Count', String(total)).send(rows);
    },
  );

  app.post(
    base,
    {
      config: editar,
      schema: { tags, params: idParams, body: subscriptionInput, response: { 201: subscriptionSchema } },
    },
    async (req, reply) =>
      reply
        .status(201)
        .send(await service.createSubscription(db, businessOf(req).id, authOf(req).id, req.body, today(req))),
  );

  app.get(
    `${base}/:sid`,
    { config: ver, schema: { tags, params: sidParams, response: { 200: subscriptionSchema } } },
    async (req) =>
      service.getSubscription(
        db,
        businessOf(req).id,
        pathId(req.params.sid, SUBSCRIPTION_MESSAGES.notFound),
        today(req),
      ),
  );

  app.put(
    `${base}/:sid`,
    {
      config: editar,
      schema: { tags, params: sidParams, body: subscriptionUpdate, response: { 200: subscriptionSchema } },
    },
    async (req) => {
      requireSomeField(req.body as Record<string, unknown>);
      const sid = pathId(req.params.sid, SUBSCRIPTION_MESSAGES.notFound);
      return service.updateSubscription(db, businessOf(req).id, authOf(req).id, sid, req.body, today(req));
    },
  );

  app.patch(
    `${base}/:sid/estado`,
    {
      config: editar,
      schema: {
        tags,
        params: sidParams,
        querystring: stateQuery,
        body: stateBody,
        response: { 200: subscriptionSchema },
      },
    },
    async (req) => {
      const raw = req.query.estado ?? (req.body as { estado?: unknown } | undefined)?.estado;
      const parsed = subscriptionStateInput.safeParse({ estado: raw });
      if (!parsed.success) {
        const missing = raw === undefined || raw === null || raw === '';
        throw invalid('estado', missing ? 'Este campo es obligatorio.' : SUBSCRIPTION_MESSAGES.badState);
      }
      const sid = pathId(req.params.sid, SUBSCRIPTION_MESSAGES.notFound);
      return service.setState(db, businessOf(req).id, authOf(req).id, sid, parsed.data.estado, today(req));
    },
  );

  app.delete(
    `${base}/:sid`,
    { config: eliminar, schema: { tags, params: sidParams, response: { 204: noContent } } },
    async (req, reply) => {
      const sid = pathId(req.params.sid, SUBSCRIPTION_MESSAGES.notFound);
      await service.deleteSubscription(db, businessOf(req).id, authOf(req).id, sid);
      return reply.status(204).send();
    },
  );
}
