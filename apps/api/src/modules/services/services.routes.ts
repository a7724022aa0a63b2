import { z } from 'zod';
import { SERVICE_MESSAGES, serviceInput, serviceListQuery, serviceUpdate, serviceSchema } from '@mostrador/shared';
import { noContent } from '../../lib/responses.js';
import type { App } from '../../app.js';
import { access, authOf, businessOf } from '../../lib/access.js';
import { knownFilters } from '../../lib/known-ids.js';
import { requireSomeField } from '../../lib/http.js';
import { pathId } from '../products/common.js';
import * as service from './services.service.js';

const tags = ['servicios'];
const base = '/businesses/:id/services';
const idParams = z.object({ id: z.string() });
const sidParams = z.object({ id: z.string(), sid: z.string() });

const ver = { access: access.module('productos', 'ver') };
const editar = { access: access.module('productos', 'editar') };
const eliminar = { access: access.module('productos', 'eliminar') };

/** Services (API-CONTRACT §7): module `productos`. */
export async function serviceRoutes(app: App) {
  const { db } = app.db;
  const filters = knownFilters(db, [{ field: 'categoria_id', kind: 'categoria' }]);

  app.get(
    base,
    {
      config: ver,
      schema: { tags, params: idParams, querystring: serviceListQuery, response: { 200: z.array(serviceSchema) } },
      preHandler: filters,
    },
    async (req, reply) => {
      const { rows, total } = await service.listServices(db, businessOf(req).id, req.query);
      return reply.header('X-Total-Count', String(total)).send(rows);
    },
  );

  app.post(
    base,
    { config: editar, schema: { tags, params: idParams, body: serviceInput, response: { 201: serviceSchema } } },
    async (req, reply) =>
      reply.status(201).send(await service.createService(db, businessOf(req).id, authOf(req).id, req.body)),
  );

  app.get(
    `${base}/:sid`,
    { config: ver, schema: { tags, params: sidParams, response: { 200: serviceSchema } } },
    async (req) => service.getService(db, businessOf(req).id, pathId(req.params.sid, SERVICE_MESSAGES.notFound)),
  );

  app.put(
    `${base}/:sid`,
    { config: editar, schema: { tags, params: sidParams, body: serviceUpdate, response: { 200: serviceSchema } } },
    async (req) => {
      requireSomeField(req.body);
      const sid = pathId(req.params.sid, SERVICE_MESSAGES.notFound);
      return service.updateService(db, businessOf(req).id, authOf(req).id, sid, req.body);
    },
  );

  app.delete(
    `${base}/:sid`,
    { config: eliminar, schema: { tags, params: sidParams, response: { 204: noContent } } },
    async (req, reply) => {
      const sid = pathId(req.params.sid, SERVICE_MESSAGES.notFound);
      await service.deleteService(db, businessOf(req).id, authOf(req).id, sid);
      return reply.status(204).send();
    },
  );
}
