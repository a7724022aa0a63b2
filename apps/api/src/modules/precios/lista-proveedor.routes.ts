import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LISTA_PROVEEDOR_MESSAGES, listaProveedorAplicadaSchema, listaProveedorResultSchema } from '@mostrador/shared';
import type { Db } from '../../db/client.js';
import { access, authOf, businessOf } from '../../lib/access.js';
import { rateLimitedResponse } from '../../lib/responses.js';
import { mappingOf, readUpload } from '../imports/imports.routes.js';
import type { UploadedFile } from '../imports/imports.service.js';
import { pathId } from '../products/common.js';
import * as service from './lista-proveedor.service.js';

const tags = ['precios'];
const idParams = z.object({ id: z.string() });
const aplicadaParams = z.object({ id: z.string(), aplicadaId: z.string() });
const ver = { access: access.module('productos', 'ver') };
const editar = { access: access.module('productos', 'editar') };

/**
 * Supplier price lists (issue 17): `previsualizar` and `aplicar` take the same multipart form
 * (file, `clave`, optional `hoja`, `mapeo`, `fila_encabezado`, `margen`, `excluir`, `proveedor_id`,
 * `no_bajar_precios`); registered in
 * the imports' multipart scope, so they share its file limits and parsing slots.
 */
export async function listaProveedorRoutes(
  s: FastifyInstance,
  ctx: {
    db: Db;
    parse: <T>(file: UploadedFile, task: (f: UploadedFile) => Promise<T>) => Promise<T>;
    now: () => Date;
  },
) {
  const { db, parse, now } = ctx;
  const r = s.withTypeProvider<ZodTypeProvider>();
  const upload = {
    tags,
    params: idParams,
    consumes: ['multipart/form-data'],
    description:
      'Formulario multipart: `file`, `clave` (codigo_proveedor, codigo_barras o codigo) y, opcionales, `proveedor_id`, ' +
      '`hoja`, `mapeo` (JSON), `fila_encabezado`, `margen`, `excluir` (JSON con ids de productos) y ' +
      '`no_bajar_precios` (true o false: un producto cuyo precio de venta bajaría lo mantiene; las bajas vienen ' +
      'marcadas con `baja` y contadas en `bajas`). Las filas sin coincidencia vienen en `filas_sin_coincidencia`.',
    response: { 200: listaProveedorResultSchema, ...rateLimitedResponse },
  };

  r.post('/businesses/:id/listas-proveedor/previsualizar', { config: editar, schema: upload }, async (req) => {
    const { file, fields } = await readUpload(req);
    const o = service.optionsOf(fields, mappingOf(fields.mapeo));
    await service.checkProveedor(db, businessOf(req).id, o);
    return parse(file, (f) => service.previewListaProveedor(db, businessOf(req).id, f, o));
  });

  r.post('/businesses/:id/listas-proveedor/aplicar', { config: editar, schema: upload }, async (req) => {
    const { file, fields } = await readUpload(req);
    const o = service.optionsOf(fields, mappingOf(fields.mapeo));
    await service.checkProveedor(db, businessOf(req).id, o);
    return parse(file, (f) => service.applyListaProveedor(db, businessOf(req).id, authOf(req).id, f, o, now()));
  });

  r.get(
    '/businesses/:id/listas-proveedor',
    { config: ver, schema: { tags, params: idParams, response: { 200: z.array(listaProveedorAplicadaSchema) } } },
    async (req) => service.listAplicadas(db, businessOf(req).id),
  );

  r.post(
    '/businesses/:id/listas-proveedor/:aplicadaId/deshacer',
    {
      config: editar,
      schema: { tags, params: aplicadaParams, response: { 200: z.object({ productos: z.number() }) } },
    },
    async (req) =>
      service.undoListaProveedor(
        db,
        businessOf(req).id,
        authOf(req).id,
        pathId(req.params.aplicadaId, LISTA_PROVEEDOR_MESSAGES.noEncontrada),
      ),
  );
}
