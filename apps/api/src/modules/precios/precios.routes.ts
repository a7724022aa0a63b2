import { z } from 'zod';
import {
  LISTA_MESSAGES,
  listaPreciosInput,
  listaPreciosSchema,
  listaPreciosUpdate,
  PRODUCT_MESSAGES,
  precioFijoSchema,
  precioHistorialQuery,
  precioHistorialSchema,
  preciosFijosInput,
  preciosFijosResultSchema,
  cotizacionInput,
  cotizacionQuery,
  cotizacionResultSchema,
  cotizacionSchema,
} from '@mostrador/shared';
import type { App } from '../../app.js';
import { access, authOf, businessOf } from '../../lib/access.js';
import { requireSomeField } from '../../lib/http.js';
import { noContent } from '../../lib/responses.js';
import { pathId } from '../products/common.js';
import { getProduct } from '../products/products.service.js';
import { todayIn } from '../../lib/dates.js';
import * as cotizaciones from './cotizaciones.service.js';
import { margenRoutes } from './margenes.routes.js';
import * as service from './precios.service.js';

const tags = ['precios'];
const listas = '/businesses/:id/listas-precios';
const idParams = z.object({ id: z.string() });
const listaParams = z.object({ id: z.string(), listaId: z.string() });
const pidParams = z.object({ id: z.string(), pid: z.string() });

// Lists are read where products are (the POS reads the catalogue with `productos.ver`).
const ver = { access: access.module('productos', 'ver') };
const editar = { access: access.module('productos', 'editar') };
const eliminar = { access: access.module('productos', 'eliminar') };

/** Price history of a product and price lists (issue 17, decision 0017): module `productos`. */
export async function precioRoutes(app: App) {
  const { db } = app.db;

  app.get(
    '/businesses/:id/products/:pid/precios/historial',
    {
      config: ver,
      schema: {
        tags,
        params: pidParams,
        querystring: precioHistorialQuery,
        response: { 200: z.array(precioHistorialSchema) },
      },
    },
    async (req, reply) => {
      const b = businessOf(req);
      const pid = pathId(req.params.pid, PRODUCT_MESSAGES.notFound);
      await getProduct(db, b.id, pid);
      const { rows, total } = await service.listPrecioHistorial(db, b.id, pid, req.query);
      return reply.header('X-Total-Count', String(total)).send(rows);
    },
  );

  app.get(
    listas,
    { config: ver, schema: { tags, params: idParams, response: { 200: z.array(listaPreciosSchema) } } },
    async (req) => service.listListas(db, businessOf(req).id),
  );

  app.post(
    listas,
    {
      config: editar,
      schema: { tags, params: idParams, body: listaPreciosInput, response: { 201: listaPreciosSchema } },
    },
    async (req, reply) =>
      reply.status(201).send(await service.createLista(db, businessOf(req).id, authOf(req).id, req.body)),
  );

  app.patch(
    `${listas}/:listaId`,
    {
      config: editar,
      schema: { tags, params: listaParams, body: listaPreciosUpdate, response: { 200: listaPreciosSchema } },
    },
    async (req) => {
      requireSomeField(req.body);
      const id = pathId(req.params.listaId, LISTA_MESSAGES.notFound);
      return service.updateLista(db, businessOf(req).id, authOf(req).id, id, req.body);
    },
  );

  app.delete(
    `${listas}/:listaId`,
    { config: eliminar, schema: { tags, params: listaParams, response: { 204: noContent } } },
    async (req, reply) => {
      const id = pathId(req.params.listaId, LISTA_MESSAGES.notFound);
      await service.deleteLista(db, businessOf(req).id, authOf(req).id, id);
      return reply.status(204).send();
    },
  );

  app.get(
    `${listas}/:listaId/precios`,
    { config: ver, schema: { tags, params: listaParams, response: { 200: z.array(precioFijoSchema) } } },
    async (req) =>
      service.listPreciosFijos(db, businessOf(req).id, pathId(req.params.listaId, LISTA_MESSAGES.notFound)),
  );

  app.put(
    `${listas}/:listaId/precios`,
    {
      config: editar,
      schema: { tags, params: listaParams, body: preciosFijosInput, response: { 200: preciosFijosResultSchema } },
    },
    async (req) => {
      const id = pathId(req.params.listaId, LISTA_MESSAGES.notFound);
      return service.setPreciosFijos(db, businessOf(req).id, authOf(req).id, id, req.body);
    },
  );

  app.get(
    '/businesses/:id/cotizaciones',
    {
      config: ver,
      schema: { tags, params: idParams, querystring: cotizacionQuery, response: { 200: z.array(cotizacionSchema) } },
    },
    async (req, reply) => {
      const { rows, total } = await cotizaciones.listCotizaciones(db, businessOf(req).id, req.query);
      return reply.header('X-Total-Count', String(total)).send(rows);
    },
  );

  app.post(
    '/businesses/:id/cotizaciones',
    {
      config: editar,
      schema: {
        tags,
        params: idParams,
        querystring: cotizacionQuery,
        body: cotizacionInput,
        response: { 200: cotizacionResultSchema, 201: cotizacionResultSchema },
      },
    },
    async (req, reply) => {
      const b = businessOf(req);
      const preview = req.query.preview === true;
      const r = await cotizaciones.createCotizacion(
        db,
        b.id,
        authOf(req).id,
        req.body,
        todayIn(b.timezone, app.services.now()),
        preview,
      );
      return reply.status(preview ? 200 : 201).send(r);
    },
  );

  await margenRoutes(app);
}
