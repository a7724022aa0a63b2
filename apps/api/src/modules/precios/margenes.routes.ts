import { z } from 'zod';
import {
  codigoProveedorSchema,
  codigosProveedorInput,
  PRODUCT_MESSAGES,
  REGLA_MARGEN_MESSAGES,
  reglaMargenInput,
  reglaMargenSchema,
} from '@mostrador/shared';
import type { App } from '../../app.js';
import { access, authOf, businessOf } from '../../lib/access.js';
import { noContent } from '../../lib/responses.js';
import { pathId } from '../products/common.js';
import { getProduct } from '../products/products.service.js';
import * as codigos from './codigos-proveedor.service.js';
import * as margenes from './margenes.service.js';

const tags = ['precios'];
const idParams = z.object({ id: z.string() });
const reglaParams = z.object({ id: z.string(), reglaId: z.string() });
const pidParams = z.object({ id: z.string(), pid: z.string() });
const ver = { access: access.module('productos', 'ver') };
const editar = { access: access.module('productos', 'editar') };
/** Margins reveal costs: a member without ver_costos neither sees nor sets them. */
const costos = { costos: REGLA_MARGEN_MESSAGES.sinCostos };
const verMargenes = { access: access.module('productos', 'ver', costos) };
const editarMargenes = { access: access.module('productos', 'editar', costos) };

/** Stored margin rules and products' supplier codes (issue 17, decision 0024): module `productos`. */
export async function margenRoutes(app: App) {
  const { db } = app.db;

  app.get(
    '/businesses/:id/reglas-margen',
    { config: verMargenes, schema: { tags, params: idParams, response: { 200: z.array(reglaMargenSchema) } } },
    async (req) => {
      return margenes.listReglas(db, businessOf(req).id);
    },
  );

  app.put(
    '/businesses/:id/reglas-margen',
    {
      config: editarMargenes,
      schema: { tags, params: idParams, body: reglaMargenInput, response: { 200: reglaMargenSchema } },
    },
    async (req) => {
      return margenes.setRegla(db, businessOf(req).id, authOf(req).id, req.body);
    },
  );

  app.delete(
    '/businesses/:id/reglas-margen/:reglaId',
    { config: editarMargenes, schema: { tags, params: reglaParams, response: { 204: noContent } } },
    async (req, reply) => {
      const id = pathId(req.params.reglaId, REGLA_MARGEN_MESSAGES.noEncontrada);
      await margenes.deleteRegla(db, businessOf(req).id, authOf(req).id, id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/businesses/:id/products/:pid/codigos-proveedor',
    { config: ver, schema: { tags, params: pidParams, response: { 200: z.array(codigoProveedorSchema) } } },
    async (req) => {
      const b = businessOf(req);
      const pid = pathId(req.params.pid, PRODUCT_MESSAGES.notFound);
      await getProduct(db, b.id, pid);
      return codigos.listCodigos(db, b.id, pid);
    },
  );

  app.put(
    '/businesses/:id/products/:pid/codigos-proveedor',
    {
      config: editar,
      schema: {
        tags,
        params: pidParams,
        body: codigosProveedorInput,
        response: { 200: z.array(codigoProveedorSchema) },
      },
    },
    async (req) => {
      const pid = pathId(req.params.pid, PRODUCT_MESSAGES.notFound);
      return codigos.setCodigos(db, businessOf(req).id, authOf(req).id, pid, req.body);
    },
  );
}
