import { z } from 'zod';
import {
  DEPOSITO_MESSAGES,
  depositoInput,
  depositoSchema,
  PRODUCT_MESSAGES,
  productStockSchema,
  sucursalInput,
  sucursalSchema,
  sucursalUpdate,
  transferenciaInput,
  transferenciaListQuery,
  transferenciaRecibirInput,
  transferenciaSchema,
} from '@mostrador/shared';
import type { App } from '../../app.js';
import { access, authOf, businessOf } from '../../lib/access.js';
import { requireSomeField } from '../../lib/http.js';
import { noContent } from '../../lib/responses.js';
import { pathId } from '../products/common.js';
import * as depositos from './depositos.service.js';
import * as transferencias from './transferencias.service.js';

const base = '/businesses/:id';
const idParams = z.object({ id: z.string() });
const sucursalParams = z.object({ id: z.string(), sucursalId: z.string() });
const depositoParams = z.object({ id: z.string(), depositoId: z.string() });
const transferenciaParams = z.object({ id: z.string(), transferenciaId: z.string() });
const productParams = z.object({ id: z.string(), pid: z.string() });

// Sucursales, depósitos and their stock are the inventory's: module productos (SPEC's
// "inventario"), as stock adjustments are (decision 0059). Reading is ver; creating, renaming and
// transfers, editar; deleting, eliminar.
const ver = { access: access.module('productos', 'ver') };
const editar = { access: access.module('productos', 'editar') };
const eliminar = { access: access.module('productos', 'eliminar') };

/** Sucursales, depósitos, stock per depósito and transferencias (issue 38 part 1). */
export async function depositoRoutes(app: App) {
  const { db } = app.db;
  const sucursalId = (v: string) => pathId(v, DEPOSITO_MESSAGES.sucursalNotFound);
  const depositoId = (v: string) => pathId(v, DEPOSITO_MESSAGES.notFound);
  const transferenciaId = (v: string) => pathId(v, DEPOSITO_MESSAGES.transferenciaNotFound);

  /* ---------------------------------------------------------------- sucursales */

  app.get(
    `${base}/sucursales`,
    { config: ver, schema: { tags: ['sucursales'], params: idParams, response: { 200: z.array(sucursalSchema) } } },
    async (req) => depositos.listSucursales(db, businessOf(req).id),
  );

  app.post(
    `${base}/sucursales`,
    {
      config: editar,
      schema: { tags: ['sucursales'], params: idParams, body: sucursalInput, response: { 201: sucursalSchema } },
    },
    async (req, reply) =>
      reply.status(201).send(await depositos.createSucursal(db, businessOf(req).id, authOf(req).id, req.body)),
  );

  app.put(
    `${base}/sucursales/:sucursalId`,
    {
      config: editar,
      schema: { tags: ['sucursales'], params: sucursalParams, body: sucursalUpdate, response: { 200: sucursalSchema } },
    },
    async (req) => {
      requireSomeField(req.body);
      const sid = sucursalId(req.params.sucursalId);
      return depositos.updateSucursal(db, businessOf(req).id, authOf(req).id, sid, req.body);
    },
  );

  app.delete(
    `${base}/sucursales/:sucursalId`,
    { config: eliminar, schema: { tags: ['sucursales'], params: sucursalParams, response: { 204: noContent } } },
    async (req, reply) => {
      await depositos.deleteSucursal(db, businessOf(req).id, authOf(req).id, sucursalId(req.params.sucursalId));
      return reply.status(204).send();
    },
  );

  /* ---------------------------------------------------------------- depósitos */

  app.get(
    `${base}/depositos`,
    { config: ver, schema: { tags: ['sucursales'], params: idParams, response: { 200: z.array(depositoSchema) } } },
    async (req) => depositos.listDepositos(db, businessOf(req).id),
  );

  app.post(
    `${base}/depositos`,
    {
      config: editar,
      schema: { tags: ['sucursales'], params: idParams, body: depositoInput, response: { 201: depositoSchema } },
    },
    async (req, reply) =>
      reply.status(201).send(await depositos.createDeposito(db, businessOf(req).id, authOf(req).id, req.body)),
  );

  app.put(
    `${base}/depositos/:depositoId`,
    {
      config: editar,
      schema: {
        tags: ['sucursales'],
        params: depositoParams,
        body: depositoInput.pick({ nombre: true }),
        response: { 200: depositoSchema },
      },
    },
    async (req) =>
      depositos.updateDeposito(db, businessOf(req).id, authOf(req).id, depositoId(req.params.depositoId), req.body),
  );

  app.delete(
    `${base}/depositos/:depositoId`,
    { config: eliminar, schema: { tags: ['sucursales'], params: depositoParams, response: { 204: noContent } } },
    async (req, reply) => {
      await depositos.deleteDeposito(db, businessOf(req).id, authOf(req).id, depositoId(req.params.depositoId));
      return reply.status(204).send();
    },
  );

  app.get(
    `${base}/products/:pid/stock`,
    { config: ver, schema: { tags: ['productos'], params: productParams, response: { 200: productStockSchema } } },
    async (req) =>
      depositos.productStock(
        db,
        businessOf(req).id,
        pathId(req.params.pid, PRODUCT_MESSAGES.notFound),
        PRODUCT_MESSAGES.notFound,
      ),
  );

  /* ---------------------------------------------------------------- transferencias */

  const ctx = (req: Parameters<typeof businessOf>[0]) => ({ businessId: businessOf(req).id, userId: authOf(req).id });

  app.get(
    `${base}/transferencias`,
    {
      config: ver,
      schema: {
        tags: ['transferencias'],
        params: idParams,
        querystring: transferenciaListQuery,
        response: { 200: z.array(transferenciaSchema) },
      },
    },
    async (req) => transferencias.listTransferencias(db, businessOf(req).id, req.query.estado),
  );

  app.post(
    `${base}/transferencias`,
    {
      config: editar,
      schema: {
        tags: ['transferencias'],
        params: idParams,
        body: transferenciaInput,
        response: { 201: transferenciaSchema },
      },
    },
    async (req, reply) => reply.status(201).send(await transferencias.createTransferencia(db, ctx(req), req.body)),
  );

  app.get(
    `${base}/transferencias/:transferenciaId`,
    {
      config: ver,
      schema: { tags: ['transferencias'], params: transferenciaParams, response: { 200: transferenciaSchema } },
    },
    async (req) => transferencias.getTransferencia(db, businessOf(req).id, transferenciaId(req.params.transferenciaId)),
  );

  app.post(
    `${base}/transferencias/:transferenciaId/recibir`,
    {
      config: editar,
      schema: {
        tags: ['transferencias'],
        params: transferenciaParams,
        body: transferenciaRecibirInput,
        response: { 200: transferenciaSchema },
      },
    },
    async (req) =>
      transferencias.receiveTransferencia(db, ctx(req), transferenciaId(req.params.transferenciaId), req.body),
  );
}
