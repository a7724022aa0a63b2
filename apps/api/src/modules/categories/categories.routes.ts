import { z } from 'zod';
import { CATEGORY_MESSAGES, categoryInput, categoryListQuery, categoryUpdate, categorySchema } from '@mostrador/shared';
import { noContent } from '../../lib/responses.js';
import type { App } from '../../app.js';
import { access, authOf, businessOf } from '../../lib/access.js';
import { requireSomeField } from '../../lib/http.js';
import { pathId } from '../products/common.js';
import * as service from './categories.service.js';

const tags = ['categorias'];
const base = '/businesses/:id/categories';
const idParams = z.object({ id: z.string() });
const cidParams = z.object({ id: z.string(), cid: z.string() });

const ver = { access: access.module('categorias', 'ver') };
const editar = { access: access.module('categorias', 'editar') };
const eliminar = { access: access.module('categorias', 'eliminar') };

/** Product and service categories (API-CONTRACT §5, §14.2): module `categorias`. */
export async function categoryRoutes(app: App) {
  const { db } = app.db;

  app.get(
    base,
    {
      config: ver,
      schema: { tags, params: idParams, querystring: categoryListQuery, response: { 200: z.array(categorySchema) } },
    },
    async (req) => service.listCategories(db, businessOf(req).id, req.query),
  );

  app.post(
    base,
    { config: editar, schema: { tags, params: idParams, body: categoryInput, response: { 201: categorySchema } } },
    async (req, reply) =>
      reply.status(201).send(await service.createCategory(db, businessOf(req).id, authOf(req).id, req.body)),
  );

  app.get(
    `${base}/:cid`,
    { config: ver, schema: { tags, params: cidParams, response: { 200: categorySchema } } },
    async (req) => service.getCategory(db, businessOf(req).id, pathId(req.params.cid, CATEGORY_MESSAGES.notFound)),
  );

  app.put(
    `${base}/:cid`,
    { config: editar, schema: { tags, params: cidParams, body: categoryUpdate, response: { 200: categorySchema } } },
    async (req) => {
      requireSomeField(req.body);
      const cid = pathId(req.params.cid, CATEGORY_MESSAGES.notFound);
      return service.updateCategory(db, businessOf(req).id, authOf(req).id, cid, req.body);
    },
  );

  app.delete(
    `${base}/:cid`,
    { config: eliminar, schema: { tags, params: cidParams, response: { 204: noContent } } },
    async (req, reply) => {
      const cid = pathId(req.params.cid, CATEGORY_MESSAGES.notFound);
      await service.deleteCategory(db, businessOf(req).id, authOf(req).id, cid);
      return reply.status(204).send();
    },
  );
}
